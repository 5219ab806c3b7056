import { describe, expect, it } from 'vitest';
import { uuidV7 } from '../../src/ledger/ledger.js';

// The ledger's entry ids (src/ledger/ledger.ts `uuidV7`): RFC 9562 version 7, time first, so that entries
// recorded one after another have neighbouring keys in the `uuid` index.
describe('uuidV7', () => {
  it('is a version 7, variant 10 UUID whose first 48 bits are the time in milliseconds', () => {
    const now = Date.UTC(2026, 10, 23, 12, 34, 56, 789);
    const id = uuidV7(now);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('sorts by time: a later millisecond gives a larger key, as text too', () => {
    const ids = [0, 1, 255, 256, 65_536, 2 ** 32, 2 ** 40, 2 ** 47 + 1].map((offset) => uuidV7(1_700_000_000_000 + offset));
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps 74 random bits: 10,000 ids in the same millisecond are all different', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => uuidV7(1_800_000_000_000)));
    expect(ids.size).toBe(10_000);
    const tails = new Set([...ids].map((id) => id.slice(-12)));
    expect(tails.size).toBe(10_000);
  });
});
