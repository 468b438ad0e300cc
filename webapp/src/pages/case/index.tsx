import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from '../../lib/router';

import { useHideBackButton } from '../../app/back-button';
import { Img, MainAction, Skeleton, toast } from '../../components/ui';
import {
  createCaseOpener,
  fetchCase,
  newRequestId,
  OddsList,
  openCase,
  Roulette,
  TokenAmount,
  useCases,
  type Case,
  type CaseItem,
  type OpenFair,
  type SpinPhase,
} from '../../features/cases';
import { fetchFair } from '../../features/fair';
import { useInventory, type InventoryItem } from '../../features/inventory';
import { useSession } from '../../features/session';
import { useT } from '../../i18n';
import { errorText } from '../../lib/errors';
import { formatTokensInt } from '../../lib/format';
import { choosePopup, useClosingConfirmation } from '../../lib/native-ui';
import { haptic } from '../../lib/telegram';
import { isLowEndDevice, setVerticalSwipes } from '../../lib/telegram-actions';
import styles from './case.module.css';

type Phase = 'idle' | 'opening' | 'spinning';

/** Navigation state the result screen reads (spec: the won weapon, the case id and its cost). */
export interface CaseResultState {
  weapon: InventoryItem;
  caseId: string;
  caseCost: number;
}

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

const shortHash = (h: string) => (h.length > 16 ? `${h.slice(0, 10)}…${h.slice(-6)}` : h);

export function CasePage() {
  const t = useT();
  const navigate = useNavigate();
  const { caseId = '' } = useParams();
  const token = useSession((s) => s.token);
  const balance = useSession((s) => s.user?.balance ?? 0);
  const cached = useCases((s) => s.cases.find((c) => c.id === caseId));
  const [kase, setKase] = useState<Case | null>(cached ?? null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [winner, setWinner] = useState<CaseItem | null>(null);
  const [fair, setFair] = useState<Pick<OpenFair, 'serverSeedHash' | 'clientSeed' | 'nonce'> | null>(null);
  const won = useRef<InventoryItem | null>(null);
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
    fetchCase(caseId)
      .then((c) => live && setKase(c))
      .catch((e: unknown) => {
        if (!live) return;
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

  // Spec: UI locked and back button hidden while a case is opening; closing asks first.
  useHideBackButton(spinningNow);
  useClosingConfirmation(spinningNow);

  const opener = useMemo(
    () =>
      createCaseOpener<InventoryItem>({
        getBalance: () => useSession.getState().user?.balance ?? 0,
        setBalance: (b) => useSession.getState().setBalance(b),
        request: (id, requestId) => openCase(id, useSession.getState().user?.telegramId ?? 0, requestId),
        newRequestId,
      }),
    [],
  );

  /** Spec: not enough tokens offers buying them or inviting friends (a native popup). */
  const offerTokens = async (price: number) => {
    haptic.error();
    const choice = await choosePopup(t('caseScreen.insufficientTitle'), t('caseScreen.insufficientText', { price: formatTokensInt(price), count: price }), [
      { id: 'buy', text: t('caseScreen.buy') },
      { id: 'invite', text: t('caseScreen.invite') },
    ]);
    if (choice === 'buy') navigate('/packages');
    else if (choice === 'invite') navigate('/referrals');
  };

  const onOpen = async () => {
    if (!kase || phase !== 'idle') return;
    if (balance < kase.tokens) {
      void offerTokens(kase.tokens);
      return;
    }
    haptic.medium();
    // The whole roulette is in view while it spins.
    window.scrollTo({ top: 0 });
    setPhase('opening');
    const out = await opener.open(kase.id, kase.tokens);
    if (out.kind === 'busy') return;
    if (out.kind === 'insufficient') {
      setPhase('idle');
      void offerTokens(kase.tokens);
      return;
    }
    if (out.kind === 'failed') {
      setPhase('idle');
      setWinner(null);
      haptic.error();
      toast.error(errorText(out.error, t, 'caseScreen.openError'));
      return;
    }
    const { item, fair: f } = out.answer;
    won.current = item;
    useInventory.getState().add(item);
    useSession.getState().patchUser({ caseOpened: true });
    if (f) setFair({ serverSeedHash: f.serverSeedHash, clientSeed: f.clientSeed, nonce: f.nonce + 1 });
    setWinner(caseItemFor(item, kase));
    setPhase('spinning');
  };

  const onPhase = useCallback(
    (p: SpinPhase) => {
      // The profile refresh waits for the landing: no network answer lands mid-scroll.
      if (p === 'landed') void useSession.getState().refreshBalance();
      if (p !== 'leave' || !won.current || !kase) return;
      const state: CaseResultState = { weapon: won.current, caseId: kase.id, caseCost: kase.tokens };
      navigate(`/case-result/${won.current.id}`, { replace: true, state });
    },
    [kase, navigate],
  );

  if (!kase) {
    return (
      <main className={styles.page} data-testid="page-case" aria-busy="true">
        <Skeleton height={28} width="50%" />
        <Skeleton height={420} radius={18} />
        <Skeleton height={52} radius={12} />
      </main>
    );
  }

  const busy = phase !== 'idle';
  return (
    <main className={styles.page} data-testid="page-case" data-phase={phase}>
      <header className={styles.header}>
        <Img src={kase.image} alt="" className={styles.caseImg} />
        <h1 className={styles.title}>{kase.name}</h1>
        <TokenAmount value={balance} className={styles.balance} />
      </header>

      <div className={styles.stage}>
        <Roulette items={kase.items} winner={winner} onPhase={onPhase} lowEnd={lowEnd} />
      </div>

      <MainAction
        testId="open-case"
        text={t('caseScreen.open', { price: formatTokensInt(kase.tokens) })}
        onClick={() => void onOpen()}
        visible={!busy}
      />

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

      <section className={styles.contents} aria-hidden={busy || undefined}>
        <h2 className={styles.h2}>{t('caseScreen.contents')}</h2>
        <OddsList items={kase.items} />
      </section>

    </main>
  );
}
