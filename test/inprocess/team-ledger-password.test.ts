/**
 * Where the team ledger's password comes from (docs/configuration.md "The team ledger's password"): the URL's, then
 * `config set ledger-password`, then `PGPASSWORD`, then the password file (`PGPASSFILE`, else
 * `~/.pgpass`, used only when no group or other access), as libpq orders them. One private
 * PostgreSQL cluster (test/helpers/postgres.ts), one test gateway; a wrong password sends nothing.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { lookupGateway, startGateway, type TestGateway } from '../helpers/gateway.js';
import { PG_PASSWORD, startPostgres, type PgCluster } from '../helpers/postgres.js';

const KEY = 'sk_live_TEAM_0123456789abcdef';
const WRONG = 'WRONG_pw_pgpass_48213';
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

/** A cash-out that authenticated and paid: exit 0, one POST, no secret and no driver warning shown. */
function paid(r: { code: number | null; stdout: string; stderr: string }) {
  expect(r.code, r.stderr).toBe(0);
  expect(posts()).toHaveLength(1);
  expect(r.stdout + r.stderr).not.toContain(PG_PASSWORD);
  expect(r.stderr).not.toMatch(/Warning|deprecat/i);
}
/** A cash-out refused by the database: exit 2 naming the host, nothing sent, the wrong password nowhere. */
function refused(r: { code: number | null; stdout: string; stderr: string }) {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(`the team ledger at 127.0.0.1:${pg.port}/payments refused authentication`);
  expect(r.stderr).toContain('nothing was sent');
  expect(r.stdout + r.stderr).not.toContain(WRONG);
  expect(r.stdout + r.stderr).not.toContain(PG_PASSWORD);
  expect(posts()).toHaveLength(0);
}

describe('PGPASSWORD', () => {
  it('authenticates a cash-out when the URL and the config have no password', async () => {
    paid(await cashOut(env({ PGPASSWORD: PG_PASSWORD })));
  });

  it('a wrong PGPASSWORD: exit 2 naming the host, the password nowhere, nothing sent', async () => {
    refused(await cashOut(env({ PGPASSWORD: WRONG })));
  });
});

describe('~/.pgpass', () => {
  it('authenticates a cash-out from ~/.pgpass in HOME (mode 0600)', async () => {
    pgpass(PG_PASSWORD);
    paid(await cashOut(env()));
  });

  it('PGPASSFILE names another file', async () => {
    const file = pgpass(PG_PASSWORD, 0o600, join(h.dir, 'team.pgpass'));
    paid(await cashOut(env({ PGPASSFILE: file })));
  });
});

describe('precedence: the URL, then ledger-password, then PGPASSWORD, then the password file', () => {
  it('the URL password over a wrong PGPASSWORD and a wrong ~/.pgpass', async () => {
    pgpass(WRONG);
    paid(await cashOut(env({ PAYCLI_LEDGER_URL: pg.urlWithPassword, PGPASSWORD: WRONG })));
  });

  it('the URL password over ledger-password', async () => {
    const e = env({ PAYCLI_LEDGER_URL: undefined });
    expect((await runPaycli(['config', 'set', 'ledger-url', pg.urlWithPassword, '--create'], { env: e })).code).toBe(0);
    expect((await runPaycli(['config', 'set', 'ledger-password'], { env: e, input: `${WRONG}\n` })).code).toBe(0);
    paid(await cashOut(e));
  });

  it('ledger-password over a wrong PGPASSWORD and a wrong ~/.pgpass', async () => {
    pgpass(WRONG);
    const e = env({ PAYCLI_LEDGER_URL: undefined, PGPASSWORD: WRONG });
    expect((await runPaycli(['config', 'set', 'ledger-url', pg.url, '--create'], { env: e })).code).toBe(0);
    expect((await runPaycli(['config', 'set', 'ledger-password'], { env: e, input: `${PG_PASSWORD}\n` })).code).toBe(0);
    paid(await cashOut(e));
  });

  it('PGPASSWORD over ~/.pgpass: right over wrong pays, wrong over right is refused (no fallback)', async () => {
    pgpass(WRONG);
    paid(await cashOut(env({ PGPASSWORD: PG_PASSWORD })));
    gw.received.length = 0;
    pgpass(PG_PASSWORD);
    refused(await cashOut(env({ PGPASSWORD: WRONG })));
  });

  it('an empty PGPASSWORD counts as unset (as libpq): ~/.pgpass is used', async () => {
    pgpass(PG_PASSWORD);
    paid(await cashOut(env({ PGPASSWORD: '' })));
  });
});
