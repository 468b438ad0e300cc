import { memo, useEffect, useRef, useState, type MouseEvent } from 'react';

import { Img, Skeleton } from '../../../components/ui';
import { useT, type TFunction } from '../../../i18n';
import { useNavigate } from '../../../lib/router';
import { haptic } from '../../../lib/telegram';
import { isLowEndDevice } from '../../../lib/telegram-actions';
import { useCases } from '../../cases';
import { useGates } from '../../gates';
import { useSettings } from '../../settings';
import type { FeedDrop } from '../connection';
import { demoDrops, type DemoDrop } from '../demo-drops';
import { acquireFeed, useFeed } from '../store';
import { ensureFeedTexts } from '../texts';
import styles from './drop-ribbon.module.css';
import { itemKind } from '../../../lib/item-kind';

/** The CSS colour of a rarity (theme.css's palette). */
function rarityColor(rarity: string): string {
  if (rarity === 'extraordinary' || rarity === 'contraband') return 'var(--c-rarity-gold)';
  if (/^(consumer|industrial|milspec|restricted|classified|covert)$/.test(rarity)) return `var(--c-rarity-${rarity})`;
  return 'var(--c-hint)';
}

const EXTERIORS = ['Factory New', 'Minimal Wear', 'Field-Tested', 'Well-Worn', 'Battle-Scarred'];

/** One drop; drawn again only when its own props change (not for every new drop). */
const DropCard = memo(function DropCard({ drop, entering, t }: { drop: FeedDrop | DemoDrop; entering: boolean; t: TFunction }) {
  const { item } = drop;
  const exterior = item.exterior && EXTERIORS.includes(item.exterior) ? item.exterior : null;
  const demo = 'demo' in drop && drop.demo;
  const player = demo ? t('feed.demoPlayer') : drop.firstName || t('feed.anonymous');
  // What the short marks mean, and where a tap goes, for assistive tech (read after the name).
  const spelled = [item.statTrak ? 'StatTrak™' : '', exterior ? t(`condition.${exterior}`) : ''].filter(Boolean).join(', ');
  return (
    <li
      className={`${styles.card} ${entering ? styles.entering : ''}`}
      style={{ ['--rarity' as string]: rarityColor(item.rarity) }}
      data-testid="feed-drop"
      data-demo={demo || undefined}
    >
      <button type="button" className={styles.tap} data-case={drop.case.id}>
        <Img src={item.image} rarity={item.rarity} kind={itemKind(item)} className={styles.img} />
        <span className={styles.name}>{item.name}</span>
        <span className={styles.meta}>
          <span className={styles.player}>{player}</span>
          {item.statTrak && (
            <span className={styles.st} aria-hidden>
              {t('feed.statTrak')}
            </span>
          )}
          {exterior && (
            <span className={styles.ext} aria-hidden>
              {t(`feed.ext.${exterior}`)}
            </span>
          )}
        </span>
        <span className="visually-hidden">{t('feed.cardDetails', { details: spelled ? `${spelled}, ` : '', case: drop.case.name })}</span>
      </button>
    </li>
  );
});

/** Example drops of a fresh demo shop, drawn once per session by the odds (never in a real shop). */
let examplesCache: { lang: string; drops: DemoDrop[] } | null = null;

function useDemoExamples(active: boolean): DemoDrop[] {
  const lang = useSettings((s) => s.language);
  const [drops, setDrops] = useState<DemoDrop[]>(() => (examplesCache?.lang === lang ? examplesCache.drops : []));
  useEffect(() => {
    if (!active) return;
    if (examplesCache?.lang === lang) {
      setDrops(examplesCache.drops);
      return;
    }
    let live = true;
    void (async () => {
      await useCases.getState().load();
      const ids = useCases.getState().cases.slice(0, 3).map((c) => c.id);
      const details = await Promise.all(ids.map((id) => useCases.getState().loadDetail(id).catch(() => null)));
      const drawn = demoDrops(details.filter((d) => d !== null), lang, Math.random);
      examplesCache = { lang, drops: drawn };
      if (live) setDrops(drawn);
    })();
    return () => {
      live = false;
    };
  }, [active, lang]);
  return active ? drops : [];
}

/**
 * The live drop ribbon: the newest drops of every player, newest first, scrolling sideways; a
 * tap opens that drop's case. Re-renders alone on a new drop (its own store), slides the row by
 * one card with a compositor-only transform (none on a low-end phone or with reduced motion).
 */
export function DropRibbon() {
  ensureFeedTexts();
  const t = useT();
  const navigate = useNavigate();
  const drops = useFeed((s) => s.drops);
  const entering = useFeed((s) => s.entering);
  const status = useFeed((s) => s.status);
  const waiting = status === 'waiting';
  // A fresh demo shop: examples drawn by the odds, labelled as such, until a real drop arrives.
  const demoShop = useGates((s) => s.config?.demo === true);
  const examples = useDemoExamples(demoShop && status === 'live' && drops.length === 0);
  const track = useRef<HTMLUListElement>(null);
  const calm = useRef<boolean | null>(null);

  useEffect(() => acquireFeed(), []);

  useEffect(() => {
    const el = track.current;
    if (entering === null || !el || typeof el.animate !== 'function') return;
    calm.current ??= isLowEndDevice();
    if (calm.current) return;
    const first = el.firstElementChild as HTMLElement | null;
    const shift = first ? first.offsetWidth + 8 : 0;
    el.animate([{ transform: `translateX(-${shift}px)` }, { transform: 'translateX(0)' }], { duration: 320, easing: 'cubic-bezier(0.2, 0.8, 0.2, 1)' });
  }, [entering]);

  // One listener for every card: the card carries its case id.
  const onClick = (e: MouseEvent<HTMLUListElement>) => {
    const button = (e.target as HTMLElement).closest<HTMLElement>('[data-case]');
    const id = button?.dataset.case;
    if (!id) return;
    haptic.light();
    navigate(`/case/${encodeURIComponent(id)}`);
  };

  return (
    <section className={styles.section} aria-labelledby="feed-title" data-testid="drop-ribbon" data-status={status}>
      <h2 id="feed-title" className={styles.title}>
        <span className={`${styles.dot} ${waiting ? styles.off : ''}`} aria-hidden />
        {t('feed.title')}
        {waiting && <span className={styles.status}>{t('feed.reconnecting')}</span>}
        {/* In the heading, so the examples keep the ribbon's height (its slot holds it). */}
        {!waiting && drops.length === 0 && examples.length > 0 && (
          <span className={styles.status} title={t('feed.demoNote')} data-testid="feed-demo-note">
            {t('feed.demoShort')}
          </span>
        )}
      </h2>
      {drops.length === 0 && status !== 'live' ? (
        <div className={styles.loading} aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={116} radius={14} />
          ))}
        </div>
      ) : drops.length === 0 && examples.length > 0 ? (
        <div className={styles.viewport}>
          <ul className={styles.track} aria-label={t('feed.demoNote')} onClick={onClick}>
            {examples.map((d) => (
              <DropCard key={d.id} drop={d} entering={false} t={t} />
            ))}
          </ul>
        </div>
      ) : drops.length === 0 ? (
        <p className={styles.empty}>{t('feed.empty')}</p>
      ) : (
        <div className={styles.viewport}>
          <ul ref={track} className={styles.track} aria-label={t('feed.listLabel')} onClick={onClick}>
            {drops.map((d) => (
              <DropCard key={d.id} drop={d} entering={d.id === entering} t={t} />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
