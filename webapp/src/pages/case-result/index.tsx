import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from '../../lib/router';

import { Button, Img, MainAction, SecondaryAction, Skeleton } from '../../components/ui';
import { DEFAULT_CONDITION, rarityColor, rarityKey, TokenAmount } from '../../features/cases';
import {
  fetchItem,
  priceValue,
  sellSkin,
  shareSkin,
  splitMarketName,
  useInventory,
  type InventoryItem,
} from '../../features/inventory';
import { useT } from '../../i18n';
import { formatTokens } from '../../lib/format';
import type { CaseResultState } from '../case';
import styles from './case-result.module.css';

/** `/case-result/{assetId}`: the won skin, with share, spin again and sell. */
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

  // Reloaded without navigation state: the item comes from the server.
  useEffect(() => {
    if (item) return;
    fetchItem(assetId)
      .then(setItem)
      .catch(() => setFailed(true));
  }, [assetId, item]);

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

  const { name, description } = splitMarketName(item.marketHashName ?? item.name);
  const price = priceValue(item.tokenPrice);
  const rk = rarityKey(item.rarity);
  const condition = item.condition || DEFAULT_CONDITION;
  const sellable = item.status !== 'pending' && item.status !== 'sent';
  return (
    <main className={styles.page} data-testid="page-case-result" style={{ ['--rarity' as string]: rarityColor(item.rarity) }}>
      <p className={styles.kicker}>{t('result.title')}</p>
      <div className={styles.stage}>
        <span className={styles.glow} aria-hidden />
        <Img src={item.iconUrl} alt={name} className={styles.img} loading="eager" />
      </div>
      <h1 className={styles.name} data-testid="result-name">
        {name}
        {description && <span className={styles.desc}>{description}</span>}
      </h1>
      <p className={styles.meta}>
        {rk && <span className={styles.rarity}>{t(rk)}</span>}
        <span>{t(`condition.${condition}`) !== `condition.${condition}` ? t(`condition.${condition}`) : condition}</span>
      </p>
      <p className={styles.price}>
        {typeof price === 'number' ? <TokenAmount value={price} size={20} /> : price}
      </p>

      <div className={styles.actions}>
        <Button block size="lg" variant="secondary" onClick={onShare} loading={busy === 'share'} disabled={busy !== null}>
          {t('result.share')}
        </Button>
      </div>
      {/* Telegram's bottom buttons: "Sell for N" and, above it, "Spin again". */}
      <SecondaryAction testId="spin-again" text={t('result.spin')} onClick={spinAgain} enabled={busy === null} />
      <MainAction
        testId="result-sell"
        text={t('result.sell', { price: typeof price === 'number' ? formatTokens(price) : price })}
        onClick={() => void onSell()}
        loading={busy === 'sell'}
        enabled={busy === null}
        visible={sellable}
      />
    </main>
  );
}
