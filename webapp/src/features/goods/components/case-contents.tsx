import { memo } from 'react';

import { Img } from '../../../components/ui';
import { useT } from '../../../i18n';
import { ensureGoodsTexts } from '../texts';
import { formatPercent, formatTokensInt } from '../../../lib/format';
import { useSettings } from '../../../lib/settings';
import { goodsLabel, groupByTier, priceRange, type GoodsLike } from '../goods';
import styles from './case-contents.module.css';
import { itemKind } from '../../../lib/item-kind';

export interface ContentsItem extends GoodsLike {
  id: string;
  iconUrl?: string;
  rarity?: string;
}

const chanceText = (c: number | undefined) => (c === undefined ? '—' : `${formatPercent(c)}%`);

/**
 * What a case can drop, by tier (rarest first; ★ specials as "rare special"): each item with its
 * price range over exteriors and its chance; each tier with its summed chance.
 */
export const CaseContents = memo(function CaseContents({ items, rarityColor }: { items: readonly ContentsItem[]; rarityColor: (r?: string) => string }) {
  ensureGoodsTexts();
  const t = useT();
  const lang = useSettings((s) => s.language);
  return (
    <div className={styles.groups} data-testid="case-contents">
      {groupByTier(items).map((g) => {
        const key = `goods.tier.${g.rarity}`;
        const title = t(key) === key ? t('goods.tier.unknown') : t(key);
        return (
          <section key={g.rarity} className={styles.group} style={{ ['--rarity' as string]: rarityColor(g.rarity) }} data-testid="tier-group" data-rarity={g.rarity}>
            <h3 className={styles.tierHead}>
              <span className={styles.tierName}>{title}</span>
              <span className={styles.tierChance}>{t('goods.tierChance', { chance: chanceText(g.chance) })}</span>
            </h3>
            <ul className={styles.list}>
              {g.items.map((it) => {
                const range = priceRange(it);
                return (
                  <li key={it.id} className={styles.row} data-testid="contents-item" data-item-id={it.id}>
                    <Img src={it.iconUrl} alt="" className={styles.img} rarity={it.rarity} kind={itemKind(it)} width={64} height={48} />
                    <span className={styles.text}>
                      <span className={styles.name}>{goodsLabel(it, lang) || it.id}</span>
                      {range && (
                        <span className={styles.price} data-testid="price-range">
                          {range[0] === range[1]
                            ? formatTokensInt(range[0])
                            : t('goods.priceRange', { min: formatTokensInt(range[0]), max: formatTokensInt(range[1]) })}
                        </span>
                      )}
                    </span>
                    <span className={styles.chance}>{chanceText(it.chance)}</span>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
});
