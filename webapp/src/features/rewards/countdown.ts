/**
 * Daily reward countdown: the next claim opens at the first UTC midnight after
 * the last claim. At zero the sheet reads "available".
 */

/** The first UTC midnight strictly after `lastClaim`. */
export function nextUtcMidnight(lastClaim: Date): Date {
  return new Date(
    Date.UTC(lastClaim.getUTCFullYear(), lastClaim.getUTCMonth(), lastClaim.getUTCDate() + 1),
  );
}

/** Milliseconds until the next claim, never negative; 0 when there was no claim. */
export function msUntilNextClaim(lastClaim: string | Date | null | undefined, now: Date): number {
  if (!lastClaim) return 0;
  const last = typeof lastClaim === 'string' ? new Date(lastClaim) : lastClaim;
  if (Number.isNaN(last.getTime())) return 0;
  return Math.max(0, nextUtcMidnight(last).getTime() - now.getTime());
}

/** HH:MM:SS, hours not capped at 24 (a clock skew never shows nonsense). */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}`;
}
