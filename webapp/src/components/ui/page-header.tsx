import type { ReactNode } from 'react';

import styles from './page-header.module.css';

/** A screen title with an optional subtitle and a right-side action. */
export function PageHeader({ title, subtitle, action }: { title: ReactNode; subtitle?: ReactNode; action?: ReactNode }) {
  return (
    <header className={styles.header}>
      <div className={styles.texts}>
        <h1 className={styles.title}>{title}</h1>
        {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
      </div>
      {action}
    </header>
  );
}
