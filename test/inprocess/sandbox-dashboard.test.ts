/**
 * The sandbox's dashboard (src/sandbox/dashboard.ts, docs/sandbox-and-postbacks.md "Dashboard"), over
 * HTTP against a real sandbox on 127.0.0.1: its guards (CSP, Host, CSRF token and Origin), its JSON
 * pages (paging, filters, reais), a control that pays a cash-in and sends its postback to a real
 * receiver, a resend, the live stream, both languages. The built `paycli sandbox` (its lines,
 * `--open`, `--no-dashboard`): test/e2e/sandbox-dashboard.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CSRF_HEADER, DASHBOARD_CSP, isLoopback } from '../../src/sandbox/dashboard.js';
import { setLanguage } from '../../src/core/i18n/index.js';
import { waitFor } from '../helpers/listen.js';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** One HTTP request to the sandbox, with the headers given (Host included when named). */
function call(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const CASHIN = {
  payerName: 'Maria Silva',
  payerDocument: '123.456.789-09',
  payerEmail: 'maria@example.com',
  payerPhone: '11987654321',
  productName: 'Pedido',
  productDescription: 'Pedido de teste',
};
const CASHOUT = { pixKeyType: 2, pixKey: 'ana@example.com', person: { name: 'Ana', email: 'ana@example.com', phone: '11987654321' } };

async function create(base: string, kind: 'cashin' | 'cashout', value: number, extra: Record<string, unknown> = {}): Promise<number> {
  const path = kind === 'cashin' ? '/transaction/qrcode/cashin' : '/transaction/cashout';
  const body = JSON.stringify({ ...(kind === 'cashin' ? CASHIN : CASHOUT), value, ...extra });
  const a = await call(base, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  expect(a.status, a.text).toBe(200);
  return (JSON.parse(a.text) as { transactionId: number }).transactionId;
}

/** The page's token, read as a browser reads it. */
async function token(base: string): Promise<string> {
  const page = await call(base, '/_dashboard/');
  return /<meta name="csrf-token" content="([^"]+)">/.exec(page.text)![1]!;
}

