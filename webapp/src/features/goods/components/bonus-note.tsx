import { useT } from '../../../i18n';
import { ensureGoodsTexts } from '../texts';
import { Link } from '../../../lib/router';
import styles from './bonus-note.module.css';

/** A calm note on a skin won with bonus tokens: keep or sell, not withdraw; the packages are one tap away. */
export function BonusNote({ text = 'goods.bonusNote', testId = 'bonus-note' }: { text?: string; testId?: string }) {
  ensureGoodsTexts();
  const t = useT();
  return (
    <div className={styles.note} role="note" data-testid={testId}>
      <b className={styles.title}>{t('goods.bonusTitle')}</b>
      <p className={styles.text}>{t(text)}</p>
      <Link to="/packages" className={styles.link} data-testid="bonus-packages">
        {t('goods.bonusPackages')}
      </Link>
    </div>
  );
}
