import { useT } from '../../../i18n';
import { ensureGoodsTexts } from '../texts';
import styles from './delivery-note.module.css';

/**
 * What a withdrawal delivers, in the same words on every screen that shows a won skin (result,
 * skin, shared card, withdraw): that Steam item in that exterior, bought from a market seller,
 * with the seller's float — the drawn float decided the exterior, it is not what arrives.
 */
export function DeliveryNote({ exterior, statTrak }: { exterior?: string | null; statTrak?: boolean }) {
  ensureGoodsTexts();
  const t = useT();
  const key = `condition.${exterior ?? ''}`;
  const ext = exterior ? (t(key) === key ? exterior : t(key)) : null;
  const what = ext ? (statTrak ? `${t('goods.statTrak')} · ${ext}` : ext) : null;
  return (
    <p className={styles.note} role="note" data-testid="delivery-note">
      {what ? t('goods.delivery', { exterior: what }) : t('goods.deliveryNoWear')}
    </p>
  );
}
