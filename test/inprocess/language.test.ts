/**
 * Messages in Portuguese and English (docs/portugues.md): with LANG=pt_BR.UTF-8 the help of every
 * command, ten error paths, a cash-in and a cash-out (in a terminal: prompts, summary, `(s/N)`)
 * are in Portuguese; with `--lang en` the same runs are in English; `--json` output is the same in
 * both languages except the texts meant for people (`message`, `hint`, notices).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, makeHome, mapLimit, type Home, type RunResult } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { cashInAnswer, cashOutAnswer, json, startGateway, type TestGateway } from '../helpers/gateway.js';

const PT = { LANG: 'pt_BR.UTF-8' };
const KEY = 'sk_test_lang_0123456789';

let home: Home;
let gw: TestGateway;

beforeAll(async () => {
  home = makeHome();
  gw = await startGateway((req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { message: 'Unauthorized' });
    if (req.method === 'GET') return json(res, 404, { message: 'Transaction not found' });
    if (req.path.endsWith('/cashout') && (req.json as { value?: number }).value === 999) return json(res, 400, { message: 'Validation Failed - value is too low' });
    const value = (req.json as { value?: unknown }).value;
    return json(res, 200, req.path.endsWith('/cashout') ? cashOutAnswer(value) : cashInAnswer(value));
  });
});
afterAll(async () => {
  await gw.close();
  home.cleanup();
});

/** A fresh home per run, so that no ledger entry of one run changes the next. */
async function run(args: string[], env: Record<string, string> = {}, input?: string): Promise<RunResult> {
  const h = makeHome();
  try {
    return await runPaycli(args, { env: { ...h.env, ...env }, input });
  } finally {
    h.cleanup();
  }
}

const gateway = { PAYCLI_BASE_URL: '', PAYCLI_API_KEY: KEY };
const atGateway = () => ({ ...gateway, PAYCLI_BASE_URL: gw.url });

/** The JSON lines of stderr with the texts for people blanked: what must not change with the language. */
function scriptView(stderr: string): unknown[] {
  const blank = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(blank);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ['message', 'hint', 'notice', 'warning', 'problems'].includes(k) ? '<text>' : blank(x)]));
    return v;
  };
  return stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => blank(JSON.parse(l)));
}

interface ErrorPath {
  name: string;
  args: string[];
  env?: () => Record<string, string>;
  input?: string;
  exit: number;
  code: string;
  pt: RegExp;
  en: RegExp;
}

