import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';

import { resolveImageUrl } from '../../../lib/image';
import { haptic } from '../../../lib/telegram';
import { itemIcon, type CaseItem } from '../api';
import { rarityColor } from '../rarity';
import {
  START_SLOT,
  TIMELINE,
  WIN_SLOT,
  buildStrip,
  clearAroundWinner,
  landingJitter,
  offsetAt,
  offsetForSlot,
  phaseAt,
  slotAtCentre,
  stripNodeCount,
  stripPosition,
  winnerNode,
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

/** A slot whose picture cannot load shows this silhouette over the slot's rarity glow (no broken icon). */
export const SLOT_FALLBACK =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 24'%3E%3Cpath fill='%23808b99' d='M2 9h30l3-3h9l2 3h14v4h-6l-1 2H38l-2 3h-5l-1 4h-7l2-6H8l-2 2H2z'/%3E%3C/svg%3E";

const onSlotError = (e: { currentTarget: HTMLImageElement }) => {
  if (e.currentTarget.getAttribute('src') !== SLOT_FALLBACK) e.currentTarget.setAttribute('src', SLOT_FALLBACK);
};

function paintSlot(node: HTMLElement | null | undefined, item: CaseItem | undefined) {
  if (!node) return;
  const img = node.querySelector('img');
  const text = node.querySelector('span');
  const src = resolveImageUrl(item ? itemIcon(item) : null);
  if (img && img.getAttribute('src') !== src) img.setAttribute('src', src);
  if (text) text.textContent = label(item);
  node.style.setProperty('--rarity', rarityColor(item?.rarity));
}

/**
 * The vertical roulette over a virtual strip of 3000 slots. The strip cycles with a period, so
 * the DOM holds one period plus a viewport of slots with fixed content, and a frame only moves
 * that block with `transform` (offset modulo the period): no layout, no repaint, no node churn.
 * The winner's picture is put on its node once slot 1500 is the only slot that node can show.
 */
export const Roulette = memo(function Roulette({ items, winner, onPhase, lowEnd = false, compact = false, quiet = false }: RouletteProps) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const stripRef = useRef<HTMLDivElement>(null);
  const nodesRef = useRef<Array<HTMLDivElement | null>>([]);
  const [viewport, setViewport] = useState(560);
  const visible = Math.ceil(viewport / SLOT_PX) + 2;
  const idle = useMemo(() => buildStrip<CaseItem>(items, null, Math.random, visible), [items, visible]);
  // Once the winner is known, no copy of its item sits within two slots of it.
  const strip = useMemo(() => (winner ? clearAroundWinner(idle, (i) => i.id === winner.id) : idle), [idle, winner]);
  const nodes = stripNodeCount(viewport, SLOT_PX, strip.period);
  const live = useRef({ offset: 0, winnerAt: -1, highlighted: false });
  const spinning = useRef(false);
  spinning.current = winner !== null;
  const onPhaseRef = useRef(onPhase);
  onPhaseRef.current = onPhase;

  const place = (offset: number, win: CaseItem | null) => {
    const s = live.current;
    s.offset = offset;
    const { translate } = stripPosition(offset, SLOT_PX, strip.period);
    if (stripRef.current) stripRef.current.style.transform = `translate3d(0, ${translate}px, 0)`;
    const j = win ? winnerNode(offset, SLOT_PX, strip.period, nodes) : -1;
    if (j !== s.winnerAt) {
      if (s.winnerAt >= 0) {
        const old = nodesRef.current[s.winnerAt];
        paintSlot(old, strip.at(s.winnerAt % strip.period));
        old?.classList.remove(styles.win!);
        old?.removeAttribute('data-win');
      }
      if (j >= 0 && win) paintSlot(nodesRef.current[j], win);
      s.winnerAt = j;
    }
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
    nodesRef.current.forEach((n) => {
      n?.classList.remove(styles.win!);
      n?.removeAttribute('data-win');
    });
    place(offsetForSlot(START_SLOT, SLOT_PX, viewport), null);
  }, [winner, strip, viewport]);

  // A spin: scroll 500 ms, highlight at 2000 ms, leave at 4000 ms (spec section 9).
  useEffect(() => {
    if (!winner) return;
    // The strip is laid out for this height: hold it while the spin runs, whatever Telegram's
    // bottom bar does to the viewport meanwhile (the marker is the viewport's middle).
    const box = viewportRef.current;
    if (box) box.style.height = `${viewport}px`;
    const from = offsetForSlot(START_SLOT, SLOT_PX, viewport);
    const to = offsetForSlot(WIN_SLOT, SLOT_PX, viewport, landingJitter(Math.random));
    const start = performance.now();
    let raf = 0;
    let lastSlot = slotAtCentre(from, SLOT_PX, viewport);
    let lastTick = 0;
    const frame = (now: number) => {
      const elapsed = now - start;
      const offset = offsetAt(elapsed, from, to);
      place(offset, winner);
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
        place(to, winner);
        if (!quiet) haptic.medium();
        onPhaseRef.current?.('landed');
      }
    };
    raf = requestAnimationFrame(frame);
    const timers = [
      setTimeout(() => {
        place(to, winner);
        const j = live.current.winnerAt;
        if (j >= 0) {
          nodesRef.current[j]?.classList.add(styles.win!);
          nodesRef.current[j]?.setAttribute('data-win', 'true');
        }
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
    >
      <div className={styles.strip} ref={stripRef}>
        {Array.from({ length: nodes }, (_, j) => {
          const item = strip.at(j % strip.period);
          return (
            <div
              key={j}
              className={styles.slot}
              data-slot=""
              style={{ top: j * SLOT_PX, ['--rarity' as string]: rarityColor(item?.rarity) }}
              ref={(el) => {
                nodesRef.current[j] = el;
              }}
            >
              <img className={styles.img} src={resolveImageUrl(item ? itemIcon(item) : null)} alt="" decoding="async" draggable={false} onError={onSlotError} />
              <span className={styles.name}>{label(item)}</span>
            </div>
          );
        })}
      </div>
      <div className={styles.marker} aria-hidden data-testid="roulette-marker" />
      {!lowEnd && <div className={styles.fade} aria-hidden />}
    </div>
  );
});
