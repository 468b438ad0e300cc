import { useT } from '../../../i18n';
import { LOCALES } from '../../../lib/format';
import { useSettings } from '../../../lib/settings';
import { ensureGoodsTexts } from '../texts';
import { barPercent, formatFloat, wearRange, WEAR_BANDS } from '../wear';
import styles from './float-bar.module.css';

/**
 * The five wear bands on a 0..1 scale, the skin's possible range lit (outside it dimmed), and a
 * marker at the drawn float — labelled as the draw's (it decided the exterior; a withdrawal
 * delivers the seller's float, `DeliveryNote`). Without a float (a vanilla ★ knife) it says so.
 */
export function FloatBar({ float, wearMin, wearMax }: { float?: number | null; wearMin?: number | null; wearMax?: number | null }) {
  ensureGoodsTexts();
  const t = useT();
  const locale = LOCALES[useSettings((s) => s.language)];
  const fmt = (v: number) => formatFloat(v, locale);
  if (typeof float !== 'number') {
    return (
      <p className={styles.none} data-testid="float-none">
        {t('goods.noFloat')}
      </p>
    );
  }
  const range = wearRange({ wearMin, wearMax }) ?? [0, 1];
  const label = t('goods.floatBar', { float: fmt(float), min: fmt(range[0]), max: fmt(range[1]) });
  return (
    <div className={styles.wrap} data-testid="float-bar" data-float={float} data-min={range[0]} data-max={range[1]}>
      <div className={styles.head}>
        <span data-testid="float-label">{t('goods.drawnFloat')}</span>
        <b className={styles.value} data-testid="float-value">
          {fmt(float)}
        </b>
      </div>
      <div className={styles.bar} role="img" aria-label={label}>
        {WEAR_BANDS.map((b, i) => (
          <span key={b.exterior} className={`${styles.band} ${styles[`b${i}`]}`} style={{ width: `${barPercent(b.to) - barPercent(b.from)}%` }} />
        ))}
        <span className={styles.dim} style={{ left: 0, width: `${barPercent(range[0])}%` }} />
        <span className={styles.dim} style={{ left: `${barPercent(range[1])}%`, right: 0 }} />
        <span className={styles.marker} style={{ left: `${barPercent(float)}%` }} data-testid="float-marker" />
      </div>
      <p className={styles.range}>
        {t('goods.range', { min: fmt(range[0]), max: fmt(range[1]) })} · {t('goods.drawnFloatHint')}
      </p>
    </div>
  );
}
