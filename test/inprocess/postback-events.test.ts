/**
 * Postback events of the standalone sandbox: delivery that survives a receiver's outage and a
 * restart of the sandbox (fast retry schedule), one copy per attempt for a slow receiver,
 * `sandbox events` / `sandbox resend`, `paycli listen` marking redeliveries, the gateway family's
 * documented bodies, and 10,000 events kept in bounded memory. Real processes, HTTP on 127.0.0.1;
 * the tests wait on events (what the sandbox reports), not on fixed delays.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, startGateway, type Received, type TestGateway } from '../helpers/gateway.js';
import { startListenProcess, waitFor } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

let home: Home;
const running: Array<{ stop(): Promise<unknown> }> = [];
const closers: Array<() => Promise<void>> = [];
beforeEach(() => {
  home = makeHome();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await Promise.all(closers.splice(0).map((c) => c()));
  home.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stateDir = () => join(home.dir, 'sandbox-state');

async function sandbox(extra: string[] = [], env: Record<string, string> = {}): Promise<SandboxProcess> {
  const sb = await startSandboxProcess(extra, { ...home.env, ...env });
  running.push(sb);
  return sb;
}

async function receiver(respond: Parameters<typeof startGateway>[0], port = 0): Promise<TestGateway> {
  const gw = await startGateway(respond, port);
  closers.push(() => gw.close());
  return gw;
}

/** A port that was free a moment ago (for a receiver that starts later). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function api(sb: SandboxProcess, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(`${sb.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

const CASHIN = {
  payerName: 'Fulano de Tal',
  payerDocument: '123.456.789-09',
  payerEmail: 'fulano@example.com',
  payerPhone: '11987654321',
  productName: 'Camiseta',
  productDescription: 'Camiseta azul M',
  value: 1000,
  orderId: 'pedido-1',
};
const CASHOUT = {
  value: 1550,
  pixKeyType: 2,
  pixKey: 'fulano@example.com',
  cpfCnpj: '',
  person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '' },
  orderId: 'saque-1',
};

async function create(sb: SandboxProcess, kind: 'cashin' | 'cashout', postbackUrl?: string): Promise<number> {
  const r = await api(sb, 'POST', kind === 'cashin' ? '/transaction/qrcode/cashin' : '/transaction/cashout', { ...(kind === 'cashin' ? CASHIN : CASHOUT), postbackUrl });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.transactionId as number;
}

async function act(sb: SandboxProcess, id: number, action: string): Promise<void> {
  const r = await api(sb, 'POST', `/_sandbox/transactions/${id}/${action}`);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
}

interface View {
  id: string;
  transactionId: number;
  status: string;
  state: string;
  attempts: number;
  url: string;
}

async function listEvents(sb: SandboxProcess, query = ''): Promise<{ events: View[]; total: number }> {
  const r = await api(sb, 'GET', `/_sandbox/events?limit=999999${query}`);
  expect(r.status).toBe(200);
  return r.json;
}

/** Polls an async condition every 50 ms. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const FAST = ['--retry-schedule', 'fast'];

/**
 * Two cash-ins and two cash-outs, each created, paid and refunded (12 events) while the receiver
 * is out (answering 500, or not listening), optionally killing and restarting the sandbox in the
 * middle; then the receiver recovers. Every event must reach it exactly once after that, and the
 * events of each transaction in order.
 */
