import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from '../../lib/router';

import { useHideBackButton } from '../../app/back-button';
import { Img, MainAction, SecondaryAction, Segmented, Skeleton, toast, TokenAmount } from '../../components/ui';
import {
  bonusPart,
  canTry,
  createCaseOpener,
  drawnItems,
  ensureMultiTexts,
  newRequestId,
  nextNonce,
  OPEN_COUNTS,
  openCount,
  totalPrice,
  openCase,
  pickByOdds,
  Roulette,
  tokensMissing,
  useCases,
  type Case,
  type CaseItem,
  type CaseResultState,
  type CaseResultsState,
  type OpenFair,
  type SpinPhase,
} from '../../features/cases';
import { CaseContents, caseTitle, goodsNames, ensureGoodsTexts, rarityColor } from '../../features/goods';
import { BreakNotice, ensureResponsibleTexts, runningExclusion, spendRoom, useResponsible } from '../../features/responsible';
import { useSettings } from '../../features/settings';
import { fetchFair } from '../../features/fair';
import { useInventory, type InventoryItem } from '../../features/inventory';
import { paidOnly, useGates } from '../../features/gates';
import { useSession } from '../../features/session';
import { addTexts, useT } from '../../i18n';
import { isApiError } from '../../lib/api-client';
import { errorText } from '../../lib/errors';
import { formatTime, formatTokens, formatTokensInt } from '../../lib/format';
import { alertPopup, choosePopup, useClosingConfirmation } from '../../lib/native-ui';
import { haptic } from '../../lib/telegram';
import { isLowEndDevice, setVerticalSwipes } from '../../lib/telegram-actions';
import { GoingHome } from '../not-found';
import styles from './case.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts load with it, not in the start-up bundle.
addTexts({ ru, en });

// The goods texts this screen uses load with it (not in the start-up bundle).
ensureGoodsTexts();
ensureResponsibleTexts();
ensureMultiTexts();

/** `trying`: the free try's spin (drawn on the phone; nothing charged, stored or sent). */
type Phase = 'idle' | 'opening' | 'spinning' | 'trying';


/** The strip's picture of the won item: the case's own entry, else built from the inventory item. */
function caseItemFor(item: InventoryItem, kase: Case): CaseItem {
  const own = kase.items.find((i) => i.id === item.weaponId);
  if (own) return own;
  return {
    id: item.weaponId ?? String(item.id),
    name: item.name,
    variant: item.variant,
    iconUrl: item.iconUrl,
    marketHashName: item.marketHashName,
    rarity: item.rarity,
    tokenPrice: typeof item.tokenPrice === 'number' ? item.tokenPrice : 0,
  };
}

/** A case item named in `lang` (the detail carries both languages). */
function localized(item: CaseItem, lang: string): CaseItem {
  const { weapon, finish } = goodsNames(item, lang);
  return { ...item, name: weapon || item.id, variant: finish };
}

const shortHash = (h: string) => (h.length > 16 ? `${h.slice(0, 10)}…${h.slice(-6)}` : h);

