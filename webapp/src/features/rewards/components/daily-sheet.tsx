import { useEffect, useState } from 'react';

import { BottomSheet, Button, toast } from '../../../components/ui';
import { useT } from '../../../i18n';
import { formatTokens } from '../../../lib/format';
import { haptic } from '../../../lib/telegram';
import type { Streak } from '../api';
import { formatCountdown, msUntilNextClaim } from '../countdown';
import { useRewards } from '../store';
import { IconCheck, IconGift } from './icons';
import styles from './daily-sheet.module.css';

/** Spec section 9: the chest opens at a streak of 7. */
const CHEST_STREAK = 7;

/** Ticks once a second while mounted; the countdown reads "available" at zero. */
function Countdown({ lastClaim }: { lastClaim: Streak['lastClaim'] }) {
  const t = useT();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(id);
  }, []);
  const ms = msUntilNextClaim(lastClaim, now);
  if (ms <= 0) return <p className={styles.countdown} data-testid="daily-countdown">{t('daily.available')}</p>;
  return (
    <p className={styles.countdown} data-testid="daily-countdown">
      {t('daily.nextIn')} <b>{formatCountdown(ms)}</b>
    </p>
  );
}

export function DailySheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const streak = useRewards((s) => s.streak);
  const loading = useRewards((s) => s.loading);
  const error = useRewards((s) => s.error);
  const claiming = useRewards((s) => s.claiming);

  useEffect(() => {
    if (open) void useRewards.getState().loadStreak();
  }, [open]);

  const claim = async (bonus: boolean) => {
    const r = bonus ? await useRewards.getState().claimBonus() : await useRewards.getState().claim();
    if (r.success) {
      haptic.success();
      toast.success(t('daily.awarded', { amount: formatTokens(r.tokensAwarded), count: Number(r.tokensAwarded) }));
    } else if (r.error) {
      haptic.error();
      toast.error(r.error);
    }
  };

  const canBonus = !!streak && streak.canClaimBonus && !streak.bonusAlreadyClaimed;
  const nothingToClaim = !!streak && !streak.nextRewardAvailable && !canBonus;
  return (
    <BottomSheet open={open} onClose={onClose} title={t('daily.title')}>
      <div className={styles.body} data-testid="daily-sheet">
        <p className={styles.subtitle}>{t('daily.subtitle')}</p>
        {error && !streak && <p className={styles.error}>{t('daily.loadError')}</p>}
        {loading && !streak && <div className={styles.rowSkeleton} aria-busy="true" />}
        {streak && (
          <>
            <ol className={styles.days}>
              {streak.streakDays.map((d, i) => (
                <li key={d.date} className={`${styles.day} ${d.claimed ? styles.claimed : ''}`} data-claimed={d.claimed}>
                  <span className={styles.mark} aria-hidden>
                    {d.claimed ? <IconCheck size={14} strokeWidth={2.6} /> : i + 1}
                  </span>
                  <span className={styles.dayLabel}>{t('daily.day', { n: i + 1 })}</span>
                </li>
              ))}
              <li className={`${styles.chest} ${canBonus ? styles.chestReady : ''}`} data-testid="daily-chest">
                <span className={styles.chestIcon} aria-hidden>
                  <IconGift size={24} />
                </span>
                <span className={styles.dayLabel}>+{formatTokens(streak.streakBonusTokens)}</span>
              </li>
            </ol>
            {streak.currentStreak >= CHEST_STREAK && (
              <p className={styles.note}>{streak.bonusAlreadyClaimed ? t('daily.chestClaimed') : t('daily.chestNote')}</p>
            )}
            <div className={styles.actions}>
              {streak.nextRewardAvailable && (
                <Button block size="lg" onClick={() => claim(false)} loading={claiming} data-testid="daily-claim">
                  {t('daily.claim')}
                </Button>
              )}
              {canBonus && (
                <Button block size="lg" variant={streak.nextRewardAvailable ? 'secondary' : 'primary'} onClick={() => claim(true)} disabled={claiming} data-testid="daily-claim-bonus">
                  {t('daily.claimBonus', { amount: formatTokens(streak.streakBonusTokens) })}
                </Button>
              )}
              {nothingToClaim && <Countdown lastClaim={streak.lastClaim} />}
            </div>
          </>
        )}
      </div>
    </BottomSheet>
  );
}
