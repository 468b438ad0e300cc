import { useState } from 'react';

import { useT } from '../../../i18n';
import styles from './faq.module.css';
import { ensureSupportTexts } from '../texts';

const ENTRIES = [1, 2, 3, 4, 5];

/** The FAQ accordion: five entries, one answer open at a time. */
export function Faq() {
  ensureSupportTexts();
  const t = useT();
  const [open, setOpen] = useState<number | null>(null);
  return (
    <div className={styles.faq} data-testid="faq">
      {ENTRIES.map((n) => {
        const expanded = open === n;
        return (
          <div key={n} className={`${styles.entry} ${expanded ? styles.open : ''}`}>
            <button
              type="button"
              className={styles.q}
              aria-expanded={expanded}
              aria-controls={`faq-a${n}`}
              onClick={() => setOpen(expanded ? null : n)}
            >
              <span>{t(`faq.q${n}`)}</span>
              <span className={styles.chev} aria-hidden>
                ›
              </span>
            </button>
            <div id={`faq-a${n}`} className={styles.a} role="region" aria-hidden={!expanded}>
              <p>{t(`faq.a${n}`)}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}
