import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from '../../lib/router';

import { Button, Img, MainAction, SecondaryAction, TokenAmount } from '../../components/ui';
import {
  allDecided,
  choose,
  entriesOf,
  ensureMultiTexts,
  keepRest,
  resultsHeadline,
  sellAllValue,
  sellEach,
  undecided,
  valueRatio,
  type CaseResultsState,
  type Entry,
} from '../../features/cases';
import { itemNames, priceValue, sellSkin, soldTogether, type InventoryItem } from '../../features/inventory';
import { BonusNote, ItemMarks, ensureGoodsTexts, rarityColor, rarityKey } from '../../features/goods';
import { useT } from '../../i18n';
import { formatTokens } from '../../lib/format';
import { confirmPopup } from '../../lib/native-ui';
import { haptic } from '../../lib/telegram';
import styles from './case-results.module.css';
import { itemKind } from '../../lib/item-kind';

// The goods texts this screen uses load with it (not in the start-up bundle).
ensureGoodsTexts();
ensureMultiTexts();

/** The skin's exterior (Steam's name), or null for a vanilla ★ knife; an older answer's `condition`. */
const exteriorOf = (item: InventoryItem): string | null => (item.exterior === null ? null : (item.exterior ?? item.condition ?? null));

/** The exterior in the player's language. */
function conditionText(t: (k: string) => string, exterior: string): string {
  const key = `condition.${exterior}`;
  return t(key) === key ? exterior : t(key);
}

const value = (item: InventoryItem) => {
  const p = priceValue(item.tokenPrice);
  return typeof p === 'number' ? p : 0;
};

/**
 * `/case-results`: every skin of an open of several at once, in draw order. Each is kept or
 * sold on its own, or all that are left at once: "sell all" asks once, then sells them one call
 * each; "keep all" leaves them in My skins.
 */
