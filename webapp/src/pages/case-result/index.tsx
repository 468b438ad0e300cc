import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from '../../lib/router';

import { Button, Img, MainAction, SecondaryAction, Skeleton, TokenAmount } from '../../components/ui';
import { useCases, valueRatio, winTier, type CaseResultState } from '../../features/cases';
import {
  fetchItem,
  priceValue,
  sellSkin,
  itemNames,
  shareSkin,
  useInventory,
  type InventoryItem,
} from '../../features/inventory';
import { BonusNote, DEFAULT_CONDITION, DeliveryNote, FloatBar, ItemMarks, ensureGoodsTexts, rarityColor, rarityKey } from '../../features/goods';
import { addTexts, useT } from '../../i18n';
import { formatTokens } from '../../lib/format';
import { haptic } from '../../lib/telegram';
import styles from './case-result.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';
import { itemKind } from '../../lib/item-kind';

// This screen's texts load with it, not in the start-up bundle.
addTexts({ ru, en });

// The goods texts this screen uses load with it (not in the start-up bundle).
ensureGoodsTexts();

/**
 * `/case-result/{assetId}`: the won skin, celebrated in proportion to its value against the
 * case's price (and its rarity), with keep, sell, open again and share.
 */
export function CaseResultPage() {
  const t = useT();
  const navigate = useNavigate();
  const { assetId = '' } = useParams();
  const state = useLocation().state as Partial<CaseResultState> | null;
  const local = useInventory((s) => s.items.find((i) => String(i.id) === assetId));
  const [item, setItem] = useState<InventoryItem | null>(state?.weapon ?? local ?? null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<'sell' | 'share' | null>(null);
  const caseId = state?.caseId ?? item?.caseId ?? null;
  const catalogPrice = useCases((s) => (caseId ? s.cases.find((c) => c.id === caseId)?.tokens : undefined));
  const casePrice = state?.caseCost ?? catalogPrice ?? null;
  const cheered = useRef(false);

  // Reloaded without navigation state: the item comes from the server.
  useEffect(() => {
    if (item) return;
    fetchItem(assetId)
      .then(setItem)
      .catch(() => setFailed(true));
  }, [assetId, item]);

  const price = item ? priceValue(item.tokenPrice) : null;
  const ratio = valueRatio(typeof price === 'number' ? price : null, casePrice);
  const tier = winTier(ratio, item?.rarity);

  // A good win buzzes once when it shows; a small one stays quiet.
  useEffect(() => {
    if (!item || cheered.current) return;
    cheered.current = true;
    if (tier === 'big' || tier === 'good') haptic.success();
  }, [item, tier]);

  const spinAgain = () => navigate(caseId ? `/case/${caseId}` : '/cases', { replace: true });

  const onSell = async () => {
    if (!item || busy) return;
    setBusy('sell');
    const ok = await sellSkin(item);
    setBusy(null);
    // Spec: after a sale from the result screen the player returns to the case.
    if (ok) spinAgain();
  };

  const onShare = async () => {
    if (!item || busy) return;
    setBusy('share');
    await shareSkin(item);
    setBusy(null);
  };

  if (failed) {
    return (
      <main className={styles.page} data-testid="page-case-result">
        <p className={styles.missing}>{t('result.notFound')}</p>
        <Button block onClick={() => navigate('/cases', { replace: true })}>
          {t('skins.openCases')}
        </Button>
      </main>
    );
  }
  if (!item) {
    return (
      <main className={styles.page} data-testid="page-case-result" aria-busy="true">
        <Skeleton height={260} radius={20} />
        <Skeleton height={24} width="60%" />
      </main>
    );
  }

  const { name, description } = itemNames(item);
  const rk = rarityKey(item.rarity);
  // A vanilla ★ knife has no exterior (null); an answer from before exteriors has only `condition`.
  const condition = item.exterior === null ? null : item.exterior || item.condition || DEFAULT_CONDITION;
  const special = item.special ?? item.rarity === 'extraordinary';
  const sellable = item.status !== 'pending' && item.status !== 'sent';
  return (
    <main
      className={`${styles.page} ${styles[tier] ?? ''}`}
      data-testid="page-case-result"
      data-tier={tier}
      style={{ ['--rarity' as string]: rarityColor(item.rarity) }}
    >
      <p className={styles.kicker} data-testid="result-tier">
        {t(`result.tier_${tier}`)}
      </p>
      <div className={styles.stage}>
        <span className={styles.glow} aria-hidden />
        <Img src={item.iconUrl} alt={name} className={styles.img} loading="eager" rarity={item.rarity} kind={itemKind(item)} />
      </div>
      <ItemMarks statTrak={item.statTrak} special={special} bonus={item.withdrawable === false} />
      <h1 className={styles.name} data-testid="result-name">
        {name}
        {description && <span className={styles.desc}>{description}</span>}
      </h1>
      <p className={styles.meta}>
        {rk && <span className={styles.rarity}>{t(rk)}</span>}
        {condition && (
          <span data-testid="result-exterior">
            {t(`condition.${condition}`) !== `condition.${condition}` ? t(`condition.${condition}`) : condition}
          </span>
        )}
      </p>
      {(item.float !== undefined || item.exterior !== undefined) && (
        <div className={styles.float}>
          <FloatBar float={item.float} wearMin={item.wearMin} wearMax={item.wearMax} />
        </div>
      )}
      {/* Before the player keeps it for its float: what a withdrawal would deliver. */}
      <DeliveryNote exterior={item.exterior === null ? null : (item.exterior ?? item.condition)} statTrak={item.statTrak} />
      <p className={styles.price}>
        {typeof price === 'number' ? <TokenAmount value={price ?? 0} size={20} /> : price}
      </p>
      {ratio !== null && (
        <p className={styles.ratio} data-testid="result-ratio">
          {t('result.ratio', { ratio: formatTokens(ratio) })}
        </p>
      )}

      {item.withdrawable === false && <BonusNote />}

      {/* One primary action per screen: "Sell for N" is Telegram's main button; keep and share
          are secondary. */}
      <div className={styles.actions}>
        {/* Keep: the skin stays in My skins. */}
        <Button block size="lg" variant="secondary" onClick={() => navigate('/skins', { replace: true })} disabled={busy !== null} data-testid="result-keep">
          {t('result.keep')}
        </Button>
        <Button block size="lg" variant="secondary" onClick={onShare} loading={busy === 'share'} disabled={busy !== null}>
          {t('result.share')}
        </Button>
      </div>
      {/* Telegram's bottom buttons: "Sell for N" and, above it, "Open again". */}
      <SecondaryAction testId="spin-again" text={t('result.spin')} onClick={spinAgain} enabled={busy === null} />
      <MainAction
        testId="result-sell"
        text={t('result.sell', { price: typeof price === 'number' ? formatTokens(price) : (price ?? '') })}
        onClick={() => void onSell()}
        loading={busy === 'sell'}
        enabled={busy === null}
        visible={sellable}
      />
    </main>
  );
}
