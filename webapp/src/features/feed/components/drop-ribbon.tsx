import { memo, useEffect, useRef, type MouseEvent } from 'react';

import { Img, Skeleton } from '../../../components/ui';
import { useT, type TFunction } from '../../../i18n';
import { useNavigate } from '../../../lib/router';
import { haptic } from '../../../lib/telegram';
import { isLowEndDevice } from '../../../lib/telegram-actions';
import type { FeedDrop } from '../connection';
import { acquireFeed, useFeed } from '../store';
import { ensureFeedTexts } from '../texts';
import styles from './drop-ribbon.module.css';

/** The CSS colour of a rarity (theme.css's palette). */
function rarityColor(rarity: string): string {
  if (rarity === 'extraordinary' || rarity === 'contraband') return 'var(--c-rarity-gold)';
  if (/^(consumer|industrial|milspec|restricted|classified|covert)$/.test(rarity)) return `var(--c-rarity-${rarity})`;
  return 'var(--c-hint)';
}

const EXTERIORS = ['Factory New', 'Minimal Wear', 'Field-Tested', 'Well-Worn', 'Battle-Scarred'];

/** One drop; drawn again only when its own props change (not for every new drop). */
const DropCard = memo(function DropCard({ drop, entering, t }: { drop: FeedDrop; entering: boolean; t: TFunction }) {
  const { item } = drop;
  const exterior = item.exterior && EXTERIORS.includes(item.exterior) ? item.exterior : null;
  const player = drop.firstName || t('feed.anonymous');
  // What the short marks mean, and where a tap goes, for assistive tech (read after the name).
  const spelled = [item.statTrak ? 'StatTrak™' : '', exterior ? t(`condition.${exterior}`) : ''].filter(Boolean).join(', ');
  return (
    <li className={`${styles.card} ${entering ? styles.entering : ''}`} style={{ ['--rarity' as string]: rarityColor(item.rarity) }} data-testid="feed-drop">
      <button type="button" className={styles.tap} data-case={drop.case.id}>
        <Img src={item.image} rarity={item.rarity} className={styles.img} />
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
      </h2>
      {drops.length === 0 && status !== 'live' ? (
        <div className={styles.loading} aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={116} radius={14} />
          ))}
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
