import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';

import { PLACEHOLDER_IMAGE, resolveImageUrl } from '../../../lib/image';
import { itemKind, silhouetteDataUrl } from '../../../lib/item-kind';
import { haptic } from '../../../lib/telegram';
import { itemIcon, type CaseItem } from '../api';
import { rarityColor } from '../../goods';
import { tryWeight } from '../free-try';
import {
  START_SLOT,
  TIMELINE,
  WIN_SLOT,
  buildStrip,
  countSlots,
  landingJitter,
  nodeForSlot,
  offsetAt,
  offsetForSlot,
  phaseAt,
  poolSize,
  slotAtCentre,
  visibleRange,
  withWinner,
  type SpinPhase,
} from '../roulette';
import styles from './roulette.module.css';

/** Height of one slot, px (card 96 + gap 8). */
export const SLOT_PX = 104;
/** Minimum gap between two selection ticks: a haptic per slot would be a buzz at full speed. */
const TICK_MS = 45;

export interface RouletteProps {
  items: readonly CaseItem[];
  /** The server's item for this spin; a new object starts a new spin, null resets the strip. */
  winner: CaseItem | null;
  onPhase?: (phase: SpinPhase) => void;
  /** Fewer effects on a LOW performance class device: no glow, no ticks, no fades. */
  lowEnd?: boolean;
  /** A narrow column beside others (several opened at once): pictures only, no names. */
  compact?: boolean;
  /** No haptics: one strip of several speaks for all of them. */
  quiet?: boolean;
}

const label = (item: CaseItem | undefined) => (item ? (item.variant ? `${item.name} | ${item.variant}` : (item.name ?? '')) : '');

/** An empty slot's picture: a grey rifle silhouette. */
export const SLOT_FALLBACK = silhouetteDataUrl('rifle');

/** The silhouette of the slot's item type in its rarity's colour (no request, no broken icon). */
const slotFallback = (item: CaseItem | undefined) => silhouetteDataUrl(itemKind(item), item?.rarity);

/** A slot whose picture cannot load shows its silhouette (painted on the image by `paintSlot`). */
const onSlotError = (e: { currentTarget: HTMLImageElement }) => {
  const fallback = e.currentTarget.dataset.fallback ?? SLOT_FALLBACK;
  if (e.currentTarget.getAttribute('src') !== fallback) e.currentTarget.setAttribute('src', fallback);
};

function paintSlot(node: HTMLElement | null | undefined, item: CaseItem | undefined) {
  if (!node) return;
  const img = node.querySelector('img');
  const text = node.querySelector('span');
  const fallback = slotFallback(item);
  const resolved = resolveImageUrl(item ? itemIcon(item) : null);
  const src = resolved === PLACEHOLDER_IMAGE ? fallback : resolved;
  if (img && img.getAttribute('src') !== src) {
    img.dataset.fallback = fallback;
    img.dataset.kind = itemKind(item);
    img.setAttribute('src', src);
  }
  if (text) text.textContent = label(item);
  node.style.setProperty('--rarity', rarityColor(item?.rarity));
}

const isSpecialItem = (item: CaseItem | undefined) => item?.rarity === 'extraordinary';

/** A slot's picture fetched ahead (the landing's neighbours), so it is there when it stops. */
function preload(item: CaseItem | undefined) {
  if (!item || typeof Image === 'undefined' || !itemIcon(item)) return;
  const img = new Image();
  img.decoding = 'async';
  img.src = resolveImageUrl(itemIcon(item));
}

/**
 * The vertical roulette over a virtual strip of 3000 slots filled by the case's odds. The DOM
 * holds a pool of about a viewport of nodes: slot `s` is drawn by node `s mod pool`, each frame
 * moves the nodes in view with one `transform` each, and a node is repainted only when the slot
 * it shows changes (no layout, no node churn). The winner is slot 1500's content.
 */
