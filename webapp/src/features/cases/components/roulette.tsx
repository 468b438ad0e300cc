import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';

import { resolveImageUrl } from '../../../lib/image';
import { haptic } from '../../../lib/telegram';
import { itemIcon, type CaseItem } from '../api';
import { rarityColor } from '../rarity';
import {
  START_SLOT,
  TIMELINE,
  WIN_SLOT,
  buildStrip,
  landingJitter,
  offsetAt,
  offsetForSlot,
  phaseAt,
  poolSize,
  slotAtCentre,
  withWinner,
  type SpinPhase,
  type Strip,
} from '../roulette';
import styles from './roulette.module.css';

export const SLOT_PX = 104;
/** Minimum gap between two selection ticks: a haptic per slot would be a buzz at full speed. */
const TICK_MS = 45;

export interface RouletteProps {
  items: readonly CaseItem[];
  /** The server's item for this spin; a new object starts a new spin, null resets the strip. */
  winner: CaseItem | null;
  onPhase?: (phase: SpinPhase) => void;
  /** Fewer effects on a LOW performance class device: no glow, no ticks, no overscan. */
  lowEnd?: boolean;
}

/**
 * The vertical roulette: a strip of 3000 virtual slots of which only the visible ones exist as
 * DOM nodes (a fixed pool, recycled by slot index modulo the pool size). The spin runs outside
 * React: one requestAnimationFrame loop writes `transform` on the pool nodes and swaps a node's
 * picture only when the slot it shows changes.
 */
export function Roulette({ items, winner, onPhase, lowEnd = false }: RouletteProps) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const nodesRef = useRef<Array<HTMLDivElement | null>>([]);
  const overscan = lowEnd ? 0 : 1;
  const base = useMemo(() => buildStrip<CaseItem>(items, null, Math.random), [items]);
  const state = useRef({
    strip: base as Strip<CaseItem>,
    offset: 0,
    viewport: 0,
    shown: [] as number[],
    highlighted: false,
  });
  const onPhaseRef = useRef(onPhase);
  onPhaseRef.current = onPhase;

  // Pool size from a generous viewport guess; recomputed on resize through `render`.
  const pool = poolSize(SLOT_PX, 900, overscan);

  const paint = () => {
    const s = state.current;
    const n = pool;
    const first = Math.max(0, Math.floor(s.offset / SLOT_PX) - overscan);
    for (let k = 0; k < n; k++) {
      const slot = first + k;
      const j = slot % n;
      const node = nodesRef.current[j];
      if (!node) continue;
      if (s.shown[j] !== slot) {
        s.shown[j] = slot;
        const item = s.strip.at(slot);
        const img = node.firstElementChild as HTMLImageElement;
        const label = node.lastElementChild as HTMLElement;
        const src = resolveImageUrl(item ? itemIcon(item) : null);
        if (img.getAttribute('src') !== src) img.setAttribute('src', src);
        const text = item ? (item.variant ? `${item.name} | ${item.variant}` : item.name) : '';
        if (label.textContent !== text) label.textContent = text;
        node.style.setProperty('--rarity', rarityColor(item?.rarity));
        node.classList.toggle(styles.win!, s.highlighted && slot === WIN_SLOT);
      }
      node.style.transform = `translate3d(0, ${slot * SLOT_PX - s.offset}px, 0)`;
    }
  };

  const measure = () => {
    const el = viewportRef.current;
    state.current.viewport = el ? el.clientHeight : 600;
  };

  // Idle: the strip rests at the start slot.
  useLayoutEffect(() => {
    measure();
    const s = state.current;
    s.strip = base;
    s.shown = [];
    s.highlighted = false;
    s.offset = offsetForSlot(START_SLOT, SLOT_PX, s.viewport);
    paint();
    const el = viewportRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      const before = slotAtCentre(s.offset, SLOT_PX, s.viewport);
      measure();
      s.offset = offsetForSlot(before, SLOT_PX, s.viewport);
      paint();
    });
    ro.observe(el);
    return () => ro.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [base]);

  // A spin: scroll 500 ms, highlight at 2000 ms, leave at 4000 ms (spec section 9).
  useEffect(() => {
    const s = state.current;
    if (!winner) {
      s.strip = base;
      s.highlighted = false;
      s.shown = [];
      s.offset = offsetForSlot(START_SLOT, SLOT_PX, s.viewport);
      paint();
      return;
    }
    s.strip = withWinner(base, winner);
    s.shown = [];
    s.highlighted = false;
    measure();
    const from = offsetForSlot(START_SLOT, SLOT_PX, s.viewport);
    const to = offsetForSlot(WIN_SLOT, SLOT_PX, s.viewport, landingJitter(Math.random));
    const start = performance.now();
    let raf = 0;
    let lastSlot = slotAtCentre(from, SLOT_PX, s.viewport);
    let lastTick = 0;
    const timers: Array<ReturnType<typeof setTimeout>> = [];

    const frame = (now: number) => {
      const elapsed = now - start;
      s.offset = offsetAt(elapsed, from, to);
      paint();
      const slot = slotAtCentre(s.offset, SLOT_PX, s.viewport);
      if (!lowEnd && slot !== lastSlot && now - lastTick >= TICK_MS) {
        haptic.selection();
        lastTick = now;
      }
      lastSlot = slot;
      if (phaseAt(elapsed) === 'scrolling') raf = requestAnimationFrame(frame);
      else onPhaseRef.current?.('landed');
    };
    raf = requestAnimationFrame(frame);
    timers.push(
      setTimeout(() => {
        s.highlighted = true;
        s.shown = [];
        paint();
        haptic.success();
        onPhaseRef.current?.('highlight');
      }, TIMELINE.highlightAt),
      setTimeout(() => onPhaseRef.current?.('leave'), TIMELINE.navigateAt),
    );
    return () => {
      cancelAnimationFrame(raf);
      timers.forEach(clearTimeout);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [winner, base]);

  return (
    <div className={`${styles.viewport} ${lowEnd ? styles.low : ''}`} ref={viewportRef} data-testid="roulette">
      {Array.from({ length: pool }, (_, j) => (
        <div
          key={j}
          className={styles.slot}
          ref={(el) => {
            nodesRef.current[j] = el;
          }}
        >
          <img className={styles.img} alt="" decoding="async" draggable={false} />
          <span className={styles.name} />
        </div>
      ))}
      <div className={styles.marker} aria-hidden />
      {!lowEnd && <div className={styles.fade} aria-hidden />}
    </div>
  );
}
