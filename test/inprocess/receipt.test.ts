/**
 * `paycli receipt`, run in process (test/helpers/run.ts), against a test gateway that keeps what it creates and answers
 * lookups: the PDF (A4 and 80 mm) read back with poppler's `pdftotext` and rendered with `pdftoppm`,
 * every field checked; the same bytes on every render (hashed); PNG and JSON; Portuguese and
 * English; masked keys and documents; and no receipt (exit 2, no_receipt) for a payment that did
 * not happen.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { ledgerRun } from '../helpers/ledger.js';
import { DOCUMENT_SCHEMAS } from '../../src/cli/output/document-schemas.js';
import { CASHIN_OK, json, lookupGateway, useGatewayFixture, type LookupGateway } from '../helpers/gateway.js';

// jsqr is CommonJS with `exports.default`: under NodeNext the default import is the module object.
type JsQR = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQRAny = jsQRModule as unknown as JsQR | { default: JsQR };
const jsQR: JsQR = typeof jsQRAny === 'function' ? jsQRAny : jsQRAny.default;

const KEY = 'sk_live_RECEIPT_0123456789abcdef';
const t = useGatewayFixture(KEY);
const SP = { TZ: 'America/Sao_Paulo' };

const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const pageSize = (file: string) =>
  /Page size:\s+([\d.]+) x ([\d.]+) pts/
    .exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))!
    .slice(1)
    .map(Number);

/** Renders every page of a PDF with pdftoppm; returns how many PNG pages it made. */
function rendered(file: string, dir: string): number {
  execFileSync('pdftoppm', ['-png', '-r', '40', file, join(dir, 'page')]);
  return readdirSync(dir).filter((f) => f.startsWith('page') && f.endsWith('.png')).length;
}

/** A cash-out of R$ 15,50 to a CPF key, paid at the gateway (with its end-to-end id and the recipient's bank). */
async function paidCashOut(l: LookupGateway): Promise<number> {
  const args = CASHOUT_ARGS.map((a, i) => (CASHOUT_ARGS[i - 1] === '--pix-key-type' ? 'cpf' : CASHOUT_ARGS[i - 1] === '--pix-key' ? '123.456.789-09' : a));
  const out = await runPaycli([...args, '--order-id', 'pedido-1234', '--yes', '--json'], { env: t.env(SP) });
  expect(out.code, out.stderr).toBe(0);
  const id = (JSON.parse(out.stdout) as { transactionId: number }).transactionId;
  Object.assign(l.held.find((h) => h.transactionId === id)!, {
    status: 'paid',
    endToEndId: 'E18236120202611251504s0123456789',
    processedAt: '2026-11-25T15:04:15.768543',
    destinationBank: { name: 'Fulano de Tal', cpfCnpj: '12345678909', bank: 'Banco Exemplo S.A.', ispb: '18236120' },
  });
  return id;
}

/** A cash-in of R$ 10,00 (the BR Code of CASHIN_OK), paid at the gateway by a payer with a CPF. */
async function paidCashIn(l: LookupGateway, status = 'paid'): Promise<number> {
  const out = await runPaycli([...CASHIN_ARGS, '--order-id', 'pedido-77', '--json'], { env: t.env(SP) });
  expect(out.code, out.stderr).toBe(0);
  const id = (JSON.parse(out.stdout) as { transactionId: number }).transactionId;
  Object.assign(l.held.find((h) => h.transactionId === id)!, {
    status,
    endToEndId: 'E60746948202611251504A1b2C3d4E5f',
    processedAt: '2026-11-25T15:04:15Z',
    payer: { transactionId: id, name: 'Beltrana da Silva', documentId: '98765432100', bankName: 'Banco Pagador', bankCode: null, bankIspb: '60746948' },
  });
  return id;
}

