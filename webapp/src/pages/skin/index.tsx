import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from '../../lib/router';

import { Button, IconAlert, Img, MainAction, Skeleton, TokenAmount } from '../../components/ui';
import {
  awaitsAcceptance,
  canTrade,
  capitalize,
  deliveryKey,
  ensureDeliveryTexts,
  fetchItem,
  fetchPublicItem,
  isError,
  isGone,
  ownerName,
  priceValue,
  reasonKey,
  sellSkin,
  itemNames,
  shareSkin,
  skinLabel,
  showWithdraw,
  STEAM_INCOMING_OFFERS_URL,
  TradeHelp,
  useInventory,
  type InventoryItem,
  type PublicItem,
} from '../../features/inventory';
import { BonusNote, DEFAULT_CONDITION, DeliveryNote, FloatBar, ItemMarks, ensureGoodsTexts, rarityColor, rarityKey } from '../../features/goods';
import { isApiError } from '../../lib/api-client';
import { useT } from '../../i18n';
import { formatTokens } from '../../lib/format';
import { confirmPopup } from '../../lib/native-ui';
import { shareRefFor } from '../../lib/deep-link';
import { launch } from '../../lib/launch';
import { openLink } from '../../lib/telegram';
import { useGoBack } from '../../lib/use-go-back';
import styles from './skin.module.css';
import { itemKind } from '../../lib/item-kind';

// The goods texts this screen uses load with it (not in the start-up bundle).
ensureGoodsTexts();
ensureDeliveryTexts();

/** Spec section 9: the app goes back 100 ms after a sale. */
export const SALE_BACK_DELAY_MS = 100;

type Loaded = { kind: 'own'; item: InventoryItem } | { kind: 'public'; item: PublicItem } | { kind: 'missing' } | { kind: 'error' };