export function CasePage() {
  const t = useT();
  const navigate = useNavigate();
  const { caseId = '' } = useParams();
  const token = useSession((s) => s.token);
  const balance = useSession((s) => s.user?.balance ?? 0);
  const bonusBalance = useSession((s) => Number(s.user?.bonusBalance ?? 0) || 0);
  const keepsBonusSkins = useGates((s) => paidOnly(s.config));
  const limits = useResponsible((s) => s.limits);
  // Whether a self-exclusion runs: asked each time the case page opens.
  useEffect(() => {
    void useResponsible.getState().loadLimits();
  }, []);
  const lang = useSettings((s) => s.language);
  /** The store list's entry (slim items): enough for the header while the detail loads. */
  const listed = useCases((s) => s.cases.find((c) => c.id === caseId));
  const cached = useCases((s) => s.details[caseId]);
  const [kase, setKase] = useState<Case | null>(cached ?? null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [winner, setWinner] = useState<CaseItem | null>(null);
  /** How many to open at once (×1…×5); the free try stays single. */
  const [count, setCount] = useState(1);
  /** Several opened at once: each strip's winner, in draw order (the first strip's is `winner`). */
  const [winners, setWinners] = useState<CaseItem[]>([]);
  const [fair, setFair] = useState<Pick<OpenFair, 'serverSeedHash' | 'clientSeed' | 'nonce'> | null>(null);
  const [missing, setMissing] = useState(false);
  /** The free try's last draw, shown with the demo notice once the strip stopped. */
  const [tried, setTried] = useState<CaseItem | null>(null);
  const won = useRef<InventoryItem[]>([]);
  const trying = useRef(false);
  const winnerRef = useRef<CaseItem | null>(null);
  winnerRef.current = winner;
  const lowEnd = useMemo(isLowEndDevice, []);

  // Spec: an unauthorised user or an unknown case id goes to /.
  useEffect(() => {
    if (!token) navigate('/', { replace: true });
  }, [token, navigate]);

  useEffect(() => {
    if (cached) {
      setKase(cached);
      return;
    }
    let live = true;
    useCases
      .getState()
      .loadDetail(caseId)
      .then((c) => live && setKase(c))
      .catch((e: unknown) => {
        if (!live) return;
        // An unknown case says so before going home; other failures are a toast.
        if (isApiError(e) && e.status === 404) {
          setMissing(true);
          return;
        }
        toast.error(errorText(e, t, 'caseScreen.loadError'));
        navigate('/', { replace: true });
      });
    return () => {
      live = false;
    };
  }, [caseId, cached]);

  useEffect(() => {
    fetchFair()
      .then((f) => setFair({ serverSeedHash: f.serverSeedHash, clientSeed: f.clientSeed, nonce: f.nonce }))
      .catch(() => setFair(null));
  }, []);

  // While the roulette spins a vertical swipe must not close the mini app.
  const spinningNow = phase !== 'idle';
  useEffect(() => {
    if (!spinningNow) return;
    setVerticalSwipes(false);
    return () => setVerticalSwipes(true);
  }, [spinningNow]);

  // Spec: UI locked and back button hidden while a case is opening; closing asks first (a
  // free try has nothing to lose).
  useHideBackButton(spinningNow);
  useClosingConfirmation(phase === 'opening' || phase === 'spinning');

  /** The case's items with their names in the player's language (the roulette and the free try show them). */
  const items = useMemo(() => (kase ? kase.items.map((i) => localized(i, lang)) : []), [kase, lang]);

  const opener = useMemo(
    () =>
      createCaseOpener<InventoryItem>({
        getBalance: () => useSession.getState().user?.balance ?? 0,
        setBalance: (b) => useSession.getState().setBalance(b),
        request: (id, requestId, n) => openCase(id, useSession.getState().user?.telegramId ?? 0, requestId, n),
        newRequestId,
      }),
    [],
  );

  /** Spec: not enough tokens offers buying them or inviting friends (a native popup), saying how many are missing (for all of the chosen count). */
  const offerTokens = async (price: number, n = 1) => {
    haptic.error();
    const have = useSession.getState().user?.balance ?? 0;
    const short = tokensMissing(price, have);
    const text = t(n > 1 ? 'multiOpen.insufficientTextMany' : 'caseScreen.insufficientText', {
      n,
      price: formatTokensInt(price),
      balance: formatTokens(have),
      missing: formatTokens(short),
      count: short,
    });
    const choice = await choosePopup(t('caseScreen.insufficientTitle'), text, [
      { id: 'buy', text: t('caseScreen.buy') },
      { id: 'invite', text: t('caseScreen.invite') },
    ]);
    if (choice === 'buy') navigate('/packages');
    else if (choice === 'invite') navigate('/referrals');
  };

  const onOpen = async () => {
    if (!kase || phase !== 'idle') return;
    const n = openCount(count);
    const cost = totalPrice(kase.tokens, n);
    if (balance < cost) {
      void offerTokens(cost, n);
      return;
    }
    haptic.medium();
    // The whole roulette is in view while it spins.
    window.scrollTo({ top: 0 });
    trying.current = false;
    setTried(null);
    // A free try's strip, still resting where it landed, goes back to the start.
    setWinner(null);
    setPhase('opening');
    // The result screen's code downloads while the request and the spin run, so the screen is
    // drawn as the spin ends, not a chunk's round trip later (issue 32, point 9).
    (n > 1 ? import('../case-results') : import('../case-result')).catch(() => undefined);
    const out = await opener.open(kase.id, cost, n);
    if (out.kind === 'busy') return;
    if (out.kind === 'insufficient') {
      setPhase('idle');
      void offerTokens(cost, n);
      return;
    }
    if (out.kind === 'failed') {
      setPhase('idle');
      setWinner(null);
      setWinners([]);
      haptic.error();
      // A break started elsewhere, or a limit reached: the buttons follow as the limits come back.
      const refused = isApiError(out.error) && (out.error.code === 'self_excluded' || out.error.code === 'spend_limit');
      if (refused) void useResponsible.getState().loadLimits();
      toast.error(errorText(out.error, t, 'caseScreen.openError'), refused ? { durationMs: 6000 } : undefined);
      return;
    }
    // Today's spending moved: the open button's limit line follows.
    if (useResponsible.getState().limits?.dailyLimit != null || useResponsible.getState().limits?.pendingChange) {
      void useResponsible.getState().loadLimits();
    }
    const drawn = drawnItems(out.answer);
    won.current = drawn.map((d) => d.item);
    drawn.forEach((d) => useInventory.getState().add(d.item));
    useSession.getState().patchUser({ caseOpened: true });
    const f = out.answer.fair;
    const next = nextNonce(drawn);
    if (f && next !== null) setFair({ serverSeedHash: f.serverSeedHash, clientSeed: f.clientSeed, nonce: next });
    const shown = drawn.map((d) => localized(caseItemFor(d.item, kase), lang));
    if (n > 1) setWinners(shown);
    setWinner(shown[0] ?? null);
    setPhase('spinning');
  };

  /**
   * The free try: the case's published odds drawn on the phone, the full roulette, and a plain
   * notice. No request, no nonce, no balance change, nothing stored.
   */
  const onTry = () => {
    if (!kase || phase !== 'idle') return;
    const pick = pickByOdds(items, Math.random);
    if (!pick) return;
    haptic.light();
    window.scrollTo({ top: 0 });
    trying.current = true;
    setTried(null);
    setPhase('trying');
    // A new object: the roulette starts a new spin for each winner it is given.
    setWinner({ ...pick });
  };

  const onPhase = useCallback(
    (p: SpinPhase) => {
      if (trying.current) {
        if (p === 'highlight') setTried(winnerRef.current);
        if (p === 'leave') {
          trying.current = false;
          // The strip stays where it landed: the marker rests on the item the note names.
          setPhase('idle');
        }
        return;
      }
      // The profile refresh waits for the landing: no network answer lands mid-scroll.
      if (p === 'landed') void useSession.getState().refreshBalance();
      const first = won.current[0];
      if (p !== 'leave' || !first || !kase) return;
      if (won.current.length > 1) {
        const state: CaseResultsState = { weapons: won.current, caseId: kase.id, caseCost: kase.tokens };
        navigate('/case-results', { replace: true, state });
        return;
      }
      const state: CaseResultState = { weapon: first, caseId: kase.id, caseCost: kase.tokens };
      navigate(`/case-result/${first.id}`, { replace: true, state });
    },
    [kase, navigate],
  );

  if (missing) {
    return <GoingHome testId="case-not-found" title={t('caseScreen.notFound')} text={t('caseScreen.notFoundText')} />;
  }
  if (!kase) {
    return (
      <main className={styles.page} data-testid="page-case" aria-busy="true">
        {listed ? <h1 className={styles.title}>{caseTitle(listed, lang)}</h1> : <Skeleton height={28} width="50%" />}
        <Skeleton height={420} radius={18} />
        <Skeleton height={52} radius={12} />
      </main>
    );
  }

  const busy = phase !== 'idle';
  // During a self-exclusion the store offers no open and no free try (responsible play).
  const excluded = runningExclusion(limits);
  const n = openCount(count);
  const cost = totalPrice(kase.tokens, n);
  const short = tokensMissing(cost, balance);
  const price = formatTokensInt(cost);
  // The daily spend limit: the open button says what is left today and when it resets.
  const room = spendRoom(limits, cost);
  const overLimit = room !== null && room.over;
  const limitTexts = room && {
    left: formatTokens(room.left),
    time: formatTime(room.resetsAt),
    cost: formatTokens(cost),
  };
  // A paid-only shop: an open that would spend bonus tokens is announced before it happens.
  const bonus = keepsBonusSkins && short <= 0 ? bonusPart(kase.tokens, n, balance, bonusBalance) : { tokens: 0, skins: 0 };
  // Several strips side by side while a multiple open is chosen (the free try spins one).
  const strips = n > 1 && phase !== 'trying' && !tried ? n : 1;
  return (
    <main className={styles.page} data-testid="page-case" data-phase={phase}>
      {/* Everything a player needs before pressing "open" fits the first screen: the notices,
          the count, the strip and the fairness line (the contents follow below the fold). */}
      <div className={styles.fold}>
        <header className={styles.header}>
          <Img src={kase.image} alt="" className={styles.caseImg} kind="case" />
          <h1 className={styles.title}>{caseTitle(kase, lang)}</h1>
          <TokenAmount value={balance} className={styles.balance} />
        </header>

        {/* A break is said first, above the strip (in view without scrolling). */}
        <BreakNotice place="case" exclusion={excluded} />

        {/* How many to open at once: the open button's price is for all of them. Above the
            strip, never over it. */}
        {!excluded && (
          <div className={`${styles.count} ${busy ? styles.countBusy : ''}`} data-testid="open-count" aria-hidden={busy || undefined}>
            <Segmented
              label={t('multiOpen.count')}
              value={String(n)}
              options={OPEN_COUNTS.map((c) => ({ value: String(c), label: t('multiOpen.countOption', { count: c }) }))}
              onChange={(v) => {
                if (busy) return;
                haptic.selection();
                // A finished free try leaves the single strip: the chosen count draws its own.
                if (tried) {
                  setTried(null);
                  setWinner(null);
                }
                setCount(openCount(v));
              }}
            />
          </div>
        )}

        {!excluded && !busy && bonus.skins > 0 && (
          <div className={styles.bonusWarn} role="note" data-testid="bonus-warning" data-skins={bonus.skins}>
            <span>
              {n > 1
                ? t('caseScreen.bonusWarnMany', { tokens: formatTokens(bonus.tokens), skins: bonus.skins, count: n })
                : t('caseScreen.bonusWarnOne', { tokens: formatTokens(bonus.tokens) })}
            </span>{' '}
            <Link to="/packages" className={styles.fairLink} data-testid="bonus-warning-top-up">
              {t('caseScreen.bonusTopUp')}
            </Link>
          </div>
        )}

        <div className={`${styles.stage} ${strips > 1 ? styles.multi : ''}`} data-strips={strips}>
          {strips > 1 ? (
            Array.from({ length: strips }, (_, i) => (
              <Roulette
                key={`${n}-${i}`}
                items={items}
                winner={winners.length === strips ? (winners[i] ?? null) : null}
                onPhase={i === 0 ? onPhase : undefined}
                lowEnd={lowEnd}
                compact
                quiet={i > 0}
              />
            ))
          ) : (
            <Roulette items={items} winner={winner} onPhase={onPhase} lowEnd={lowEnd} />
          )}
          {(phase === 'trying' || tried) && (
            <p className={styles.tryNote} role="status" data-testid="free-try-note">
              <b>{t('caseScreen.tryNote')}</b>
              {tried && <span data-testid="free-try-result">{t('caseScreen.tryResult', { item: itemLabel(tried) })}</span>}
            </p>
          )}
        </div>

        {/* Right under the roulette: in view above Telegram's bottom buttons. */}
        {fair && (
          <p className={styles.fair} data-testid="fair-line">
            {t('caseScreen.fairLine', { hash: shortHash(fair.serverSeedHash), seed: fair.clientSeed, nonce: fair.nonce })}{' '}
            {busy ? (
              <span className={styles.fairLink}>{t('caseScreen.fairLink')}</span>
            ) : (
              <Link to="/fair" className={styles.fairLink}>
                {t('caseScreen.fairLink')}
              </Link>
            )}
          </p>
        )}
      </div>

      {/* The open button says what is missing; pressing it offers the ways to get tokens. */}
      <MainAction
        testId="open-case"
        text={
          overLimit && limitTexts
            ? t('responsible.limitButton', limitTexts)
            : short > 0
              ? t('caseScreen.openShort', { price, missing: formatTokens(short), count: short })
              : t('caseScreen.open', { price })
        }
        onClick={() => {
          if (overLimit && limitTexts) {
            haptic.error();
            void alertPopup(t('responsible.limitText', limitTexts), t('responsible.limitPopupTitle'));
            return;
          }
          void onOpen();
        }}
        visible={!busy && !excluded}
      />
      <SecondaryAction testId="free-try" text={t('caseScreen.tryFree')} onClick={onTry} visible={!busy && !excluded && canTry(items)} />

      <section className={styles.contents} aria-hidden={busy || undefined}>
        <h2 className={styles.h2}>{t('caseScreen.contents')}</h2>
        <CaseContents items={kase.items} rarityColor={rarityColor} />
      </section>
    </main>
  );
}

const itemLabel = (i: CaseItem) => (i.variant ? `${i.name} | ${i.variant}` : (i.name ?? i.id));
