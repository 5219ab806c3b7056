/**
 * Cash-in and cash-out, paycli run in process (test/helpers/run.ts), against the built-in sandbox,
 * the standalone sandbox and a recording test gateway; every row of the exit-code table.
 * test/e2e/cashin-cashout.test.ts keeps what needs a process: Ctrl-C, and the launcher's `--version`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, childEnv, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { CASHIN_OK, CASHOUT_OK, json, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

let home: Home;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => home.cleanup());

// jsqr is CommonJS with `exports.default`: under NodeNext the default import is the module object.
type JsQR = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQRAny = jsQRModule as unknown as JsQR | { default: JsQR };
const jsQR: JsQR = typeof jsQRAny === 'function' ? jsQRAny : jsQRAny.default;

function decodeQr(file: string): string | undefined {
  const png = PNG.sync.read(readFileSync(file));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe('built-in sandbox, in-process (fresh install)', () => {
  it('creates a cash-in, says it is the sandbox on stderr, and writes a PNG that decodes to the BR Code', async () => {
    const qrFile = join(home.dir, 'qr.png');
    const r = await runPaycli([...CASHIN_ARGS, '--qr-file', qrFile], { env: home.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/sandbox.*no money moves/);
    expect(r.stderr).toMatch(/paycli config set base-url/);
    expect(r.stdout).toMatch(/^Transaction ID\s+\d+$/m);
    expect(r.stdout).toMatch(/^Amount\s+R\$ 10,00$/m);
    const brCode = /^(000201.+)$/m.exec(r.stdout)?.[1];
    expect(brCode).toBeDefined();
    expect(decodeQr(qrFile)).toBe(brCode);
    expect(r.stdout).not.toMatch(/\u001b/); // stdout is not a terminal: no QR drawing, no colour
  });

  it('--json prints exactly one JSON document on stdout with a real BR Code', async () => {
    const r = await runPaycli(['--json', ...CASHIN_ARGS], { env: home.env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as typeof CASHIN_OK;
    expect(Number.isInteger(doc.transactionId)).toBe(true);
    expect(doc.externalId).toMatch(/^[0-9a-f-]{36}$/);
    expect(doc.qrCode).toContain('br.gov.bcb.pix');
    expect(doc.qrCode).toContain('540510.00'); // amount object 54 = R$ 10,00
    expect(Buffer.from(doc.qrCodeBase64, 'base64').subarray(1, 4).toString()).toBe('PNG');
    // stderr is JSON Lines in --json mode: the sandbox notice is a {"notice"} line
    expect(
      r.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ notice: expect.stringMatching(/^sandbox: .*no money moves/) }]);
  });

  it('--qr draws the QR code even when stdout is not a terminal; --no-qr never', async () => {
    const drawn = await runPaycli([...CASHIN_ARGS, '--qr'], { env: home.env });
    expect(drawn.code).toBe(0);
    expect(drawn.stdout).toMatch(/[▀▄█]/);
    const plain = await runPaycli([...CASHIN_ARGS, '--no-qr'], { env: home.env });
    expect(plain.stdout).not.toMatch(/[▀▄█]/);
  });

  it('transaction ids keep increasing across runs', async () => {
    const a = JSON.parse((await runPaycli(['--json', ...CASHIN_ARGS], { env: home.env })).stdout) as { transactionId: number };
    const b = JSON.parse((await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: home.env })).stdout) as { transactionId: number };
    expect(b.transactionId).toBeGreaterThan(a.transactionId);
  });

  it('prints a cash-out with reais, fee, net and the status by name', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: home.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Gross\s+R\$ 15,50$/m);
    expect(r.stdout).toMatch(/^Fee\s+R\$ 0,65$/m); // 50 + floor(1550/100)
    expect(r.stdout).toMatch(/^Net\s+R\$ 14,85$/m);
    expect(r.stdout).toMatch(/^Status\s+created$/m);
    expect(r.stdout).toMatch(/^Created at\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/m); // local time with its offset
  });

  it('a cash-out without --yes and without a terminal exits 2 and sends nothing', async () => {
    const r = await runPaycli(CASHOUT_ARGS, { env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^› sandbox: this runs against the built-in sandbox; no money moves/); // said first, before any question
  });
});

describe('standalone sandbox', () => {
  let sandbox: SandboxProcess;
  let locked: SandboxProcess;
  let noAcq: SandboxProcess;
  let sbHome: Home;
  beforeAll(async () => {
    sbHome = makeHome();
    [sandbox, locked, noAcq] = await Promise.all([
      startSandboxProcess([], sbHome.env),
      startSandboxProcess(['--api-key', 'sk_test_0123456789abcdef'], sbHome.env),
      startSandboxProcess(['--no-acquirer'], sbHome.env),
    ]);
  });
  afterAll(async () => {
    await Promise.all([sandbox.stop(), locked.stop(), noAcq.stop()]);
    sbHome.cleanup();
  });

  it('answers cash-in and cash-out as the interface says', async () => {
    const ci = await runPaycli(['--json', '--base-url', sandbox.url, ...CASHIN_ARGS], { env: { ...home.env, PAYCLI_API_KEY: 'any' } });
    expect(ci.code).toBe(0);
    expect(ci.stderr).toBe('');
    const co = await runPaycli(['--json', '--base-url', sandbox.url, ...CASHOUT_ARGS, '--yes'], { env: { ...home.env, PAYCLI_API_KEY: 'any' } });
    expect(co.code).toBe(0);
    const doc = JSON.parse(co.stdout) as Record<string, unknown>;
    // paycli's document is typed (cents as integers, status by name and code); the answer as it came is under `gateway`
    expect(doc).toMatchObject({ kind: 'cashout', gross: 1550, tax: 65, liquid: 1485, status: 'created', statusCode: 0, sandbox: false });
    expect(doc.gateway).toMatchObject({ gross: 1550, tax: '65', liquid: '1485', status: '0' });
    expect(doc.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    await sandbox.waitForLog(/POST \/transaction\/cashout → 200/); // logged just after it answered
    expect(sandbox.log()).toMatch(/POST \/transaction\/cashout → 200/);
  });

  it('answers 400 {message} naming the missing field (interface §4.2)', async () => {
    const res = await fetch(`${sandbox.url}/transaction/cashout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pixKeyType: 2, pixKey: 'a@b.co', person: { name: 'A', email: 'a@b.co', phone: '11987654321' } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Validation Failed - value is required' });
  });

  it('--api-key: a request without the bearer key gets 401 → exit 3 with a hint; with it, 200', async () => {
    const bad = await runPaycli(['--base-url', locked.url, ...CASHIN_ARGS], { env: { ...home.env, PAYCLI_API_KEY: 'wrong-key' } });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/refused the credential \(HTTP 401/);
    expect(bad.stderr).toMatch(/paycli auth login/);
    const good = await runPaycli(['--base-url', locked.url, ...CASHIN_ARGS], { env: { ...home.env, PAYCLI_API_KEY: 'sk_test_0123456789abcdef' } });
    expect(good.code).toBe(0);
  });

  it('--no-acquirer: exit 1 with the gateway message verbatim', async () => {
    const r = await runPaycli(['--base-url', noAcq.url, ...CASHIN_ARGS], { env: { ...home.env, PAYCLI_API_KEY: 'k' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No active acquirer');
    const j = await runPaycli(['--json', '--base-url', noAcq.url, ...CASHIN_ARGS], { env: { ...home.env, PAYCLI_API_KEY: 'k' } });
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stderr)).toEqual({ error: { code: 'no_active_acquirer', message: 'No active acquirer', status: 400 } });
    expect(j.stdout).toBe('');
  });
});

describe('against a gateway', () => {
  let gw: TestGateway;
  const KEY = 'sk_live_SECRET_abcdef0123456789';
  const env = () => ({ ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY });
  beforeEach(async () => {
    gw = await startGateway();
  });
  afterEach(() => gw.close());

  it('sends the exact cash-in body and headers: integers stay integers, splits are objects', async () => {
    const r = await runPaycli(
      [...CASHIN_ARGS, '--postback-url', 'https://example.com/hook', '--split', '123e4567-e12b-12d1-a456-426655440000:300', '--split', '223e4567-e12b-12d1-a456-426655440000:200'],
      { env: env() },
    );
    expect(r.code).toBe(0);
    expect(gw.received).toHaveLength(1);
    const req = gw.received[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/transaction/qrcode/cashin');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({
      payerName: 'Fulano de Tal',
      payerDocument: '12345678909',
      payerEmail: 'fulano@example.com',
      payerPhone: '11987654321',
      productName: 'Camiseta',
      productDescription: 'Camiseta azul M',
      value: 1000,
      postbackUrl: 'https://example.com/hook',
      splits: [
        { clientId: '123e4567-e12b-12d1-a456-426655440000', value: 300 },
        { clientId: '223e4567-e12b-12d1-a456-426655440000', value: 200 },
      ],
      orderId: expect.stringMatching(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/), // profile order-id auto (the default)
    });
    expect(req.text).toContain('"value":1000');
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('sends the exact cash-out body: pixKeyType as an integer, key in DICT form', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--cpf-cnpj', '12.abc.345/01de-35', '--yes', '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(gw.received[0]!.path).toBe('/transaction/cashout');
    expect(gw.received[0]!.json).toEqual({
      value: 1550,
      pixKeyType: 2,
      pixKey: 'fulano@example.com',
      cpfCnpj: '12ABC34501DE35',
      person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' },
      orderId: expect.stringMatching(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/), // profile order-id auto (the default)
    });
    expect(JSON.parse(r.stdout).gateway).toEqual(CASHOUT_OK);
  });

  it('accepts --pix-key-type as the interface number', async () => {
    const args = CASHOUT_ARGS.map((a) => (a === 'email' ? '2' : a));
    const r = await runPaycli([...args, '--yes'], { env: env() });
    expect(r.code).toBe(0);
    expect((gw.received[0]!.json as { pixKeyType: number }).pixKeyType).toBe(2);
  });

  it('keeps unknown response fields in --json output', async () => {
    gw.respond((_req, res) => json(res, 200, { ...CASHOUT_OK, success: true, orderId: 'A1' }));
    const r = await runPaycli([...CASHOUT_ARGS, '--yes', '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).gateway).toEqual({ ...CASHOUT_OK, success: true, orderId: 'A1' });
  });

  it('uses cashin-base-url / cashout-base-url from the profile', async () => {
    const other = await startGateway();
    try {
      const cfg = { ...home.env, PAYCLI_API_KEY: KEY };
      expect((await runPaycli(['config', 'set', 'cashout-base-url', other.url], { env: cfg })).code).toBe(0);
      expect((await runPaycli(['config', 'set', 'base-url', gw.url], { env: cfg })).code).toBe(0);
      expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: cfg })).code).toBe(0);
      expect((await runPaycli(CASHIN_ARGS, { env: cfg })).code).toBe(0);
      expect(other.received.map((r) => r.path)).toEqual(['/transaction/cashout']);
      expect(gw.received.map((r) => r.path)).toEqual(['/transaction/qrcode/cashin']);
    } finally {
      await other.close();
    }
  });

  it('auth-header and header.<Name> change what is sent', async () => {
    const cfg = { ...home.env, PAYCLI_BASE_URL: gw.url };
    await runPaycli(['config', 'set', 'auth-header', 'X-Api-Key'], { env: cfg });
    await runPaycli(['config', 'set', 'header.X-Client-Id', 'merchant-7'], { env: cfg });
    expect((await runPaycli(['config', 'set', 'api-key'], { env: cfg, input: `${KEY}\n` })).code).toBe(0);
    const r = await runPaycli(CASHIN_ARGS, { env: cfg });
    expect(r.code).toBe(0);
    expect(gw.received[0]!.headers['x-api-key']).toBe(KEY);
    expect(gw.received[0]!.headers['x-client-id']).toBe('merchant-7');
    expect(gw.received[0]!.headers.authorization).toBeUndefined();
  });

  // ---- the exit-code table ----
  it('exit 1: a 400 with a message, shown verbatim', async () => {
    gw.respond((_req, res) => json(res, 400, { message: 'payerDocument inválido' }));
    const r = await runPaycli(CASHIN_ARGS, { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('payerDocument inválido');
    expect(r.stdout).toBe('');
  });

  it('exit 2: validation error, nothing sent, every problem named by flag', async () => {
    const r = await runPaycli(['cashin', '--value', '10.50', '--payer-document', '123.456.789-00'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required flags: --payer-name, --payer-email, --payer-phone, --product-name, --product-description/);
    expect(r.stderr).toMatch(/--value: must be an integer number of cents.*--amount/);
    expect(r.stderr).toMatch(/--payer-document: is not a valid CPF or CNPJ/);
    expect(gw.received).toHaveLength(0);
  });

  it('exit 2 with --json: one JSON error document on stderr', async () => {
    const r = await runPaycli(['--json', 'cashin', '--value', 'abc'], { env: env() });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stderr) as { error: { code: string; field: string } };
    expect(doc.error.code).toBe('missing_fields');
    expect(doc.error.field).toBe('--payer-name');
    expect(r.stdout).toBe('');
  });

  it('exit 2: an unknown flag (commander usage error)', async () => {
    const r = await runPaycli(['cashin', '--valeu', '10'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--valeu'/);
    expect(gw.received).toHaveLength(0);
  });

  it('exit 3: 401 and 403, with a hint', async () => {
    for (const status of [401, 403]) {
      gw.respond((_req, res) => json(res, status, { message: 'Unauthorized' }));
      const r = await runPaycli(CASHIN_ARGS, { env: env() });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`HTTP ${status}: Unauthorized`);
      expect(r.stderr).toMatch(/paycli auth login/);
    }
  });

  it('exit 3: a gateway (not on loopback) with no API key configured, nothing sent', async () => {
    const r = await runPaycli(CASHIN_ARGS, { env: { ...home.env, PAYCLI_BASE_URL: 'https://gateway.invalid' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no API key for profile "default"/);
  });

  it('a gateway on loopback with no API key configured: sent without a credential, one notice', async () => {
    for (const json of [false, true]) {
      const r = await runPaycli([...(json ? ['--json'] : []), ...CASHIN_ARGS], { env: { ...home.env, PAYCLI_BASE_URL: gw.url } });
      expect(r.code, r.stderr).toBe(0);
      const notice = `no API key for profile "default": sending to ${new URL(gw.url).host} (loopback) without a credential`;
      expect(r.stderr).toBe(json ? `${JSON.stringify({ notice })}\n` : `› ${notice}\n`);
    }
    expect(gw.received).toHaveLength(2);
    for (const req of gw.received) expect(req.headers.authorization).toBeUndefined();
  });

  it('exit 4: connection refused, nothing sent', async () => {
    const url = gw.url;
    await gw.close();
    const r = await runPaycli(CASHIN_ARGS, { env: { ...env(), PAYCLI_BASE_URL: url } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/ECONNREFUSED\): nothing was sent/);
    gw = await startGateway();
  });

  it('exit 4: timeout after sending, outcome unknown', async () => {
    gw.respond(() => undefined); // never answers
    const r = await runPaycli(['--timeout', '3000', ...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no answer within 3000 ms after the request was sent: the outcome is unknown/);
    // one POST, then one lookup by its orderId (which times out too: the outcome stays unknown)
    expect(gw.received.map((q) => q.method)).toEqual(['POST', 'GET']);
  });

  it('exit 5: 500, not JSON, wrong shape', async () => {
    gw.respond((_req, res) => json(res, 500, { message: 'internal' }));
    let r = await runPaycli(CASHIN_ARGS, { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/HTTP 500: internal/);
    gw.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
    });
    r = await runPaycli(CASHIN_ARGS, { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/not JSON/);
    gw.respond((_req, res) => json(res, 200, { ...CASHOUT_OK, status: 'PAID' }));
    r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/does not match the interface: status/);
  });

  it('--verbose traces request and response on stderr with the key redacted', async () => {
    const r = await runPaycli(['--verbose', ...CASHIN_ARGS], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> POST http://127.0.0.1');
    expect(r.stderr).toContain('authorization: Bearer [redacted]');
    expect(r.stderr).toContain('< HTTP 200');
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });

  it('--json output pipes into a JSON parser: nothing but the document on stdout', async () => {
    const r = await runPaycli(['--json', ...CASHIN_ARGS], { env: env() });
    const doc = JSON.parse(r.stdout);
    expect(doc.gateway).toEqual(CASHIN_OK);
    expect(doc).toMatchObject({ kind: 'cashin', transactionId: CASHIN_OK.transactionId, externalId: CASHIN_OK.externalId, qrCode: CASHIN_OK.qrCode, sandbox: false });
  });
});

describe('pipes', () => {
  it('stops quietly when the reader of stdout goes away (paycli --help | head -1)', async () => {
    const { spawn } = await import('node:child_process');
    const { PAYCLI } = await import('../helpers/cli.js');
    const child = spawn(process.execPath, [PAYCLI, 'cashin', '--help'], { env: childEnv(home.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Close our end of the pipe before paycli writes, as `head -1` does once it has its line.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|at .*\.js/);
  });
});

describe('help', () => {
  it('paycli --help documents every exit code; every command has examples', async () => {
    const root = await runPaycli(['--help'], { env: home.env });
    expect(root.code).toBe(0);
    for (const code of ['0', '1', '2', '3', '4', '5', '130']) expect(root.stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
    for (const cmd of [
      ['cashin'],
      ['cashout'],
      ['config'],
      ...['set', 'get', 'unset', 'list', 'path'].map((c) => ['config', c]),
      ['sandbox'],
      ...['pay', 'fail', 'cancel', 'refund'].map((c) => ['sandbox', c]),
      ['history'],
      ['listen'],
      ['completion'],
    ]) {
      const r = await runPaycli([...cmd, '--help'], { env: home.env });
      expect(r.code, cmd.join(' ')).toBe(0);
      expect(r.stdout, cmd.join(' ')).toMatch(/^Examples?:\n {2}\$ paycli /m);
      expect(r.stderr).toBe('');
    }
  });
});
