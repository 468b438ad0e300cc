import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '../../lib/router';

import { Img, MainAction, toast } from '../../components/ui';
import { ensureDeliveryTexts, itemNames, requestWithdrawal, TradeHelp, useInventory, type InventoryItem } from '../../features/inventory';
import { BonusNote, DeliveryNote, ensureGoodsTexts } from '../../features/goods';
import { useSession } from '../../features/session';
import { ensureTradeUrlTexts, getTradeUrl, tradeUrlProblem, tradeUrlProblemKey } from '../../features/trade-url';
import { addTexts, useT } from '../../i18n';
import { isApiError } from '../../lib/api-client';
import { errorText } from '../../lib/errors';
import { formatInteger, formatTokens } from '../../lib/format';
import { haptic, openLink } from '../../lib/telegram';
import { useGoBack } from '../../lib/use-go-back';
import styles from './withdraw.module.css';
import { itemKind } from '../../lib/item-kind';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts load with it, not in the start-up bundle (its own, and the trade URL's).
addTexts({ ru, en });
ensureTradeUrlTexts();

// The goods texts this screen uses load with it (not in the start-up bundle).
ensureGoodsTexts();
ensureDeliveryTexts();

/** Steam's page that shows the player's trade-offer link. */
export const STEAM_TRADE_OFFERS_URL = 'https://steamcommunity.com/my/tradeoffers/privacy#trade_offer_access_url';

/** The saved trade link, under any of the names the spec has seen. */
function savedTradeLink(user: Record<string, unknown> | null): string {
  for (const key of ['tradeLink', 'trade_link', 'trade_url']) {
    const v = user?.[key];
    if (typeof v === 'string' && v) return v;
  }
  return '';
}

/** Refusals that are about money, not the link: the lock explains them instead of the form. */
const LOCK_CODES = ['deposit_required', 'debt_outstanding'];

/**
 * `/withdraw`: the item arrives in navigation state; success goes back, failure explains.
 * Withdrawals need a paid deposit and no open debt (docs/decisions.md "Money integrity"): while
 * locked, the screen says why and offers the packages before any trade link is typed.
 */
export function WithdrawPage() {
  const t = useT();
  const navigate = useNavigate();
  const goBack = useGoBack('/skins');
  const item = (useLocation().state as { item?: InventoryItem } | null)?.item ?? null;
  const user = useSession((s) => s.user);
  const [link, setLink] = useState(() => savedTradeLink(user));
  const [sending, setSending] = useState(false);
  /** The server refused the request for a reason other than the link's form (with the instruction). */
  const [failed, setFailed] = useState(false);
  const [help, setHelp] = useState(false);
  /** Won with bonus tokens: known from the item, or learnt from the server's `409 bonus_item`. */
  const [bonus, setBonus] = useState(item?.withdrawable === false);

  const locked = user?.withdrawalsUnlocked === false;
  const debt = Number(user?.debt ?? 0);
  const starsLeft = Number(user?.starsToUnlockWithdrawals ?? 0);

  // The lock follows the server (a purchase made a moment ago unlocks it).
  useEffect(() => {
    void useSession.getState().refreshBalance();
  }, []);

  // Without a saved link in the profile, ask the server once.
  useEffect(() => {
    if (link) return;
    getTradeUrl()
      .then((url) => url && setLink((cur) => cur || url))
      .catch(() => undefined);
  }, []);

  const names = item ? itemNames(item) : null;
  const name = (names && [names.name, names.description].filter(Boolean).join(' | ')) || t('withdraw.genericItem');
  const value = link.trim();
  // Checked as the player types: the message names what is wrong and goes once the link is valid.
  const problem = value ? tradeUrlProblem(value) : null;

  const submit = async () => {
    if (!item || !value || problem || sending) return;
    setSending(true);
    setFailed(false);
    try {
      const updated = await requestWithdrawal(item.id, value);
      // Spec: the item's status becomes pending locally.
      useInventory.getState().patch(item.id, { ...(updated ?? {}), status: 'pending' });
      haptic.success();
      toast.success(t('withdraw.success'), { durationMs: 2000 });
      goBack();
    } catch (e) {
      haptic.error();
      if (isApiError(e) && e.code === 'bonus_item') {
        // Not a failure of the player's: the calm note replaces the form.
        setBonus(true);
        useInventory.getState().patch(item.id, { withdrawable: false });
      } else if (isApiError(e) && LOCK_CODES.includes(e.code)) {
        toast.error(errorText(e, t, 'withdraw.error'), { durationMs: 4000 });
        void useSession.getState().refreshBalance();
      } else if (isApiError(e) && e.code === 'invalid_trade_url') {
        // The link's problem is shown once, inline (no toast on top of it).
        setFailed(true);
      } else {
        toast.error(t('withdraw.error'), { durationMs: 3000 });
        setFailed(true);
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <main className={styles.page} data-testid="page-withdraw">
      {item && <Img src={item.iconUrl} alt="" className={styles.img} rarity={item.rarity} kind={itemKind(item)} />}
      <h1 className={styles.title}>{t('withdraw.title', { name })}</h1>
      <p className={styles.text}>
        {t('withdraw.text')}{' '}
        <a
          href={STEAM_TRADE_OFFERS_URL}
          onClick={(e) => {
            e.preventDefault();
            openLink(STEAM_TRADE_OFFERS_URL);
          }}
        >
          {t('withdraw.tradePage')}
        </a>
        .
      </p>
      {/* Said plainly before the request, in the words of the result and skin screens: the
          market's copy, with the seller's float, is what arrives. The Steam-exact name is what
          the market buys: shown here, labelled. */}
      {item?.marketHashName && (
        <p className={styles.text} data-testid="withdraw-steam-name">
          {t('withdraw.steamName', { name: item.marketHashName })}
        </p>
      )}
      {item && (
        <div data-testid="withdraw-float-note">
          <DeliveryNote exterior={item.exterior === null ? null : (item.exterior ?? item.condition)} statTrak={item.statTrak} />
        </div>
      )}
      {!item && <p className={styles.error}>{t('withdraw.noItem')}</p>}
      {bonus ? (
        <>
          <BonusNote text="goods.bonusError" testId="withdraw-bonus" />
          <MainAction testId="withdraw-bonus-packages" text={t('goods.bonusPackages')} onClick={() => navigate('/packages')} />
        </>
      ) : locked ? (
        <div className={styles.locked} role="status" data-testid="withdraw-locked">
          <p className={styles.lockedText}>
            {debt > 0
              ? t('withdraw.lockedDebt', { debt: formatTokens(debt), count: debt })
              : t('withdraw.lockedText', { stars: formatInteger(starsLeft), count: starsLeft })}
          </p>
          {/* The way out of a deposit lock is the screen's primary action: Telegram's button. */}
          <MainAction testId="withdraw-to-packages" text={t('withdraw.toPackages')} onClick={() => navigate('/packages')} visible={debt <= 0} />
        </div>
      ) : (
        <>
          <label className={styles.label} htmlFor="withdraw-link">
            {t('withdraw.label')}
          </label>
          <textarea
            id="withdraw-link"
            className={`field ${styles.area}`}
            rows={3}
            value={link}
            onChange={(e) => {
              setLink(e.target.value);
              setFailed(false);
            }}
            placeholder={t('tradeUrl.placeholder')}
            aria-invalid={failed || problem !== null || undefined}
            aria-describedby={failed || problem ? 'withdraw-error' : undefined}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            data-testid="withdraw-link"
          />
          {(failed || problem) && (
            <p className={styles.error} role="alert" id="withdraw-error" data-testid="withdraw-error">
              {problem ? t(tradeUrlProblemKey(problem)) : t('withdraw.inlineError')}{' '}
              <button type="button" className={styles.linkBtn} onClick={() => setHelp(true)}>
                {t('withdraw.instruction')}
              </button>
            </p>
          )}
          <MainAction
            testId="withdraw-submit"
            text={t('withdraw.submit')}
            onClick={() => void submit()}
            loading={sending}
            enabled={!sending && value.length > 0 && problem === null && item !== null}
          />
        </>
      )}
      <TradeHelp open={help} onClose={() => setHelp(false)} title={t('withdraw.instruction')} />
    </main>
  );
}
