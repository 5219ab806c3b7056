/**
 * Portuguese and English in `history`, `brcode`, the `sandbox` and `listen` servers and the select
 * list of a prompt (docs/portugues.md): with LANG=pt_BR.UTF-8 their texts for people are in
 * Portuguese, in English otherwise; what scripts read (`--json` stdout, the `listening on` line,
 * exit codes) is the same in both.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { startGateway } from '../helpers/gateway.js';
import { startListenProcess, waitFor, type ListenProcess } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

const PT = { LANG: 'pt_BR.UTF-8' };
/** The Banco Central's example BR Code with its CRC replaced by 0000: not valid. */
const BAD_CRC = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63040000';

let home: Home;
const running: Array<SandboxProcess | ListenProcess> = [];
beforeAll(() => {
  home = makeHome();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});
afterAll(() => home.cleanup());

const inBoth = (args: string[], env: Record<string, string> = {}) =>
  Promise.all([runPaycli(args, { env: { ...home.env, ...env, ...PT } }), runPaycli(args, { env: { ...home.env, ...env } })]);

describe('history in both languages', () => {
  it('the table, its footnote, a notice and an error; --json the same in both', async () => {
    const own = makeHome();
    try {
      // two sends to the built-in sandbox (no gateway configured): one cash-out, one cash-in
      expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: own.env })).code).toBe(0);
      expect((await runPaycli(CASHIN_ARGS, { env: own.env })).code).toBe(0);
      const both = (args: string[]) => Promise.all([runPaycli(args, { env: { ...own.env, ...PT } }), runPaycli(['--lang', 'en', ...args], { env: { ...own.env, ...PT } })]);

      const [pt, en] = await both(['history']);
      expect([pt.code, en.code]).toEqual([0, 0]);
      // BY (who sent it) is shown when it fits 80 columns: it depends on this machine's user and host names
      const ptLines = pt.stdout.trimEnd().split('\n');
      expect(ptLines[0]).toMatch(/^Nº {2}HORA \(UTC\) {8}(POR +)?TIPO +VALOR {2}RESULTADO {2}PARA \/ DE$/);
      expect(ptLines[1]).toMatch(/^ 2 {2}\d\d\/\d\d\/\d{4} \d\d:\d\d {2}(\S+@\S+ +)?cobrança\* {2}R\$ 10,00 {2}ok {9}Fulano de Tal$/);
      expect(ptLines[2]).toMatch(/^ 1 {2}.* {2}saque\* +R\$ 15,50 {2}ok {9}fulano@example\.com$/);
      expect(pt.stderr).toBe('› * enviado ao sandbox embutido: nenhum dinheiro se moveu\n');
      const enLines = en.stdout.trimEnd().split('\n');
      expect(enLines[0]).toMatch(/^ENTRY {2}TIME \(UTC\) {8}(BY +)?KIND +AMOUNT {2}OUTCOME {2}TO \/ FROM$/);
      expect(enLines[2]).toMatch(/^ {4}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}(\S+@\S+ +)?cash-out\* +R\$ 15,50 {2}ok {7}fulano@example\.com$/);
      expect(en.stderr).toBe('› * sent to the built-in sandbox: no money moved\n');

      const [ptNone, enNone] = await both(['history', '--outcome', 'refused']);
      expect([ptNone.code, ptNone.stdout, enNone.code, enNone.stdout]).toEqual([0, '', 0, '']);
      expect(ptNone.stderr).toBe('› nenhum pagamento do registro local corresponde ao filtro\n');
      expect(enNone.stderr).toBe('› no payment in the ledger matches\n');

      const [ptBad, enBad] = await both(['history', '--limit', '0']);
      expect([ptBad.code, ptBad.stdout, enBad.code, enBad.stdout]).toEqual([2, '', 2, '']);
      expect(ptBad.stderr).toContain('erro: --limit: precisa ser um número inteiro positivo ou all, veio "0"');
      expect(enBad.stderr).toContain('error: --limit: must be a positive whole number or all, got "0"');

      const [ptJson, enJson] = await both(['--json', 'history']);
      expect(ptJson.code).toBe(0);
      expect(ptJson.stdout).toMatch(/"kind":"cashout"/);
      expect(ptJson.stdout).toBe(enJson.stdout);
    } finally {
      own.cleanup();
    }
  });

  it('history resolve: its result line in Portuguese, in English otherwise', async () => {
    const gw = await startGateway(() => undefined); // never answers: the outcome is unknown
    try {
      const homes = [makeHome(), makeHome()];
      try {
        const lines: string[] = [];
        for (const [i, h] of homes.entries()) {
          const env = { ...h.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: 'sk_test_lang_0123456789', ...(i === 0 ? PT : {}) };
          expect((await runPaycli(['--timeout', '300', ...CASHOUT_ARGS, '--yes'], { env })).code).toBe(4);
          const r = await runPaycli(['history', 'resolve', '1', '--outcome', 'not_sent'], { env });
          expect(r.code, r.stderr).toBe(0);
          lines.push(r.stdout);
        }
        expect(lines[0]).toMatch(
          /^lançamento 1 \(saque de R\$ 15,50 para fulano@example\.com em \d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d [+-]\d\d:\d\d\) resolvido: não enviado; ele não bloqueia mais um saque idêntico\n$/,
        );
        expect(lines[1]).toMatch(/^entry 1 \(cash-out R\$ 15,50 to fulano@example\.com at .*\) resolved: not_sent; it no longer blocks an identical cash-out\n$/);
      } finally {
        for (const h of homes) h.cleanup();
      }
    } finally {
      await gw.close();
    }
  }, 60_000);
});

