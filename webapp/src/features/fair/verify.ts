/**
 * In-browser check of a provably fair open, the same formula as the server
 * (docs/api.md):
 *   h = HMAC_SHA256(key = server seed as its ASCII hex string, msg = "{clientSeed}:{nonce}")
 *   roll = u64_be(h[0..8]) mod totalWeight
 *   walk the weights in order; the first running sum above roll wins
 *   serverSeedHash = hex(SHA256(server seed string))
 * Uses WebCrypto only: no library.
 */

export interface Weight {
  id: string;
  weight: number;
}

const enc = new TextEncoder();

function hex(buf: ArrayBuffer): string {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', enc.encode(text)));
}

export async function hmacSha256(key: string, message: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', enc.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, enc.encode(message)));
}

export async function computeRoll(serverSeed: string, clientSeed: string, nonce: number, totalWeight: number): Promise<number> {
  const h = await hmacSha256(serverSeed, `${clientSeed}:${nonce}`);
  let v = 0n;
  for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(h[i]!);
  return Number(v % BigInt(totalWeight));
}

export function pickByRoll(weights: readonly Weight[], roll: number): string | null {
  let sum = 0;
  for (const w of weights) {
    sum += w.weight;
    if (sum > roll) return w.id;
  }
  return null;
}

export interface OpenRecord {
  serverSeedHash: string;
  serverSeed: string | null;
  clientSeed: string;
  nonce: number;
  roll: number;
  totalWeight: number;
  weights: Weight[];
  itemId: string;
}

export interface Verification {
  hashMatches: boolean;
  roll: number;
  rollMatches: boolean;
  itemId: string | null;
  itemMatches: boolean;
  ok: boolean;
}

export async function verifyOpen(open: OpenRecord, serverSeed = open.serverSeed ?? ''): Promise<Verification> {
  const total = open.weights.reduce((s, w) => s + w.weight, 0) || open.totalWeight;
  const hashMatches = (await sha256Hex(serverSeed)) === open.serverSeedHash.toLowerCase();
  const roll = await computeRoll(serverSeed, open.clientSeed, open.nonce, total);
  const itemId = pickByRoll(open.weights, roll);
  const rollMatches = roll === open.roll;
  const itemMatches = itemId === open.itemId;
  return { hashMatches, roll, rollMatches, itemId, itemMatches, ok: hashMatches && rollMatches && itemMatches };
}
