/**
 * In-browser check of a provably fair open, the same formula as the server
 * (docs/api.md):
 *   h = HMAC_SHA256(key = server seed as its ASCII hex string, msg = "{clientSeed}:{nonce}")
 *   roll = u64_be(h[0..8]) mod totalWeight
 *   walk the weights in order; the first running sum above roll wins
 *   serverSeedHash = hex(SHA256(server seed string))
 * and the drop's instance, from the same seeds:
 *   float: h = HMAC_SHA256(server seed, "{clientSeed}:{nonce}:float"),
 *          u = (u64_be(h[0..8]) >> 11) / 2^53, float = wearMin + u × (wearMax − wearMin)
 *   StatTrak™: u64_be(HMAC_SHA256(server seed, "{clientSeed}:{nonce}:stattrak")[0..8]) mod 10 == 0,
 *          only where the skin exists as StatTrak™
 *   exterior: the goods feature's bands (`WEAR_BANDS`: Factory New < 0.07 ≤ Minimal Wear < 0.15 ≤ …)
 * Uses WebCrypto and BigInt only: no library.
 */
import { exteriorOf, type Exterior } from '../goods';

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

/** `u64_be(HMAC_SHA256(key = serverSeed, message)[0..8])`. */
async function hmacU64(serverSeed: string, message: string): Promise<bigint> {
  const h = await hmacSha256(serverSeed, message);
  let v = 0n;
  for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(h[i]!);
  return v;
}

export async function computeRoll(serverSeed: string, clientSeed: string, nonce: number, totalWeight: number): Promise<number> {
  return Number((await hmacU64(serverSeed, `${clientSeed}:${nonce}`)) % BigInt(totalWeight));
}

const TWO_POW_53 = 2 ** 53;

/**
 * The drop's float inside the skin's wear range. The top 53 bits convert to a number exactly and
 * dividing by 2^53 is exact too, so this is the server's f64 to the last bit.
 */
export async function computeFloat(serverSeed: string, clientSeed: string, nonce: number, wearMin: number, wearMax: number): Promise<number> {
  const u = Number((await hmacU64(serverSeed, `${clientSeed}:${nonce}:float`)) >> 11n) / TWO_POW_53;
  return wearMin + u * (wearMax - wearMin);
}

/** Whether the draw is StatTrak™ (one in ten); a skin without StatTrak™ never is, whatever this says. */
export async function computeStatTrak(serverSeed: string, clientSeed: string, nonce: number): Promise<boolean> {
  return (await hmacU64(serverSeed, `${clientSeed}:${nonce}:stattrak`)) % 10n === 0n;
}

/** What the verifier needs of the drawn skin (the case detail's item). */
export interface WearInfo {
  wearMin?: number | null;
  wearMax?: number | null;
  statTrak?: boolean;
}

export interface InstanceCheck {
  /** null for a skin without a wear range (a vanilla ★ knife). */
  float: number | null;
  exterior: Exterior | null;
  /** null where the skin does not exist as StatTrak™. */
  statTrak: boolean | null;
}

/** The recomputed float, exterior and StatTrak™ of an open's drop of `item`. */
export async function computeInstance(serverSeed: string, clientSeed: string, nonce: number, item: WearInfo): Promise<InstanceCheck> {
  const { wearMin: lo, wearMax: hi } = item;
  const float = typeof lo === 'number' && typeof hi === 'number' ? await computeFloat(serverSeed, clientSeed, nonce, lo, hi) : null;
  const statTrak = item.statTrak ? await computeStatTrak(serverSeed, clientSeed, nonce) : null;
  return { float, exterior: float === null ? null : exteriorOf(float), statTrak };
}

export function pickByRoll(weights: readonly Weight[], roll: number): string | null {
  let sum = 0;
  for (const w of weights) {
    sum += w.weight;
    if (sum > roll) return w.id;
  }
  return null;
}

/** What the verifier reads of an open (`GET /fair/opens`' `OpenRecord` is one). */
export interface OpenRecord {
  serverSeedHash: string;
  /** Null (or absent) until the seed is revealed. */
  serverSeed?: string | null;
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