const PAYOUT = CASHOUT_ARGS;
const ERROR_PATHS: ErrorPath[] = [
  {
    name: 'missing fields',
    args: ['cashout', '--no-input'],
    exit: 2,
    code: 'missing_fields',
    pt: /erro: faltam as opções obrigatórias: --value.*; nada foi enviado\ndica: passe as opções/s,
    en: /error: missing required flags: --value.*; nothing was sent\nhint: pass the flags/s,
  },
  {
    name: 'an amount that is not one',
    args: [...PAYOUT.filter((a) => a !== '--value' && a !== '1550'), '--amount', '12,345', '--yes'],
    exit: 2,
    code: 'usage',
    pt: /--amount: "12,345" é ambíguo \(milhar ou 3 casas decimais\?\); para R\$ 12\.345,00 escreva 12345 ou 12\.345,00; nada foi enviado/,
    en: /--amount: "12,345" is ambiguous \(thousands, or 3 decimals\?\); for R\$ 12\.345,00 write 12345 or 12\.345,00; nothing was sent/,
  },
  {
    name: 'invalid values',
    args: [
      'cashout',
      '--value',
      '100',
      '--pix-key-type',
      'cpf',
      '--pix-key',
      '123.456.789-00',
      '--person-name',
      'Fulano',
      '--person-email',
      'fulano@',
      '--person-phone',
      '1198765432',
      '--yes',
    ],
    exit: 2,
    code: 'validation',
    pt: /a requisição tem 3 problemas; nada foi enviado:\n {2}--person-email: não é um endereço de e-mail.*\n {2}--person-phone: não é um número válido.*\n {2}--pix-key: não é um CPF válido: os dígitos verificadores do CPF não conferem/s,
    en: /the request has 3 problems; nothing was sent:\n {2}--person-email: is not an e-mail address.*\n {2}--person-phone: is not a valid number.*\n {2}--pix-key: is not a valid CPF: the CPF check digits do not match/s,
  },
  {
    name: 'a cash-out not confirmed',
    args: PAYOUT,
    exit: 2,
    code: 'confirmation_required',
    pt: /erro: um saque movimenta dinheiro: passe --yes para confirmar quando não estiver num terminal; nada foi enviado\ndica: adicione --yes/,
    en: /error: a cash-out moves money: pass --yes to confirm it when not running interactively; nothing was sent\nhint: add --yes/,
  },
  {
    name: 'an unknown command',
    args: ['cashot'],
    exit: 2,
    code: 'usage',
    pt: /erro: comando desconhecido 'cashot'\n\(Você quis dizer cashout\?\)/,
    en: /error: unknown command 'cashot'\n\(Did you mean cashout\?\)/,
  },
  {
    name: 'an unknown flag',
    args: ['cashout', '--valeu', '100'],
    exit: 2,
    code: 'usage',
    pt: /erro: opção desconhecida '--valeu'\n\(Você quis dizer --value\?\)/,
    en: /error: unknown option '--valeu'\n\(Did you mean --value\?\)/,
  },
  {
    name: 'an unknown profile',
    args: ['--profile', 'prdo', 'cashout'],
    exit: 2,
    code: 'unknown_profile',
    pt: /erro: perfil desconhecido "prdo" \(--profile\); nada foi enviado\ndica: nenhum perfil configurado/,
    en: /error: unknown profile "prdo" \(--profile\); nothing was sent\nhint: no profile is configured/,
  },
  {
    name: 'no connection',
    args: [...PAYOUT, '--yes', '--base-url', 'http://127.0.0.1:9'],
    exit: 4,
    code: 'network',
    pt: /erro: não foi possível conectar a 127\.0\.0\.1:9 \(ECONNREFUSED\): nada foi enviado\ndica: confira --base-url/,
    en: /error: could not connect to 127\.0\.0\.1:9 \(ECONNREFUSED\): nothing was sent\nhint: check --base-url/,
  },
  {
    name: 'a credential refused',
    args: [...CASHIN_ARGS, '--no-qr'],
    env: () => ({ ...atGateway(), PAYCLI_API_KEY: 'sk_wrong_0123456789' }),
    exit: 3,
    code: 'unauthorized',
    pt: /erro: o gateway recusou a credencial \(HTTP 401: Unauthorized\)\ndica: entre com `paycli auth login`/,
    en: /error: the gateway refused the credential \(HTTP 401: Unauthorized\)\nhint: log in with `paycli auth login`/,
  },
  {
    name: 'the gateway refuses (its message as sent)',
    args: ['cashout', '--value', '999', ...PAYOUT.slice(3), '--yes'],
    env: atGateway,
    exit: 1,
    code: 'gateway_refused',
    pt: /erro: Validation Failed - value is too low/,
    en: /error: Validation Failed - value is too low/,
  },
  {
    name: 'an --input file that is not there',
    args: ['cashin', '--input', 'nao-existe.json', '--no-qr'],
    exit: 2,
    code: 'usage',
    pt: /erro: --input: não foi possível ler nao-existe\.json \(ENOENT\); nada foi enviado/,
    en: /error: --input: cannot read nao-existe\.json \(ENOENT\); nothing was sent/,
  },
  {
    name: 'a config value that is not one',
    args: ['config', 'set', 'lang', 'klingon'],
    exit: 2,
    code: 'usage',
    pt: /erro: lang deve ser pt-BR ou en, veio "klingon"/,
    en: /error: lang must be pt-BR or en, got "klingon"/,
  },
];

describe('error paths in both languages', () => {
  it.each(ERROR_PATHS)('$name: Portuguese with LANG=pt_BR.UTF-8, English with --lang en; --json the same but for the texts', async (p) => {
    const env = { ...(p.env?.() ?? {}) };
    const [pt, en, ptJson, enJson] = await Promise.all([
      run(p.args, { ...env, ...PT }, p.input),
      run(['--lang', 'en', ...p.args], { ...env, ...PT }, p.input),
      run(['--json', ...p.args], { ...env, ...PT }, p.input),
      run(['--json', '--lang', 'en', ...p.args], { ...env, ...PT }, p.input),
    ]);
    expect(pt.code, pt.stderr).toBe(p.exit);
    expect(pt.stderr).toMatch(p.pt);
    expect(pt.stderr).not.toMatch(/^(error|hint):/m);
    expect(en.code, en.stderr).toBe(p.exit);
    expect(en.stderr).toMatch(p.en);
    expect(en.stderr).not.toMatch(/^(erro|dica):/m);
    // --json: the same exit code, stdout and error document, only the texts for people differ
    expect(ptJson.code).toBe(p.exit);
    expect(enJson.code).toBe(p.exit);
    expect(ptJson.stdout).toBe(enJson.stdout);
    expect(scriptView(ptJson.stderr)).toEqual(scriptView(enJson.stderr));
    const doc = JSON.parse(ptJson.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } };
    expect(doc.error.code).toBe(p.code);
    const enMessage = (JSON.parse(enJson.stderr.trim().split('\n').at(-1)!) as { error: { message: string } }).error.message;
    // the message follows the language, except the gateway's own words
    if (p.code === 'gateway_refused') expect(enMessage).toBe(doc.error.message);
    else expect(enMessage).not.toBe(doc.error.message);
  });
});

