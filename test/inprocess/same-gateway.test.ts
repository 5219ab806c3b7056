/**
 * What counts as the same gateway to the duplicate guard, and what one ledger covers
 * (docs/ledger-and-safety.md "What counts as the same gateway"), pinned with paycli run in
 * process (test/helpers/run.ts) against a recording test gateway on 127.0.0.1, counting the requests that arrived.
 */
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { lookupGateway, useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_same_gateway');
const posts = () => t.gw.received.filter((r) => r.method === 'POST');

describe('the same gateway, as the duplicate guard sees it', () => {
  it('a host alias (localhost for 127.0.0.1) is another gateway: an identical cash-out is sent again', async () => {
    const port = new URL(t.gw.url).port;
    const first = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env({ PAYCLI_BASE_URL: `http://127.0.0.1:${port}` }) });
    expect(first.code, first.stderr).toBe(0);
    const alias = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env({ PAYCLI_BASE_URL: `http://localhost:${port}` }) });
    expect(alias.code, alias.stderr).toBe(0);
    expect(posts()).toHaveLength(2);
    // The same host spelt otherwise (case, trailing slash, default path) is the same gateway: refused.
    const same = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env({ PAYCLI_BASE_URL: `HTTP://LOCALHOST:${port}/` }) });
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/an identical cash-out was already sent/);
    expect(posts()).toHaveLength(2);
  });

  it('another HOME has its own ledger: an identical cash-out is sent again, unless its caller-chosen --order-id is already at the gateway', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const other = makeHome();
    const third = makeHome();
    const fourth = makeHome();
    try {
      const a = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
      const b = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: { ...t.env(), ...other.env } });
      expect([a.code, b.code]).toEqual([0, 0]);
      expect(posts()).toHaveLength(2);
      const withRef = [...CASHOUT_ARGS, '--order-id', 'invoice-2026-0042', '--yes'];
      const c = await runPaycli(withRef, { env: { ...t.env(), ...third.env } });
      expect(c.code, c.stderr).toBe(0);
      const d = await runPaycli(withRef, { env: { ...t.env(), ...fourth.env } });
      expect(d.code).toBe(2);
      expect(d.stderr).toMatch(/the gateway already holds order invoice-2026-0042/);
      expect(posts()).toHaveLength(3);
    } finally {
      for (const h of [other, third, fourth]) h.cleanup();
    }
  });
});