export const Roulette = memo(function Roulette({ items, winner, onPhase, lowEnd = false, compact = false, quiet = false }: RouletteProps) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const nodesRef = useRef<Array<HTMLDivElement | null>>([]);
  const [viewport, setViewport] = useState(560);
  const pool = poolSize(SLOT_PX, viewport, 1);
  // Filled once per case: the slots keep their look while the player waits and when the answer comes.
  const idle = useMemo(() => buildStrip<CaseItem>(items, tryWeight, null, Math.random, (i) => i.rarity ?? ''), [items]);
  const strip = useMemo(() => (winner ? withWinner(idle, winner) : idle), [idle, winner]);
  const specialSlots = useMemo(() => countSlots(idle, isSpecialItem), [idle]);
  const live = useRef({ offset: 0, shown: [] as number[], highlighted: false });
  const spinning = useRef(false);
  spinning.current = winner !== null;
  const onPhaseRef = useRef(onPhase);
  onPhaseRef.current = onPhase;

  /** Moves the pool to `offset`: each slot in view on its node, repainted only when it changed. */
  const place = (offset: number) => {
    const s = live.current;
    s.offset = offset;
    const { first, last } = visibleRange(offset, SLOT_PX, viewport, 1);
    for (let slot = first; slot <= last; slot++) {
      const k = nodeForSlot(slot, pool);
      const node = nodesRef.current[k];
      if (!node) continue;
      if (s.shown[k] !== slot) {
        paintSlot(node, strip.at(slot));
        s.shown[k] = slot;
        node.dataset.slotIndex = String(slot);
        node.style.visibility = '';
        node.classList.remove(styles.win!);
        node.removeAttribute('data-win');
      }
      node.style.transform = `translate3d(0, ${slot * SLOT_PX - offset}px, 0)`;
    }
    // Nodes without a slot in view (the strip's ends) are hidden.
    for (let k = 0; k < pool; k++) {
      const slot = s.shown[k];
      if (slot !== undefined && (slot < first || slot > last)) {
        const node = nodesRef.current[k];
        if (node) node.style.visibility = 'hidden';
        s.shown[k] = -1;
      }
    }
  };

  /** Forgets what the nodes show: the next `place` repaints every slot (a new strip or winner). */
  const repaintAll = () => {
    live.current.shown = [];
    nodesRef.current.forEach((n) => {
      n?.classList.remove(styles.win!);
      n?.removeAttribute('data-win');
    });
  };

  useLayoutEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    // The strip is laid out for one viewport: a resize during a spin waits for the next idle.
    const measure = () => {
      if (!spinning.current) setViewport(Math.max(200, el.clientHeight));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Idle (and after a failure): the strip rests at the start slot.
  useLayoutEffect(() => {
    if (winner) return;
    live.current.highlighted = false;
    repaintAll();
    place(offsetForSlot(START_SLOT, SLOT_PX, viewport));
  }, [winner, strip, viewport, pool]);

  // A spin: scroll 500 ms, highlight at 2000 ms, leave at 4000 ms (spec section 9).
  useEffect(() => {
    if (!winner) return;
    // The strip is laid out for this height: hold it while the spin runs, whatever Telegram's
    // bottom bar does to the viewport meanwhile (the marker is the viewport's middle).
    const box = viewportRef.current;
    if (box) box.style.height = `${viewport}px`;
    const from = offsetForSlot(START_SLOT, SLOT_PX, viewport);
    const to = offsetForSlot(WIN_SLOT, SLOT_PX, viewport, landingJitter(Math.random));
    // The landing's pictures are fetched while the strip flies.
    for (let d = -4; d <= 4; d++) preload(strip.at(WIN_SLOT + d));
    repaintAll();
    const start = performance.now();
    let raf = 0;
    let lastSlot = slotAtCentre(from, SLOT_PX, viewport);
    let lastTick = 0;
    const frame = (now: number) => {
      const elapsed = now - start;
      const offset = offsetAt(elapsed, from, to);
      place(offset);
      if (!lowEnd && !quiet) {
        const slot = slotAtCentre(offset, SLOT_PX, viewport);
        if (slot !== lastSlot && now - lastTick >= TICK_MS) {
          haptic.selection();
          lastTick = now;
        }
        lastSlot = slot;
      }
      if (phaseAt(elapsed) === 'scrolling') raf = requestAnimationFrame(frame);
      else {
        place(to);
        if (!quiet) haptic.medium();
        onPhaseRef.current?.('landed');
      }
    };
    raf = requestAnimationFrame(frame);
    const timers = [
      setTimeout(() => {
        place(to);
        const j = nodeForSlot(WIN_SLOT, pool);
        nodesRef.current[j]?.classList.add(styles.win!);
        nodesRef.current[j]?.setAttribute('data-win', 'true');
        live.current.highlighted = true;
        if (!quiet) haptic.success();
        onPhaseRef.current?.('highlight');
      }, TIMELINE.highlightAt),
      setTimeout(() => onPhaseRef.current?.('leave'), TIMELINE.navigateAt),
    ];
    return () => {
      cancelAnimationFrame(raf);
      timers.forEach(clearTimeout);
      if (box) box.style.height = '';
    };
  }, [winner]);

  return (
    <div
      className={`${styles.viewport} ${lowEnd ? styles.low : ''} ${compact ? styles.compact : ''}`}
      ref={viewportRef}
      data-testid="roulette"
      data-slots={strip.length}
      data-special-slots={specialSlots}
    >
      {Array.from({ length: pool }, (_, k) => (
        <div
          key={k}
          className={styles.slot}
          data-slot=""
          style={{ visibility: 'hidden' }}
          ref={(el) => {
            nodesRef.current[k] = el;
          }}
        >
          <img className={styles.img} src={SLOT_FALLBACK} alt="" decoding="async" draggable={false} onError={onSlotError} />
          <span className={styles.name} />
        </div>
      ))}
      <div className={styles.marker} aria-hidden data-testid="roulette-marker" />
      {!lowEnd && <div className={styles.fade} aria-hidden />}
    </div>
  );
});
