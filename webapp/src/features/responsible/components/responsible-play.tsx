import { useEffect, useState } from 'react';

import { Button, toast } from '../../../components/ui';
import { useT } from '../../../i18n';
import { errorText } from '../../../lib/errors';
import { formatDateTime, formatTokens, formatTokensInt } from '../../../lib/format';
import { confirmPopup } from '../../../lib/native-ui';
import { haptic } from '../../../lib/telegram';
import type { ExclusionPeriod } from '../api';
import { appliesAtOnce, parseLimitInput, runningExclusion } from '../logic';
import { useResponsible } from '../store';
import { ensureResponsibleTexts } from '../texts';
import styles from './responsible.module.css';

const PERIODS: ReadonlyArray<{ id: ExclusionPeriod; key: string }> = [
  { id: '24h', key: 'responsible.period24h' },
  { id: '7d', key: 'responsible.period7d' },
  { id: '30d', key: 'responsible.period30d' },
  { id: 'permanent', key: 'responsible.periodPermanent' },
];

/** The profile's responsible-play section: own statistics, the daily spend limit and self-exclusion. */
export function ResponsiblePlay() {
  ensureResponsibleTexts();
  const t = useT();
  const limits = useResponsible((s) => s.limits);
  const stats = useResponsible((s) => s.stats);
  const [limitInput, setLimitInput] = useState('');
  const [limitError, setLimitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void useResponsible.getState().loadLimits();
    void useResponsible.getState().loadStats();
  }, []);

  const changeLimit = async (next: number | null) => {
    if (busy) return;
    const current = limits?.dailyLimit ?? null;
    setBusy(true);
    try {
      await useResponsible.getState().setDailyLimit(next);
      haptic.success();
      toast.success(t(appliesAtOnce(current, next) ? 'responsible.limitSaved' : 'responsible.limitLater'));
      setLimitInput('');
    } catch (e) {
      haptic.error();
      toast.error(errorText(e, t));
    } finally {
      setBusy(false);
    }
  };

  const submitLimit = () => {
    const n = parseLimitInput(limitInput);
    if (n === 'invalid') {
      haptic.error();
      setLimitError(t('responsible.limitInvalid'));
      return;
    }
    setLimitError(null);
    void changeLimit(n);
  };

  const exclude = async (id: ExclusionPeriod, label: string) => {
    if (busy) return;
    haptic.medium();
    const ok = await confirmPopup({
      title: t('responsible.exclusionTitle'),
      message: id === 'permanent' ? t('responsible.exclusionConfirmPermanent') : t('responsible.exclusionConfirm', { period: label }),
      ok: t('responsible.exclusionOk'),
      cancel: t('responsible.cancel'),
      destructive: true,
    });
    if (!ok) return;
    setBusy(true);
    try {
      await useResponsible.getState().selfExclude(id);
      haptic.success();
      toast.success(t('responsible.exclusionStarted'));
    } catch (e) {
      haptic.error();
      toast.error(errorText(e, t));
    } finally {
      setBusy(false);
    }
  };

  const running = runningExclusion(limits);
  const pending = limits?.pendingChange ?? null;
  return (
    <section data-testid="responsible-play">
      <h2 className="section-title">{t('responsible.playTitle')}</h2>

      <div className={styles.box} data-testid="play-stats">
        <h3 className={styles.boxTitle}>{t('responsible.statsTitle')}</h3>
        <dl className={styles.stats}>
          <dt>{t('responsible.casesOpened')}</dt>
          <dd data-testid="stat-opened">{stats ? formatTokensInt(stats.casesOpened) : '…'}</dd>
          <dt>{t('responsible.tokensSpent')}</dt>
          <dd data-testid="stat-spent">{stats ? formatTokens(stats.tokensSpent) : '…'}</dd>
          <dt>{t('responsible.wonBack')}</dt>
          <dd data-testid="stat-won-back">{stats ? formatTokens(stats.tokensWonBack) : '…'}</dd>
          <dt>{t('responsible.bestDrop')}</dt>
          <dd data-testid="stat-best">
            {!stats
              ? '…'
              : stats.bestDrop
                ? `${stats.bestDrop.variant ? `${stats.bestDrop.name} | ${stats.bestDrop.variant}` : stats.bestDrop.name} · ${formatTokens(stats.bestDrop.tokenPrice)}`
                : t('responsible.noDrops')}
          </dd>
        </dl>
      </div>

      <form
        className={styles.box}
        data-testid="daily-limit"
        onSubmit={(e) => {
          e.preventDefault();
          submitLimit();
        }}
      >
        <h3 className={styles.boxTitle}>{t('responsible.limitTitle')}</h3>
        <p className={styles.value} data-testid="limit-current">
          {limits?.dailyLimit == null
            ? t('responsible.limitNone')
            : t('responsible.limitValue', { limit: formatTokensInt(limits.dailyLimit), spent: formatTokens(limits.spentToday) })}
        </p>
        {pending && (
          <p className={styles.value} data-testid="limit-pending">
            {pending.dailyLimit == null
              ? t('responsible.limitPendingRemove', { at: formatDateTime(pending.effectiveAt) })
              : t('responsible.limitPending', { limit: formatTokensInt(pending.dailyLimit), at: formatDateTime(pending.effectiveAt) })}
          </p>
        )}
        <div className={styles.line}>
          <input
            className="field"
            inputMode="numeric"
            value={limitInput}
            onChange={(e) => {
              setLimitInput(e.target.value);
              setLimitError(null);
            }}
            placeholder={t('responsible.limitPlaceholder')}
            aria-label={t('responsible.limitTitle')}
            aria-invalid={limitError ? true : undefined}
            data-testid="limit-input"
          />
          <Button type="submit" loading={busy} disabled={!limitInput.trim()} data-testid="limit-save">
            {t('responsible.limitSave')}
          </Button>
        </div>
        {limitError && (
          <p className={styles.error} role="alert" data-testid="limit-error">
            {limitError}
          </p>
        )}
        {(limits?.dailyLimit != null || (pending && pending.dailyLimit != null)) && (
          <Button variant="ghost" size="sm" disabled={busy} onClick={() => void changeLimit(null)} data-testid="limit-remove">
            {t('responsible.limitRemove')}
          </Button>
        )}
        <p className={styles.hint}>{t('responsible.limitHint')}</p>
      </form>

      <div className={styles.box} data-testid="self-exclusion">
        <h3 className={styles.boxTitle}>{t('responsible.exclusionTitle')}</h3>
        {running && (
          <p className={styles.active} role="status" data-testid="exclusion-active">
            {running.permanent
              ? t('responsible.exclusionActivePermanent')
              : t('responsible.exclusionActive', { until: formatDateTime(running.until ?? 0) })}
          </p>
        )}
        <p className={styles.hint}>{t('responsible.exclusionText')}</p>
        {!running?.permanent && (
          <div className={styles.periods}>
            {PERIODS.map((p) => (
              <Button key={p.id} variant="secondary" size="sm" disabled={busy} onClick={() => void exclude(p.id, t(p.key))} data-testid={`exclude-${p.id}`}>
                {t(p.key)}
              </Button>
            ))}
          </div>
        )}
      </div>
    </section>
  );
}
