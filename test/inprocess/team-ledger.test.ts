/**
 * The team ledger on PostgreSQL (src/ledger/pg/, docs/ledger-and-safety.md "Team ledger"): two HOMEs stand
 * for two machines, one private PostgreSQL cluster (test/helpers/postgres.ts), one test gateway.
 * Covers the schema refusal and `ledger migrate`, identical cash-outs from both machines at once,
 * authentication refused and a database stopped (fail closed, the password never shown), the
 * password from the config, and a local-ledger cash-out that never loads the driver.
 * Batches across machines are in team-ledger-batch.test.ts; `ledger push` in team-ledger-push.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, scaledMs, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { lookupGateway, startGateway, type LookupGateway, type TestGateway } from '../helpers/gateway.js';
import { PG_PASSWORD, startPostgres, type PgCluster } from '../helpers/postgres.js';

const KEY = 'sk_live_TEAM_0123456789abcdef';
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

describe('schema', () => {
  it('a payment on a team ledger without the schema exits 2 naming `paycli ledger migrate`, nothing sent; migrate makes it (once), then the payment goes', async () => {
    const before = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env(a) });
    expect(before.code).toBe(2);
    expect(before.stderr).toContain('paycli ledger migrate');
    expect(before.stderr).toContain(`127.0.0.1:${pg.port}/payments`);
    expect(before.stderr).toContain('nothing was sent');
    expect(posts()).toHaveLength(0);
    const m1 = await runPaycli(['ledger', 'migrate'], { env: env(a) });
    expect(m1.code, m1.stderr).toBe(0);
    expect(m1.stderr).toContain('now at schema 2 (was 0)');
    const m2 = await runPaycli(['ledger', 'migrate'], { env: env(b) });
    expect(m2.stderr).toContain('at schema 2 already');
    const ok = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env(a) });
    expect(ok.code, ok.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(pg.sql('SELECT count(*) FROM paycli.payments')).toBe('1');
  });

  it('a schema newer than this paycli: exit 2, nothing sent', async () => {
    await migrate();
    pg.sql(`UPDATE paycli.meta SET value = '99' WHERE key = 'schema_version'`);
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env(a) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('schema 99, newer than this paycli');
    expect(posts()).toHaveLength(0);
  });
});

describe('receipts from any machine', () => {
  it('a schema 1 team ledger migrates to 2; a cash-out sent from one machine gets its receipt on another, with the fee and net its create answer gave', async () => {
    await migrate();
    pg.sql(`ALTER TABLE paycli.payments DROP COLUMN answer; UPDATE paycli.meta SET value = '1' WHERE key = 'schema_version'`);
    const old = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env(a) });
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('paycli ledger migrate');
    const m = await runPaycli(['ledger', 'migrate'], { env: env(b) });
    expect(m.stderr).toContain('now at schema 2 (was 1)');
    const sent = await runPaycli([...CASHOUT_ARGS, '--order-id', 'team-1', '--yes'], { env: env(a) });
    expect(sent.code, sent.stderr).toBe(0);
    l.held[0]!.status = 'paid';
    const r = await runPaycli(['--json', 'receipt', '--order-id', 'team-1'], { env: env(b) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'cashout', orderId: 'team-1', value: 1550, fee: 65, net: 1485, status: 'paid', recipient: { pixKey: 'fu***@example.com' } });
    expect(pg.sql(`SELECT status FROM paycli.payments WHERE order_id = 'team-1'`)).toBe('paid');
  });
});

describe('one guard for every machine', () => {
  it('a cash-out recorded unknown on one machine blocks the same cash-out on the other until reconcile settles it there, without paying twice', async () => {
    await migrate();
    l.next.push('drop-after-create'); // created, then the answer is lost
    l.nextGet.push(...Array(10).fill('503')); // and its own lookups fail: it stays unknown
    const first = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env(a, { PAYCLI_SETTLE_AFTER: '0' }) });
    expect(first.code, first.stderr).toBe(4);
    expect(pg.sql(`SELECT outcome FROM paycli.payments`)).toBe('unknown');
    l.nextGet = [];
    expect(posts()).toHaveLength(1);
    const rec = await runPaycli(['reconcile', '--json'], { env: env(b) });
    expect(JSON.parse(rec.stdout)).toMatchObject({ settled: 1, unknown: 0 });
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env(b) });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already sent');
    expect(posts()).toHaveLength(1);
  });
});

describe('fail closed', () => {
  it('a wrong password: exit 2 naming the host, never the password; nothing sent', async () => {
    await migrate();
    const wrong = `postgres://paycli:WRONG_pw_123456@127.0.0.1:${pg.port}/payments`;
    const r = await runPaycli([...CASHOUT_ARGS, '--yes', '--verbose'], { env: env(a, { PAYCLI_LEDGER_URL: wrong }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the team ledger at 127.0.0.1:${pg.port}/payments refused authentication`);
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr + r.stdout).not.toContain('WRONG_pw_123456');
    expect(posts()).toHaveLength(0);
  });

  it('the password from `config set ledger-password` (masked by config get), the URL without one', async () => {
    await migrate();
    const e = env(a, { PAYCLI_LEDGER_URL: '' });
    const set1 = await runPaycli(['config', 'set', 'ledger-url', pg.url, '--create'], { env: e });
    expect(set1.code, set1.stderr).toBe(0);
    const set2 = await runPaycli(['config', 'set', 'ledger-password'], { env: e, input: `${PG_PASSWORD}\n` });
    expect(set2.code, set2.stderr).toBe(0);
    const get = await runPaycli(['config', 'get', 'ledger-password'], { env: e });
    expect(get.stdout + get.stderr).not.toContain(PG_PASSWORD);
    const list = await runPaycli(['config', 'list', '--json'], { env: e });
    expect(list.stdout + list.stderr).not.toContain(PG_PASSWORD);
    const r = await runPaycli([...CASHOUT_ARGS, '--yes', '--verbose'], { env: e });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).not.toContain(PG_PASSWORD);
    expect(pg.sql('SELECT count(*) FROM paycli.payments')).toBe('1');
  });

  it('the URL password is redacted by config get', async () => {
    const e = env(a, { PAYCLI_LEDGER_URL: '' });
    await runPaycli(['config', 'set', 'ledger-url', pg.urlWithPassword, '--create'], { env: e });
    const get = await runPaycli(['config', 'get', 'ledger-url'], { env: e });
    expect(get.stdout).toContain(`127.0.0.1:${pg.port}/payments`);
    expect(get.stdout + get.stderr).not.toContain(PG_PASSWORD);
  });

  it('PostgreSQL stopped before a payment: exit 2 naming the host, nothing sent; started again, the payment goes', async () => {
    await migrate();
    await pg.stop();
    try {
      const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env(a) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`the team ledger at 127.0.0.1:${pg.port}/payments cannot be reached`);
      expect(r.stderr).toContain('nothing was sent');
      expect(r.stderr).not.toContain(PG_PASSWORD);
      expect(posts()).toHaveLength(0);
    } finally {
      await pg.start();
    }
    const ok = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env(a) });
    expect(ok.code, ok.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
  });

  it('a cash-out starts connecting while it reads its flags: refused by its own checks (a Pix key that is not one), it records nothing, sends nothing, exits 2 without waiting for the database', async () => {
    await migrate();
    const args = CASHOUT_ARGS.map((x) => (x === 'Fulano@Example.com' ? 'not-an-email' : x));
    const r = await runPaycli([...args, '--yes', '--json'], { env: env(a) });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.code, r.stderr).toBe('validation');
    expect(posts()).toHaveLength(0);
    expect(pg.sql('SELECT count(*) FROM paycli.runs')).toBe('0'); // no run registered, no entry
    expect(pg.sql('SELECT count(*) FROM paycli.payments')).toBe('0');
    // the same with the database stopped: the check's own error, not the database's
    await pg.stop();
    try {
      const down = await runPaycli([...args, '--yes', '--json'], { env: env(a) });
      expect(down.code).toBe(2);
      expect(JSON.parse(down.stderr.trim().split('\n').pop()!).error.code, down.stderr).toBe('validation');
    } finally {
      await pg.start();
    }
  });
});
