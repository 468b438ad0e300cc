import { useEffect } from 'react';

import { useT } from '../../../i18n';
import { formatDateTime } from '../../../lib/format';
import { runningExclusion } from '../logic';
import { useResponsible } from '../store';
import { ensureResponsibleTexts } from '../texts';
import styles from './responsible.module.css';

/** Where a break is said: each buying or opening entry point has its own words. */
export type BreakPlace = 'home' | 'store' | 'case' | 'packages';

/**
 * The running self-exclusion, if any, asked of the server when the screen opens (a break taken
 * on another device shows too). Screens hide their "Buy" and "Open" while it runs.
 */
export function useBreak(): { until: Date | null; permanent: boolean } | null {
  const limits = useResponsible((s) => s.limits);
  useEffect(() => {
    void useResponsible.getState().loadLimits();
  }, []);
  return runningExclusion(limits);
}

/**
 * A break said where the player would buy or open, in their language with the local end time
 * (never the server's timestamp). Renders nothing when no break runs.
 */
export function BreakNotice({ place, exclusion }: { place: BreakPlace; exclusion: { until: Date | null; permanent: boolean } | null }) {
  ensureResponsibleTexts();
  const t = useT();
  if (!exclusion) return null;
  const text = exclusion.permanent
    ? t(`responsible.break.${place}Permanent`)
    : t(`responsible.break.${place}`, { until: formatDateTime(exclusion.until ?? 0) });
  return (
    <p className={styles.breakNotice} role="status" data-testid="break-notice" data-place={place}>
      {text}
    </p>
  );
}
