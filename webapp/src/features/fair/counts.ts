/**
 * Players count from 1; the draw counts from 0. The nonce is the formula's number (the first
 * open of a seed pair has nonce 0): screens show "open #1" and keep "nonce 0" only where the
 * formula is being shown (the verifier, the current pair).
 */

/** The open's number as players count it: nonce 0 is open #1. */
export const openNumber = (nonce: number): number => nonce + 1;

/** The opens a revealed seed pair covered, as players count them. */
export function openRange(firstNonce: number, lastNonce: number): { from: number; to: number } {
  return { from: openNumber(firstNonce), to: openNumber(lastNonce) };
}
