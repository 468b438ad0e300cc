/**
 * WCAG 2 contrast arithmetic. Telegram's own palettes put grey hints (3.7:1) and white on blue
 * buttons (3.7:1) below AA, so the shell derives the colours text is drawn in from whatever
 * palette is active: each keeps its hue and moves toward the text colour until it reaches
 * 4.5:1 on the backgrounds it sits on.
 */
export type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  let h = m[1];
  if (h.length === 3) h = h.replace(/./g, (c) => c + c);
  const n = parseInt(h, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function toHex([r, g, b]: Rgb): `#${string}` {
  return `#${[r, g, b].map((v) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, '0')).join('')}`;
}

function channel(v: number): number {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/**
 * `fg` moved toward `toward` in small steps until it has `min` contrast on every background
 * (rounded to whole channels, re-checked after rounding). `fg` itself when it already passes.
 */
export function ensureContrast(fg: string, backgrounds: string[], min: number, toward: string): string {
  const f = parseHex(fg);
  const target = parseHex(toward);
  const bgs = backgrounds.map(parseHex).filter((b): b is Rgb => b !== null);
  if (!f || !target || bgs.length === 0) return fg;
  const passes = (c: Rgb) => bgs.every((b) => contrast(c, b) >= min);
  for (let step = 0; step <= 40; step += 1) {
    const c = parseHex(toHex(mix(f, target, step / 40))) as Rgb;
    if (passes(c)) return toHex(c);
  }
  return toward;
}

/** Black or white, whichever reads better on `bg`. */
export function readableOn(bg: string): '#000000' | '#ffffff' {
  const b = parseHex(bg);
  if (!b) return '#ffffff';
  return contrast([255, 255, 255], b) >= contrast([0, 0, 0], b) ? '#ffffff' : '#000000';
}

export function isDark(bg: string): boolean {
  const b = parseHex(bg);
  return b ? luminance(b) < 0.18 : true;
}