/** `/skin/{id}`: the owner's skin with its actions, or a friend's skin as a public card. */
export function SkinPage() {
  const t = useT();
  const navigate = useNavigate();
  const goBack = useGoBack('/skins');
  const { weaponId = '' } = useParams();
  const state = useLocation().state as { skin?: InventoryItem } | null;
  const local = useInventory((s) => s.items.find((i) => String(i.id) === weaponId));
  const [loaded, setLoaded] = useState<Loaded | null>(() => {
    const item = local ?? (state?.skin && String(state.skin.id) === weaponId ? state.skin : undefined);
    return item ? { kind: 'own', item } : null;
  });
  const [busy, setBusy] = useState<'sell' | 'share' | null>(null);
  const [help, setHelp] = useState(false);

  // The local list wins (status changes after a withdrawal show at once).
  useEffect(() => {
    if (local) setLoaded({ kind: 'own', item: local });
  }, [local]);

  // Not in the local list: fetch it; someone else's item shows its public card.
  useEffect(() => {
    if (loaded) return;
    let live = true;
    fetchItem(weaponId)
      .then((item) => live && setLoaded(isGone(item.status) ? { kind: 'missing' } : { kind: 'own', item }))
      .catch(async (e: unknown) => {
        if (!live) return;
        if (isApiError(e) && (e.status === 404 || e.status === 403)) {
          try {
            const item = await fetchPublicItem(weaponId, shareRefFor(launch.startParam, weaponId));
            if (live) setLoaded({ kind: 'public', item });
          } catch {
            if (live) setLoaded({ kind: 'missing' });
          }
        } else {
          setLoaded({ kind: 'error' });
        }
      });
    return () => {
      live = false;
    };
  }, [weaponId, loaded]);

  if (!loaded) {
    return (
      <main className={styles.page} data-testid="page-skin" aria-busy="true">
        <Skeleton height={240} radius={20} />
        <Skeleton height={26} width="60%" />
        <Skeleton height={140} radius={14} />
      </main>
    );
  }
  if (loaded.kind === 'missing' || loaded.kind === 'error') {
    return (
      <main className={styles.page} data-testid="page-skin">
        <p className={styles.missing}>{t(loaded.kind === 'missing' ? 'skin.notFound' : 'skin.loadError')}</p>
        <Button block onClick={() => navigate('/skins', { replace: true })}>
          {t('skins.title')}
        </Button>
      </main>
    );
  }
  if (loaded.kind === 'public') {
    const it = loaded.item;
    const { name, description } = itemNames(it);
    const rk = rarityKey(it.rarity);
    return (
      <main className={styles.page} data-testid="page-skin-public" style={{ ['--rarity' as string]: rarityColor(it.rarity) }}>
        <p className={styles.kicker}>{t('skin.publicTitle')}</p>
        <div className={styles.hero}>
          <Img src={it.iconUrl} alt={name} className={styles.img} loading="eager" rarity={it.rarity} kind={itemKind(it)} />
        </div>
        <ItemMarks statTrak={it.statTrak} special={it.special ?? it.rarity === 'extraordinary'} />
        <h1 className={styles.name}>
          {name}
          {description && <span className={styles.desc}>{description}</span>}
        </h1>
        <dl className={styles.rows}>
          {rk && <Row label={t('skin.rarity')} value={<span className={styles.rarity}>{t(rk)}</span>} />}
          {it.exterior !== null && <Row label={t('skin.condition')} value={conditionText(t, it.exterior || it.condition)} />}
          <Row label={t('skin.price')} value={<TokenAmount value={it.tokenPrice} />} />
        </dl>
        {(it.float !== undefined || it.exterior !== undefined) && <FloatBar float={it.float} wearMin={it.wearMin} wearMax={it.wearMax} />}
        <DeliveryNote exterior={it.exterior === null ? null : (it.exterior ?? it.condition)} statTrak={it.statTrak} />
        <p className={styles.pitch}>{t('skin.publicText', { owner: it.owner || '—' })}</p>
        <Button block size="lg" onClick={() => navigate('/cases')} data-testid="public-open-cases">
          {t('skin.openCases')}
        </Button>
      </main>
    );
  }

  const item = loaded.item;
  const { name, description } = itemNames(item);
  const price = priceValue(item.tokenPrice);
  const priceText = typeof price === 'number' ? formatTokens(price) : price;
  const status = item.status ?? 'received';
  const err = isError(status);
  const tradable = canTrade(status, busy !== null);
  const rk = rarityKey(item.rarity);

  /** Confirmations are Telegram's popups throughout (the ticket's close asks the same way). */
  const doSell = async () => {
    if (busy) return;
    const sure = await confirmPopup({
      title: t('skin.sellTitle'),
      message: t('skin.sellText', { name: skinLabel(item), price: priceText, count: typeof price === 'number' ? price : 5 }),
      ok: t('skin.sell'),
      cancel: t('common.cancel'),
    });
    if (!sure) return;
    setBusy('sell');
    const ok = await sellSkin(item);
    setBusy(null);
    if (ok) setTimeout(goBack, SALE_BACK_DELAY_MS);
  };
  const doShare = async () => {
    if (busy) return;
    setBusy('share');
    await shareSkin(item);
    setBusy(null);
  };

  return (
    <main className={styles.page} data-testid="page-skin" style={{ ['--rarity' as string]: rarityColor(item.rarity) }}>
      <div className={`${styles.hero} ${err ? styles.heroError : ''}`}>
        <Img src={item.iconUrl} alt={name} className={styles.img} loading="eager" rarity={item.rarity} kind={itemKind(item)} />
      </div>
      <ItemMarks statTrak={item.statTrak} special={item.special ?? item.rarity === 'extraordinary'} bonus={item.withdrawable === false && status !== 'sent'} />
      <h1 className={`${styles.name} ${err ? styles.errorText : ''}`}>
        {name}
        {description && <span className={styles.desc}>{description}</span>}
      </h1>

      <dl className={styles.rows}>
        <Row label={t('skin.owner')} value={ownerName(item.owner) || '—'} />
        <Row label={t('skin.price')} value={typeof price === 'number' ? <TokenAmount value={price} /> : price} />
        {rk && <Row label={t('skin.rarity')} value={<span className={styles.rarity}>{t(rk)}</span>} />}
        {item.exterior !== null && <Row label={t('skin.condition')} value={conditionText(t, item.exterior || item.condition)} />}
        <Row
          label={t('skin.status')}
          value={
            <span className={err ? styles.errorText : undefined} data-testid="skin-status">
              {capitalize(t(`status.${status}`) === `status.${status}` ? status : t(`status.${status}`))}
              {err && (
                <button type="button" className={styles.info} onClick={() => setHelp(true)} aria-label={t('skin.errorHelp')} data-testid="error-help">
                  <IconAlert size={18} />
                </button>
              )}
            </span>
          }
        />
        {err && (
          <Row
            label={t('skin.reasonLabel')}
            value={
              <span className={styles.reason} data-testid="skin-reason">
                {t(reasonKey(item.statusReasonCode))}
                {item.statusReason && <span className={styles.note}>{t('skin.note', { note: item.statusReason })}</span>}
              </span>
            }
          />
        )}
      </dl>
      {(item.float !== undefined || item.exterior !== undefined) && <FloatBar float={item.float} wearMin={item.wearMin} wearMax={item.wearMax} />}
      {status !== 'sent' && <DeliveryNote exterior={item.exterior === null ? null : (item.exterior ?? item.condition)} statTrak={item.statTrak} />}
      {item.withdrawable === false && status === 'received' && <BonusNote />}
      {/* A pending withdrawal: what happens next, and when (an automatic one says where it stands). */}
      {status === 'pending' && !deliveryKey(item.deliveryState) && (
        <p className={styles.next} data-testid="skin-pending-next">
          {t('skin.pendingNext')}
        </p>
      )}
      {deliveryKey(item.deliveryState) && (status === 'pending' || status === 'sent') && (
        <p className={styles.next} data-testid="skin-delivery" data-state={item.deliveryState ?? ''}>
          {t(deliveryKey(item.deliveryState)!)}
          {awaitsAcceptance(item) && (
            <>
              {' '}
              <a
                href={STEAM_INCOMING_OFFERS_URL}
                data-testid="skin-accept-offer"
                onClick={(e) => {
                  e.preventDefault();
                  openLink(STEAM_INCOMING_OFFERS_URL);
                }}
              >
                {t('delivery.openOffers')}
              </a>
            </>
          )}
        </p>
      )}

      <div className={styles.actions}>
        {showWithdraw(status) && item.withdrawable !== false && (
          <Button variant="secondary" onClick={() => navigate('/withdraw', { state: { item } })} disabled={!tradable} data-testid="skin-withdraw">
            {t('skin.withdraw')}
          </Button>
        )}
        <Button variant="secondary" onClick={doShare} loading={busy === 'share'} disabled={busy !== null} data-testid="skin-share">
          {t('skin.share')}
        </Button>
      </div>

      {/* The sale is the screen's primary action: Telegram's bottom button, once — and only while
          it can act (a pending withdrawal shows none rather than a greyed one). */}
      <MainAction
        testId="sell-bar"
        text={t('skin.sellFor', { price: priceText })}
        onClick={() => void doSell()}
        enabled={tradable}
        visible={status !== 'sent' && status !== 'pending'}
        loading={busy === 'sell'}
      />

      <TradeHelp open={help} onClose={() => setHelp(false)} />
    </main>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className={styles.row}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function conditionText(t: (k: string) => string, condition: string | null | undefined): string {
  const c = condition || DEFAULT_CONDITION;
  const key = `condition.${c}`;
  const text = t(key);
  return text === key ? c : text;
}
