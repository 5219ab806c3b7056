/**
 * The less common errors in Portuguese and English (docs/portugues.md): the team ledger (`paycli
 * ledger migrate` with none configured, one that cannot be reached on a cash-out), a batch file with
 * bad rows, a bad duration setting, a damaged ledger file and a config file others may write. With
 * LANG=pt_BR.UTF-8 they are in Portuguese, with `--lang en` in English; the exit code, stdout and
 * the `--json` error document are the same in both but for the texts for people.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, type Home, type RunResult } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { cashOutAnswer, json, startGateway, type TestGateway } from '../helpers/gateway.js';

const PT = { LANG: 'pt_BR.UTF-8' };
const KEY = 'sk_test_lang_errors_0123';

let gw: TestGateway;
/** A 127.0.0.1 port nothing listens on (bound, then closed). */
let closedPort = 0;

beforeAll(async () => {
  gw = await startGateway();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await gw.close();
});

interface ErrorPath {
  name: string;
  /** Prepares a fresh home (files it needs); returns the arguments and environment of the run. */
  setup: (h: Home) => { args: string[]; env?: Record<string, string> };
  exit: number;
  code: string;
  pt: RegExp;
  en: RegExp;
}

const atGateway = () => ({ PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY });
const payout = [...CASHOUT_ARGS, '--yes'];

const ERROR_PATHS: ErrorPath[] = [
  {
    name: 'paycli ledger migrate without a team ledger',
    setup: () => ({ args: ['ledger', 'migrate'] }),
    exit: 2,
    code: 'usage',
    pt: /^erro: nenhum registro da equipe configurado: defina ledger-url \(paycli config set ledger-url postgres:\/\/db\.internal:5432\/payments\) ou PAYCLI_LEDGER_URL; nada foi feito\n/,
    en: /^error: no team ledger is configured: set ledger-url \(paycli config set ledger-url postgres:\/\/db\.internal:5432\/payments\) or PAYCLI_LEDGER_URL; nothing was done\n/,
  },
  {
    name: 'a cash-out with the team ledger unreachable',
    setup: () => ({ args: payout, env: { ...atGateway(), PAYCLI_LEDGER_URL: `postgres://paycli@127.0.0.1:${closedPort}/payments` } }),
    exit: 2,
    code: 'journal_unavailable',
    pt: /erro: não foi possível alcançar o registro da equipe em 127\.0\.0\.1:\d+\/payments \(ECONNREFUSED\); nada foi enviado\ndica: confira se o servidor do banco de dados está no ar e acessível a partir desta máquina, e a ledger-url\n/,
    en: /error: the team ledger at 127\.0\.0\.1:\d+\/payments cannot be reached \(ECONNREFUSED\); nothing was sent\nhint: check that the database server is running and reachable from this machine, and ledger-url\n/,
  },
  {
    name: 'a batch file with bad rows',
    setup: (h) => {
      const file = join(h.dir, 'pagamentos.csv');
      writeFileSync(
        file,
        'value,pix-key-type,pix-key,person-name,person-email,person-phone,apelido\n1000,email,a@example.com,Fulano,a@example.com,11987654321,\n,email,b@example.com,Beltrano,b@example.com,11987654321,\n',
      );
      return { args: ['cashout', '--batch', file, '--yes'], env: atGateway() };
    },
    exit: 2,
    code: 'validation',
    pt: /erro: \S+pagamentos\.csv: 2 problemas em 2 linhas de dados; nada foi enviado:\n {2}linha 1, apelido: não é uma coluna que o paycli conhece; use os nomes das opções sem os traços .*\n {2}linha 3 \(2ª linha de dados\), value: é obrigatório \(por exemplo /,
    en: /error: \S+pagamentos\.csv: 2 problems in 2 rows; nothing was sent:\n {2}line 1, apelido: is not a column paycli knows; use the flag names without dashes .*\n {2}line 3 \(row 2\), value: is required \(e\.g\. /,
  },
  {
    name: 'a duration setting that is not one',
    setup: () => ({ args: payout, env: { ...atGateway(), PAYCLI_SETTLE_AFTER: 'logo' } }),
    exit: 2,
    code: 'usage',
    pt: /^erro: PAYCLI_SETTLE_AFTER: a carência deve ser uma duração de 0 a 24h, por exemplo 120, 90s, 2m; veio "logo"\n/,
    en: /^error: PAYCLI_SETTLE_AFTER: the grace period must be a duration from 0 to 24h, e\.g\. 120, 90s, 2m; got "logo"\n/,
  },
  {
    name: 'a ledger file that is not a database',
    setup: (h) => {
      mkdirSync(h.env.PAYCLI_DATA_DIR!, { recursive: true, mode: 0o700 });
      writeFileSync(join(h.env.PAYCLI_DATA_DIR!, 'ledger.db'), 'this is not a database\n'.repeat(300), { mode: 0o600 });
      return { args: payout, env: atGateway() };
    },
    exit: 2,
    code: 'journal_unavailable',
    pt: /erro: o registro local \S+ledger\.db não pode ser usado: não é um banco de dados \(SQLITE_NOTADB\); nada foi enviado\ndica: o paycli não envia nada que não possa registrar\. Corrija o arquivo ou a pasta dele/,
    en: /error: the payment ledger \S+ledger\.db cannot be used: it is not a database \(SQLITE_NOTADB\); nothing was sent\nhint: paycli sends nothing it cannot record\. Fix the file or its folder/,
  },
  {
    name: 'an empty ledger file',
    setup: (h) => {
      mkdirSync(h.env.PAYCLI_DATA_DIR!, { recursive: true, mode: 0o700 });
      writeFileSync(join(h.env.PAYCLI_DATA_DIR!, 'ledger.db'), '', { mode: 0o600 });
      return { args: payout, env: atGateway() };
    },
    exit: 2,
    code: 'journal_unavailable',
    pt: /erro: o registro local \S+ledger\.db está vazio: foi truncado, ou não é um registro do paycli; nada foi enviado\n/,
    en: /error: the payment ledger \S+ledger\.db is empty: it was truncated, or is not a paycli ledger; nothing was sent\n/,
  },
  {
    name: 'a config file others may write',
    setup: (h) => {
      const dir = h.env.PAYCLI_CONFIG_DIR!;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ profiles: { default: { 'base-url': gw.url, 'api-key': KEY } } }));
      chmodSync(file, 0o666);
      return { args: payout };
    },
    exit: 2,
    code: 'config_untrusted',
    pt: /^erro: o arquivo de configuração \S+config\.json pode ser alterado por outros usuários; o paycli não confia nele e não enviou nada\ndica: rode: chmod 600 \S+config\.json\n/,
    en: /^error: the config file \S+config\.json can be written by other users; paycli does not trust it and sent nothing\nhint: run: chmod 600 \S+config\.json\n/,
  },
];

