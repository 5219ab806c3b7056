/**
 * The standalone sandbox answers like the gateway family: answers with `orderId` and `success`,
 * lookups and balance kept across requests, `--drop-after-create`, validation like the gateway
 * (format rules only with `--strict`, no paycli words in any message), the bearer scheme in any
 * letter case or a raw token, `--webhook-url`, `--json` stderr as JSON Lines, and the subcommands'
 * `--api-key`. Real processes, real HTTP on 127.0.0.1.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, startGateway, type TestGateway } from '../helpers/gateway.js';
import { waitFor } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

let home: Home;
const running: SandboxProcess[] = [];
const gateways: TestGateway[] = [];
beforeAll(() => {
  home = makeHome();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await Promise.all(gateways.splice(0).map((g) => g.close()));
});
afterAll(() => home.cleanup());

async function sandbox(extra: string[] = [], env: Record<string, string> = {}): Promise<SandboxProcess> {
  const sb = await startSandboxProcess(extra, { ...home.env, ...env });
  running.push(sb);
  return sb;
}

async function post(sb: SandboxProcess, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function get(sb: SandboxProcess, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sb.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The gateway documentation's own cash-out example: its key type does not match its key, its CPF's check digits are wrong. */
const DOC_CASHOUT = {
  value: 15000,
  pixKeyType: 1,
  pixKey: 'user@example.com',
  cpfCnpj: '12345678901',
  person: { name: 'FULANO DE TAL', email: 'fulanodetal@gmail.com', phone: '5511987452145' },
  orderId: 'your-order-id',
};

