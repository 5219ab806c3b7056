/**
 * The base URL rule, paycli run in process (docs/configuration.md): a path is kept before the
 * interface path; a query or a fragment is refused before anything is sent, without echoing the
 * query (it may carry a token).
 */
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_base');

describe('base URL with a path, a query or a fragment', () => {
  it('a path is kept: /api/v2 + /transaction/cashout', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env({ PAYCLI_BASE_URL: `${t.gw.url}/api/v2` }) });
    expect(r.code).toBe(0);
    expect(t.gw.received.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /api/v2/transaction/cashout']);
    const slash = await runPaycli(['--base-url', `${t.gw.url}/api/v2/`, ...CASHOUT_ARGS.slice(0, 2), '1551', ...CASHOUT_ARGS.slice(3), '--yes'], { env: t.env() });
    expect(slash.code).toBe(0);
    expect(t.gw.received.at(-1)!.path).toBe('/api/v2/transaction/cashout');
  });
  it('a query or a fragment: exit 2, the query not echoed, nothing sent', async () => {
    for (const [base, shown, what] of [
      [`${t.gw.url}/api?token=s3cr3t-token`, `${t.gw.url}/api?…`, 'query'],
      [`${t.gw.url}/api#frag`, `${t.gw.url}/api#…`, 'fragment'],
      [`${t.gw.url}/?`, `${t.gw.url}/?…`, 'query'],
    ]) {
      const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env({ PAYCLI_BASE_URL: base! }) });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`error: base URL "${shown}" has a ${what}: a base URL is a scheme, a host and optionally a path`);
      expect(r.stderr).not.toContain('s3cr3t-token');
    }
    const set = await runPaycli(['config', 'set', 'base-url', `${t.gw.url}/api?x=1`], { env: t.home.env });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('has a query');
    expect(t.gw.received).toHaveLength(0);
  });
});
