/**
 * Messages in Portuguese and English (docs/portugues.md): with LANG=pt_BR.UTF-8 the help of every
 * command, ten error paths, a cash-in and a cash-out (in a terminal: prompts, summary, `(s/N)`)
 * are in Portuguese; with `--lang en` the same runs are in English; `--json` output is the same in
 * both languages except the texts meant for people (`message`, `hint`, notices).
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/language.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, mapLimit, measureStartMs, runPaycli, startBudget, type Home } from '../helpers/cli.js';
import { cashInAnswer, cashOutAnswer, json, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startTty, type TtySession } from '../helpers/tty.js';

const PT = { LANG: 'pt_BR.UTF-8' };
const KEY = 'sk_test_lang_0123456789';

let home: Home;
let gw: TestGateway;
/** One paycli start on this machine now, measured before the tests are defined: a test's limit is counted in starts ({@link startBudget}). */
const startMs = await measureStartMs();

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

const gateway = { PAYCLI_BASE_URL: '', PAYCLI_API_KEY: KEY };
const atGateway = () => ({ ...gateway, PAYCLI_BASE_URL: gw.url });

/** Every command path, from the English help. */
async function commandPaths(): Promise<string[][]> {
  const out: string[][] = [[]];
  for (let i = 0; i < out.length; i++) {
    const help = (await runPaycli([...out[i]!, '--help'])).stdout;
    const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(help)?.[1] ?? '';
    for (const m of section.matchAll(/^ {2}([a-z][\w-]*)/gm)) if (m[1] !== 'help') out.push([...out[i]!, m[1]!]);
  }
  return out;
}

