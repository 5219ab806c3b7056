/**
 * `--watch` on `cashin` and `status`: against a standalone `paycli sandbox` paid by `sandbox pay` from a
 * second process, and against a test gateway that keeps what it creates (test/helpers/gateway.ts),
 * whose GETs are timed: at most one question a second per transaction, a 429's `Retry-After` kept,
 * the final states' exit codes, `--watch-timeout`, Ctrl-C. Real processes, real HTTP on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, childEnv, makeHome, PAYCLI, runPaycli, type RunResult } from '../helpers/cli.js';
import { json, lookupGateway, useGatewayFixture } from '../helpers/gateway.js';
import { waitFor } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';
import { startTty } from '../helpers/tty.js';

const KEY = 'sk_live_WATCH_0123456789abcdef';
const t = useGatewayFixture(KEY);
const running: SandboxProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

/** Times (ms) at which the gateway received each lookup by order reference. */
function timedLookups(l: ReturnType<typeof lookupGateway>, before?: (n: number) => 'answer' | '429'): number[] {
  const times: number[] = [];
  const inner = l.responder;
  t.gw.respond((req, res) => {
    if (req.method === 'GET' && req.path.includes('/by/orderId/')) {
      times.push(Date.now());
      if (before?.(times.length) === '429') return json(res, 429, { message: 'Too many requests' }, { 'retry-after': '2' });
    }
    return inner(req, res);
  });
  return times;
}
const gaps = (times: number[]) => times.slice(1).map((x, i) => x - times[i]!);