async function outage(kind: '500' | 'down', restart: boolean): Promise<void> {
  let up = false;
  const delivered: Received[] = [];
  const respond = (req: Received, res: ServerResponse) => {
    if (!up) return json(res, 500, { message: 'down for maintenance' });
    delivered.push(req);
    json(res, 200, { ok: true });
  };
  const port = await freePort();
  if (kind === '500') await receiver(respond, port);
  const hook = `http://127.0.0.1:${port}/hook`;
  const args = [...FAST, '--data-dir', stateDir()];
  let sb = await sandbox(args);
  const ids: number[] = [];
  for (const k of ['cashin', 'cashout', 'cashin', 'cashout'] as const) ids.push(await create(sb, k, hook));
  for (const id of ids) await act(sb, id, 'pay');
  for (const id of ids) await act(sb, id, 'refund');
  // Every first event tried, and the failing receiver probed again (src/sandbox/delivery.ts: one probe at a time once it fails).
  const attempts = async (s: SandboxProcess) => (await listEvents(s)).events.reduce((sum, e) => sum + e.attempts, 0);
  const triedAll = async (s: SandboxProcess) => (await listEvents(s)).events.filter((e) => e.status === 'created').every((e) => e.attempts >= 1);
  await until(async () => (await triedAll(sb)) && (await attempts(sb)) >= 6, 15_000, 'failed attempts of every first event, and probes');
  expect((await listEvents(sb, '&failed=true')).total).toBe(12);
  if (restart) {
    const exited = new Promise((r) => sb.child.once('exit', r));
    sb.child.kill('SIGKILL'); // no clean stop: what was written must be enough
    await exited;
    sb = await sandbox(args);
    expect(sb.log()).toMatch(/12 events from the last run, 12 to deliver/);
    const before = await attempts(sb);
    await until(async () => (await attempts(sb)) >= before + 2, 15_000, 'attempts going on after the restart');
  }
  up = true;
  if (kind === 'down') await receiver(respond, port);
  await until(async () => (await listEvents(sb, '&failed=true')).total === 0, 20_000, 'every event delivered');
  await sleep(300); // a copy sent after the last delivery would show here
  const got = delivered.map((r) => ({ id: r.headers['x-paycli-event-id'] as string, body: r.json as { transactionId: number; status: string } }));
  expect(got).toHaveLength(12);
  expect(new Set(got.map((g) => g.id)).size).toBe(12); // each exactly once
  for (const id of ids) expect(got.filter((g) => g.body.transactionId === id).map((g) => g.body.status)).toEqual(['created', 'paid', 'refund']);
  const all = await listEvents(sb);
  expect(all.events.every((e) => e.state === 'delivered')).toBe(true);
  expect(new Set(all.events.map((e) => e.id))).toEqual(new Set(got.map((g) => g.id)));
}

describe('delivery through an outage', () => {
  it('receiver answers 500, then 200: every event delivered once after recovery, in order per transaction', () => outage('500', false), 60_000);
  it('receiver down (connection refused), then up: the same', () => outage('down', false), 60_000);
  it('the sandbox killed and restarted with the same data folder in the middle of the outage: the same', () => outage('down', true), 60_000);
  it('... and with a receiver answering 500 across the restart', () => outage('500', true), 60_000);
});