describe('results in both languages', () => {
  it('a cash-in and a cash-out: Portuguese text, English with --lang en, --json byte-identical', async () => {
    const cashin = [...CASHIN_ARGS, '--order-id', 'pedido-1', '--no-qr'];
    const cashout = [...CASHOUT_ARGS, '--order-id', 'pedido-2', '--yes'];
    const runs = await mapLimit(
      [
        [cashin, PT],
        [['--lang', 'en', ...cashin], PT],
        [['--json', ...cashin], PT],
        [['--json', '--lang', 'en', ...cashin], PT],
        [cashout, PT],
        [['--lang', 'en', ...cashout], PT],
        [['--json', ...cashout], PT],
        [['--json', '--lang', 'en', ...cashout], PT],
      ] as const,
      4,
      ([args, env]) => run([...args], { ...atGateway(), ...env }),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const [inPt, inEn, inPtJson, inEnJson, outPt, outEn, outPtJson, outEnJson] = runs as RunResult[];
    expect(inPt!.stdout).toMatch(
      /^Cobrança criada\nID da transação 4242\nID externo {6}123e4567-e12b-12d1-a456-426655440000\nPedido {10}pedido-1\nValor {11}R\$ 10,00\n\nPix Copia e Cola \(BR Code\):/,
    );
    expect(inEn!.stdout).toMatch(
      /^Cash-in created\nTransaction ID  4242\nExternal ID     123e4567-e12b-12d1-a456-426655440000\nOrder ID        pedido-1\nAmount          R\$ 10,00\n\nPix copy-and-paste \(BR Code\):/,
    );
    expect(outPt!.stdout).toMatch(/^Saque criado\nID da transação 77\nPedido {10}pedido-2\nBruto {11}R\$ 15,50\nTarifa {10}R\$ 0,65\nLíquido {9}R\$ 14,85\nSituação {8}criado/);
    expect(outEn!.stdout).toMatch(
      /^Cash-out created\nTransaction ID  77\nOrder ID        pedido-2\nGross           R\$ 15,50\nFee             R\$ 0,65\nNet             R\$ 14,85\nStatus          created/,
    );
    expect(inPtJson!.stdout).toBe(inEnJson!.stdout);
    expect(outPtJson!.stdout).toBe(outEnJson!.stdout);
    expect(scriptView(inPtJson!.stderr)).toEqual(scriptView(inEnJson!.stderr));
    expect(scriptView(outPtJson!.stderr)).toEqual(scriptView(outEnJson!.stderr));
  });

  it('config key lang beats the locale, and --lang beats the config key', async () => {
    const h = makeHome();
    try {
      const set = await runPaycli(['config', 'set', 'lang', 'pt-BR'], { env: h.env });
      expect(set.code, set.stderr).toBe(0);
      const byConfig = await runPaycli(['cashout', '--no-input'], { env: { ...h.env, LANG: 'en_US.UTF-8' } });
      expect(byConfig.stderr).toMatch(/^erro: faltam as opções obrigatórias/);
      const byFlag = await runPaycli(['cashout', '--no-input', '--lang', 'en'], { env: { ...h.env, LANG: 'pt_BR.UTF-8' } });
      expect(byFlag.stderr).toMatch(/^error: missing required flags/);
      const byLcAll = await runPaycli(['--profile', 'default', 'cashout', '--no-input'], { env: { ...h.env, LC_ALL: 'C' } });
      expect(byLcAll.stderr).toMatch(/^erro: /); // the profile's lang still wins over LC_ALL
    } finally {
      h.cleanup();
    }
  });
});

describe('the last of Portuguese', () => {
  const home = makeHome();
  afterAll(() => home.cleanup());
  it("--version --verbose, completion descriptions and a cash-out's status in Portuguese", async () => {
    const v = await runPaycli(['--lang', 'pt-BR', '--version', '--verbose'], { env: { ...home.env, ...PT } });
    expect(v.stdout).toMatch(/^registro +\S/m);
    expect(v.stdout).toMatch(/^configuração +\S/m);
    expect(v.stdout).toMatch(/^cache de código +/m);
    for (const shell of ['zsh', 'fish']) {
      const c = await runPaycli(['completion', shell], { env: { ...home.env, ...PT } });
      expect(c.stdout, shell).toContain('um cabeçalho fixo a mais');
      expect(c.stdout, shell).not.toContain('an extra static header');
    }
    const out = await runPaycli(['--base-url', 'sandbox', ...CASHOUT_ARGS, '--yes'], { env: { ...home.env, ...PT } });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^Situação +criado$/m);
    expect(out.stdout).not.toMatch(/created/);
  });
});
