/**
 * Skin actions shared by the skin screen and the case result: sell and share.
 * They talk to the stores and show the spec's toasts; screens only decide where to go next.
 */
import { toast } from '../../components/ui';
import { t } from '../../i18n';
import { errorText } from '../../lib/errors';
import { formatTokens } from '../../lib/format';
import { copyText, sharePreparedMessage } from '../../lib/telegram-actions';
import { haptic } from '../../lib/telegram';
import { useSession } from '../session';
import { prepareShare, sellItem, type InventoryItem } from './api';
import { playSaleSound } from './sound';
import { priceValue, skinLabel } from './status';
import { useInventory } from './store';

/** Spec section 9: the sale toast lasts 3 s. */
export const SALE_TOAST_MS = 3000;

/**
 * Sells the item: server sale, forced list refresh, profile refresh, optional sound and the
 * 3 s toast with image, "item sold", name and price. Resolves true on success. `quiet` (one of
 * several sold together, which the caller sums up once): no sound, haptic or toast of its own.
 */
export async function sellSkin(item: InventoryItem, opts: { quiet?: boolean } = {}): Promise<boolean> {
  try {
    const res = await sellItem(item.id);
    if (typeof res.balance === 'number') useSession.getState().setBalance(res.balance);
    useInventory.getState().remove(item.id);
    void useInventory.getState().load(true);
    void useSession.getState().refreshBalance();
    if (opts.quiet) return true;
    playSaleSound();
    haptic.success();
    const price = priceValue(item.tokenPrice);
    // The skin in the player's language (the Steam name is English).
    const name = skinLabel(item);
    toast.success(t('skin.soldText', { name, price: typeof price === 'number' ? formatTokens(res.tokensAwarded ?? price) : price }), {
      title: t('skin.sold'),
      image: item.iconUrl ?? null,
      durationMs: SALE_TOAST_MS,
    });
    return true;
  } catch (e) {
    haptic.error();
    toast.error(errorText(e, t, 'skin.sellError'));
    return false;
  }
}

/** A sale of several at once finished: one sound, haptic and toast (`text`) for all of them. */
export function soldTogether(text: string): void {
  playSaleSound();
  haptic.success();
  toast.success(text, { title: t('skin.sold'), durationMs: SALE_TOAST_MS });
}

/**
 * Shares the item as a prepared inline message on clients >= 8.0; when the client cannot
 * (older version, refused, dialog unavailable) the item id is copied with a toast.
 */
export async function shareSkin(item: InventoryItem): Promise<void> {
  let preparedId: string;
  try {
    preparedId = await prepareShare(item.id);
  } catch (e) {
    toast.error(errorText(e, t, 'skin.shareError'));
    return;
  }
  if (await sharePreparedMessage(preparedId)) return;
  const id = String(item.id);
  if (await copyText(id)) toast.info(t('skin.idCopied', { id }));
  else toast.error(t('skin.shareError'));
}