describe('dashboard over HTTP (in-process sandbox)', () => {
  let sandbox: Sandbox;
  let receiver: Server;
  let receiverUrl: string;
  const received: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString('utf8')));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    sandbox = await startSandbox({ dashboard: true, sendPostbacks: true, retrySchedule: { firstWaitMs: 50, maxWaitMs: 200 } });
  });
  afterAll(async () => {
    await sandbox.close();
    await new Promise<void>((r) => receiver.close(() => r()));
  });
  afterEach(() => setLanguage('en'));

  it('serves the page and its assets with a strict CSP and no external asset', async () => {
    expect(sandbox.dashboardUrl).toBe(`${sandbox.url}/_dashboard/`);
    const page = await call(sandbox.url, '/_dashboard/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).not.toMatch(/https?:\/\//); // nothing from elsewhere
    expect(page.text).not.toMatch(/<script(?![^>]*(src="\/_dashboard\/app\.js"|type="application\/json"))/); // no inline script
    for (const [asset, type] of [
      ['app.js', 'text/javascript'],
      ['app.css', 'text/css'],
    ] as const) {
      const a = await call(sandbox.url, `/_dashboard/${asset}`);
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toContain(type);
      expect(a.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(a.text).not.toMatch(/https?:\/\/(?!127)/);
    }
    expect((await call(sandbox.url, '/_dashboard/other.js')).status).toBe(404);
    expect((await call(sandbox.url, '/_dashboard/%2e%2e/package.json')).status).toBe(404);
  });

  it('speaks Portuguese when the run does, and writes "Pix"', async () => {
    await setLanguage('pt-BR');
    const page = await call(sandbox.url, '/_dashboard/');
    expect(page.text).toContain('<html lang="pt-BR">');
    expect(page.text).toContain('Transações');
    expect(page.text).toContain('Pix copia e cola');
    expect(page.text).not.toContain('PIX');
    await setLanguage('en');
    expect((await call(sandbox.url, '/_dashboard/')).text).toContain('Pix copy-and-paste');
  });

  it('refuses a Host that is not its own address (DNS rebinding) with 421', async () => {
    const port = new URL(sandbox.url).port;
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1:1']) {
      const a = await call(sandbox.url, '/_dashboard/', { headers: { host } });
      expect(a.status, host).toBe(421);
      expect(a.text).not.toContain('csrf-token');
    }
    expect((await call(sandbox.url, '/_dashboard/api/transactions', { headers: { host: 'evil.example' } })).status).toBe(421);
    expect((await call(sandbox.url, '/_dashboard/', { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it('a control without the token or from another origin is refused (403); with both it pays, and the postback goes out', async () => {
    const id = await create(sandbox.url, 'cashin', 1050, { orderId: 'dash-1', postbackUrl: receiverUrl });
    const origin = sandbox.url;
    const good = await token(sandbox.url);
    const path = `/_dashboard/api/transactions/${id}/pay`;
    expect((await call(sandbox.url, path, { method: 'POST', headers: { origin } })).status).toBe(403);
    expect((await call(sandbox.url, path, { method: 'POST', headers: { origin, [CSRF_HEADER]: 'x'.repeat(good.length) } })).status).toBe(403);
    expect((await call(sandbox.url, path, { method: 'POST', headers: { origin: 'http://evil.example', [CSRF_HEADER]: good } })).status).toBe(403);
    expect((await call(sandbox.url, path, { method: 'POST', headers: { [CSRF_HEADER]: good } })).status).toBe(403);
    // a browser says where the request comes from: another site is refused even with token and Origin
    expect((await call(sandbox.url, path, { method: 'POST', headers: { origin, [CSRF_HEADER]: good, 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect(sandbox.transactions.get(id)!.status).toBe('created');
    const paid = await call(sandbox.url, path, { method: 'POST', headers: { origin, [CSRF_HEADER]: good, 'sec-fetch-site': 'same-origin' } });
    expect(paid.status, paid.text).toBe(200);
    expect(JSON.parse(paid.text)).toMatchObject({ transactionId: id, status: 'paid', previousStatus: 'created', postback: 'queued' });
    expect(sandbox.transactions.get(id)!.status).toBe('paid');
    await waitFor(() => received.some((b) => b.includes(`"transactionId":${id}`) && b.includes('"status":"paid"')), undefined, 'the paid postback');
    // the same refusal as the control route for a transition not allowed
    const again = await call(sandbox.url, path, { method: 'POST', headers: { origin, [CSRF_HEADER]: good } });
    expect(again.status).toBe(409);

    // the detail: QR image, BR Code, allowed actions, postbacks with attempts; then a resend
    await waitFor(() => [...sandbox.events.all()].filter((e) => e.transactionId === id && e.state === 'delivered').length === 2, undefined, 'both postbacks delivered');
    const detail = JSON.parse((await call(sandbox.url, `/_dashboard/api/transactions/${id}`)).text);
    expect(detail).toMatchObject({ id, kind: 'cashin', value: 1050, amount: 'R$ 10,50', status: 'paid', orderId: 'dash-1', actions: ['refund', 'infraction'] });
    expect(detail.qrCode).toMatch(/^000201.*6304[0-9A-F]{4}$/);
    expect(detail.qrImage).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(detail.postbacks.map((e: { status: string }) => e.status)).toEqual(['paid', 'created']);
    expect(detail.postbacks[0].lastAttempts[0]).toMatchObject({ status: 200, outcome: 'HTTP 200' });
    const evt = detail.postbacks[0].id as string;
    const before = received.length;
    const resent = await call(sandbox.url, `/_dashboard/api/events/${evt}/resend`, { method: 'POST', headers: { origin, [CSRF_HEADER]: good } });
    expect(resent.status, resent.text).toBe(200);
    await waitFor(() => received.length > before, undefined, 'the resent postback');
    await waitFor(() => sandbox.events.get(evt)!.attempts === 2, undefined, 'a second attempt');
    expect((await call(sandbox.url, '/_dashboard/api/events/evt_999999/resend', { method: 'POST', headers: { origin, [CSRF_HEADER]: good } })).status).toBe(404);
  });

  it('the live stream delivers an event after a create', async () => {
    const got: string[] = [];
    const url = new URL('/_dashboard/api/stream', sandbox.url);
    const req = request({ host: url.hostname, port: url.port, path: url.pathname });
    const open = new Promise<IncomingMessage>((resolve) => req.on('response', resolve));
    req.end();
    const res = await open;
    expect(res.headers['content-type']).toContain('text/event-stream');
    res.setEncoding('utf8').on('data', (d: string) => got.push(d));
    await waitFor(() => got.join('').includes(': paycli sandbox'), undefined, 'the stream open');
    const id = await create(sandbox.url, 'cashout', 700, { orderId: 'live-1', postbackUrl: receiverUrl });
    await waitFor(() => got.join('').includes(`event: transaction\ndata: {"id":${id},"status":"created"}`), undefined, `the transaction event ${JSON.stringify(got)}`);
    // its postback's delivery is an event too
    await waitFor(
      () => new RegExp(`event: postback\ndata: \\{"id":"evt_[0-9]+","transactionId":${id},"state":"delivered","attempts":1\\}`).test(got.join('')),
      undefined,
      'the postback event',
    );
    req.destroy();
  });

  it('answers only a loopback peer', () => {
    for (const a of ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of [undefined, '10.0.0.1', '192.168.1.5', '::ffff:10.0.0.1', 'fe80::1', 'localhost']) expect(isLoopback(a), String(a)).toBe(false);
  });

  it('pages newest first and filters by kind and state, on the server', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await create(sandbox.url, i % 2 === 0 ? 'cashin' : 'cashout', 100 + i, { orderId: `page-${i}` }));
    const list = async (q: string) => JSON.parse((await call(sandbox.url, `/_dashboard/api/transactions?${q}`)).text);
    const first = await list('limit=2');
    expect(first.transactions.map((r: { id: number }) => r.id)).toEqual([ids[5], ids[4]]);
    expect(first.total).toBe(sandbox.transactions.size);
    const second = await list('limit=2&offset=2');
    expect(second.transactions.map((r: { id: number }) => r.id)).toEqual([ids[3], ids[2]]);
    const cashouts = await list('kind=cashout&limit=200');
    expect(cashouts.transactions.every((r: { kind: string }) => r.kind === 'cashout')).toBe(true);
    expect(cashouts.transactions.slice(0, 3).map((r: { orderId: string }) => r.orderId)).toEqual(['page-5', 'page-3', 'page-1']);
    const paid = await list('state=paid&kind=cashin');
    expect(paid.transactions.length).toBeGreaterThan(0);
    expect(paid.transactions.every((r: { status: string; kind: string }) => r.status === 'paid' && r.kind === 'cashin')).toBe(true);
    expect(first.transactions[0]).toMatchObject({ amount: 'R$ 1,05', value: 105, orderId: 'page-5' });
    expect(first.balance.balanceText).toMatch(/^R\$ /);
    expect((await call(sandbox.url, '/_dashboard/api/transactions?kind=pix')).status).toBe(400);
    expect((await call(sandbox.url, '/_dashboard/api/transactions?limit=100000')).status).toBe(400);
  });
});
