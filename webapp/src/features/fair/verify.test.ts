import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeRoll, pickByRoll, sha256Hex, verifyOpen } from './verify';

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
