import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeFloat, computeInstance, computeRoll, computeStatTrak, pickByRoll, sha256Hex, verifyOpen } from './verify';

const serverSeed = 'a'.repeat(32) + '0123456789abcdef0123456789abcdef';
const weights = [
  { id: 'p250', weight: 4000 },
  { id: 'mp9', weight: 3000 },
  { id: 'ak', weight: 2500 },
  { id: 'knife', weight: 500 },
];

/** The reference: Node's own HMAC, as the server computes it. */
function referenceRoll(seed: string, client: string, nonce: number, total: number) {
  const h = createHmac('sha256', seed).update(`${client}:${nonce}`).digest();
  return Number(h.readBigUInt64BE(0) % BigInt(total));
}

/** The float's reference: Node's HMAC, u = (u64 >> 11) / 2^53. */
function referenceFloat(seed: string, client: string, nonce: number, lo: number, hi: number) {
  const h = createHmac('sha256', seed).update(`${client}:${nonce}:float`).digest();
  return lo + (Number(h.readBigUInt64BE(0) >> 11n) / 2 ** 53) * (hi - lo);
}

function referenceStatTrak(seed: string, client: string, nonce: number) {
  return createHmac('sha256', seed).update(`${client}:${nonce}:stattrak`).digest().readBigUInt64BE(0) % 10n === 0n;
}

describe('drop instance verification', () => {
  it('computes the same float and StatTrak™ as the reference HMAC', async () => {
    let stat = 0;
    for (let nonce = 0; nonce < 40; nonce++) {
      expect(await computeFloat(serverSeed, 'my-seed', nonce, 0.06, 0.8)).toBe(referenceFloat(serverSeed, 'my-seed', nonce, 0.06, 0.8));
      const st = await computeStatTrak(serverSeed, 'my-seed', nonce);
      expect(st).toBe(referenceStatTrak(serverSeed, 'my-seed', nonce));
      stat += Number(st);
    }
    expect(stat).toBeGreaterThan(0);
  });

  it('agrees with the server on the fixed vector (fair.rs the_shared_float_vector)', async () => {
    const seed = '5d2b0f8e3a6c4b1d9e7f0a2c4e6b8d1f3a5c7e9b0d2f4a6c8e1b3d5f7a9c0e2b';
    const f = await computeFloat(seed, 'cs', 7, 0.06, 0.8);
    expect(f).toBe(0.6967838342375317);
    expect(await computeStatTrak(seed, 'cs', 7)).toBe(false);
    expect(await computeInstance(seed, 'cs', 7, { wearMin: 0.06, wearMax: 0.8, statTrak: true })).toEqual({
      float: 0.6967838342375317,
      exterior: 'Battle-Scarred',
      statTrak: false,
    });
  });

  it('gives no float without a range and no StatTrak™ where the skin has none', async () => {
    expect(await computeInstance(serverSeed, 'c', 1, { statTrak: false })).toEqual({ float: null, exterior: null, statTrak: null });
  });
});

describe('fairness verification', () => {
  it('computes the same roll as the reference HMAC', async () => {
    for (let nonce = 0; nonce < 20; nonce++) {
      expect(await computeRoll(serverSeed, 'my-seed', nonce, 10000)).toBe(referenceRoll(serverSeed, 'my-seed', nonce, 10000));
    }
  });

  it('hashes the seed as its hex string', async () => {
    expect(await sha256Hex(serverSeed)).toBe(createHash('sha256').update(serverSeed).digest('hex'));
  });

  it('walks the weights: the first running sum above the roll wins', () => {
    expect(pickByRoll(weights, 0)).toBe('p250');
    expect(pickByRoll(weights, 3999)).toBe('p250');
    expect(pickByRoll(weights, 4000)).toBe('mp9');
    expect(pickByRoll(weights, 9499)).toBe('ak');
    expect(pickByRoll(weights, 9999)).toBe('knife');
  });

  it('accepts an honest open and catches a forged one', async () => {
    const roll = referenceRoll(serverSeed, 'c', 3, 10000);
    const honest = {
      serverSeedHash: createHash('sha256').update(serverSeed).digest('hex'),
      serverSeed,
      clientSeed: 'c',
      nonce: 3,
      roll,
      totalWeight: 10000,
      weights,
      itemId: pickByRoll(weights, roll)!,
    };
    expect((await verifyOpen(honest)).ok).toBe(true);
    const forged = { ...honest, itemId: honest.itemId === 'knife' ? 'p250' : 'knife' };
    const v = await verifyOpen(forged);
    expect(v.ok).toBe(false);
    expect(v.itemMatches).toBe(false);
    expect((await verifyOpen(honest, 'b'.repeat(64))).hashMatches).toBe(false);
  });
});
