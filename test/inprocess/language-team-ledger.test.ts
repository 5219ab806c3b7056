/**
 * The team ledger's messages in Portuguese and English (docs/portugues.md), against a private
 * PostgreSQL cluster: `paycli ledger migrate` and `paycli ledger push` say what they did in the
 * language of the run (their `--json` results are the same in both), and a database that asks for
 * a password nobody gave is refused in words of the run's language, nothing sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

const PT = { LANG: 'pt_BR.UTF-8' };
const KEY = 'sk_test_lang_team_0123';

let pg: PgCluster;
let gw: TestGateway;
let home: Home;
beforeAll(async () => {
  pg = await startPostgres();
  gw = await startGateway();
  home = makeHome();
});
afterAll(async () => {
  await gw?.close();
  await pg?.destroy();
  home?.cleanup();
});

const local = () => ({ ...home.env, ...PT, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY, PGPASSWORD: undefined, PGPASSFILE: undefined });
const team = () => ({ ...local(), PAYCLI_LEDGER_URL: pg.urlWithPassword });
const where = () => `127.0.0.1:${pg.port}/payments`;

describe('the team ledger in both languages', () => {
  it('ledger migrate and ledger push: Portuguese with LANG=pt_BR.UTF-8, English with --lang en, the same --json', async () => {
    const first = await runPaycli(['ledger', 'migrate'], { env: team() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(new RegExp(`^› o registro da equipe em ${where().replace(/\./g, '\\.')} agora está no esquema \\d+ \\(estava no 0\\)\\n$`));
    const again = await runPaycli(['--lang', 'en', 'ledger', 'migrate'], { env: team() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^› the team ledger at \S+ is at schema \d+ already: nothing to do\n$/);
    const [ptJson, enJson] = await Promise.all([
      runPaycli(['--json', 'ledger', 'migrate'], { env: team() }),
      runPaycli(['--json', '--lang', 'en', 'ledger', 'migrate'], { env: team() }),
    ]);
    expect(ptJson.stdout).toBe(enJson.stdout);
    expect(JSON.parse(ptJson.stdout)).toMatchObject({ from: expect.any(Number), to: expect.any(Number) });

    // Nothing to push yet: no local ledger.
    const nothing = await runPaycli(['ledger', 'push'], { env: team() });
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.stderr).toMatch(/^› nada a enviar: não há registro local \(\S+ledger\.db\)\n$/);

    // A cash-out recorded in the local ledger, pushed twice.
    const paid = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: local() });
    expect(paid.code, paid.stderr).toBe(0);
    const pushed = await runPaycli(['ledger', 'push'], { env: team() });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toBe(`› 1 de 1 entradas locais adicionadas ao registro da equipe em ${where()}\n`);
    const twice = await runPaycli(['--lang', 'en', 'ledger', 'push'], { env: team() });
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stderr).toBe(`› 0 of 1 local entries added to the team ledger at ${where()} (1 it held already)\n`);
    const [ptPush, enPush] = await Promise.all([
      runPaycli(['--json', 'ledger', 'push'], { env: team() }),
      runPaycli(['--json', '--lang', 'en', 'ledger', 'push'], { env: team() }),
    ]);
    expect(ptPush.stdout).toBe(enPush.stdout);
    expect(JSON.parse(ptPush.stdout)).toEqual({ entries: 1, added: 0 });
  });

  it('a password the database asks for and nobody gave: exit 2, nothing sent, in the language of the run', async () => {
    const before = gw.received.length;
    const noPassword = { ...local(), PAYCLI_LEDGER_URL: pg.url };
    const [pt, en] = await Promise.all([runPaycli([...CASHOUT_ARGS, '--yes'], { env: noPassword }), runPaycli(['--lang', 'en', ...CASHOUT_ARGS, '--yes'], { env: noPassword })]);
    expect(pt.code, pt.stderr).toBe(2);
    expect(pt.stderr).toContain(
      `erro: o registro da equipe em ${where()} pede uma senha e nenhuma foi encontrada; nada foi enviado\ndica: defina uma: em ledger-url, com \`paycli config set ledger-password\`, em PGPASSWORD ou em ~/.pgpass (modo 0600)\n`,
    );
    expect(en.code, en.stderr).toBe(2);
    expect(en.stderr).toContain(
      `error: the team ledger at ${where()} asks for a password and none was found; nothing was sent\nhint: set one: in ledger-url, with \`paycli config set ledger-password\`, in PGPASSWORD or in ~/.pgpass (mode 0600)\n`,
    );
    expect(gw.received.length).toBe(before);
  });
});