describe('a slow receiver', () => {
  it('answering after 6 s (inside the 10 s attempt timeout): each event once, delivered on the first attempt', async () => {
    const gw = await receiver((_req, res) => {
      setTimeout(() => json(res, 200, { ok: true }), 6_000);
    });
    const sb = await sandbox(FAST);
    const a = await create(sb, 'cashout', `${gw.url}/hook`);
    const b = await create(sb, 'cashout', `${gw.url}/hook`);
    await until(async () => (await listEvents(sb, '&failed=true')).total === 0, 30_000, 'both delivered');
    await sleep(300);
    expect(gw.received.map((r) => (r.json as { transactionId: number }).transactionId).sort()).toEqual([a, b].sort());
    expect(gw.received.map((r) => r.headers['x-paycli-delivery-attempt'])).toEqual(['1', '1']);
    expect(sb.log()).not.toMatch(/attempt 2/);
  }, 60_000);

  it('slower than the attempt timeout: one copy per attempt, never two open at once', async () => {
    const copies: Array<{ start: number; end: number }> = [];
    const server: Server = createServer((req, res) => {
      const c = { start: Date.now(), end: Infinity };
      copies.push(c);
      req.resume();
      res.on('close', () => (c.end = Date.now()));
      setTimeout(() => res.end('{}'), 1_500).unref();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(
      () =>
        new Promise((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const sb = await sandbox([...FAST, '--retry-for', '2s'], { PAYCLI_SANDBOX_ATTEMPT_TIMEOUT_MS: '400' });
    await create(sb, 'cashout', `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    await until(async () => (await listEvents(sb)).events[0]?.state === 'failed', 20_000, 'the event given up');
    const [event] = (await listEvents(sb)).events;
    await waitFor(() => copies.every((c) => c.end !== Infinity), 5_000, 'every copy closed');
    expect(copies.length).toBe(event!.attempts); // one copy per attempt
    expect(copies.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < copies.length; i++) {
      expect(copies[i]!.start).toBeGreaterThanOrEqual(copies[i - 1]!.end); // the previous one was closed first: no burst
    }
    expect(sb.log()).toMatch(/attempt 1: no answer within 400 ms; retry in/);
  }, 60_000);
});

describe('sandbox events and sandbox resend', () => {
  it('--failed lists exactly the events never delivered (a 5 s --retry-for: the receiver that answers is delivered to within it on a busy machine); resend --failed delivers them', async () => {
    let fixed = false;
    const good = await receiver((_req, res) => json(res, 200, {}));
    const bad = await receiver((_req, res) => json(res, fixed ? 200 : 500, {}));
    const sb = await sandbox([...FAST, '--retry-for', '5s']);
    const ok1 = await create(sb, 'cashin', `${good.url}/ok`);
    const ko1 = await create(sb, 'cashout', `${bad.url}/ko?token=secret_in_query`);
    const ko2 = await create(sb, 'cashin', `${bad.url}/ko`);
    await act(sb, ok1, 'pay');
    await act(sb, ko2, 'pay');
    await until(async () => (await listEvents(sb)).events.every((e) => e.state !== 'pending'), 60_000, 'every event delivered or given up');
    const all = (await listEvents(sb)).events;
    const undelivered = all.filter((e) => e.transactionId !== ok1);
    expect(undelivered.map((e) => e.state)).toEqual(['failed', 'failed', 'failed']);

    const env = { env: home.env };
    const listed = await runPaycli(['sandbox', 'events', '--failed', '--json', '--sandbox-url', sb.url], env);
    expect(listed.code, listed.stderr).toBe(0);
    const docs = JSON.parse(listed.stdout) as Array<View & { lastAttempts: unknown[]; body: unknown }>;
    expect(docs.map((d) => d.id).sort()).toEqual(undelivered.map((e) => e.id).sort());
    expect(docs.map((d) => d.transactionId).sort()).toEqual([ko1, ko2, ko2].sort());
    expect(docs.some((d) => d.lastAttempts.length > 0)).toBe(true); // a URL that keeps failing is probed one event at a time: some never get an attempt
    expect(listed.stdout).not.toContain('secret_in_query');

    const human = await runPaycli(['sandbox', 'events', '--sandbox-url', sb.url], env);
    expect(human.code).toBe(0);
    const lines = human.stdout.trim().split('\n');
    expect(lines).toHaveLength(5); // newest first
    expect(lines[0]).toMatch(new RegExp(`^evt_5  cash-in ${ko2}  paid  → ${bad.url}/ko  \\d+ attempts?  gave up(; last: HTTP 500)?$`)); // it may have waited its turn behind the probe without an attempt
    expect(lines.at(-1)).toMatch(new RegExp(`^evt_1  cash-in ${ok1}  created  → ${good.url}/ok  1 attempt  delivered \\S+Z$`));
    const byTx = await runPaycli(['sandbox', 'events', '--transaction', String(ko1), '--sandbox-url', sb.url], env);
    expect(byTx.stdout.trim().split('\n')).toHaveLength(1);

    fixed = true;
    const before = bad.received.length;
    const resend = await runPaycli(['sandbox', 'resend', '--failed', '--sandbox-url', sb.url], env);
    expect(resend.code, resend.stderr).toBe(0);
    expect(resend.stdout.trim().split('\n')).toHaveLength(3);
    expect(resend.stdout).toMatch(/: queued for delivery/);
    await until(async () => (await listEvents(sb, '&failed=true')).total === 0, 20_000, 'the resent events delivered');
    const after = bad.received.slice(before);
    expect(after).toHaveLength(3); // each once
    expect(after.map((r) => (r.json as { status: string }).status)).toEqual(expect.arrayContaining(['created', 'created', 'paid']));
    const ko2Statuses = after.filter((r) => (r.json as { transactionId: number }).transactionId === ko2).map((r) => (r.json as { status: string }).status);
    expect(ko2Statuses).toEqual(['created', 'paid']); // in order
    expect(Number(after[0]!.headers['x-paycli-delivery-attempt'])).toBeGreaterThan(1);

    const none = await runPaycli(['sandbox', 'events', '--failed', '--sandbox-url', sb.url], env);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/every event was delivered/);
    const again = await runPaycli(['sandbox', 'resend', 'evt_1', '--sandbox-url', sb.url], env);
    expect(again.code, again.stderr).toBe(0);
    await waitFor(() => good.received.length === 3, 10_000, 'the delivered event sent again');
    expect(good.received[2]!.headers['x-paycli-delivery-attempt']).toBe('2');
    expect(good.received[2]!.text).toBe(good.received[0]!.text); // the same body, byte for byte
    expect((await runPaycli(['sandbox', 'resend', 'evt_999', '--sandbox-url', sb.url], env)).code).toBe(1);
    expect((await runPaycli(['sandbox', 'resend', '--sandbox-url', sb.url], env)).code).toBe(2);
    expect((await runPaycli(['sandbox', 'resend', 'evt_1', '--failed', '--sandbox-url', sb.url], env)).code).toBe(2);
  }, 120_000);
});

describe('paycli listen', () => {
  it('marks redeliveries, and goes on receiving when the sandbox restarts', async () => {
    const li = await startListenProcess([], home.env);
    running.push(li);
    const lij = await startListenProcess(['--json'], home.env);
    running.push(lij);
    const args = ['--data-dir', stateDir(), '--webhook-url', lij.url];
    let sb = await sandbox(args);
    const id = await create(sb, 'cashin', `${li.url}/hook`);
    await waitFor(() => li.stdout().includes('\n'), 10_000, 'the first line');
    expect(li.stdout()).toMatch(new RegExp(`cash-in ${id}  created  R\\$ 10,00  order pedido-1\\n$`));
    // both copies delivered before the stop (an attempt still open at the stop is sent again after the restart)
    await until(async () => (await listEvents(sb)).events.every((e) => e.state === 'delivered'), 30_000, 'both events delivered');
    await sb.stop();
    sb = await sandbox(args);
    const resent = await runPaycli(['sandbox', 'resend', 'evt_1', '--sandbox-url', sb.url], { env: home.env });
    expect(resent.code, resent.stderr).toBe(0);
    // a resend is delivered by the sandbox in its own time: wait for it, so that the lines' order is known
    await waitFor(() => li.stdout().trim().split('\n').length >= 2, 30_000, 'the redelivery');
    const id2 = await create(sb, 'cashin', `${li.url}/hook`);
    await waitFor(() => li.stdout().trim().split('\n').length >= 3, 30_000, 'three lines');
    const lines = li.stdout().trim().split('\n');
    expect(lines[1]).toMatch(new RegExp(`cash-in ${id}  created  R\\$ 10,00  order pedido-1  redelivery \\(attempt 2, already received\\)$`));
    expect(lines[2]).toMatch(new RegExp(`cash-in ${id2}  created  R\\$ 10,00  order pedido-1$`));
    await waitFor(() => lij.stdout().trim().split('\n').length >= 2, 10_000, 'the webhook lines');
    for (const l of lij.stdout().trim().split('\n')) expect(JSON.parse(l)).toMatchObject({ object: 'cashin', status: 'created' }); // stdout: bodies only
    expect(lij.stderr()).not.toMatch(/redelivery/);
  }, 60_000);
});

describe("the gateway family's documented examples", () => {
  it('holds the nine against what the sandbox sends and answers', async () => {
    const gw = await receiver((_req, res) => json(res, 200, {}));
    const hook = `${gw.url}/hook`;
    const sb = await sandbox();
    const bodies = async (id: number, n: number) => {
      await waitFor(() => gw.received.filter((r) => (r.json as { transactionId: number }).transactionId === id).length >= n, 10_000, `${n} postbacks of ${id}`);
      return gw.received.filter((r) => (r.json as { transactionId: number }).transactionId === id).map((r) => r.json as Record<string, any>);
    };
    const keys = (o: Record<string, unknown>) => Object.keys(o).sort();
    const BASE = ['method', 'object', 'observation', 'orderId', 'processedAt', 'status', 'transactionId', 'value'];

    // 1. No active acquirer: 400 {"message":"No active acquirer"}
    const noAcq = await sandbox(['--no-acquirer']);
    expect(await api(noAcq, 'POST', '/transaction/qrcode/cashin', CASHIN)).toEqual({ status: 400, json: { message: 'No active acquirer' } });

    // 2-3. Cash-in refund: no payer, no endToEndId; destinationBank (where the money goes back).
    const ci = await create(sb, 'cashin', hook);
    await act(sb, ci, 'pay');
    await act(sb, ci, 'refund');
    const [, paid, refund] = await bodies(ci, 3);
    expect(paid!.payer).toMatchObject({ transactionId: ci, documentId: '12345678909', bankIspb: '99999999' });
    expect(keys(refund!)).toEqual([...BASE, 'destinationBank'].sort());
    expect(refund!.destinationBank).toMatchObject({ name: 'Fulano de Tal', cpfCnpj: '12345678909' });

    // 4. Cash-in infraction: no payer, no endToEndId.
    const ci2 = await create(sb, 'cashin', hook);
    await act(sb, ci2, 'pay');
    await act(sb, ci2, 'infraction');
    const [, , infraction] = await bodies(ci2, 3);
    expect(keys(infraction!)).toEqual(BASE);

    // 5-7. Transfer: created with destinationBank null; paid with pixKeyType a string; refund without destinationBank or endToEndId.
    const co = await create(sb, 'cashout', hook);
    await act(sb, co, 'pay');
    await act(sb, co, 'refund');
    const [created, coPaid, coRefund] = await bodies(co, 3);
    expect(keys(created!)).toEqual([...BASE, 'destinationBank'].sort());
    expect(created!.destinationBank).toBeNull();
    expect(coPaid!.destinationBank).toEqual({
      name: 'Fulano de Tal',
      cpfCnpj: null,
      email: 'fulano@example.com',
      pixKey: 'fulano@example.com',
      pixKeyType: '2',
      bank: 'PAYCLI SANDBOX BANK',
      bankId: '999',
      ispb: '99999999',
    });
    expect(coPaid!.endToEndId).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    expect(keys(coRefund!)).toEqual(BASE);

    // 8. Timestamps with 7 fractional digits: createdAt ("2025-04-02T13:26:52.0365664Z") and processedAt.
    const seven = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/;
    const answer = await api(sb, 'POST', '/transaction/cashout', CASHOUT);
    expect(answer.json.createdAt).toMatch(seven);
    for (const b of [paid!, refund!, created!, coPaid!]) expect(b.processedAt).toMatch(seven);
    expect((await api(sb, 'GET', `/transaction/get/by/id/${co}`)).json.processedAt).toMatch(seven);

    // 9. Validation: the documented "Validation Failed - value is required" comes first, on both operations.
    expect(await api(sb, 'POST', '/transaction/qrcode/cashin', {})).toEqual({ status: 400, json: { message: 'Validation Failed - value is required' } });
    expect(await api(sb, 'POST', '/transaction/cashout', {})).toEqual({ status: 400, json: { message: 'Validation Failed - value is required' } });
    expect(await api(sb, 'POST', '/transaction/qrcode/cashin', { productName: 'x' })).toEqual({ status: 400, json: { message: 'Validation Failed - value is required' } });
  }, 60_000);
});

describe('bounded', () => {
  it('10,000 events to a receiver that is down: RSS stays under 150 MB, and the events survive a restart', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    // Two events a cash-out: its postbackUrl and the webhook. Standard schedule: a first attempt each, then waits of 5 s and more.
    const args = ['--data-dir', stateDir(), '--webhook-url', `${down}/all`];
    const sb = await sandbox(args);
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 5_000) {
          next++;
          const r = await fetch(`${sb.url}/transaction/cashout`, { method: 'POST', body: JSON.stringify({ ...CASHOUT, postbackUrl: `${down}/hook` }) });
          expect(r.status).toBe(200);
          await r.arrayBuffer();
        }
      }),
    );
    const first = await listEvents(sb, '&failed=true&limit=1');
    expect(first.total).toBe(10_000);
    const hwm = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${sb.child.pid}/status`, 'utf8'))?.[1]) * 1024;
    expect(hwm()).toBeLessThan(150 * 1024 * 1024);
    await sb.stop();
    const again = await sandbox(args);
    expect(again.log()).toMatch(/10000 events from the last run, 10000 to deliver/);
    const after = await api(again, 'GET', '/_sandbox/events?failed=true&limit=1');
    expect(after.json.total).toBe(10_000);
    expect(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${again.child.pid}/status`, 'utf8'))?.[1]) * 1024).toBeLessThan(150 * 1024 * 1024);
  }, 180_000);
});
