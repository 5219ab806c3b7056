/**
 * Postbacks. The standalone sandbox's state changes (`sandbox pay|fail|cancel|refund|infraction`,
 * `--auto-pay`), the postbacks it sends (shape, signature, retries) and `paycli listen`
 * receiving, verifying and forwarding them. Real processes, real HTTP on 127.0.0.1.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startListenProcess, waitFor, type ListenProcess } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

let home: Home;
const running: Array<{ stop(): Promise<unknown> }> = [];
const gateways: TestGateway[] = [];
beforeEach(() => {
  home = makeHome();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await Promise.all(gateways.splice(0).map((g) => g.close()));
  home.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sandbox(extra: string[] = [], env: Record<string, string> = {}): Promise<SandboxProcess> {
  const sb = await startSandboxProcess(extra, { ...home.env, ...env });
  running.push(sb);
  return sb;
}

async function listen(extra: string[] = [], globals: string[] = []): Promise<ListenProcess> {
  const l = await startListenProcess(extra, home.env, globals);
  running.push(l);
  return l;
}

async function recorder(respond?: Parameters<typeof startGateway>[0]): Promise<TestGateway> {
  const gw = await startGateway(respond ?? ((_req, res) => json(res, 200, { ok: true })));
  gateways.push(gw);
  return gw;
}

/** Creates a cash-in of R$ 10,00 on the sandbox; returns its transaction id. */
async function cashin(sb: SandboxProcess, postbackUrl?: string): Promise<number> {
  const r = await runPaycli(['--json', '--base-url', sb.url, ...CASHIN_ARGS, ...(postbackUrl ? ['--postback-url', postbackUrl] : [])], {
    env: { ...home.env, PAYCLI_API_KEY: 'any' },
  });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { transactionId: number }).transactionId;
}

async function cashout(sb: SandboxProcess, apiKey = 'any'): Promise<number> {
  const r = await runPaycli(['--json', '--base-url', sb.url, ...CASHOUT_ARGS, '--yes'], { env: { ...home.env, PAYCLI_API_KEY: apiKey } });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { transactionId: number }).transactionId;
}

function control(action: string, id: number | string, sandboxUrl: string, extra: string[] = []) {
  return runPaycli(['sandbox', action, String(id), '--sandbox-url', sandboxUrl, ...extra], { env: home.env });
}