export function CaseResultsPage() {
  const t = useT();
  const navigate = useNavigate();
  const state = useLocation().state as Partial<CaseResultsState> | null;
  const weapons = Array.isArray(state?.weapons) ? state.weapons : [];
  const [entries, setEntries] = useState<Entry<InventoryItem>[]>(() => entriesOf(weapons));
  const [selling, setSelling] = useState(false);
  const cheered = useRef(false);
  const caseId = state?.caseId ?? null;
  const caseCost = typeof state?.caseCost === 'number' ? state.caseCost : null;

  const total = Math.round(weapons.reduce((s, w) => s + value(w) * 100, 0)) / 100;
  const ratio = valueRatio(total, caseCost !== null ? caseCost * weapons.length : null);
  // The screen celebrates its best skin, and only when the skins together came back at least
  // what the open cost (a loss is a plain count).
  const best = weapons.reduce<InventoryItem | null>((b, w) => (!b || value(w) > value(b) ? w : b), null);
  const headline = resultsHeadline(ratio, best ? { ratio: valueRatio(value(best), caseCost), rarity: best.rarity } : null);
  const tier = headline.tier;

  useEffect(() => {
    if (!best || cheered.current) return;
    cheered.current = true;
    if (tier === 'big' || tier === 'good') haptic.success();
  }, [best, tier]);

  const openAgain = () => navigate(caseId ? `/case/${caseId}` : '/cases', { replace: true });
  const toSkins = () => navigate('/skins', { replace: true });

  const keepOne = (i: number) => {
    haptic.light();
    setEntries((e) => choose(e, i, 'kept'));
  };

  const sellOne = async (i: number) => {
    const entry = entries[i];
    if (!entry || entry.choice !== 'open' || selling) return;
    setEntries((e) => choose(e, i, 'selling'));
    const ok = await sellSkin(entry.item);
    setEntries((e) => choose(e, i, ok ? 'sold' : 'open'));
  };

  const sellAll = async () => {
    const left = undecided(entries);
    if (left.length === 0 || selling) return;
    haptic.medium();
    const price = formatTokens(sellAllValue(entries, value));
    const ok = await confirmPopup({
      title: t('results.confirmTitle'),
      message: t('results.confirmText', { count: left.length, price }),
      ok: t('results.confirmOk'),
      cancel: t('results.cancel'),
      destructive: true,
    });
    if (!ok) return;
    setSelling(true);
    const { sold } = await sellEach(entries, (item) => sellSkin(item, { quiet: true }), setEntries);
    setSelling(false);
    if (sold > 0) soldTogether(t('results.soldText', { count: sold }));
  };

  const keepAll = () => {
    haptic.light();
    setEntries(keepRest);
    toSkins();
  };

  if (weapons.length === 0) {
    return (
      <main className={styles.page} data-testid="page-case-results">
        <p className={styles.missing}>{t('results.notFound')}</p>
        <Button block onClick={toSkins}>
          {t('results.mySkins')}
        </Button>
      </main>
    );
  }

  const left = undecided(entries).length;
  const done = allDecided(entries);
  const busy = selling || entries.some((e) => e.choice === 'selling');
  return (
    <main className={`${styles.page} ${styles[tier] ?? ''}`} data-testid="page-case-results" data-tier={tier}>
      <header className={styles.head}>
        <h1 className={styles.title} data-testid="results-title">
          {t(headline.key, { count: weapons.length })}
        </h1>
        {ratio !== null && (
          <p className={styles.total} data-testid="results-total">
            {t('results.total', { price: formatTokens(total), ratio: formatTokens(ratio) })}
          </p>
        )}
      </header>

      <ul className={styles.list}>
        {entries.map((e, i) => {
          const { name, description } = itemNames(e.item);
          const rk = rarityKey(e.item.rarity);
          const price = formatTokens(value(e.item));
          return (
            <li
              key={e.item.id}
              className={`${styles.card} ${e.choice === 'sold' ? styles.gone : ''}`}
              style={{ ['--rarity' as string]: rarityColor(e.item.rarity), ['--i' as string]: i }}
              data-testid="results-card"
              data-choice={e.choice}
              data-item={e.item.id}
            >
              <Img src={e.item.iconUrl} alt={name} className={styles.img} rarity={e.item.rarity} kind={itemKind(e.item)} />
              <div className={styles.info}>
                <p className={styles.name}>
                  {name}
                  {description && <span className={styles.desc}>{description}</span>}
                </p>
                {/* Exterior, StatTrak™, ★ and bonus on every card: two skins of one name at
                    different prices say why. */}
                <p className={styles.meta}>
                  {rk && <span className={styles.rarity}>{t(rk)}</span>}
                  {exteriorOf(e.item) && (
                    <span className={styles.exterior} data-testid="results-exterior">
                      {conditionText(t, exteriorOf(e.item)!)}
                    </span>
                  )}
                  <TokenAmount value={value(e.item)} size={14} />
                </p>
                <ItemMarks statTrak={e.item.statTrak} special={e.item.special ?? e.item.rarity === 'extraordinary'} bonus={e.item.withdrawable === false} />
              </div>
              <div className={styles.actions}>
                {e.choice === 'open' && (
                  <>
                    <Button size="sm" variant="secondary" onClick={() => keepOne(i)} disabled={busy} data-testid="results-keep">
                      {t('results.keep')}
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => void sellOne(i)} disabled={busy} data-testid="results-sell">
                      {t('results.sell', { price })}
                    </Button>
                  </>
                )}
                {e.choice === 'selling' && <span className={styles.state}>{t('results.selling')}</span>}
                {e.choice === 'kept' && (
                  <span className={styles.state} data-testid="results-kept">
                    {t('results.kept')}
                  </span>
                )}
                {e.choice === 'sold' && (
                  <span className={styles.state} data-testid="results-sold">
                    {t('results.sold')}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {weapons.some((w) => w.withdrawable === false) && <BonusNote />}

      {/* Telegram's bottom buttons: sell all that are left (one confirmation) and keep all;
          once every skin is decided, open again and My skins. */}
      <MainAction
        testId={done ? 'results-again' : 'results-sell-all'}
        text={done ? t('results.again') : t('results.sellAll', { price: formatTokens(sellAllValue(entries, value)) })}
        onClick={() => void (done ? openAgain() : sellAll())}
        loading={selling}
        enabled={!busy}
        visible={done || left > 0}
      />
      <SecondaryAction
        testId={done ? 'results-skins' : 'results-keep-all'}
        text={done ? t('results.mySkins') : t('results.keepAll')}
        onClick={done ? toSkins : keepAll}
        enabled={!busy}
      />
    </main>
  );
}
