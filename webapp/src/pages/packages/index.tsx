import { useEffect } from 'react';

import { Button, IconToken, PageHeader, SkeletonCards } from '../../components/ui';
import { paidOnly, useGates } from '../../features/gates';
import { usePayments, usePurchase } from '../../features/payments';
import { BreakNotice, useBreak } from '../../features/responsible';
import { IconStar } from '../../features/rewards';
import { addTexts, useT } from '../../i18n';
import { formatTokensInt } from '../../lib/format';
import styles from './packages.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts load with it, not in the start-up bundle.
addTexts({ ru, en });

/** `/packages`: token packs for Telegram Stars, with the whole purchase flow of spec section 4. */
export function PackagesPage() {
  const t = useT();
  const packages = usePayments((s) => s.packages);
  const loading = usePayments((s) => s.loading);
  const error = usePayments((s) => s.error);
  const fetchedAt = usePayments((s) => s.fetchedAt);
  const { buy, busy } = usePurchase();
  // During a self-exclusion nothing here can be bought: the break is said instead of the list.
  const onBreak = useBreak();
  const keepsBonusSkins = useGates((s) => paidOnly(s.config));
  const anyBonus = packages.some((p) => p.bonus > 0);

  useEffect(() => {
    void usePayments.getState().load();
  }, []);

  return (
    <main className={styles.page} data-testid="page-packages">
      <PageHeader title={t('packages.title')} subtitle={t('packages.subtitle')} />
      {onBreak ? (
        <BreakNotice place="packages" exclusion={onBreak} />
      ) : error && packages.length === 0 ? (
        <div className={styles.empty}>
          <p>{t('packages.loadError')}</p>
          <Button variant="secondary" onClick={() => void usePayments.getState().load(true)}>
            {t('common.retry')}
          </Button>
        </div>
      ) : (
        <ul className={styles.list}>
          {(loading || fetchedAt === 0) && packages.length === 0 && <SkeletonCards count={4} height={72} />}
          {packages.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className={styles.pack}
                onClick={() => void buy(p)}
                disabled={busy !== null}
                aria-busy={busy === p.id || undefined}
                data-testid="package"
              >
                <span className={styles.coin} aria-hidden>
                  <IconToken size={26} />
                </span>
                <span className={styles.texts}>
                  <span className={styles.tokens}>{t('packages.tokens', { amount: formatTokensInt(p.tokens), count: p.tokens })}</span>
                  {/* Bonus tokens as what they are: not more of the same where bonus skins stay in the shop. */}
                  {p.bonus > 0 && (
                    <span className={styles.bonus} data-testid="package-bonus">
                      {t('packages.bonus', { amount: formatTokensInt(p.bonus), count: p.bonus })}
                      {keepsBonusSkins && <> · {t('packages.bonusKeepOnly')}</>}
                    </span>
                  )}
                </span>
                <span className={styles.stars}>{busy === p.id ? (
                    t('packages.buying')
                  ) : (
                    <>
                      <IconStar size={15} className={styles.star} /> {formatTokensInt(p.stars)}
                    </>
                  )}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {anyBonus && !onBreak && (
        <p className={styles.bonusWhat} data-testid="packages-bonus-what">
          {t(keepsBonusSkins ? 'packages.bonusWhat' : 'packages.bonusWhatOpen')}
        </p>
      )}
      <p className={styles.terms}>{t('packages.terms')}</p>
    </main>
  );
}