const CASHIN = {
  payerName: 'Fulano de Tal',
  payerDocument: '123.456.789-09',
  payerEmail: 'fulano@example.com',
  payerPhone: '(11) 98765-4321',
  productName: 'Camiseta',
  productDescription: 'Camiseta azul',
  value: 1000,
};
const CASHOUT = { value: 1550, pixKeyType: 2, pixKey: 'fulano@example.com', person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' } };

describe('answers, lookups and balance', () => {
  it('echoes orderId, adds success (and description on cash-outs); lookups by id and orderId; 404; balance from what was created and paid', async () => {
    const sb = await sandbox();
    const ci = await post(sb, '/transaction/qrcode/cashin', { ...CASHIN, orderId: 'order-A' });
    expect(ci.status).toBe(200);
    expect(ci.body).toMatchObject({ orderId: 'order-A', success: true });
    expect(Object.keys(ci.body).sort()).toEqual(['externalId', 'orderId', 'qrCode', 'qrCodeBase64', 'success', 'transactionId']);
    const co = await post(sb, '/transaction/cashout', { ...CASHOUT, orderId: 'order-B' });
    expect(co.body).toMatchObject({ orderId: 'order-B', gross: 1550, tax: '65', liquid: '1485', status: '0', success: 'true', description: null });
    const bare = await post(sb, '/transaction/cashout', CASHOUT);
    expect(bare.body.orderId).toBeNull();

    // State is kept across requests.
    const byId = await get(sb, `/transaction/get/by/id/${ci.body.transactionId}`);
    expect(byId).toEqual({
      status: 200,
      body: {
        transactionId: ci.body.transactionId,
        object: 'cashin',
        status: 'created',
        method: 'pix',
        value: 1000,
        processedAt: expect.stringMatching(/Z$/),
        orderId: 'order-A',
        observation: null,
      },
    });
    const byOrder = await get(sb, '/transaction/get/by/orderId/order-B');
    expect(byOrder.body).toMatchObject({ transactionId: co.body.transactionId, object: 'transfer', status: 'created', value: 1550, orderId: 'order-B' });
    expect(byOrder.body.destinationBank).toBeNull(); // a created transfer, as documented
    await post(sb, `/_sandbox/transactions/${co.body.transactionId}/pay`, {});
    expect((await get(sb, '/transaction/get/by/orderId/order-B')).body.destinationBank).toMatchObject({ name: 'Fulano de Tal', pixKey: 'fulano@example.com', pixKeyType: '2' });
    for (const path of ['/transaction/get/by/orderId/nope', '/transaction/get/by/id/999999999', '/transaction/get/by/id/abc']) {
      expect(await get(sb, path)).toEqual({ status: 404, body: { message: 'Transaction not found' } });
    }
    // From the opening balance (R$ 1.000.000,00), two cash-outs of 1550 are debited when created; the cash-in counts once paid.
    expect((await get(sb, '/transaction/get/balance')).body).toEqual({ balance: 99_996_900, retention: 0, toAnticipate: 0, finalBalance: 99_996_900 });
    const paid = await runPaycli(['sandbox', 'pay', String(ci.body.transactionId), '--sandbox-url', sb.url], { env: home.env });
    expect(paid.code, paid.stderr).toBe(0);
    const canceled = await runPaycli(['sandbox', 'cancel', String(bare.body.transactionId), '--sandbox-url', sb.url], { env: home.env });
    expect(canceled.code, canceled.stderr).toBe(0);
    expect((await get(sb, '/transaction/get/balance')).body).toEqual({ balance: 99_999_450, retention: 0, toAnticipate: 0, finalBalance: 99_999_450 });
    const after = await get(sb, '/transaction/get/by/orderId/order-A');
    expect(after.body).toMatchObject({ status: 'paid', payer: { name: 'Fulano de Tal', documentId: '12345678909' } });
    expect(after.body.endToEndId).toMatch(/^E99999999/);
  });

  it('--drop-after-create 2: the second transaction is created, its connection reset before the answer; a lookup finds it', async () => {
    const sb = await sandbox(['--drop-after-create', '2']);
    expect((await post(sb, '/transaction/cashout', { ...CASHOUT, orderId: 'first' })).status).toBe(200);
    const dropped = await post(sb, '/transaction/cashout', { ...CASHOUT, orderId: 'second' }).then(
      () => 'answered',
      (err: Error) => String((err.cause as { code?: string } | undefined)?.code ?? err.message),
    );
    expect(dropped).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
    expect(sb.log()).toMatch(/cash-out \d+ created; connection reset before the answer \(drop after create #2\)/);
    const found = await get(sb, '/transaction/get/by/orderId/second');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ object: 'transfer', status: 'created', orderId: 'second' });
    expect((await post(sb, '/transaction/cashout', { ...CASHOUT, orderId: 'third' })).status).toBe(200); // only the 2nd
    const bad = await runPaycli(['sandbox', '--port', '0', '--drop-after-create', '0'], { env: home.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--drop-after-create must be a request number/);
  });
});

describe('validation like the gateway', () => {
  it("the documentation's own cash-out example: 200 from the default sandbox, the right 400 from --strict", async () => {
    const [loose, strict] = await Promise.all([sandbox(), sandbox(['--strict'])]);
    const ok = await post(loose, '/transaction/cashout', DOC_CASHOUT);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ orderId: 'your-order-id', gross: 15000, success: 'true' });
    const refused = await post(strict, '/transaction/cashout', DOC_CASHOUT);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^Validation Failed - pixKey is not a CNPJ.*looks like an e-mail key \(pixKeyType 2\)/);
    // With the key type fixed, the CPF's check digits are what --strict refuses next.
    const cpf = await post(strict, '/transaction/cashout', { ...DOC_CASHOUT, pixKeyType: 2 });
    expect(cpf).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^Validation Failed - cpfCnpj /) } });
    // And the orderId the documentation marks required on cash-outs.
    const { orderId: _drop, ...noOrder } = { ...CASHOUT, orderId: '' };
    expect((await post(strict, '/transaction/cashout', noOrder)).body).toEqual({ message: 'Validation Failed - orderId is required' });
    expect((await post(loose, '/transaction/cashout', noOrder)).status).toBe(200);
  });

  it('accepts what public clients send: empty cpfCnpj and person.phone, null optional fields, unknown fields', async () => {
    const sb = await sandbox();
    const co = await post(sb, '/transaction/cashout', { ...CASHOUT, cpfCnpj: '', person: { ...CASHOUT.person, phone: '' }, orderId: null, postbackUrl: null, extra: 1 });
    expect(co.status).toBe(200);
    const ci = await post(sb, '/transaction/qrcode/cashin', { ...CASHIN, payerDocument: '12345678901', postbackUrl: '', splits: null, orderId: null });
    expect(ci.status).toBe(200);
    expect(ci.body.success).toBe(true);
  });

  it('400 "Validation Failed - <field> is required" / "must be <type>"; no paycli words in any message', async () => {
    const [sb, strict] = await Promise.all([sandbox(), sandbox(['--strict'])]);
    const cases: Array<[string, unknown, string]> = [
      ['/transaction/cashout', { ...CASHOUT, value: undefined }, 'Validation Failed - value is required'],
      ['/transaction/cashout', { ...CASHOUT, value: '1550' }, 'Validation Failed - value must be an integer'],
      ['/transaction/cashout', { ...CASHOUT, value: 0 }, 'Validation Failed - value must be greater than 0'],
      ['/transaction/cashout', { ...CASHOUT, pixKeyType: 'email' }, 'Validation Failed - pixKeyType must be an integer'],
      ['/transaction/cashout', { ...CASHOUT, pixKeyType: 7 }, 'Validation Failed - pixKeyType must be one of 0, 1, 2, 3, 4'],
      ['/transaction/cashout', { ...CASHOUT, person: null }, 'Validation Failed - person is required'],
      ['/transaction/cashout', { ...CASHOUT, person: { name: 'A', email: 'a@b.co' } }, 'Validation Failed - person.phone is required'],
      ['/transaction/cashout', { ...CASHOUT, cpfCnpj: 12345678909 }, 'Validation Failed - cpfCnpj must be a string'],
      ['/transaction/qrcode/cashin', { ...CASHIN, payerName: undefined }, 'Validation Failed - payerName is required'],
      ['/transaction/qrcode/cashin', { ...CASHIN, splits: [{ clientId: 'x' }] }, 'Validation Failed - splits.0.value is required'],
      ['/transaction/qrcode/cashin', [], 'Validation Failed - the body must be a JSON object'],
    ];
    for (const [path, body, message] of cases) expect(await post(sb, path, body), message).toEqual({ status: 400, body: { message } });
    const strictCases: Array<[string, unknown]> = [
      ['/transaction/cashout', { ...CASHOUT, orderId: 'o', pixKeyType: 0 }],
      ['/transaction/cashout', { ...CASHOUT, orderId: 'o', pixKeyType: 3 }],
      ['/transaction/cashout', { ...CASHOUT, orderId: 'o', pixKeyType: 4 }],
      ['/transaction/cashout', { ...CASHOUT, orderId: 'o', pixKey: 'josé@example.com' }],
      ['/transaction/cashout', { ...CASHOUT, orderId: 'o', person: { ...CASHOUT.person, phone: '(23) 98765-4321' } }],
      ['/transaction/qrcode/cashin', { ...CASHIN, payerDocument: '123.456.789-00' }],
      ['/transaction/qrcode/cashin', { ...CASHIN, payerEmail: 'not-an-email' }],
      ['/transaction/qrcode/cashin', { ...CASHIN, postbackUrl: 'ftp://x' }],
      ['/transaction/qrcode/cashin', { ...CASHIN, splits: [{ clientId: 'x', value: 1 }] }],
      ['/transaction/qrcode/cashin', { ...CASHIN, payerName: '' }],
    ];
    for (const [path, body] of strictCases) {
      const r = await post(strict, path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toMatch(/^Validation Failed - [a-zA-Z.0-9]+ /);
      expect(r.body.message).not.toMatch(/--|paycli|flag/);
      expect((await post(sb, path, body)).status, `default accepts ${JSON.stringify(body)}`).toBe(200);
    }
  });

  it('the bearer scheme in any letter case, or the raw token; else 401 "Invalid token."', async () => {
    const sb = await sandbox(['--api-key', 'tok_0123456789']);
    for (const authorization of ['Bearer tok_0123456789', 'bearer tok_0123456789', 'BEARER  tok_0123456789', 'tok_0123456789']) {
      expect((await post(sb, '/transaction/cashout', CASHOUT, { authorization })).status, authorization).toBe(200);
      expect((await get(sb, '/transaction/get/balance', { authorization })).status, authorization).toBe(200);
    }
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic tok_0123456789' }] as Record<string, string>[]) {
      expect(await post(sb, '/transaction/cashout', CASHOUT, headers)).toEqual({ status: 401, body: { message: 'Invalid token.' } });
    }
  });
});