/** One run in a fresh home prepared by `setup`. */
async function run(p: ErrorPath, flags: string[]): Promise<RunResult> {
  const h = makeHome();
  try {
    const { args, env } = p.setup(h);
    return await runPaycli([...flags, ...args], { env: { ...h.env, ...env, ...PT } });
  } finally {
    h.cleanup();
  }
}

/** The JSON lines of stderr with the texts for people blanked: what must not change with the language. */
function scriptView(stderr: string): unknown[] {
  const blank = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(blank);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ['message', 'hint', 'notice', 'warning'].includes(k) ? '<text>' : blank(x)]));
    return v;
  };
  return stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => blank(JSON.parse(l)));
}

describe('less common errors in both languages', () => {
  it.each(ERROR_PATHS)('$name: Portuguese with LANG=pt_BR.UTF-8, English with --lang en; --json the same but for the texts; nothing sent', async (p) => {
    const before = gw.received.length;
    const [pt, en, ptJson, enJson] = await Promise.all([run(p, []), run(p, ['--lang', 'en']), run(p, ['--json']), run(p, ['--json', '--lang', 'en'])]);
    expect(pt.code, pt.stderr).toBe(p.exit);
    expect(pt.stderr).toMatch(p.pt);
    expect(pt.stderr).not.toMatch(/^(error|hint|warning):/m);
    expect(en.code, en.stderr).toBe(p.exit);
    expect(en.stderr).toMatch(p.en);
    expect(en.stderr).not.toMatch(/^(erro|dica|aviso):/m);
    for (const r of [pt, en]) expect(r.stdout).toBe('');
    // --json: the same exit code, stdout and error document; only the texts for people differ
    expect(ptJson.code).toBe(p.exit);
    expect(enJson.code).toBe(p.exit);
    expect(ptJson.stdout).toBe(enJson.stdout);
    expect(scriptView(ptJson.stderr)).toEqual(scriptView(enJson.stderr));
    const ptDoc = JSON.parse(ptJson.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } };
    const enDoc = JSON.parse(enJson.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } };
    expect(ptDoc.error.code).toBe(p.code);
    expect(enDoc.error.code).toBe(p.code);
    expect(enDoc.error.message).not.toBe(ptDoc.error.message);
    // the first line of the text error is the JSON message, in each language (each run has its own home folder)
    const homeless = (text: string) => text.replace(/\/[^\s]*paycli-test-[^/\s]+/g, '<home>');
    expect(homeless(pt.stderr)).toContain(homeless(ptDoc.error.message.split('\n')[0]!));
    expect(homeless(en.stderr)).toContain(homeless(enDoc.error.message.split('\n')[0]!));
    // nothing reached the gateway
    expect(gw.received.length).toBe(before);
  });
});