describe('--help of every command', () => {
  it(
    'is in Portuguese with LANG=pt_BR.UTF-8 and in English with --lang en; the flags are the same',
    async () => {
      const paths = await commandPaths();
      expect(paths.length).toBeGreaterThan(20);
      const results = await mapLimit(paths, 4, async (path) => ({
        path: path.join(' '),
        pt: await runPaycli([...path, '--help'], { env: PT }),
        en: await runPaycli(['--lang', 'en', ...path, '--help'], { env: PT }),
      }));
      for (const { path, pt, en } of results) {
        expect(pt.code, path).toBe(0);
        expect(pt.stdout, path).toMatch(/^Uso: paycli/);
        expect(pt.stdout, path).toMatch(/^Opções( globais)?:$/m);
        expect(pt.stdout, path).not.toMatch(/^(Usage|Options|Global Options|Commands|Arguments|Examples):$/m);
        // commander's own texts too: [options], (default: …), (choices: …)
        expect(pt.stdout, path).not.toMatch(/\[options\]|\(default: |, default: |\(choices: |\bPIX\b/);
        expect(pt.stdout, path).toMatch(/ mostra a ajuda\n/);
        expect(en.stdout, path).toMatch(/^Usage: paycli/);
        expect(en.stdout, path).toMatch(/ show help\n/);
        // the flags do not change with the language
        const flags = (s: string) => [...s.matchAll(/^ {2}(-[^ ,]+(?:, --[^ ]+)?)/gm)].map((m) => m[1]).join(' ');
        expect(flags(pt.stdout), path).toBe(flags(en.stdout));
      }
      const root = results.find((r) => r.path === '')!;
      expect(root.pt.stdout).toContain('Cobranças Pix (BR Code / QR code) e saques');
      expect(root.pt.stdout).toMatch(/^Códigos de saída:\n {2}0 {4}sucesso/m);
    },
    startBudget(startMs, 60),
  );
});

describe('in a terminal, in Portuguese', () => {
  let tty: TtySession | undefined;
  let own: Home;
  beforeEach(() => {
    own = makeHome();
  });
  afterEach(() => {
    tty?.kill();
    tty = undefined;
    own.cleanup();
  });

  it('a cash-out: prompts, summary and "Enviar este saque? (s/N)", answered "s": sent', async () => {
    const before = gw.received.length;
    tty = startTty(['cashout', '--pix-key-type', 'email'], { ...own.env, ...atGateway(), ...PT }, own.dir);
    await tty.waitFor('? Valor em reais (p. ex. 15,50)');
    tty.answer('15,5');
    await tty.waitFor('✔ Valor em reais (p. ex. 15,50) R$ 15,50 (1550 centavos)');
    await tty.waitFor('? Tipo de chave Pix');
    expect(tty.screen()).toMatch(/email {3}endereço de e-mail/);
    tty.keys('Enter'); // the type given, email
    await tty.waitFor('? Chave Pix, uma chave de e-mail (p. ex. fulano@example.com)');
    tty.answer('123.456.789-09');
    await tty.waitFor('Chave Pix não é um endereço de e-mail (nome@dominio.com.br); parece uma chave CPF: use --pix-key-type cpf');
    tty.keys('C-u');
    tty.answer('fulano@example.com');
    await tty.waitFor('? CPF ou CNPJ do dono da chave (opcional, Enter para pular)');
    tty.answer('');
    await tty.waitFor('? Nome do recebedor (p. ex. Fulano de Tal)');
    tty.answer('Fulano de Tal');
    await tty.waitFor('? E-mail do recebedor');
    tty.answer('fulano@example.com');
    await tty.waitFor('? Telefone do recebedor com DDD');
    tty.answer('11987654321');
    const summary = await tty.waitFor('? Enviar este saque? (s/N)');
    expect(summary).toMatch(/Valor {7}R\$ 15,50/);
    expect(summary).toMatch(/Chave Pix {3}fulano@example\.com \(e-mail\)/);
    expect(summary).toMatch(/Recebedor {3}Fulano de Tal <fulano@example\.com>, 11987654321/);
    expect(gw.received.length).toBe(before);
    tty.answer('s');
    expect(await tty.exitCode()).toBe(0);
    expect(gw.received.length).toBe(before + 1);
    expect(gw.received.at(-1)!.json).toMatchObject({ value: 1550, pixKeyType: 2, pixKey: 'fulano@example.com' });
    expect(tty.screen()).toMatch(/✔ Enviar este saque\? Sim/);
    expect(tty.screen()).toMatch(/Saque criado\n.*\nPedido/);
  });

  it('a cash-out declined with Enter (the default, Não): exit 2, nothing sent, said in Portuguese', async () => {
    const before = gw.received.length;
    tty = startTty([...CASHOUT_ARGS], { ...own.env, ...atGateway(), ...PT }, own.dir);
    await tty.waitFor('? Enviar este saque? (s/N)');
    tty.answer('talvez');
    await tty.waitFor('Responda "Sim" ou "Não"');
    tty.keys('C-u');
    tty.answer('');
    expect(await tty.exitCode()).toBe(2);
    expect(tty.screen()).toContain('erro: saque não confirmado; nada foi enviado');
    expect(gw.received.length).toBe(before);
  });

  it('a cash-in: prompts in Portuguese, sent, the result in Portuguese', async () => {
    const before = gw.received.length;
    tty = startTty(
      [
        'cashin',
        '--payer-name',
        'Fulano de Tal',
        '--payer-document',
        '123.456.789-09',
        '--payer-email',
        'fulano@example.com',
        '--payer-phone',
        '11987654321',
        '--product-name',
        'Camiseta',
        '--no-qr',
      ],
      { ...own.env, ...atGateway(), ...PT },
      own.dir,
    );
    await tty.waitFor('? Valor em reais (p. ex. 15,50)');
    tty.answer('10');
    await tty.waitFor('? Descrição do produto (p. ex. Camiseta azul, tamanho M)');
    tty.answer('Camiseta azul M');
    await tty.waitFor('? URL de postback (opcional, Enter para pular)');
    tty.answer('');
    await tty.waitFor('? Adicionar um split (parte do valor para outro cliente)? (s/N)');
    tty.answer('n');
    expect(await tty.exitCode()).toBe(0);
    expect(gw.received.length).toBe(before + 1);
    expect(tty.screen()).toMatch(/Cobrança criada\n/);
    expect(tty.screen()).toMatch(/Valor {11}R\$ 10,00/);
  });
});
