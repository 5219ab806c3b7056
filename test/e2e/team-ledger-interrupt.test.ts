/**
 * The team ledger on the main thread (src/ledger/pg/connection.ts, docs/ledger-and-safety.md "Team
 * ledger"): while a team-ledger call waits on a PostgreSQL that does not answer (frozen with SIGSTOP),
 * the event loop runs: paycli says it is waiting, Ctrl-C stops it at once (exit 130, nothing sent), a
 * payment its own checks refuse does not wait for the connection,
 * and a call past its limit fails closed (exit 2, nothing sent) naming the host. The built paycli
 * is spawned: signals need a process boundary. And every command closes its connection when it ends:
 * run in this test's own process (which stays), no session of paycli is left on the server.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, runPaycli, spawnPaycli, type Home } from '../helpers/cli.js';
import { waitFor } from '../helpers/listen.js';
import { runPaycliInProcess } from '../helpers/run.js';
import { json, startGateway, type TestGateway } from '../helpers/gateway.js';
import { PG_PASSWORD, startPostgres, type PgCluster } from '../helpers/postgres.js';

const KEY = 'sk_live_TEAM_0123456789abcdef';
let pg: PgCluster;
let gw: TestGateway;
let home: Home;

beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  pg?.thaw();
  await pg?.destroy();
});
beforeEach(async () => {
  pg.sql('DROP SCHEMA IF EXISTS paycli CASCADE');
  gw = await startGateway();
  home = makeHome();
  const r = await runPaycli(['ledger', 'migrate'], { env: env() });
  expect(r.code, r.stderr).toBe(0);
});
afterEach(async () => {
  pg.thaw();
  await gw.close();
  home.cleanup();
});

/** The environment of a paycli on the team ledger; `connectS`: PGCONNECT_TIMEOUT in seconds. */
const env = (connectS = 600) => ({
  ...home.env,
  PAYCLI_BASE_URL: gw.url,
  PAYCLI_API_KEY: KEY,
  PAYCLI_LEDGER_URL: pg.urlWithPassword,
  PGCONNECT_TIMEOUT: String(connectS),
});
const posts = () => gw.received.filter((r) => r.method === 'POST');

describe('PostgreSQL frozen (SIGSTOP) during a team-ledger cash-out', () => {
  it('says it is waiting for the team ledger; Ctrl-C stops it at once: exit 130, nothing sent, and the same cash-out goes once PostgreSQL runs again', async () => {
    pg.freeze();
    // connecting may take 10 minutes (PGCONNECT_TIMEOUT): only Ctrl-C can end this run before the test does
    const run = spawnPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    await run.waitForStderr(`waiting for the team ledger at 127.0.0.1:${pg.port}/payments`);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(`interrupted while waiting for the team ledger at 127.0.0.1:${pg.port}/payments; nothing was sent`);
    expect(r.stderr).not.toContain(PG_PASSWORD);
    expect(r.stdout).toBe('');
    expect(posts()).toHaveLength(0);
    pg.thaw();
    const ok = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(ok.code, ok.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(pg.sql('SELECT count(*) FROM paycli.payments')).toBe('1');
  });

  it('frozen after connecting, while the cash-out is recorded: Ctrl-C stops the wait at once, exit 130, nothing sent', async () => {
    // The second witness of a caller's order reference (a lookup at the gateway) comes after the
    // ledger's first checks and before the record: PostgreSQL is frozen while the gateway answers it.
    gw.respond((req, res) => {
      if (req.method !== 'GET') return json(res, 500, { message: 'no POST expected' });
      pg.freeze();
      json(res, 404, { message: 'Transaction not found' });
    });
    const run = spawnPaycli([...CASHOUT_ARGS, '--order-id', 'frozen-1', '--yes'], { env: env() });
    await run.waitForStderr(`waiting for the team ledger at 127.0.0.1:${pg.port}/payments`);
    expect(gw.received.map((r) => r.method)).toEqual(['GET']);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(`interrupted while waiting for the team ledger at 127.0.0.1:${pg.port}/payments; nothing was sent`);
    expect(r.stdout).toBe('');
    expect(posts()).toHaveLength(0);
  });

  it('history waiting for a frozen team ledger: Ctrl-C stops it at once, exit 130, saying only that it was interrupted', async () => {
    pg.freeze();
    const run = spawnPaycli(['history'], { env: env() });
    await run.waitForStderr(`waiting for the team ledger at 127.0.0.1:${pg.port}/payments`);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(new RegExp(`interrupted while waiting for the team ledger at 127\\.0\\.0\\.1:${pg.port}/payments\n`));
    expect(r.stdout).toBe('');
  });

  it('refused by its own check while connecting (a Pix key that is not one): exit 2 at once, the attempt let go, never waited for', async () => {
    pg.freeze();
    // connecting may take 10 minutes: an exit that waited for it would end this test by its time limit
    const args = CASHOUT_ARGS.map((x) => (x === 'Fulano@Example.com' ? 'not-an-email' : x));
    const r = await runPaycli([...args, '--yes', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.code, r.stderr).toBe('validation');
    expect(r.stderr).not.toContain('team ledger');
    expect(posts()).toHaveLength(0);
  });

  it('a call past its limit (PGCONNECT_TIMEOUT=2) fails closed: exit 2 naming the host, nothing sent', async () => {
    pg.freeze();
    const r = await runPaycli([...CASHOUT_ARGS, '--yes', '--json'], { env: env(2) });
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } };
    expect(doc.error.message).toContain(`the team ledger at 127.0.0.1:${pg.port}/payments did not answer (no answer within 2 s); nothing was sent`);
    expect(r.stdout).toBe('');
    expect(posts()).toHaveLength(0);
  });
});

describe('the connection ends with the command', () => {
  /** The sessions of paycli the server holds (application_name `paycli <version>`). */
  const sessions = () => Number(pg.sql(`SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'paycli %'`));

  it('a cash-out, a refused one that started connecting, history and history resolve, run in this process: no session of paycli left', async () => {
    const sent = await runPaycliInProcess([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(sent.code, sent.stderr).toBe(0);
    // refused by its own check after it started connecting: the attempt is let go
    const refused = await runPaycliInProcess([...CASHOUT_ARGS.map((x) => (x === 'Fulano@Example.com' ? 'not-an-email' : x)), '--yes'], { env: env() });
    expect(refused.code, refused.stderr).toBe(2);
    const shown = await runPaycliInProcess(['history', '--json'], { env: env() });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toHaveLength(1);
    const resolve = await runPaycliInProcess(['history', 'resolve', '1', '--outcome', 'ok'], { env: env() });
    expect(resolve.code).toBe(2); // its outcome is known already
    await waitFor(() => sessions() === 0, undefined, 'no paycli session on the server');
    expect(sessions()).toBe(0);
    expect(posts()).toHaveLength(1);
  });
});
