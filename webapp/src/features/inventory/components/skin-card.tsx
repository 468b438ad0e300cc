import { Img, TokenAmount } from '../../../components/ui';
import { useT } from '../../../i18n';
import { rarityColor } from '../../goods';
import type { InventoryItem } from '../api';
import { capitalize, isError, itemNames, priceValue } from '../status';
import styles from './skin-card.module.css';
import { itemKind } from '../../../lib/item-kind';

/** A skin in the grid: image, name, price, status; error skins get the red border and title. */
export function SkinCard({ item, onOpen }: { item: InventoryItem; onOpen: (item: InventoryItem) => void }) {
  const t = useT();
  const { name, description } = itemNames(item);
  const special = item.special ?? item.rarity === 'extraordinary';
  const err = isError(item.status);
  const price = priceValue(item.tokenPrice);
  return (
    <button
      type="button"
      className={`${styles.card} ${err ? styles.error : ''}`}
      style={{ ['--rarity' as string]: rarityColor(item.rarity) }}
      onClick={() => onOpen(item)}
      data-testid="skin-card"
      data-status={item.status ?? 'received'}
      data-item-id={item.id}
      data-price={typeof price === 'number' ? price : undefined}
      data-rarity={item.rarity}
    >
      <Img src={item.iconUrl} alt={name} className={styles.img} rarity={item.rarity} kind={itemKind(item)} />
      <span className={styles.name}>
        {special ? '★ ' : ''}
        {item.statTrak ? `${t('skin.statTrak')} ` : ''}
        {name}
      </span>
      <span className={styles.desc}>{[description, exteriorText(t, item.exterior ?? null)].filter(Boolean).join(' · ') || '\u00a0'}</span>
      <span className={styles.foot}>
        {typeof price === 'number' ? <TokenAmount value={price} size={14} /> : <span>{price}</span>}
        {/* Won with bonus tokens in a paid-only shop: keep or sell, not withdraw. */}
        {item.withdrawable === false && item.status !== 'sent' && (
          <span className={styles.bonus} data-testid="mark-bonus" title={t('skin.bonusMarkHint')}>
            {t('skin.bonusMark')}
          </span>
        )}
        {item.status && item.status !== 'received' && (
          <span className={styles.status}>{capitalize(t(`status.${item.status}`))}</span>
        )}
      </span>
    </button>
  );
}

/** The exterior in the player's language (the `condition` keys), or nothing without one. */
function exteriorText(t: (k: string) => string, exterior: string | null): string {
  if (!exterior) return '';
  const key = `condition.${exterior}`;
  return t(key) === key ? exterior : t(key);
}
