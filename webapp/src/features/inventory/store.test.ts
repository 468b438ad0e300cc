import { beforeEach, describe, expect, it, vi } from 'vitest';

const fetchItems = vi.fn(async () => [{ id: 1, name: 'AK-47', tokenPrice: 1, status: 'received' }]);
vi.mock('./api', () => ({ fetchItems }));

const { INVENTORY_TTL_MS, isFresh, useInventory } = await import('./store');

describe('inventory cache', () => {
  beforeEach(() => {
    fetchItems.mockClear();
    useInventory.setState({ items: [], fetchedAt: 0, loading: false, error: null });
  });

  it('is fresh for 15 s', () => {
    expect(INVENTORY_TTL_MS).toBe(15_000);
    expect(isFresh(1000, 15_999, INVENTORY_TTL_MS)).toBe(true);
    expect(isFresh(1000, 16_000, INVENTORY_TTL_MS)).toBe(false);
    expect(isFresh(0, 1, INVENTORY_TTL_MS)).toBe(false);
  });

  it('refreshes at most every 15 s unless forced', async () => {
    await useInventory.getState().load();
    await useInventory.getState().load();
    expect(fetchItems).toHaveBeenCalledTimes(1);
    await useInventory.getState().load(true);
    expect(fetchItems).toHaveBeenCalledTimes(2);
    expect(useInventory.getState().items).toHaveLength(1);
  });
});