describe('paycli receipt', () => {
  it('a paid cash-out: A4 PDF with every field, masked, read back by pdftotext and rendered by pdftoppm; the same bytes twice', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const id = await paidCashOut(l);
    const file = join(t.home.dir, 'r.pdf');
    const r = await runPaycli(['receipt', String(id), '-o', file], { env: t.env(SP) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(file);
    expect(t.gw.received.at(-1)).toMatchObject({ method: 'GET', path: `/transaction/get/by/id/${id}` });
    const text = pdfText(file);
    for (const want of [
      'Pix sent: receipt',
      'R$ 15,50',
      '2026-11-25T12:04:15-03:00', // processedAt (UTC, as the gateway writes it) in São Paulo, with the offset
      'Pix sent (cash-out)',
      'paid',
      `127.0.0.1:${new URL(t.gw.url).port}, profile default`, // the payer: the gateway account
      'Fulano de Tal',
      '***.456.789-** (CPF)', // the key, masked
      'Banco Exemplo S.A.',
      'E18236120202611251504s0123456789',
      String(id),
      'pedido-1234',
      'R$ 0,65', // fee (tax)
      'R$ 14,85', // net (liquid)
      'default',
    ])
      expect(text).toContain(want);
    expect(text).not.toContain('123.456.789-09');
    expect(text).not.toContain('12345678909');
    expect(text).not.toContain('SANDBOX');
    expect(pageSize(file)).toEqual([595.28, 841.89]);
    expect(rendered(file, t.home.dir)).toBe(1);
    const again = join(t.home.dir, 'again.pdf');
    expect((await runPaycli(['receipt', '--order-id', 'pedido-1234', '-o', again], { env: t.env(SP) })).code).toBe(0);
    expect(sha(again)).toBe(sha(file));
    expect(readFileSync(file, 'latin1')).not.toMatch(/CreationDate|ModDate/);
  });

  it('--format json on stdout, text or --json: a status with an 8-bit CSI and a bidi override from the gateway reaches no terminal raw', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const id = await paidCashOut(l);
    Object.assign(l.held.find((h) => h.transactionId === id)!, { status: 'paid\u009b31m\u202e' });
    for (const args of [['--format', 'json'], ['--json']]) {
      const r = await runPaycli(['receipt', String(id), ...args], { env: t.env(SP) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
      expect(JSON.parse(r.stdout)).toMatchObject({ transactionId: String(id), status: 'paid' }); // the escape sequence removed whole
    }
  });

  it('80 mm thermal width and PNG: deterministic, the size of the paper', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const id = await paidCashOut(l);
    const thermal = join(t.home.dir, 't.pdf');
    expect((await runPaycli(['receipt', String(id), '--paper', '80mm', '-o', thermal], { env: t.env(SP) })).code).toBe(0);
    const [w, h] = pageSize(thermal);
    expect(w).toBeCloseTo(226.77, 1);
    expect(h).toBeGreaterThan(300);
    expect(pdfText(thermal)).toContain('***.456.789-** (CPF)');
    const png = join(t.home.dir, 'r.png');
    const out = await runPaycli(['receipt', String(id), '--format', 'png', '--paper', '80mm', '-o', png], { env: t.env(SP) });
    expect(out.code, out.stderr).toBe(0);
    const image = PNG.sync.read(readFileSync(png));
    expect(image.width).toBe(Math.round(226.77 * 2));
    const png2 = join(t.home.dir, 'r2.png');
    expect((await runPaycli(['receipt', String(id), '--format', 'png', '--paper', '80mm', '-o', png2], { env: t.env(SP) })).code).toBe(0);
    expect(sha(png2)).toBe(sha(png));
  });

  it('a paid cash-in in Portuguese: payer masked, the BR Code and its recipient; JSON has the same fields', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const id = await paidCashIn(l);
    const file = join(t.home.dir, 'in.pdf');
    const r = await runPaycli(['--lang', 'pt-BR', 'receipt', String(id), '-o', file], { env: t.env(SP) });
    expect(r.code, r.stderr).toBe(0);
    const text = pdfText(file);
    for (const want of [
      'Comprovante de Pix recebido',
      'R$ 10,00',
      '25/11/2026 12:04:15 -03:00',
      'Pix recebido (cobrança)',
      'pago',
      'Quem pagou',
      'Beltrana da Silva',
      '***.654.321-**',
      'Banco Pagador',
      'Quem recebeu',
      'Fulano de Tal', // the BR Code's merchant name
      '123e****-****-****-****-********0000', // its random key, masked
      'E60746948202611251504A1b2C3d4E5f',
      'pedido-77',
      'Pix Copia e Cola',
      'Lançamento no ledger',
      'Camiseta', // the product
      CASHIN_OK.externalId,
      `127.0.0.1:${new URL(t.gw.url).port}, perfil default`,
    ])
      expect(text).toContain(want);
    expect(pageSize(file)).toEqual([595.28, 841.89]);
    expect(rendered(file, t.home.dir)).toBe(1); // the QR code and the BR Code fit on the A4 page
    expect(text.replace(/\s+/g, '')).toContain(CASHIN_OK.qrCode.replace(/\s+/g, ''));
    expect(text).not.toContain('98765432100');
    const j = await runPaycli(['receipt', '--order-id', 'pedido-77', '--json'], { env: t.env(SP) });
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({
      kind: 'cashin',
      transactionId: String(id),
      orderId: 'pedido-77',
      value: 1000,
      status: 'paid',
      time: '2026-11-25T15:04:15.000Z',
      endToEndId: 'E60746948202611251504A1b2C3d4E5f',
      payer: { name: 'Beltrana da Silva', document: '***.654.321-**', institution: 'Banco Pagador' },
      recipient: { name: 'Fulano de Tal', pixKey: '123e****-****-****-****-********0000' },
      brCode: CASHIN_OK.qrCode,
      sandbox: false,
      profile: 'default',
    });
    expect(DOCUMENT_SCHEMAS.receipt.safeParse(JSON.parse(j.stdout)).success).toBe(true); // the document its JSON Schema describes
    const jpt = await runPaycli(['--lang', 'pt-BR', 'receipt', '--order-id', 'pedido-77', '--json'], { env: t.env(SP) });
    expect(jpt.stdout).toBe(j.stdout); // what scripts read does not change with the language
    expect(JSON.parse(j.stdout).recipient.account).toEqual({ gateway: `127.0.0.1:${new URL(t.gw.url).port}`, profile: 'default' });
    // the gateway's "paid" is kept: the cash-in now counts in statements
    const h = await runPaycli(['history', '--json'], { env: t.env(SP) });
    expect((JSON.parse(h.stdout) as { status?: string }[])[0]!.status).toBe('paid');
  });

  it('no receipt (exit 2, no_receipt, saying why): a cash-in not paid, a refused or failed cash-out, an unknown id, one the gateway does not know', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const unpaid = await paidCashIn(l, 'created');
    const expectNone = async (args: string[], why: RegExp) => {
      const r = await runPaycli(['--json', 'receipt', ...args, '-o', join(t.home.dir, 'x.pdf')], { env: t.env(SP) });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      const err = (JSON.parse(r.stderr) as { error: { code: string; message: string } }).error;
      expect(err.code).toBe('no_receipt');
      expect(err.message).toMatch(why);
    };
    await expectNone([String(unpaid)], /is not paid \(status created\)/);
    const failed = await paidCashOut(l);
    l.held.find((h) => h.transactionId === failed)!.status = 'failed';
    await expectNone([String(failed)], /did not happen \(status failed\)/);
    await expectNone(['999999'], /no payment with transaction 999999 in the ledger/);
    l.held.splice(0, l.held.length);
    await expectNone(['--order-id', 'pedido-77'], /the gateway does not know the transaction/);
    t.gw.respond((req, res) =>
      req.method === 'POST' ? json(res, 400, { message: 'Validation Failed - pixKey is invalid' }) : json(res, 404, { message: 'Transaction not found' }),
    );
    const refused = await runPaycli([...CASHOUT_ARGS, '--order-id', 'pedido-x', '--yes'], { env: t.env(SP) });
    expect(refused.code).toBe(1);
    await expectNone(['--order-id', 'pedido-x'], /the gateway refused ledger entry \d+ \(Validation Failed - pixKey is invalid\)/);
    // an entry whose outcome was never recorded (paycli stopped while sending): unknown, no receipt
    ledgerRun(t.home.env.PAYCLI_DATA_DIR!, `UPDATE payments SET outcome = NULL, end_time = NULL WHERE order_id = 'pedido-1234'`);
    await expectNone(['--order-id', 'pedido-1234'], /outcome of ledger entry \d+ is unknown/);
    expect(readdirSync(t.home.dir)).not.toContain('x.pdf');
  });

  it('the built-in sandbox: a cash-out receipt marked SANDBOX; a cash-in gets none (its payment cannot be confirmed)', async () => {
    const env = { ...t.home.env, ...SP, PAYCLI_BASE_URL: 'sandbox' };
    const out = await runPaycli([...CASHOUT_ARGS, '--order-id', 'sb-1', '--yes'], { env });
    expect(out.code, out.stderr).toBe(0);
    const file = join(t.home.dir, 'sb.pdf');
    const r = await runPaycli(['--lang', 'pt-BR', 'receipt', '--order-id', 'sb-1', '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('SANDBOX');
    const text = pdfText(file);
    expect(text).toContain('SANDBOX: teste, nenhum dinheiro foi movido');
    expect(text).toContain('fu***@example.com (e-mail)');
    expect(text).toContain('sandbox, perfil default');
    const cin = await runPaycli([...CASHIN_ARGS, '--order-id', 'sb-2'], { env });
    expect(cin.code, cin.stderr).toBe(0);
    const none = await runPaycli(['receipt', '--order-id', 'sb-2'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('cannot be confirmed');
  });

  it('bad flags are usage errors before anything is asked', async () => {
    for (const [args, msg] of [
      [['receipt', '1', '--order-id', 'x'], 'not both'],
      [['receipt', '1', '--paper', 'a5'], 'a5'],
      [['receipt', '1', '--json', '--format', 'pdf'], '--format'],
    ] as const) {
      const r = await runPaycli([...args], { env: t.env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(msg);
    }
    expect(t.gw.received).toHaveLength(0);
  });

  it('the screenshot script of docs/ makes a Portuguese 80 mm receipt whose QR code reads back as the BR Code', async () => {
    const out = join(t.home.dir, 'shot.png');
    execFileSync(process.execPath, [resolve(__dirname, '../../scripts/receipt-screenshot.mjs'), out], { encoding: 'utf8' });
    const image = PNG.sync.read(readFileSync(out));
    expect(image.width).toBe(Math.round(226.77 * 2));
    const qr = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(qr?.data).toMatch(/^000201.*br\.gov\.bcb\.pix.*5406149\.90.*6304[0-9A-F]{4}$/);
    expect(PNG.sync.read(readFileSync(resolve(__dirname, '../../docs/receipt-pt-BR.png'))).width).toBe(image.width); // the committed screenshot
  });
});