/** Independent re-implementation of the documented signature check. */
function signatureValid(secret: string, header: string | undefined, raw: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${raw}`).digest('hex');
  return expected === m[2] && Math.abs(Date.now() / 1000 - Number(m[1])) < 300;
}

function sign(secret: string, raw: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('sandbox --postback-secret, listen --secret --json, cash-in, sandbox pay', () => {
  it('the listener prints the created then the paid notification, each with a valid signature', async () => {
    const sb = await sandbox(['--postback-secret', 'S']);
    const li = await listen(['--secret', 'S', '--json'], ['--verbose']);
    const id = await cashin(sb, `${li.url}/pix/postback`);
    const pay = await control('pay', id, sb.url);
    expect(pay.code, pay.stderr).toBe(0);
    expect(pay.stdout).toBe(`cash-in ${id}: created → paid (postback queued)\n`);

    await waitFor(() => lines(li.stdout()).length >= 2, 5_000, 'two notifications');
    await sleep(300); // nothing more arrives
    const out = lines(li.stdout());
    expect(out).toHaveLength(2);
    const created = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(created).toMatchObject({ transactionId: id, object: 'cashin', status: 'created', method: 'pix', value: 1000, observation: null });
    expect(Object.keys(created).sort()).toEqual(['method', 'object', 'observation', 'orderId', 'processedAt', 'status', 'transactionId', 'value']); // no payer before it is paid
    const body = JSON.parse(out[1]!) as Record<string, unknown>;
    expect(body).toMatchObject({ transactionId: id, object: 'cashin', status: 'paid', method: 'pix', value: 1000, orderId: created.orderId, observation: null });
    expect(body.endToEndId).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    expect(body.processedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    expect(body.payer).toEqual({ transactionId: id, name: 'Fulano de Tal', documentId: '12345678909', bankName: 'PAYCLI SANDBOX BANK', bankCode: '999', bankIspb: '99999999' });
    // The listener verified both (else 401 and a warning); the test verifies them again itself.
    expect(li.stderr()).not.toMatch(/warning/);
    const headers = [...li.stderr().matchAll(/< x-paycli-signature: ([^\s"]+)/g)].map((m) => m[1]);
    expect(headers).toHaveLength(2);
    expect(signatureValid('S', headers[0], out[0]!)).toBe(true);
    expect(signatureValid('S', headers[1], out[1]!)).toBe(true);
    await sb.waitForLog(/attempt 1: HTTP 200, delivered/); // logged once the receiver's answer is in
    expect(sb.log()).toMatch(new RegExp(`postback cash-in ${id} paid → ${li.url}/pix/postback \\(evt_\\d+\\) attempt 1: HTTP 200, delivered`));
  });
});

describe('delivery', () => {
  it('retries a 500 with backoff: 500, 500, 200 → exactly 3 deliveries, then stops', async () => {
    let n = 0;
    const gw = await recorder((_req, res) => json(res, ++n <= 2 ? 500 : 200, {}));
    const sb = await sandbox([], { PAYCLI_SANDBOX_RETRY_BASE_MS: '100' });
    await cashin(sb, `${gw.url}/hook?token=abc`); // its `created` postback is retried
    await waitFor(() => gw.received.length >= 3, 5_000, '3 deliveries');
    await waitFor(() => /attempt 3: HTTP 200, delivered/.test(sb.log()), 5_000, 'the delivery logged');
    await sleep(500); // longer than the next wait would have been
    expect(gw.received).toHaveLength(3);
    expect(new Set(gw.received.map((r) => r.text)).size).toBe(1); // the same body each time
    expect(gw.received.map((r) => r.headers['x-paycli-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(gw.received.map((r) => r.headers['x-paycli-event-id'])).size).toBe(1);
    for (const r of gw.received) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/hook?token=abc');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/^paycli-sandbox\/\d+\.\d+\.\d+/);
      expect(r.headers['x-paycli-signature']).toBeUndefined(); // no secret, no signature
    }
    const log = sb.log();
    expect(log).toMatch(/\(evt_\d+\) attempt 1: HTTP 500; retry in \d+ ms/); // between 50 and 100 ms (jitter)
    expect(log).toMatch(/attempt 2: HTTP 500; retry in \d+ ms/);
    expect(log).not.toMatch(/token=abc/); // the query of a postback URL is not logged
  });

  it('gives up once --retry-for has passed, and says how to send it again', async () => {
    const gw = await recorder((_req, res) => json(res, 503, {}));
    const sb = await sandbox(['--retry-schedule', 'fast', '--retry-for', '500ms']);
    const id = await cashin(sb, `${gw.url}/hook`);
    await waitFor(() => /giving up/.test(sb.log()), 5_000, 'giving up');
    const count = gw.received.length;
    await sleep(300);
    expect(gw.received.length).toBe(count); // nothing after giving up
    expect(count).toBeGreaterThanOrEqual(1);
    expect(gw.received.every((r) => (r.json as { status: string }).status === 'created')).toBe(true);
    expect(sb.log()).toMatch(
      new RegExp(`postback cash-in ${id} created → ${gw.url}/hook \\((evt_\\d+)\\).*giving up.*not delivered within 500 ms; \`paycli sandbox resend evt_\\d+\` sends it again`),
    );
  });

  it('sends one postback per state change, in order (created, paid, infraction, refund; endToEndId only on paid)', async () => {
    const gw = await recorder();
    const sb = await sandbox();
    const id = await cashin(sb, `${gw.url}/hook`);
    expect((await control('pay', id, sb.url)).code).toBe(0);
    expect((await control('infraction', id, sb.url)).code).toBe(0);
    expect((await control('refund', id, sb.url)).code).toBe(0);
    await waitFor(() => gw.received.length >= 4, 5_000, '4 deliveries');
    const [created, paid, infraction, refund] = gw.received.map((r) => r.json as { status: string; endToEndId?: string; transactionId: number; observation: string | null });
    expect(created).toMatchObject({ transactionId: id, status: 'created' });
    expect(created!.endToEndId).toBeUndefined();
    expect(paid).toMatchObject({ transactionId: id, status: 'paid' });
    expect(paid!.endToEndId).toMatch(/^E/);
    expect(infraction).toMatchObject({ transactionId: id, status: 'infraction', observation: expect.stringMatching(/infraction/) });
    expect(infraction!.endToEndId).toBeUndefined(); // the documented cash-in infraction and refund carry no endToEndId
    expect(refund).toMatchObject({ transactionId: id, status: 'refund' });
    expect(refund!.endToEndId).toBeUndefined();
  });

  it('--auto-pay pays every cash-in by itself after the delay', async () => {
    const gw = await recorder();
    const sb = await sandbox(['--auto-pay', '0.3']);
    const id = await cashin(sb, `${gw.url}/hook`);
    const silent = await cashin(sb);
    await waitFor(() => gw.received.length >= 2, 5_000, 'the auto-pay postback');
    expect(gw.received[1]!.json).toMatchObject({ transactionId: id, status: 'paid' });
    await waitFor(() => new RegExp(`cash-in ${silent}: created → paid \\(auto-pay\\)`).test(sb.log()), 5_000, 'the second auto-pay');
    const again = await control('pay', id, sb.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is paid: cannot pay it \(allowed: refund, infraction\)/);
    const state = (await (await fetch(`${sb.url}/_sandbox/transactions/${silent}`)).json()) as { status: string };
    expect(state.status).toBe('paid');
    expect(gw.received).toHaveLength(2);
  });
});