describe('brcode in both languages', () => {
  it('a code that is not valid: its description and error in Portuguese, in English otherwise; --json the same', async () => {
    const [pt, en] = await inBoth(['brcode', 'decode', BAD_CRC]);
    expect([pt.code, en.code]).toEqual([2, 2]);
    expect(pt.stdout).toMatch(/^BR Code: NÃO É VÁLIDO \(estático\)\nTipo {17}estático: uma chave Pix/);
    expect(pt.stdout).toContain('Valor                nenhum: o pagador digita o valor\n');
    expect(pt.stdout).toContain('Problemas:\n  erro: o CRC 0000 não confere com o payload (o esperado é 1D3D)\n    regra: o CRC é o CRC-16/CCITT-FALSE');
    expect(pt.stderr).toBe('erro: o BR Code não é válido: o CRC 0000 não confere com o payload (o esperado é 1D3D)\n');
    expect(en.stdout).toMatch(/^BR Code: NOT VALID \(static\)\nKind {12}static: a Pix key/);
    expect(en.stdout).toContain('Problems:\n  error: its CRC 0000 does not match the payload (expected 1D3D)\n    rule: the CRC is CRC-16/CCITT-FALSE');
    expect(en.stderr).toBe('error: the BR Code is not valid: its CRC 0000 does not match the payload (expected 1D3D)\n');

    const [ptJson, enJson] = await inBoth(['--json', 'brcode', 'decode', BAD_CRC]);
    expect([ptJson.code, enJson.code]).toEqual([2, 2]);
    expect(ptJson.stdout).toContain('"message":"its CRC 0000 does not match the payload (expected 1D3D)"');
    expect(ptJson.stdout).toBe(enJson.stdout);
    expect(JSON.parse(ptJson.stderr).error.message).toBe('o BR Code não é válido: o CRC 0000 não confere com o payload (o esperado é 1D3D)');
  });

  it('three errors and a created code in both languages', async () => {
    const cases: Array<[string[], string, string]> = [
      [
        ['brcode', 'decode'],
        'erro: brcode decode: informe um BR Code, - para lê-lo da entrada padrão, ou --image <arquivo.png>',
        'error: brcode decode: give a BR Code, - to read it from stdin, or --image <file.png>',
      ],
      [
        ['brcode', 'create', '--key', '11987654374', '--name', 'Loja', '--city', 'Sao Paulo'],
        'erro: --key: "11987654374" é ao mesmo tempo um CPF válido e um celular válido',
        'error: --key: "11987654374" is both a valid CPF and a valid mobile number',
      ],
      [
        ['brcode', 'create', '--key', 'fulano@example.com', '--name', 'Loja', '--city', 'Sao Paulo', '--value', '1x'],
        'erro: --value: "1x" não é um valor em centavos de 1 a',
        'error: --value: "1x" is not an amount in cents from 1 to',
      ],
    ];
    for (const [args, ptText, enText] of cases) {
      const [pt, en] = await inBoth(args);
      expect([pt.code, pt.stdout, en.code, en.stdout], args.join(' ')).toEqual([2, '', 2, '']);
      expect(pt.stderr).toContain(ptText);
      expect(en.stderr).toContain(enText);
    }
    const [pt, en] = await inBoth(['brcode', 'create', '--key', 'fulano@example.com', '--name', 'Loja', '--city', 'Sao Paulo']);
    expect([pt.code, en.code]).toEqual([0, 0]);
    expect(pt.stdout).toMatch(/^000201/);
    expect(pt.stdout).toBe(en.stdout);
    expect(pt.stderr).toBe('› sem --value/--amount: o pagador digita o valor\n');
    expect(en.stderr).toBe('› no --value/--amount: the payer types the amount\n');
  });
});