describe('--watch', () => {
  it('cashin --watch --json against paycli sandbox: `sandbox pay` from another process ends the wait; one JSON document, exit 0', async () => {
    const home = makeHome();
    try {
      const sb = await startSandboxProcess([], home.env);
      running.push(sb);
      const watching = runPaycli(['--base-url', sb.url, '--json', ...CASHIN_ARGS, '--order-id', 'pedido-w1', '--watch', '--watch-timeout', '5m'], {
        env: home.env,
        timeoutMs: 120_000,
      });
      let id: number | undefined;
      for (;;) {
        const s = await runPaycli(['--base-url', sb.url, '--json', 'status', '--order-id', 'pedido-w1'], { env: home.env });
        if (s.code === 0) {
          id = (JSON.parse(s.stdout) as { transactionId: number }).transactionId;
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      const pay = await runPaycli(['sandbox', 'pay', String(id), '--sandbox-url', sb.url], { env: home.env });
      expect(pay.code, pay.stderr).toBe(0);
      const out = await watching;
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(out.stdout)).toMatchObject({ transactionId: id, status: 'paid', orderId: 'pedido-w1' });
      expect(out.stderr).not.toMatch(/Waiting for/); // no live line when stderr is not a terminal
      const history = JSON.parse((await runPaycli(['history', '--json'], { env: home.env })).stdout) as { orderId: string; status: string }[];
      expect(history.find((e) => e.orderId === 'pedido-w1')?.status).toBe('paid'); // kept in the ledger: it enters the statements
    } finally {
      home.cleanup();
    }
  }, 120_000);

  it('status --order-id --watch: asks at most once a second, ends 6 (needs attention) when the charge fails, printing the last document', async () => {
    const l = lookupGateway();
    l.held.push({ transactionId: 900, orderId: 'pedido-w2', object: 'cashin', status: 'created', value: 1000 });
    const times = timedLookups(l);
    const watching = runPaycli(['--json', 'status', '--order-id', 'pedido-w2', '--watch'], { env: t.env(), timeoutMs: 60_000 });
    await waitFor(() => times.length >= 3, 30_000, 'three lookups');
    l.held[0]!.status = 'failed';
    const out = await watching;
    expect(out.code, out.stderr).toBe(6);
    expect(JSON.parse(out.stdout)).toMatchObject({ transactionId: 900, status: 'failed' });
    expect(JSON.parse(out.stderr.trim().split('\n').pop()!)).toMatchObject({ error: { code: 'needs_attention' } });
    for (const g of gaps(times)) expect(g).toBeGreaterThanOrEqual(990);
    expect(t.gw.received.every((r) => r.method === 'GET')).toBe(true);
  }, 60_000);

  it('a 429 with Retry-After: 2 makes the next question wait 2 s; --until refund waits past paid; exit 0', async () => {
    const l = lookupGateway();
    l.held.push({ transactionId: 901, orderId: 'pedido-w3', object: 'cashin', status: 'paid', value: 1000 });
    const times = timedLookups(l, (n) => (n === 2 ? '429' : 'answer'));
    const watching = runPaycli(['status', '--order-id', 'pedido-w3', '--watch', '--until', 'refunded'], { env: t.env(), timeoutMs: 60_000 });
    await waitFor(() => times.length >= 3, 30_000, 'the question after the 429');
    l.held[0]!.status = 'refund';
    const out = await watching;
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/refund/);
    expect(gaps(times)[1]).toBeGreaterThanOrEqual(1990);
  }, 60_000);

  it('--watch-timeout passes: exit 6 (needs attention), the charge still exists, the last document on stdout', async () => {
    const l = lookupGateway();
    l.held.push({ transactionId: 902, orderId: 'pedido-w4', object: 'cashin', status: 'created', value: 1000 });
    timedLookups(l);
    const out = await runPaycli(['--json', 'status', '--order-id', 'pedido-w4', '--watch', '--watch-timeout', '2s'], { env: t.env(), timeoutMs: 60_000 });
    expect(out.code, out.stderr).toBe(6);
    expect(JSON.parse(out.stdout)).toMatchObject({ transactionId: 902, status: 'created' });
    const err = JSON.parse(out.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('needs_attention');
    expect(err.error.message).toMatch(/still exists/);
  }, 60_000);

  it('cashin --watch: Ctrl-C stops waiting, says the charge still exists, exit 130', async () => {
    const l = lookupGateway();
    const times = timedLookups(l);
    const child = spawn(process.execPath, [PAYCLI, ...CASHIN_ARGS, '--order-id', 'pedido-w5', '--watch', '--no-qr'], { env: childEnv(t.env()), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const done = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await waitFor(() => times.length >= 1, 30_000, 'the first lookup');
    child.kill('SIGINT');
    expect(await done).toBe(130);
    expect(stdout).toMatch(/Cash-in created/);
    expect(stderr).toMatch(/stopped waiting for order reference pedido-w5 \(last seen created\); the charge still exists/);
    expect(l.held).toHaveLength(1);
  }, 60_000);

  it('refuses before sending: a bad --until, --until without --watch, --watch against the built-in sandbox (exit 2)', async () => {
    const results: RunResult[] = [
      await runPaycli([...CASHIN_ARGS, '--watch', '--until', 'settled'], { env: t.env() }),
      await runPaycli([...CASHIN_ARGS, '--until', 'paid'], { env: t.env() }),
      await runPaycli([...CASHIN_ARGS, '--watch', '--watch-timeout', 'soon'], { env: t.env() }),
      await runPaycli(['--base-url', 'sandbox', ...CASHIN_ARGS, '--watch'], { env: t.env() }),
    ];
    for (const r of results) expect(r.code, r.stderr).toBe(2);
    expect(results[0]!.stderr).toMatch(/--until: use one of paid, failed, canceled, refund, expired/);
    expect(results[3]!.stderr).toMatch(/built-in sandbox keeps nothing/);
    expect(t.gw.received).toHaveLength(0);
  });

  it('cashin --batch --watch waits for every created row and summarises them; one ending failed is exit 6', async () => {
    const l = lookupGateway();
    const times = timedLookups(l);
    const file = join(t.home.dir, 'charges.csv');
    copyFileSync(resolve(__dirname, '../../examples/charges.csv'), file);
    const watching = runPaycli(['cashin', '--batch', file, '--yes', '--watch', '--watch-timeout', '5m'], { env: t.env(), timeoutMs: 120_000 });
    await waitFor(() => times.length >= 2, 30_000, 'a lookup of each row');
    l.held[0]!.status = 'paid';
    l.held[1]!.status = 'failed';
    const out = await watching;
    expect(out.code, out.stderr).toBe(6);
    expect(out.stderr).toMatch(/2 charge\(s\) watched: (1 paid, 1 failed|1 failed, 1 paid)/);
    expect(t.gw.received.filter((r) => r.method === 'POST')).toHaveLength(2);
  }, 120_000);

  it('in a terminal: the QR code stays on screen with a live line under it (state, time waited), erased when it is paid (exit 0)', async () => {
    const l = lookupGateway();
    const times = timedLookups(l);
    const tty = startTty([...CASHIN_ARGS, '--order-id', 'pedido-w6', '--watch'], t.env(), t.home.dir, { cols: 200, rows: 80 });
    try {
      const screen = await tty.waitFor(/Waiting for order reference pedido-w6: created \(0:[0-5][0-9]\)/, 30_000);
      expect(screen).toMatch(/Cash-in created/);
      expect(screen).toMatch(/[█▀▄]{10}/); // the QR code, still on screen
      await waitFor(() => times.length >= 2, 30_000, 'a second lookup');
      await tty.waitFor(/Waiting for order reference pedido-w6: created \(0:(0[1-9]|[1-5][0-9])\)/, 30_000);
      l.held[0]!.status = 'paid';
      expect(await tty.exitCode(30_000)).toBe(0);
      const end = tty.screen();
      expect(end).toMatch(/[█▀▄]{10}/);
      expect(end).toMatch(/Cash-in, paid/);
      expect(end).not.toMatch(/Waiting for/); // the live line is erased
    } finally {
      tty.kill();
    }
  }, 90_000);
});
