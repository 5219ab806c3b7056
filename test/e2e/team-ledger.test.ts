/**
 * The team ledger on PostgreSQL (src/ledger/pg/, docs/ledger-and-safety.md "Team ledger"): two HOMEs stand
 * for two machines, one private PostgreSQL cluster (test/helpers/postgres.ts), one test gateway.
 * Covers the schema refusal and `ledger migrate`, identical cash-outs from both machines at once,
 * authentication refused and a database stopped (fail closed, the password never shown), the
 * password from the config, and a local-ledger cash-out that never loads the driver.
 * Batches across machines are in team-ledger-batch.test.ts; `ledger push` in team-ledger-push.test.ts.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/team-ledger.test.ts.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, runPaycli, scaledMs, type Home } from '../helpers/cli.js';
import { lookupGateway, startGateway, type LookupGateway, type TestGateway } from '../helpers/gateway.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

const KEY = 'sk_live_TEAM_0123456789abcdef';
const LOADS_HOOK = join(__dirname, '../helpers/report-loads.cjs');
let pg: PgCluster;
let gw: TestGateway;
let l: LookupGateway;
let a: Home;
let b: Home;

beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.destroy();
});
beforeEach(async () => {
  pg.sql('DROP SCHEMA IF EXISTS paycli CASCADE');
  gw = await startGateway();
  l = lookupGateway();
  gw.respond(l.responder);
  a = makeHome();
  b = makeHome();
});
afterEach(async () => {
  await gw.close();
  a.cleanup();
  b.cleanup();
});

/**
 * libpq's connect timeout for every paycli here, in whole seconds: a quarter of the test time limit
 * (never under paycli's own 10 s), so that 20 paycli connecting at once on a busy machine are not
 * refused as "unreachable" (a stopped database still refuses at once).
 */
const CONNECT_S = String(Math.ceil(scaledMs(10_000, 0.25) / 1000));
const env = (h: Home, extra: Record<string, string> = {}) => ({
  ...h.env,
  PAYCLI_BASE_URL: gw.url,
  PAYCLI_API_KEY: KEY,
  PAYCLI_LEDGER_URL: pg.urlWithPassword,
  PGCONNECT_TIMEOUT: CONNECT_S,
  ...extra,
});
const posts = () => gw.received.filter((r) => r.method === 'POST');
const migrate = async () => {
  const r = await runPaycli(['ledger', 'migrate'], { env: env(a) });
  expect(r.code, r.stderr).toBe(0);
};

describe('one guard for every machine', () => {
  it('20 identical cash-outs at once, 10 from each HOME: exactly 1 POST; the other 19 exit 2 duplicate_cashout', async () => {
    await migrate();
    l.delayMs = 200; // the first one is still in flight while the others check
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => runPaycli([...CASHOUT_ARGS, '--yes', '--json'], { env: env(i % 2 ? b : a) })));
    const codes = runs.map((r) => r.code).sort();
    expect(codes, runs.map((r) => r.stderr).join('\n')).toEqual([0, ...Array(19).fill(2)]);
    for (const r of runs.filter((x) => x.code === 2)) expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.code, r.stderr).toBe('duplicate_cashout');
    expect(posts()).toHaveLength(1);
    expect(pg.sql('SELECT count(*) FROM paycli.payments')).toBe('1');
    // Who paid: user, host and paycli version on the entry.
    expect(pg.sql('SELECT os_user IS NOT NULL AND host IS NOT NULL AND version IS NOT NULL FROM paycli.payments')).toBe('t');
    // And the other machine's history shows it, with who sent it (--by, csv).
    const h = await runPaycli(['history', '--json'], { env: env(b) });
    const [entry] = JSON.parse(h.stdout) as Array<{ user: string; host: string }>;
    expect(entry!.user).toBeTruthy();
    const by = await runPaycli(['history', '--json', '--by', `${entry!.user}@${entry!.host.toUpperCase()}`], { env: env(b) });
    expect(JSON.parse(by.stdout)).toHaveLength(1);
    const nobody = await runPaycli(['history', '--json', '--by', 'nobody@nowhere'], { env: env(b) });
    expect(JSON.parse(nobody.stdout)).toHaveLength(0);
    const csv = await runPaycli(['history', '--format', 'csv'], { env: env(b) });
    expect(csv.stdout).toContain(`${entry!.user}`);
    expect(csv.stdout.split('\n')[0]).toMatch(/\buser\b.*\bhost\b/);
  });
});

describe('fail closed', () => {
  it('a local-ledger cash-out never loads the PostgreSQL driver', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], {
      env: { ...env(a), PAYCLI_LEDGER_URL: undefined as unknown as string, PAYCLI_TEST_REPORT_LOADS: '^pg$|pg-worker|^node:worker_threads$' },
      nodeArgs: ['--require', LOADS_HOOK],
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/^loaded /m);
  });
});