describe('the sandbox and listen servers in both languages', () => {
  it('the sandbox: its notice and request lines, a control command\'s notice, a flag error; "listening on" the same', async () => {
    const pt = await startSandboxProcess([], { ...home.env, ...PT });
    running.push(pt);
    const en = await startSandboxProcess([], home.env);
    running.push(en);
    expect(pt.log()).toMatch(/^› sandbox escutando em http:\/\/127\.0\.0\.1:\d+ \(nenhum dinheiro se move; postbacks tentados de novo por 24 h; /);
    expect(pt.log()).toMatch(/\nlistening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(en.log()).toMatch(/^› sandbox listening on http:\/\/127\.0\.0\.1:\d+ \(no money moves; postbacks retried for 24 h; /);
    for (const [sb, order] of [
      [pt, 'pedido-pt'],
      [en, 'pedido-en'],
    ] as const) {
      const r = await runPaycli(['--base-url', sb.url, '--json', ...CASHOUT_ARGS, '--order-id', order, '--yes'], { env: home.env });
      expect(r.code, r.stderr).toBe(0);
    }
    await waitFor(() => /POST \/transaction\/cashout → 200/.test(pt.log()) && /POST \/transaction\/cashout → 200/.test(en.log()), 10_000, 'the request lines');
    expect(pt.log()).toMatch(/Z POST \/transaction\/cashout → 200 \(saque \d+, pedido pedido-pt\)\n/);
    expect(en.log()).toMatch(/Z POST \/transaction\/cashout → 200 \(cash-out \d+, order pedido-en\)\n/);

    const [ptEvents, enEvents] = [
      await runPaycli(['sandbox', 'events', '--sandbox-url', pt.url], { env: { ...home.env, ...PT } }),
      await runPaycli(['sandbox', 'events', '--sandbox-url', en.url], { env: home.env }),
    ];
    expect([ptEvents.code, ptEvents.stdout, enEvents.code, enEvents.stdout]).toEqual([0, '', 0, '']);
    expect(ptEvents.stderr).toBe('› nenhum evento de postback neste sandbox ainda\n');
    expect(enEvents.stderr).toBe('› no postback event in this sandbox yet\n');

    const [ptBad, enBad] = await inBoth(['sandbox', '--port', '0', '--auto-pay', 'x']);
    expect([ptBad.code, enBad.code]).toEqual([2, 2]);
    expect(ptBad.stderr).toContain('erro: --auto-pay precisa ser uma duração de até 24h');
    expect(enBad.stderr).toContain('error: --auto-pay must be a duration up to 24h');
  }, 60_000);

  it('listen: its ready and stopped notices, a refused postback, the line of a notification; --json stdout the same', async () => {
    const [pt, en, ptJson, enJson] = await Promise.all([
      startListenProcess([], { ...home.env, ...PT }),
      startListenProcess([], home.env),
      startListenProcess(['--json'], { ...home.env, ...PT }),
      startListenProcess(['--json'], home.env),
    ]);
    running.push(pt, en, ptJson, enJson);
    expect(pt.stderr()).toMatch(
      /^› pronto: os postbacks enviados para http:\/\/127\.0\.0\.1:\d+ aparecem aqui \(assinaturas não conferidas \(sem --secret\)\); Ctrl-C para parar\nlistening on http:/,
    );
    expect(en.stderr()).toMatch(/^› ready: postbacks to http:\/\/127\.0\.0\.1:\d+ are printed here \(signatures not checked \(no --secret\)\); Ctrl-C to stop\nlistening on http:/);
    const body = JSON.stringify({
      object: 'transfer',
      transactionId: 77,
      status: 'paid',
      value: 1550,
      orderId: 'pedido-7',
      destinationBank: { name: 'Fulano de Tal', pixKey: 'fulano@example.com' },
    });
    for (const li of [pt, en, ptJson, enJson]) {
      expect((await fetch(li.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(200);
      expect((await fetch(li.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1]' })).status).toBe(400);
    }
    await waitFor(() => [pt, en, ptJson, enJson].every((li) => li.stdout().endsWith('\n')), 10_000, 'the notification lines');
    expect(pt.stdout()).toMatch(
      /^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d [+-]\d\d:\d\d {2}saque 77 {2}paid {2}R\$ 15,50 {2}pedido pedido-7 {2}para Fulano de Tal \(fulano@example\.com\)\n$/,
    );
    expect(en.stdout()).toMatch(/ {2}cash-out 77 {2}paid {2}R\$ 15,50 {2}order pedido-7 {2}to Fulano de Tal \(fulano@example\.com\)\n$/);
    expect(ptJson.stdout()).toBe(enJson.stdout());
    expect(pt.stderr()).toContain('aviso: postback de 127.0.0.1 recusado: o corpo não é um objeto JSON (400)');
    expect(en.stderr()).toContain('warning: refused a postback from 127.0.0.1: the body is not a JSON object (400)');
    for (const li of [pt, en]) expect(await li.stop()).toEqual({ code: 0, signal: null });
    expect(pt.stderr()).toMatch(/› parado; 1 notificação recebida\n$/);
    expect(en.stderr()).toMatch(/› stopped; 1 notification received\n$/);
  }, 60_000);
});