describe('--webhook-url and postbacks of cash-outs', () => {
  it('the webhook receives every event of every transaction; the cash-out postbackUrl is honoured too', async () => {
    const hook = await startGateway((_req, res) => json(res, 200, {}));
    const own = await startGateway((_req, res) => json(res, 200, {}));
    gateways.push(hook, own);
    const sb = await sandbox(['--webhook-url', `${hook.url}/all`]);
    const a = await post(sb, '/transaction/qrcode/cashin', { ...CASHIN, orderId: 'in-1' });
    const b = await post(sb, '/transaction/cashout', { ...CASHOUT, orderId: 'out-1', postbackUrl: `${own.url}/mine` });
    expect((await runPaycli(['sandbox', 'fail', String(b.body.transactionId), '--sandbox-url', sb.url], { env: home.env })).code).toBe(0);
    await waitFor(() => hook.received.length >= 3 && own.received.length >= 2, 5_000, 'postbacks');
    const events = (g: TestGateway) =>
      g.received
        .map((r) => r.json as Record<string, unknown>)
        .map((j) => `${j.object} ${j.transactionId} ${j.status} ${j.orderId}`)
        .sort();
    expect(events(hook)).toEqual(
      [`cashin ${a.body.transactionId} created in-1`, `transfer ${b.body.transactionId} created out-1`, `transfer ${b.body.transactionId} failed out-1`].sort(),
    );
    expect(events(own)).toEqual([`transfer ${b.body.transactionId} created out-1`, `transfer ${b.body.transactionId} failed out-1`].sort());
    expect(own.received.every((r) => r.path === '/mine')).toBe(true);
    const failed = own.received.map((r) => r.json as Record<string, unknown>).find((j) => j.status === 'failed')!;
    expect(failed.observation).toMatch(/failed/);
    expect(failed.endToEndId).toBeUndefined();
    // The ping goes to the webhook when no URL is given.
    const ping = await runPaycli(['--json', 'sandbox', 'ping', '--sandbox-url', sb.url], { env: home.env });
    expect(ping.code, ping.stderr).toBe(0);
    expect(JSON.parse(ping.stdout)).toMatchObject({ delivered: true, status: 200 });
    await waitFor(() => hook.received.some((r) => r.text === '{"test":true}'), 3_000, 'the ping');
  });

  it('sandbox ping: exit 1 when not delivered, 2 without a URL, 4 without a sandbox', async () => {
    const down = await startGateway((_req, res) => json(res, 503, {}));
    gateways.push(down);
    const sb = await sandbox();
    const refused = await runPaycli(['sandbox', 'ping', `${down.url}/x`, '--sandbox-url', sb.url], { env: home.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/ping → http:\/\/127\.0\.0\.1:\d+\/x: HTTP 503; not delivered/);
    const none = await runPaycli(['sandbox', 'ping', '--sandbox-url', sb.url], { env: home.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no URL to ping/);
    const nobody = await runPaycli(['sandbox', 'ping', 'http://127.0.0.1:9/', '--sandbox-url', 'http://127.0.0.1:9'], { env: home.env });
    expect(nobody.code).toBe(4);
  });
});

describe('--json and --api-key', () => {
  it('with --json, the sandbox writes only JSON Lines on stderr', async () => {
    const hook = await startGateway((_req, res) => json(res, 500, {}));
    gateways.push(hook);
    const sb = await startSandboxProcess(['--webhook-url', hook.url, '--retry-schedule', 'fast', '--retry-for', '300ms'], home.env, ['--json']);
    running.push(sb);
    await post(sb, '/transaction/qrcode/cashin', CASHIN);
    await post(sb, '/transaction/cashout', {});
    await waitFor(() => /giving up/.test(sb.log()), 5_000, 'the last attempt');
    await sb.stop();
    const lines = sb.log().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual(
      expect.arrayContaining([
        { listening: sb.url },
        expect.objectContaining({ notice: expect.stringMatching(/sandbox listening/) }),
        expect.objectContaining({ log: expect.stringMatching(/POST \/transaction\/cashout → 400/) }),
      ]),
    );
  });

  it('every sandbox subcommand lists --api-key and takes PAYCLI_API_KEY', async () => {
    for (const sub of ['pay', 'fail', 'cancel', 'refund', 'infraction', 'ping', 'events', 'resend']) {
      const help = await runPaycli(['sandbox', sub, '--help'], { env: home.env });
      expect(help.code).toBe(0);
      expect(help.stdout, sub).toMatch(/--api-key <key>.*PAYCLI_API_KEY/s);
    }
    const sb = await sandbox(['--api-key', 'tok_env_0123456789']);
    const co = await post(sb, '/transaction/cashout', CASHOUT, { authorization: 'Bearer tok_env_0123456789' });
    const without = await runPaycli(['sandbox', 'infraction', String(co.body.transactionId), '--sandbox-url', sb.url], { env: home.env });
    expect(without.code).toBe(3);
    const pay = await runPaycli(['sandbox', 'pay', String(co.body.transactionId), '--sandbox-url', sb.url], { env: { ...home.env, PAYCLI_API_KEY: 'tok_env_0123456789' } });
    expect(pay.code, pay.stderr).toBe(0);
    const inf = await runPaycli(['sandbox', 'infraction', String(co.body.transactionId), '--sandbox-url', sb.url], { env: { ...home.env, PAYCLI_API_KEY: 'tok_env_0123456789' } });
    expect(inf.code, inf.stderr).toBe(0);
    expect(inf.stdout).toBe(`cash-out ${co.body.transactionId}: paid → infraction\n`);
    expect(inf.stdout + inf.stderr).not.toContain('tok_env_0123456789');
  });
});

describe('the in-process sandbox', () => {
  it('answers paycli with orderId and success too, and sends no postback', async () => {
    const hook = await startGateway((_req, res) => json(res, 200, {}));
    gateways.push(hook);
    const r = await runPaycli(['--json', ...CASHIN_ARGS, '--postback-url', `${hook.url}/x`], { env: home.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'cashin', gateway: { success: true } });
    await new Promise((res) => setTimeout(res, 300));
    expect(hook.received).toHaveLength(0);
  });
});
