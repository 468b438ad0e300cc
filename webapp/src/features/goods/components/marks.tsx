import { useT } from '../../../i18n';
import { ensureGoodsTexts } from '../texts';
import styles from './marks.module.css';

/** The StatTrak™ and ★ marks of an instance, as small badges. */
export function ItemMarks({ statTrak, special }: { statTrak?: boolean; special?: boolean }) {
  ensureGoodsTexts();
  const t = useT();
  if (!statTrak && !special) return null;
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
    </span>
  );
}
