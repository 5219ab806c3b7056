/**
 * Where the team ledger's password comes from (docs/configuration.md "The team ledger's password"): the URL's, then
 * `config set ledger-password`, then `PGPASSWORD`, then the password file (`PGPASSFILE`, else
 * `~/.pgpass`, used only when no group or other access), as libpq orders them. One private
 * PostgreSQL cluster (test/helpers/postgres.ts), one test gateway; a wrong password sends nothing.
 * Here only the ~/.pgpass that others can read: the password file reader (the `pgpass` package) warns
 * on the process's own stderr. The rest runs in process: test/inprocess/team-ledger-password.test.ts. Last, which
 * of Node's modules the driver's password hashing loads, with a password asked and without.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, runPaycli, type Home } from '../helpers/cli.js';
import { lookupGateway, startGateway, type TestGateway } from '../helpers/gateway.js';
import { PG_PASSWORD, startPostgres, type PgCluster } from '../helpers/postgres.js';

const KEY = 'sk_live_TEAM_0123456789abcdef';
let pg: PgCluster;
let gw: TestGateway;
let h: Home;

beforeAll(async () => {
  pg = await startPostgres();
  const home = makeHome();
  try {
    const m = await runPaycli(['ledger', 'migrate'], { env: { ...home.env, PAYCLI_LEDGER_URL: pg.urlWithPassword, PGPASSWORD: undefined, PGPASSFILE: undefined } });
    expect(m.code, m.stderr).toBe(0);
  } finally {
    home.cleanup();
  }
});
afterAll(async () => {
  await pg?.destroy();
});
beforeEach(async () => {
  gw = await startGateway();
  gw.respond(lookupGateway().responder);
  h = makeHome();
});
afterEach(async () => {
  await gw.close();
  h.cleanup();
});

/** The environment of a cash-out from `h`: the URL without a password, and the runner's own PG* variables gone. */
const env = (extra: Record<string, string | undefined> = {}) => ({
  ...h.env,
  PAYCLI_BASE_URL: gw.url,
  PAYCLI_API_KEY: KEY,
  PAYCLI_LEDGER_URL: pg.url,
  PGPASSWORD: undefined,
  PGPASSFILE: undefined,
  ...extra,
});
const posts = () => gw.received.filter((r) => r.method === 'POST');
/** Writes `~/.pgpass` in the test HOME (or `file`) with one line for the test database. */
const pgpass = (password: string, mode = 0o600, file = join(h.dir, '.pgpass')) => {
  writeFileSync(file, `# paycli test\n127.0.0.1:${pg.port}:payments:payroll:${password}\n`);
  chmodSync(file, mode);
  return file;
};
const cashOut = (e: Record<string, string | undefined>) => runPaycli([...CASHOUT_ARGS, '--yes', '--verbose'], { env: e });

describe('~/.pgpass', () => {
  it('a ~/.pgpass that others can read is ignored (as libpq does): exit 2 asking for a password, nothing sent', async () => {
    pgpass(PG_PASSWORD, 0o644);
    const r = await cashOut(env());
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the team ledger at 127.0.0.1:${pg.port}/payments asks for a password and none was found`);
    expect(r.stderr).toContain('has group or world access'); // the password file reader's warning, as libpq's
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stdout + r.stderr).not.toContain(PG_PASSWORD);
    expect(posts()).toHaveLength(0);
  });
});

describe("the driver's password hashing", () => {
  const REPORT = join(__dirname, '../helpers/report-loads.cjs');
  const internals = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('internal '));

  it('a server that asks no password: the cash-out is sent and recorded, and node:crypto and Web Crypto never load (tsup.config.ts pgCryptoOnDemand)', async () => {
    const okBefore = Number(pg.sql("SELECT count(*) FROM paycli.payments WHERE outcome = 'ok'"));
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], {
      env: env({ PAYCLI_LEDGER_URL: pg.urlTrusted, PAYCLI_TEST_REPORT_INTERNALS: 'crypto|NativeModule net$' }),
      nodeArgs: ['-r', REPORT],
    });
    expect(r.code, r.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(Number(pg.sql("SELECT count(*) FROM paycli.payments WHERE outcome = 'ok'"))).toBe(okBefore + 1);
    expect(internals(r.stderr)).toEqual(['internal NativeModule net']); // the report is real: the connection went through node:net
  });

  it('a server that asks for it (SCRAM-SHA-256): the driver loads its hashing then, and the cash-out is sent', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], {
      env: env({ PAYCLI_LEDGER_URL: pg.urlWithPassword, PAYCLI_TEST_REPORT_INTERNALS: 'NativeModule crypto$' }),
      nodeArgs: ['-r', REPORT],
    });
    expect(r.code, r.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(internals(r.stderr)).toEqual(['internal NativeModule crypto']);
  });
});
