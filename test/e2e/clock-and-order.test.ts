/**
 * Times compared as numbers and clocks outside 2000-9999 refused (docs/ledger-and-safety.md, "In
 * flight"); one order reference, one open payment on one machine (docs/order-references.md): the
 * ledger serializes `--order-id` runs that overlap, whatever their amounts.
 */
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, runPaycli } from '../helpers/cli.js';
import { cashOutAnswer, json, useGatewayFixture } from '../helpers/gateway.js';

const KEY = 'sk_test_CLOCK_0123456789abcdef';
const t = useGatewayFixture(KEY);
const withValue = (args: string[], cents: number) => args.map((a) => (a === '1550' || a === '1000' ? String(cents) : a));

describe('a clock outside the years 2000 to 9999', () => {
  for (const [when, shown] of [
    ['10021-01-01 00:00:00', '+010021-01-01'],
    ['0001-01-01 00:00:00', '0001-01-01'],
    ['1999-12-31 23:00:00', '1999-12-31'],
  ] as const) {
    it(`${shown}: refused before anything is asked, generated or sent (exit 2, clock_invalid), cash-out and cash-in, no ledger entry`, async () => {
      for (const args of [[...CASHOUT_ARGS, '--yes'], CASHIN_ARGS]) {
        const r = await runPaycli(['--json', ...args], { env: t.env(), wrapper: ['faketime', when] });
        expect(r.code, r.stderr).toBe(2);
        const err = JSON.parse(r.stderr.trim().split('\n').pop()!).error as { code: string; message: string };
        expect(err.code).toBe('clock_invalid');
        expect(err.message).toContain(`this machine's clock says ${shown}`);
        expect(err.message).toContain('nothing was sent');
      }
      expect(t.gw.received).toHaveLength(0);
      const h = await runPaycli(['history', '--json'], { env: t.env() });
      expect(JSON.parse(h.stdout || '[]')).toEqual([]);
    });
  }

  it('an entry recorded now blocks an identical cash-out however the clock moved since: back to 2026 from 2099, the window holds (times compared as numbers)', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env(), wrapper: ['faketime', '2099-06-01 12:00:00'] })).code).toBe(0);
    const r = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.code).toBe('duplicate_cashout');
    expect(t.gw.received.filter((q) => q.method === 'POST')).toHaveLength(1);
  });
});

describe('one order reference, one open payment (one machine)', () => {
  it('10 overlapping cash-outs with the same --order-id and different amounts: exactly 1 POST; the others exit 2 duplicate_order, nothing sent', async () => {
    t.gw.respond((req, res) => {
      if (req.method === 'GET') return json(res, 404, { message: 'Transaction not found' });
      setTimeout(() => json(res, 200, cashOutAnswer((req.json as { value?: number }).value)), 500);
    });
    const runs = await Promise.all(
      Array.from({ length: 10 }, (_, i) => runPaycli(['--json', ...withValue(CASHOUT_ARGS, 2000 + i), '--yes', '--order-id', 'pedido-42'], { env: t.env(), timeoutMs: 120_000 })),
    );
    const codes = runs.map((r) => r.code).sort();
    expect(codes).toEqual([0, ...Array(9).fill(2)]);
    for (const r of runs.filter((x) => x.code === 2)) expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.code).toBe('duplicate_order');
    expect(t.gw.received.filter((q) => q.method === 'POST')).toHaveLength(1);
    // and once created, the same reference is refused for good (a new payment needs a new reference)
    const again = await runPaycli(['--json', ...withValue(CASHOUT_ARGS, 2100), '--yes', '--order-id', 'pedido-42'], { env: t.env() });
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stderr.trim().split('\n').pop()!).error.message).toContain('order reference pedido-42 was already created at this gateway');
    expect(t.gw.received.filter((q) => q.method === 'POST')).toHaveLength(1);
  }, 120_000);
});
