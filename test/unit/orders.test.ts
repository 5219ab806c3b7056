/** Pure logic of order references and lookups: the generator, reference rules, --since, status keys. */
import { describe, expect, it } from 'vitest';
import { MAX_ORDER_ID, newOrderId, orderIdProblem, withOrderId } from '../../src/gateway/order-id.js';
import { parseSince } from '../../src/cli/run/reconcile.js';
import { statusKey } from '../../src/cli/run/status.js';
import { lookupPath } from '../../src/gateway/lookup.js';
import { DEFAULT_LOOKUP_PATHS } from '../../src/gateway/contract.js';
import type { Settings } from '../../src/config/settings.js';

describe('newOrderId', () => {
  it('is paycli- and a ULID (26 Crockford base32 characters), unique, sorting by time', () => {
    const ids = Array.from({ length: 1000 }, () => newOrderId());
    for (const id of ids) expect(id).toMatch(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(1000);
    expect(orderIdProblem(ids[0]!)).toBeNull();
    const a = newOrderId();
    const t = Date.now(); // a's millisecond or a later one
    while (Date.now() <= t) {
      /* next millisecond */
    }
    expect(newOrderId().slice(7, 17) > a.slice(7, 17)).toBe(true);
  });
  it('draws its 16 random characters from all 32 symbols, about evenly (node:crypto bytes)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const c of newOrderId().slice(17)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 32,000 characters: 1,000 expected per symbol; a fair source stays far inside these bounds
    for (const n of counts.values()) expect(n).toBeGreaterThan(800), expect(n).toBeLessThan(1200);
  });
});

describe('orderIdProblem', () => {
  it('accepts URL-path-safe references up to the limit and names what is wrong otherwise', () => {
    for (const ok of ['pedido-1234', 'A1', "a.b_c~d:e@f!g$h&i'j(k)l*m+n,o;p=q", 'x'.repeat(MAX_ORDER_ID)]) expect(orderIdProblem(ok), ok).toBeNull();
    expect(orderIdProblem('')).toMatch(/must not be empty/);
    expect(orderIdProblem('x'.repeat(MAX_ORDER_ID + 1))).toMatch(/more than the 100 allowed/);
    for (const bad of ['a b', 'a/b', 'a%2F', 'a?b', 'a#b', 'pedido\n1', 'ação']) expect(orderIdProblem(bad), bad).toMatch(/may hold only/);
  });
});

describe('withOrderId', () => {
  it('keeps a given reference, generates one in auto mode, none when off; never changes the argument', () => {
    const given = { value: 1, orderId: 'mine' };
    expect(withOrderId(given, 'auto')).toEqual({ body: given, generated: false });
    const bare = { value: 1 } as { value: number; orderId?: string };
    const auto = withOrderId(bare, 'auto');
    expect(auto.generated).toBe(true);
    expect(auto.body.orderId).toMatch(/^paycli-/);
    expect(bare).toEqual({ value: 1 });
    expect(withOrderId(bare, 'off')).toEqual({ body: bare, generated: false });
  });
});

describe('parseSince', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('takes durations back from now and dates (a date alone is midnight UTC)', () => {
    expect(parseSince('7d', now)).toBe(now - 7 * 86_400_000);
    expect(parseSince('24h', now)).toBe(now - 86_400_000);
    expect(parseSince('30m', now)).toBe(now - 1_800_000);
    expect(parseSince('2026-11-01', now)).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(parseSince('2026-11-01T10:00:00-03:00', now)).toBe(Date.parse('2026-11-01T13:00:00Z'));
  });
  it('refuses anything else (exit 2)', () => {
    for (const bad of ['anteontem', '7', '7x', '', '2026-13-45']) expect(() => parseSince(bad, now), bad).toThrow(/--since/);
  });
});

describe('statusKey', () => {
  it('takes exactly one of a whole-number id and a valid --order-id', () => {
    expect(statusKey('9029', undefined)).toEqual({ transactionId: 9029 });
    expect(statusKey(undefined, ' pedido-1 ')).toEqual({ orderId: 'pedido-1' });
    expect(() => statusKey(undefined, undefined)).toThrow(/give the transaction id/);
    expect(() => statusKey('1', 'x')).toThrow(/not both/);
    expect(() => statusKey('12a', undefined)).toThrow(/whole number/);
    expect(() => statusKey(undefined, 'a/b')).toThrow(/--order-id/);
  });
});

describe('lookupPath', () => {
  it('fills the templates with the URL-encoded value', () => {
    const s = { ...DEFAULT_LOOKUP_PATHS } as unknown as Settings;
    expect(lookupPath(s, { transactionId: 9029 })).toBe('/transaction/get/by/id/9029');
    expect(lookupPath(s, { orderId: 'a:b@c' })).toBe('/transaction/get/by/orderId/a%3Ab%40c');
    expect(lookupPath({ ...s, statusByOrderPath: '/o/{orderId}/{orderId}' }, { orderId: 'x' })).toBe('/o/x/x');
  });
});