describe('sandbox pay|fail|cancel|refund', () => {
  it('changes a cash-out through its states (no postback without a URL); refuses a transition that is not allowed (exit 1)', async () => {
    const sb = await sandbox();
    const id = await cashout(sb);
    const pay = await control('pay', id, sb.url, ['--json']);
    expect(pay.code).toBe(0);
    expect(JSON.parse(pay.stdout)).toEqual({ transactionId: id, kind: 'cashout', status: 'paid', previousStatus: 'created', postback: 'none' });
    const twice = await control('pay', id, sb.url);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/cash-out \d+ is paid: cannot pay it/);
    expect(twice.stdout).toBe('');
    const cancel = await control('cancel', id, sb.url);
    expect(cancel.code).toBe(1);
    const refund = await control('refund', id, sb.url);
    expect(refund.code).toBe(0);
    expect(refund.stdout).toBe(`cash-out ${id}: paid → refund\n`);
    const after = await control('fail', id, sb.url);
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/refund is final/);
  });

  it('an unknown transaction id exits 1 with the sandbox message', async () => {
    const sb = await sandbox();
    const r = await control('pay', 999_999_999, sb.url);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no transaction 999999999/);
    const j = await control('cancel', 999_999_999, sb.url, ['--json']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { code: 'gateway_refused', status: 404 } });
  });

  it('no sandbox running at --sandbox-url exits 4; a bad id exits 2', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    const r = await control('pay', 1, `http://127.0.0.1:${port}`);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no sandbox answers at 127\.0\.0\.1:\d+/);
    expect(r.stderr).toMatch(/paycli sandbox/);
    expect((await control('pay', 'abc', `http://127.0.0.1:${port}`)).code).toBe(2);
    expect((await runPaycli(['sandbox', 'pay'], { env: home.env })).code).toBe(2);
  });

  it('a sandbox with --api-key wants it on the control endpoint too (exit 3 without it)', async () => {
    const sb = await sandbox(['--api-key', 'sk_test_control_0123']);
    const id = await cashout(sb, 'sk_test_control_0123');
    expect((await control('pay', id, sb.url)).code).toBe(3);
    const ok = await control('pay', id, sb.url, ['--api-key', 'sk_test_control_0123']);
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe('paycli listen', () => {
  it('refuses a bad, missing or stale signature with 401 and a warning; prints a good one', async () => {
    const li = await listen(['--secret', 'listen_secret_0123']);
    const raw = JSON.stringify({ transactionId: 7, object: 'cashin', status: 'paid', method: 'pix', value: 1234 });
    const post = (headers: Record<string, string>, body = raw) => fetch(`${li.url}/hook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post({ 'x-paycli-signature': sign('wrong_secret', raw) })).status).toBe(401);
    expect((await post({})).status).toBe(401);
    expect((await post({ 'x-paycli-signature': sign('listen_secret_0123', raw, Math.floor(Date.now() / 1000) - 3600) })).status).toBe(401);
    expect((await post({ 'x-paycli-signature': sign('listen_secret_0123', raw) }, raw.replace('1234', '9999'))).status).toBe(401);
    await waitFor(() => (li.stderr().match(/rejected a postback/g) ?? []).length >= 4, 3_000, 'four warnings'); // stderr may trail the answers
    expect(li.stderr()).toMatch(/warning: rejected a postback from 127\.0\.0\.1: signature does not match/);
    expect(li.stderr()).toMatch(/no x-paycli-signature header/);
    expect(li.stderr()).toMatch(/timestamp is more than 300 s away/);
    expect(li.stdout()).toBe('');
    const good = await post({ 'x-paycli-signature': sign('listen_secret_0123', raw) });
    expect(good.status).toBe(200);
    await waitFor(() => li.stdout().includes('\n'), 3_000, 'the line');
    expect(li.stdout()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00 {2}cash-in 7 {2}paid {2}R\$ 12,34\n$/); // the listener's own clock, local time (TZ=UTC here)
    expect(li.stdout() + li.stderr()).not.toContain('listen_secret_0123');
  });

  it('answers 400 to a body that is not JSON, 413 above 1 MiB, 405 to GET; sanitises what it prints', async () => {
    const li = await listen();
    const notJson = await fetch(li.url, { method: 'POST', body: '<html>' });
    expect(notJson.status).toBe(400);
    await waitFor(() => /warning: refused a postback .*not a JSON object/.test(li.stderr()), 3_000, 'the 400 warning'); // stderr may trail the answer
    const big = await fetch(li.url, { method: 'POST', body: `{"a":"${'x'.repeat(1024 * 1024)}"}` }).catch(() => undefined);
    if (big) expect(big.status).toBe(413);
    await waitFor(() => /larger than 1048576 bytes/.test(li.stderr()), 3_000, 'the 413 warning');
    expect((await fetch(li.url)).status).toBe(405);
    const evil = { transactionId: 8, object: 'cashin', status: 'paid\u001b]0;pwned\u0007\u202e', value: 5 };
    expect((await fetch(li.url, { method: 'POST', body: JSON.stringify(evil) })).status).toBe(200);
    await waitFor(() => li.stdout().includes('\n'), 3_000, 'the line');
    expect(li.stdout()).toMatch(/ {2}cash-in 8 {2}paid {2}R\$ 0,05\n$/);
    expect(li.stdout()).not.toMatch(/[\u001b\u0007\u202e]/);
  });

  it('--json keeps stdout JSON Lines, one document per notification, as received', async () => {
    const li = await listen(['--json']);
    const pretty = JSON.stringify({ transactionId: 9, status: 'paid', note: 'a\u202eb' }, null, 2);
    const compact = '{"transactionId":10,"status":"failed"}';
    expect((await fetch(li.url, { method: 'POST', body: pretty })).status).toBe(200);
    expect((await fetch(li.url, { method: 'POST', body: compact })).status).toBe(200);
    await waitFor(() => lines(li.stdout()).length >= 2, 3_000, '2 lines');
    const out = lines(li.stdout());
    expect(JSON.parse(out[0]!)).toEqual(JSON.parse(pretty)); // same document
    expect(out[0]).not.toMatch(/\u202e/);
    expect(out[1]).toBe(compact); // byte for byte
  });

  it('--forward-to passes the same body and signature header on and prints the answer status', async () => {
    const secret = 'whsec_forward_0123456789';
    const target = await recorder((_req, res) => json(res, 202, { ok: true }));
    const sb = await sandbox(['--postback-secret', secret]);
    const li = await listen(['--secret', secret, '--json', '--forward-to', `${target.url}/app/postback`]);
    const id = await cashin(sb, li.url);
    expect((await control('pay', id, sb.url)).code).toBe(0);
    await waitFor(() => target.received.length >= 2, 5_000, 'the forwards');
    await waitFor(() => (li.stderr().match(/\{"forwarded":\{"status":202\}\}/g) ?? []).length >= 2, 3_000, 'the forward statuses');
    const got = target.received[1]!;
    expect(got.path).toBe('/app/postback');
    expect(got.text).toBe(lines(li.stdout())[1]);
    expect(got.json).toMatchObject({ transactionId: id, status: 'paid' });
    expect(got.headers['user-agent']).toMatch(/^paycli-sandbox\//);
    expect(signatureValid(secret, got.headers['x-paycli-signature'] as string, got.text)).toBe(true);
    expect(lines(li.stdout())).toHaveLength(2); // the forward answers are not on stdout
    for (const line of lines(li.stderr())) expect(() => JSON.parse(line)).not.toThrow(); // --json: stderr is JSON Lines
    expect(sb.log() + li.stderr() + li.stdout()).not.toContain(secret);
  });

  it('shows the orderId, prints a ping as a ping, names a transfer and its destination', async () => {
    const li = await listen();
    const transfer = {
      transactionId: 12,
      object: 'transfer',
      status: 'paid',
      method: 'pix',
      value: 1550,
      orderId: 'saque-77',
      observation: null,
      destinationBank: { name: 'Fulano de Tal', cpfCnpj: null, email: 'f@example.com', pixKey: 'f@example.com', pixKeyType: 2, bank: 'BANCO X', bankId: '001', ispb: '00000000' },
    };
    for (const body of [{ test: true }, { transactionId: 11, object: 'cashin', status: 'created', value: 1000, orderId: 'pedido-1' }, transfer]) {
      expect((await fetch(li.url, { method: 'POST', body: JSON.stringify(body) })).status).toBe(200);
    }
    await waitFor(() => lines(li.stdout()).length >= 3, 3_000, '3 lines');
    const [ping, cashIn, cashOut] = lines(li.stdout()).map((l) => l.replace(/^\S+ {2}/, ''));
    expect(ping).toBe('ping (test postback)');
    expect(cashIn).toBe('cash-in 11  created  R$ 10,00  order pedido-1');
    expect(cashOut).toBe('cash-out 12  paid  R$ 15,50  order saque-77  to Fulano de Tal (f@example.com, BANCO X)');
  });

  it('--json keeps stderr JSON Lines too (banner, warnings, --verbose headers, end)', async () => {
    const li = await listen(['--json', '--secret', 'json_secret_0123'], ['--verbose']);
    expect((await fetch(li.url, { method: 'POST', body: '{"a":1}' })).status).toBe(401);
    expect((await fetch(li.url, { method: 'POST', body: 'nope' })).status).toBe(401);
    expect(await li.stop()).toEqual({ code: 0, signal: null });
    const err = lines(li.stderr());
    for (const line of err) expect(() => JSON.parse(line), line).not.toThrow();
    const docs = err.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(docs).toEqual(
      expect.arrayContaining([
        { listening: li.url },
        expect.objectContaining({ warning: expect.stringMatching(/rejected a postback/) }),
        expect.objectContaining({ debug: expect.stringMatching(/^< content-type: /) }),
        expect.objectContaining({ notice: expect.stringMatching(/stopped; 0 notifications/) }),
      ]),
    );
  });

  it('--forward-to an application that never answers: no sender is answered 200; beyond the bounded queue 503; a postback whose sender left is not forwarded; RSS stays bounded', async () => {
    // A target that takes every connection and never answers.
    let requests = 0;
    const hanging = createServer(() => void requests++);
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`;
    const senders = new AbortController();
    try {
      const li = await listen(['--forward-to', target]);
      const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${li.child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      const before = rss();
      const body = JSON.stringify({ transactionId: 1, object: 'cashin', status: 'paid', value: 1, pad: 'x'.repeat(1024 * 1024 - 80) });
      expect(body.length).toBeLessThan(1024 * 1024);
      const statuses: Array<number | string> = [];
      // 40 postbacks of ~1 MB at once, all to 127.0.0.1: 8 fit in the 8 MiB queue and wait for the application.
      const sent = Array.from({ length: 40 }, () =>
        fetch(li.url, { method: 'POST', body, signal: senders.signal }).then(
          async (r) => {
            statuses.push(r.status);
            if (r.status === 503) expect(r.headers.get('retry-after')).toBe('1');
            await r.arrayBuffer();
          },
          () => statuses.push('left'),
        ),
      );
      await waitFor(() => statuses.length >= 32, 20_000, '32 answers');
      const peak = rss();
      expect(statuses.filter((s) => s === 503)).toHaveLength(32); // refused at once, so that the sender sends them again
      expect(statuses).not.toContain(200); // the application took none of them
      await waitFor(() => lines(li.stdout()).length >= 8, 10_000, '8 lines');
      expect(li.stderr()).toMatch(
        /warning: forward queue full \(8 notifications, \d+ bytes waiting for 127\.0\.0\.1:\d+\): transaction 1 paid answered 503 so that its sender sends it again; 1 so far/,
      );
      senders.abort(); // the 8 senders stop waiting
      await Promise.all(sent);
      expect(await li.stop()).toEqual({ code: 0, signal: null });
      expect(li.stderr()).toMatch(
        /stopped; 8 notifications received; 8 not taken by the application \(answered 502\/504: the sender sends them again\); 32 refused \(forward queue full, 503\)/,
      );
      expect(requests).toBe(1); // only the first went out: the others' senders had left before their turn
      expect(peak - before).toBeLessThan(200 * 1024 * 1024);
    } finally {
      senders.abort();
      hanging.closeAllConnections();
      await new Promise<void>((r) => hanging.close(() => r()));
    }
  }, 60_000);

  it('--forward-to an application that is down: the sandbox is answered 502 and retries; once the application is up it gets every postback, and only then are they delivered', async () => {
    const probe = await startGateway();
    const port = Number(new URL(probe.url).port);
    await probe.close(); // a port with nothing on it: the application is down
    const sb = await sandbox([], { PAYCLI_SANDBOX_RETRY_BASE_MS: '100' });
    const li = await listen(['--forward-to', `http://127.0.0.1:${port}/app/postback`]);
    const ids = [await cashin(sb, li.url), await cashin(sb, li.url), await cashin(sb, li.url)];
    type View = { transactionId: number; state: string; attempts: number; lastAttempts: Array<{ outcome: string }> };
    const events = async () => ((await (await fetch(`${sb.url}/_sandbox/events`)).json()) as { events: View[] }).events;
    const until = async (check: (e: View[]) => boolean, what: string) => {
      const end = Date.now() + 30_000;
      for (;;) {
        const e = await events();
        if (check(e)) return e;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(e)}`);
        await sleep(50);
      }
    };
    const failing = await until((e) => e.length === 3 && e.every((v) => v.attempts >= 1), 'failed attempts');
    for (const v of failing) {
      expect(v.state).toBe('pending'); // not acknowledged: the sandbox keeps it and tries again
      expect(v.lastAttempts[0]!.outcome).toBe('HTTP 502');
    }
    expect(li.stderr()).toMatch(/→ forward to 127\.0\.0\.1:\d+ failed: ECONNREFUSED/);
    const app = await startGateway((_req, res) => json(res, 200, { ok: true }), port);
    gateways.push(app);
    await until((e) => e.every((v) => v.state === 'delivered'), 'delivery once the application is up');
    expect([...new Set(app.received.map((r) => (r.json as { transactionId: number }).transactionId))].sort()).toEqual([...ids].sort());
    expect(app.received.every((r) => r.path === '/app/postback')).toBe(true);
  }, 60_000);

  it('stops cleanly on SIGTERM and on SIGINT (exit 0)', async () => {
    const a = await listen();
    expect(await a.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(a.stderr()).toMatch(/stopped; 0 notifications received/);
    const b = await listen();
    expect(await b.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });
});
