import { memo } from 'react';

import { Img, TokenAmount } from '../../../components/ui';
import { useT } from '../../../i18n';
import { formatPercent } from '../../../lib/format';
import { itemIcon, type CaseItem } from '../api';
import { rarityColor, rarityKey } from '../../goods';
import styles from './odds-list.module.css';
import { itemKind } from '../../../lib/item-kind';

/** What a case can drop and how likely: the player sees it before paying. */
export const OddsList = memo(function OddsList({ items, compact = false }: { items: readonly CaseItem[]; compact?: boolean }) {
  const t = useT();
  const sorted = [...items].sort((a, b) => (a.chance ?? 0) - (b.chance ?? 0));
  return (
    <ul className={`${styles.list} ${compact ? styles.compact : ''}`} data-testid="odds-list">
      {sorted.map((it) => {
        const rk = rarityKey(it.rarity);
        return (
          <li key={it.id} className={styles.row} style={{ ['--rarity' as string]: rarityColor(it.rarity) }}>
            {!compact && <Img src={itemIcon(it)} alt="" className={styles.img} rarity={it.rarity} kind={itemKind(it)} />}
            <span className={styles.text}>
              <span className={styles.name}>{it.variant ? `${it.name ?? it.id} | ${it.variant}` : (it.name ?? it.id)}</span>
              <span className={styles.rarity}>{rk ? t(rk) : (it.rarity ?? '')}</span>
            </span>
            {!compact && it.tokenPrice !== undefined && <TokenAmount value={it.tokenPrice} size={13} className={styles.price} />}
            <span className={styles.chance}>{formatChance(it.chance)}</span>
          </li>
        );
      })}
    </ul>
  );
});

export const formatChance = (chance: number | undefined) => (chance === undefined ? '—' : `${formatPercent(chance)}%`);