describe('a batch run that ends with a refused row, in both languages', () => {
  it('the end summary and the exit code: Portuguese with LANG=pt_BR.UTF-8, English with --lang en; --json the same but for the texts', async () => {
    const refusing = await startGateway((req, res) => {
      if (req.method !== 'POST') return json(res, 404, { message: 'Transaction not found' });
      const value = (req.json as { value?: unknown }).value;
      if (value === 999) return json(res, 400, { message: 'Validation Failed - value is too low' });
      return json(res, 200, cashOutAnswer(value));
    });
    try {
      const batch = async (flags: string[]) => {
        const h = makeHome();
        try {
          const file = join(h.dir, 'repasses.csv');
          writeFileSync(
            file,
            'value,pix-key-type,pix-key,person-name,person-email,person-phone\n1000,email,a@example.com,Fulano,a@example.com,11987654321\n999,email,b@example.com,Beltrano,b@example.com,11987654321\n',
          );
          return await runPaycli([...flags, 'cashout', '--batch', file, '--yes'], { env: { ...h.env, ...PT, PAYCLI_BASE_URL: refusing.url, PAYCLI_API_KEY: KEY } });
        } finally {
          h.cleanup();
        }
      };
      const [pt, en, ptJson, enJson] = await Promise.all([batch([]), batch(['--lang', 'en']), batch(['--json']), batch(['--json', '--lang', 'en'])]);
      expect(pt.code, pt.stderr).toBe(1);
      expect(pt.stderr).toMatch(
        /\nResumo do lote\n {7}1 {2}saques criados {25}R\$ 10,00\n {7}1 {2}recusados pelo gateway {17}R\$ 9,99\n {2}recusados: linha 2\nResultados: \S+repasses\.csv\.results\.csv\n/,
      );
      expect(en.code, en.stderr).toBe(1);
      expect(en.stderr).toMatch(
        /\nBatch summary\n {7}1 {2}cash-outs created {22}R\$ 10,00\n {7}1 {2}refused by the gateway {17}R\$ 9,99\n {2}refused: row 2\nResults: \S+repasses\.csv\.results\.csv\n/,
      );
      expect(ptJson.code).toBe(1);
      expect(enJson.code).toBe(1);
      // stdout (one result per row) and the JSON summary on stderr do not change with the language, but for the results file's folder
      const homeless = (text: string) => text.replace(/\/[^\s"]*paycli-test-[^/\s"]+/g, '<home>');
      expect(homeless(ptJson.stdout)).toBe(homeless(enJson.stdout));
      const steady = (stderr: string) =>
        homeless(stderr)
          .split('\n')
          .filter((l) => !l.startsWith('{"progress"'))
          .join('\n'); // its rate depends on the machine
      expect(steady(ptJson.stderr)).toBe(steady(enJson.stderr));
      expect(ptJson.stderr).toContain('"summary"');
    } finally {
      await refusing.close();
    }
  });
});
