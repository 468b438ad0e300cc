/**
 * Wear: the exterior bands of a float (Steam's boundaries) and the positions the float bar draws.
 * Factory New < 0.07 ≤ Minimal Wear < 0.15 ≤ Field-Tested < 0.38 ≤ Well-Worn < 0.45 ≤ Battle-Scarred.
 */
export const EXTERIORS = ['Factory New', 'Minimal Wear', 'Field-Tested', 'Well-Worn', 'Battle-Scarred'] as const;
export type Exterior = (typeof EXTERIORS)[number];

/** Each band as [from, to) over the float's 0..1 scale. */
export const WEAR_BANDS: ReadonlyArray<{ exterior: Exterior; from: number; to: number }> = [
  { exterior: 'Factory New', from: 0, to: 0.07 },
  { exterior: 'Minimal Wear', from: 0.07, to: 0.15 },
  { exterior: 'Field-Tested', from: 0.15, to: 0.38 },
  { exterior: 'Well-Worn', from: 0.38, to: 0.45 },
  { exterior: 'Battle-Scarred', from: 0.45, to: 1 },
];

export const isExterior = (v: unknown): v is Exterior => typeof v === 'string' && (EXTERIORS as readonly string[]).includes(v);

/** The exterior a float falls in; null without a float (a vanilla ★ knife). */
export function exteriorOf(float: number | null | undefined): Exterior | null {
  if (typeof float !== 'number' || !Number.isFinite(float)) return null;
  const f = Math.min(Math.max(float, 0), 1);
  return (WEAR_BANDS.find((b) => f < b.to) ?? WEAR_BANDS[WEAR_BANDS.length - 1]).exterior;
}

/**
 * A float as the markets print it: up to 10 decimals, at least 4, with the locale's decimal
 * sign (`0,2500` in Russian, `0.2500` in English: one decimal sign per screen).
 */
export function formatFloat(float: number, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 4, maximumFractionDigits: 10, useGrouping: false }).format(float);
}

/** Percent position (0..100) of a value on the bar, clamped. */
export const barPercent = (v: number) => Math.min(Math.max(v, 0), 1) * 100;

/** The skin's possible range, or null when the item has none (vanilla ★ knife, old items). */
export function wearRange(item: { wearMin?: number | null; wearMax?: number | null }): [number, number] | null {
  const lo = item.wearMin;
  const hi = item.wearMax;
  if (typeof lo !== 'number' || typeof hi !== 'number' || !(lo < hi)) return null;
  return [Math.max(0, lo), Math.min(1, hi)];
}
