import type { ReactNode } from 'react';

import { useFirstScreenDrawn } from '../../lib/first-draw';
import styles from './status-screen.module.css';

export interface StatusScreenProps {
  icon?: ReactNode;
  title: string;
  text?: string;
  children?: ReactNode;
  testId?: string;
}

/** A full-screen centred message (maintenance, not in Telegram, reopen, errors). */
export function StatusScreen({ icon, title, text, children, testId }: StatusScreenProps) {
  useFirstScreenDrawn();
  return (
    <main className={styles.screen} data-testid={testId}>
      {icon && <div className={styles.icon}>{icon}</div>}
      <h1 className={styles.title}>{title}</h1>
      {text && <p className={styles.text}>{text}</p>}
      {children && <div className={styles.actions}>{children}</div>}
    </main>
  );
}

/** The first paint while the session and gates settle. */
export function Splash() {
  return (
    <main className={styles.splash} aria-busy="true" data-testid="splash">
      <div className={styles.logo}>FragBox</div>
      <span className={styles.spinner} aria-hidden />
    </main>
  );
}
