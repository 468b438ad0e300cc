import { useEffect, useState } from 'react';

import { MainAction, PageHeader, Skeleton, toast } from '../../components/ui';
import { useSession } from '../../features/session';
import { ensureTradeUrlTexts, getTradeUrl, putTradeUrl, TRADE_URL_HELP, tradeUrlProblem, tradeUrlProblemKey } from '../../features/trade-url';
import { useT } from '../../i18n';
import { errorText } from '../../lib/errors';
import { haptic, openLink } from '../../lib/telegram';
import styles from './trade-url.module.css';

// This screen's texts load with it, not in the start-up bundle.
ensureTradeUrlTexts();

const steps = ['step1', 'step2', 'step3', 'step4', 'step5'] as const;
const requirements = ['reqPublic', 'reqGuard', 'reqAge', 'reqBan'] as const;

/** Trade URL (spec section 2): input with the server's rule, how-to link, five steps. */
export function TradeUrlPage() {
  const t = useT();
  const [value, setValue] = useState('');
  /** What the server holds: Save stays off until the field differs from it. */
  const [saved, setSaved] = useState('');
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let alive = true;
    getTradeUrl()
      .then((url) => {
        if (!alive) return;
        setValue(url ?? '');
        setSaved(url ?? '');
      })
      .catch(() => alive && toast.error(t('tradeUrl.loadError')))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
    // Loaded once per visit; `t` only formats the toast.
  }, []);

  const trimmed = value.trim();
  // What is wrong with the link, live: the message goes as soon as the link is valid.
  const problem = tradeUrlProblem(trimmed);
  const valid = problem === null;
  const showInvalid = trimmed.length > 0 && !valid;
  const canSave = valid && !loading && !saving && trimmed !== saved;

  const save = async () => {
    // The button is off while the link is invalid; the inline message already says why.
    if (!valid) return;
    setSaving(true);
    try {
      const stored = await putTradeUrl(trimmed);
      useSession.getState().patchUser({ trade_url: stored });
      setSaved(stored || trimmed);
      haptic.success();
      toast.success(t('tradeUrl.saved'));
    } catch (e) {
      haptic.error();
      toast.error(errorText(e, t, 'tradeUrl.saveError'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className={styles.page} data-testid="page-trade-url">
      <PageHeader title={t('tradeUrl.title')} subtitle={t('tradeUrl.description')} />
      <div className={styles.body}>
        {loading ? (
          <Skeleton height={76} radius={12} />
        ) : (
          <textarea
            className={`field ${styles.input}`}
            rows={3}
            value={value}
            placeholder={t('tradeUrl.placeholder')}
            aria-label={t('tradeUrl.title')}
            aria-invalid={showInvalid}
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            inputMode="url"
            onChange={(e) => setValue(e.target.value.replace(/\s+/g, ''))}
          />
        )}
        {showInvalid && problem && (
          <p className={styles.error} role="alert" data-testid="trade-url-error">
            {t(tradeUrlProblemKey(problem))}
          </p>
        )}
        <button type="button" className={styles.link} onClick={() => openLink(TRADE_URL_HELP)}>
          {t('tradeUrl.howToGet')}
        </button>
        <MainAction testId="trade-url-save" text={t('common.save')} onClick={() => void save()} enabled={canSave} loading={saving} />

        <section className={styles.box}>
          <h2 className={styles.boxTitle}>{t('tradeUrl.instructionTitle')}</h2>
          <ol className={styles.steps}>
            {steps.map((s) => (
              <li key={s}>{t(`tradeUrl.${s}`)}</li>
            ))}
          </ol>
        </section>
        <section className={styles.box}>
          <h2 className={styles.boxTitle}>{t('tradeUrl.requirementsTitle')}</h2>
          <ul className={styles.reqs}>
            {requirements.map((r) => (
              <li key={r}>{t(`tradeUrl.${r}`)}</li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
