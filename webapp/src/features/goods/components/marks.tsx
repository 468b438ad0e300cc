import { useT } from '../../../i18n';
import { ensureGoodsTexts } from '../texts';
import styles from './marks.module.css';

/**
 * The StatTrak™, ★ and bonus marks of an instance, as small badges. `bonus`: won with bonus
 * tokens in a paid-only shop (keep or sell, not withdraw).
 */
export function ItemMarks({ statTrak, special, bonus }: { statTrak?: boolean; special?: boolean; bonus?: boolean }) {
  ensureGoodsTexts();
  const t = useT();
  if (!statTrak && !special && !bonus) return null;
  return (
    <span className={styles.marks}>
      {special && (
        <span className={`${styles.mark} ${styles.special}`} data-testid="mark-special">
          ★
        </span>
      )}
      {statTrak && (
        <span className={`${styles.mark} ${styles.st}`} data-testid="mark-stattrak">
          {t('goods.statTrak')}
        </span>
      )}
      {bonus && (
        <span className={`${styles.mark} ${styles.bonus}`} data-testid="mark-bonus" title={t('skin.bonusMarkHint')}>
          {t('skin.bonusMark')}
        </span>
      )}
    </span>
  );
}
