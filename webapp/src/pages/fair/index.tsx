import { useEffect, useState } from 'react';

import { Button, PageHeader, Skeleton, toast } from '../../components/ui';
import { skinName, useCases } from '../../features/cases';
import {
  changeClientSeed,
  computeInstance,
  fetchFair,
  fetchOpens,
  openNumber,
  openRange,
  isValidClientSeed,
  rotateSeed,
  verifyOpen,
  type FairOpen,
  type FairState,
  type InstanceCheck,
  type Verification,
} from '../../features/fair';
import { addTexts, useT } from '../../i18n';
import { errorText } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { useSettings } from '../../features/settings';
import { haptic } from '../../lib/telegram';
import styles from './fair.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts load with it, not in the start-up bundle.
addTexts({ ru, en });

const PAGE_SIZE = 20;

/** An open's check: the draw, and the drop's float / exterior / StatTrak™ when the skin has them. */
type Check = Verification & { instance: InstanceCheck | null };

/** `/fair`: the seed pair, client-seed change, rotation, revealed seeds, in-browser verification. */
export function FairPage() {
  const t = useT();
  const [fair, setFair] = useState<FairState | null>(null);
  const [opens, setOpens] = useState<FairOpen[] | null>(null);
  const [page, setPage] = useState(1);
  const [more, setMore] = useState(false);
  const [seed, setSeed] = useState('');
  const [busy, setBusy] = useState<'seed' | 'rotate' | null>(null);
  const [checks, setChecks] = useState<Record<number, Check | 'unrevealed' | 'running'>>({});
  const cases = useCases((s) => s.cases);
  const details = useCases((s) => s.details);
  const lang = useSettings((s) => s.language);
  const caseName = (id: string) => {
    const c = cases.find((x) => x.id === id);
    return c ? (lang === 'ru' && c.nameRu) || c.name : id;
  };

  const reload = async () => {
    try {
      const [f, o] = await Promise.all([fetchFair(), fetchOpens(1)]);
      setFair(f);
      setOpens(o);
      setPage(1);
      setMore(o.length >= PAGE_SIZE);
      setChecks({});
    } catch (e) {
      toast.error(errorText(e, t, 'fair.loadError'));
      setOpens((x) => x ?? []);
    }
  };

  useEffect(() => {
    void reload();
    void useCases.getState().load();
  }, []);

  // Skin names come from the case details (the store list carries none): one fetch per case shown.
  const shownCases = [...new Set((opens ?? []).map((o) => o.caseId))].join(',');
  useEffect(() => {
    for (const id of shownCases ? shownCases.split(',') : []) void useCases.getState().loadDetail(id).catch(() => undefined);
  }, [shownCases]);

  const loadMore = async () => {
    const next = page + 1;
    try {
      const o = await fetchOpens(next);
      setOpens((cur) => [...(cur ?? []), ...o]);
      setPage(next);
      setMore(o.length >= PAGE_SIZE);
    } catch (e) {
      toast.error(errorText(e, t, 'fair.loadError'));
    }
  };

  const submitSeed = async () => {
    const value = seed.trim();
    if (!isValidClientSeed(value) || busy) return;
    setBusy('seed');
    try {
      await changeClientSeed(value);
      setSeed('');
      haptic.success();
      toast.success(t('fair.seedChanged'));
      await reload();
    } catch (e) {
      toast.error(errorText(e, t));
    } finally {
      setBusy(null);
    }
  };

  const rotate = async () => {
    if (busy) return;
    setBusy('rotate');
    try {
      await rotateSeed();
      haptic.success();
      toast.success(t('fair.rotated'));
      await reload();
    } catch (e) {
      toast.error(errorText(e, t));
    } finally {
      setBusy(null);
    }
  };

  const verify = async (o: FairOpen) => {
    const serverSeed = o.serverSeed ?? fair?.revealed.find((r) => r.serverSeedHash === o.serverSeedHash)?.serverSeed ?? null;
    if (!serverSeed) {
      setChecks((c) => ({ ...c, [o.id]: 'unrevealed' }));
      return;
    }
    setChecks((c) => ({ ...c, [o.id]: 'running' }));
    const v = await verifyOpen(o, serverSeed);
    // The drawn skin's wear range and StatTrak™ come from the case detail (already loaded for the names).
    const detail = await useCases.getState().loadDetail(o.caseId).catch(() => undefined);
    const item = detail?.items.find((i) => i.id === v.itemId);
    const instance =
      item && (typeof item.wearMin === 'number' || item.statTrak) ? await computeInstance(serverSeed, o.clientSeed, o.nonce, item) : null;
    if (v.ok) haptic.success();
    else haptic.error();
    setChecks((c) => ({ ...c, [o.id]: { ...v, instance } }));
  };

  const seedValid = seed.trim() === '' || isValidClientSeed(seed.trim());
  return (
    <main className={styles.page} data-testid="page-fair">
      <PageHeader title={t('fair.title')} />
      <p className={styles.intro}>{t('fair.intro')}</p>

      <h2 className={styles.h2}>{t('fair.current')}</h2>
      <section className={styles.card}>
        {fair ? (
          <dl className={styles.kv}>
            <dt>{t('fair.serverSeedHash')}</dt>
            <dd className={styles.mono} data-testid="fair-hash">{fair.serverSeedHash}</dd>
            <dt>{t('fair.clientSeed')}</dt>
            <dd className={styles.mono} data-testid="fair-client-seed">{fair.clientSeed}</dd>
            <dt>{t('fair.nonce')}</dt>
            <dd className={styles.mono} data-testid="fair-nonce">{fair.nonce}</dd>
          </dl>
        ) : (
          <Skeleton height={120} />
        )}
        <label className={styles.label} htmlFor="client-seed">
          {t('fair.changeSeed')}
        </label>
        <div className={styles.seedRow}>
          <input
            id="client-seed"
            className="field"
            value={seed}
            maxLength={64}
            placeholder={t('fair.seedPlaceholder')}
            onChange={(e) => setSeed(e.target.value)}
            aria-invalid={!seedValid || undefined}
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            data-testid="client-seed-input"
          />
          <Button onClick={submitSeed} disabled={!seed.trim() || !seedValid || busy !== null} loading={busy === 'seed'} data-testid="client-seed-save">
            {t('common.save')}
          </Button>
        </div>
        {seedValid ? <p className={styles.hint}>{t('fair.seedHint')}</p> : <p className={styles.bad}>{t('fair.seedInvalid')}</p>}
        <Button block variant="secondary" onClick={rotate} loading={busy === 'rotate'} disabled={busy !== null} data-testid="fair-rotate">
          {t('fair.rotate')}
        </Button>
      </section>

      <h2 className={styles.h2}>{t('fair.opens')}</h2>
      {opens === null ? (
        <Skeleton height={80} />
      ) : opens.length === 0 ? (
        <p className={styles.none}>{t('fair.noOpens')}</p>
      ) : (
        <ul className={styles.list}>
          {opens.map((o) => {
            const c = checks[o.id];
            return (
              <li key={o.id} className={styles.open} data-testid="fair-open">
                <div className={styles.openHead}>
                  <span className={styles.openTitle}>
                    {caseName(o.caseId)} · {t('fair.openTitle', { n: openNumber(o.nonce) })}
                  </span>
                  <span className={styles.date}>{formatDateTime(o.createdAt)}</span>
                </div>
                <div className={styles.openMeta}>
                  <span>{skinName(details, o.itemId, lang)}</span>
                  <span>{t('fair.rollCheck', { roll: o.roll, total: o.totalWeight })}</span>
                </div>
                {c === undefined || c === 'running' ? (
                  <Button size="sm" variant="secondary" onClick={() => void verify(o)} loading={c === 'running'} data-testid="fair-verify">
                    {t('fair.verify')}
                  </Button>
                ) : c === 'unrevealed' ? (
                  <p className={styles.note} data-testid="fair-unrevealed">{t('fair.notRevealed')}</p>
                ) : (
                  <div className={`${styles.result} ${c.ok ? styles.ok : styles.fail}`} data-testid="fair-result" data-ok={c.ok}>
                    <b>{c.ok ? `✓ ${t('fair.ok')}` : `✗ ${t('fair.mismatch')}`}</b>
                    {/* The formula's own number (from 0), beside the player's open number. */}
                    <span className={styles.mono}>{t('fair.nonceValue', { nonce: o.nonce })}</span>
                    <span>{c.hashMatches ? '✓' : '✗'} {t('fair.hashCheck')}</span>
                    <span>{c.rollMatches ? '✓' : '✗'} {t('fair.rollCheck', { roll: c.roll, total: o.weights.reduce((s, w) => s + w.weight, 0) })}</span>
                    <span>{c.itemMatches ? '✓' : '✗'} {t('fair.itemCheck', { item: skinName(details, c.itemId, lang) })}</span>
                    {c.instance?.float != null && c.instance.exterior && (
                      <span className={styles.mono} data-testid="fair-float">
                        {t('fair.floatCheck', { float: lang === 'ru' ? String(c.instance.float).replace('.', ',') : String(c.instance.float), exterior: t(`condition.${c.instance.exterior}`) })}
                      </span>
                    )}
                    {c.instance && c.instance.statTrak !== null && (
                      <span data-testid="fair-stattrak" data-stattrak={c.instance.statTrak}>
                        {t(c.instance.statTrak ? 'fair.statTrakYes' : 'fair.statTrakNo')}
                      </span>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {more && (
        <Button block variant="ghost" onClick={() => void loadMore()}>
          {t('fair.more')}
        </Button>
      )}

      <h2 className={styles.h2}>{t('fair.revealed')}</h2>
      {fair && fair.revealed.length === 0 && <p className={styles.none}>{t('fair.noRevealed')}</p>}
      {fair && fair.revealed.length > 0 && (
        <ul className={styles.list} data-testid="fair-revealed">
          {fair.revealed.map((r) => (
            <li key={r.serverSeedHash} className={styles.open}>
              <div className={styles.openHead}>
                <span className={styles.openTitle}>
                  {r.lastNonce === null || r.lastNonce === undefined
                    ? t('fair.seedUnused')
                    : t('fair.nonces', openRange(r.firstNonce, r.lastNonce))}
                </span>
                <span className={styles.date}>{formatDateTime(r.revealedAt)}</span>
              </div>
              <dl className={styles.kv}>
                <dt>{t('fair.serverSeed')}</dt>
                <dd className={styles.mono}>{r.serverSeed}</dd>
                <dt>{t('fair.serverSeedHash')}</dt>
                <dd className={styles.mono}>{r.serverSeedHash}</dd>
                <dt>{t('fair.clientSeed')}</dt>
                <dd className={styles.mono}>{r.clientSeed}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
