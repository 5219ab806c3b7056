/**
 * `--watch` with a postback URL on 127.0.0.1 (docs/cash-in-and-cash-out.md "Waiting for the outcome: --watch"):
 * paycli listens there with the receiver of `paycli listen`, and a postback makes it ask the gateway at once,
 * never sooner than a second after its last answer; the gateway's answer decides. Against a standalone
 * `paycli sandbox` paid from a second process; the sandbox's log says what it did and delivered, and a proxy
 * in front of it times the lookups paycli sent and can hold them, so that a postback, not a poll, is what
 * tells paycli first. Real processes, real HTTP on 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, childEnv, makeHome, PAYCLI, runPaycli } from '../helpers/cli.js';
import { waitFor } from '../helpers/listen.js';
import { track } from '../helpers/reaper.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

const running: SandboxProcess[] = [];
const homes: ReturnType<typeof makeHome>[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
  await Promise.all(running.splice(0).map((p) => p.stop()));
  for (const h of homes.splice(0)) h.cleanup();
});

/** A port free on 127.0.0.1 right now (the system's pick). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** A paycli process whose output is read as it comes. */
interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}
function spawnPaycli(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [PAYCLI, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** The transaction id the sandbox gave the cash-in with this order reference (from its log), once created. */
const createdId = (sb: SandboxProcess, orderId: string): number | undefined => {
  const m = new RegExp(`POST /transaction/qrcode/cashin → 200 \\(cash-in (\\d+), order ${orderId}\\)`).exec(sb.log());
  return m ? Number(m[1]) : undefined;
};
/** Times (epoch ms, the sandbox's clock) of the lookups of this order reference the sandbox received. */
const lookupTimes = (sb: SandboxProcess, orderId: string): number[] =>
  [...sb.log().matchAll(new RegExp(`^(\\S+Z) GET /transaction/get/by/orderId/${orderId} → `, 'gm'))].map((m) => Date.parse(m[1]!));
const gaps = (times: number[]) => times.slice(1).map((x, i) => x - times[i]!);

/** POSTs a JSON body to a receiver; @returns the HTTP status. */
async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

/**
 * A proxy between paycli and the sandbox that records when each lookup arrived (as paycli sent it) and can
 * hold the lookups until the test lets them go: while held, paycli cannot learn a new state by asking, so
 * a postback delivered meanwhile is what tells it first (no race between a poll and the postback).
 */
async function lookupGate(target: string) {
  let held = false;
  const waiting: (() => void)[] = [];
  const lookups: { path: string; at: number }[] = [];
  const server = createHttpServer((req, res) => {
    (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (req.method === 'GET') {
        lookups.push({ path: req.url ?? '', at: Date.now() });
        while (held) await new Promise<void>((r) => waiting.push(r));
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
      const answer = await fetch(`${target}${req.url}`, { method: req.method!, headers, ...(req.method === 'GET' ? {} : { body: Buffer.concat(chunks) }) });
      const body = Buffer.from(await answer.arrayBuffer());
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (!['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding'].includes(k)) out[k] = v;
      });
      res.writeHead(answer.status, { ...out, 'content-length': String(body.length) }).end(body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Arrival times (epoch ms) of the lookups of this order reference. */
    times: (orderId: string) => lookups.filter((l) => l.path.endsWith(`/by/orderId/${orderId}`)).map((l) => l.at),
    hold: () => void (held = true),
    release: () => {
      held = false;
      for (const w of waiting.splice(0)) w();
    },
    close: async () => {
      held = false;
      for (const w of waiting.splice(0)) w();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
const gates: Awaited<ReturnType<typeof lookupGate>>[] = [];

async function sandboxWithHome(env: Record<string, string> = {}) {
  const home = makeHome();
  homes.push(home);
  const sb = await startSandboxProcess([], { ...home.env, ...env });
  running.push(sb);
  return { env: { ...home.env, ...env }, sb };
}

describe('--watch with a postback URL on 127.0.0.1', () => {
  it('cashin --watch --json: `sandbox pay` from another process sends the postback, which ends the wait after one confirming lookup; never two lookups within a second; signed postbacks checked, an unsigned one refused (401)', async () => {
    const SECRET = 'whsec_WATCH_postbacks_0123456789';
    const { env, sb } = await sandboxWithHome({ PAYCLI_POSTBACK_SECRET: SECRET });
    const gate = await lookupGate(sb.url);
    gates.push(gate);
    const port = await freePort();
    const receiver = `http://127.0.0.1:${port}/pix/postback`;
    const watching = spawnPaycli(
      ['--base-url', gate.url, '--json', '--verbose', ...CASHIN_ARGS, '--order-id', 'pedido-wp1', '--postback-url', receiver, '--watch', '--watch-timeout', '5m'],
      env,
    );
    await waitFor(() => createdId(sb, 'pedido-wp1') !== undefined, 60_000, 'the cash-in');
    await waitFor(() => /postback cash-in \d+ created → \S+ \(evt_\d+\) attempt 1: HTTP 200, delivered/.test(sb.log()), 60_000, 'the created postback delivered');
    expect(await post(receiver, { transactionId: createdId(sb, 'pedido-wp1'), object: 'cashin', status: 'paid', orderId: 'pedido-wp1', value: 1000 })).toBe(401);
    await waitFor(() => lookupTimes(sb, 'pedido-wp1').length >= 2, 60_000, 'two lookups answered');
    const id = createdId(sb, 'pedido-wp1')!;
    // paid while paycli cannot ask: the postback tells it first
    gate.hold();
    const pay = await runPaycli(['sandbox', 'pay', String(id), '--sandbox-url', sb.url], { env });
    expect(pay.code, pay.stderr).toBe(0);
    const deliveredLine = new RegExp(`postback cash-in ${id} paid → ${receiver.replace(/[.]/g, '\\.')} \\(evt_\\d+\\) attempt 1: HTTP 200, delivered`);
    await waitFor(() => deliveredLine.test(sb.log()), 60_000, 'the paid postback delivered to paycli');
    await waitFor(() => new RegExp(`postback: tx:${id} is paid; asking the gateway`).test(watching.stderr()), 60_000, 'the postback taken');
    gate.release();
    const code = await watching.exit;
    expect(code, watching.stderr()).toBe(0);
    expect(watching.stdout().trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(watching.stdout())).toMatchObject({ transactionId: id, status: 'paid', orderId: 'pedido-wp1' });
    expect(watching.stderr()).toMatch(new RegExp(`listening for postbacks on http://127.0.0.1:${port}`));
    expect(watching.stderr()).toMatch(/signature/); // the unsigned one, warned
    expect(watching.stderr()).not.toContain(SECRET);
    // at most once a second as paycli sent them, the postback's lookup included
    expect(gate.times('pedido-wp1').length).toBeGreaterThanOrEqual(3);
    for (const times of [gate.times('pedido-wp1'), lookupTimes(sb, 'pedido-wp1')]) for (const g of gaps(times)) expect(g).toBeGreaterThanOrEqual(1000); // sent, and received by the sandbox
    const history = JSON.parse((await runPaycli(['history', '--json'], { env })).stdout) as { orderId: string; status: string }[];
    expect(history.find((e) => e.orderId === 'pedido-wp1')?.status).toBe('paid');
  }, 120_000);

  it('a postback for another transaction does not hurry the wait; a forged one (the gateway still says created) costs one lookup and ends nothing: Ctrl-C then exits 130, the charge still exists', async () => {
    const { env, sb } = await sandboxWithHome();
    const gate = await lookupGate(sb.url);
    gates.push(gate);
    const port = await freePort();
    const receiver = `http://127.0.0.1:${port}/pix`;
    const watching = spawnPaycli(['--base-url', gate.url, '--verbose', ...CASHIN_ARGS, '--order-id', 'pedido-wp2', '--postback-url', receiver, '--watch', '--no-qr'], env);
    await waitFor(() => createdId(sb, 'pedido-wp2') !== undefined && /listening for postbacks/.test(watching.stderr()), 60_000, 'the cash-in');
    const id = createdId(sb, 'pedido-wp2')!;
    // another charge, the same postback URL: its postbacks reach the watcher's receiver
    const other = await runPaycli(['--base-url', sb.url, '--json', ...CASHIN_ARGS, '--product-name', 'Outro', '--order-id', 'pedido-wp2-outro', '--postback-url', receiver], {
      env,
    });
    expect(other.code, other.stderr).toBe(0);
    const otherId = (JSON.parse(other.stdout) as { transactionId: number }).transactionId;
    expect((await runPaycli(['sandbox', 'pay', String(otherId), '--sandbox-url', sb.url], { env })).code).toBe(0);
    await waitFor(
      () => new RegExp(`postback cash-in ${otherId} paid → \\S+ \\(evt_\\d+\\) attempt 1: HTTP 200, delivered`).test(sb.log()),
      60_000,
      "the other charge's paid postback delivered",
    );
    // forged: our transaction id but another order reference, then the right one (the gateway says created)
    expect(await post(receiver, { transactionId: otherId, object: 'cashin', status: 'paid', orderId: 'pedido-wp2', value: 1000 })).toBe(200);
    expect(await post(receiver, { transactionId: id, object: 'cashin', status: 'paid', orderId: 'pedido-wp2', value: 1000 })).toBe(200);
    await waitFor(() => new RegExp(`postback: tx:${id} is paid; asking the gateway`).test(watching.stderr()), 30_000, 'the forged postback seen');
    const before = lookupTimes(sb, 'pedido-wp2').length;
    await waitFor(() => lookupTimes(sb, 'pedido-wp2').length > before, 30_000, 'the confirming lookup');
    watching.child.kill('SIGINT');
    expect(await watching.exit).toBe(130);
    expect(watching.stderr()).toMatch(/stopped waiting for order reference pedido-wp2 \(last seen created\); the charge still exists/);
    expect(watching.stderr()).not.toMatch(new RegExp(`postback: tx:${otherId} `));
    expect(watching.stdout()).toMatch(/Cash-in created/);
    for (const times of [gate.times('pedido-wp2'), lookupTimes(sb, 'pedido-wp2')]) for (const g of gaps(times)) expect(g).toBeGreaterThanOrEqual(1000);
    expect(lookupTimes(sb, 'pedido-wp2-outro')).toHaveLength(0);
  }, 120_000);

  it("cashin --batch --watch: one receiver for the rows, each row paid or failed from another process; the summary, exit 6, and `history` shows each row's final state", async () => {
    const { env, sb } = await sandboxWithHome();
    const gate = await lookupGate(sb.url);
    gates.push(gate);
    const port = await freePort();
    const receiver = `http://127.0.0.1:${port}/pix`;
    const file = join(env.HOME!, 'cobrancas.csv');
    writeFileSync(
      file,
      [
        'order-id,value,payer-name,payer-document,payer-email,payer-phone,product-name,product-description,url-postback',
        `pedido-wb1,4990,Fulano de Tal,123.456.789-09,fulano@example.com,11987654321,Assinatura,Assinatura mensal,${receiver}`,
        `pedido-wb2,12900,Beltrana Silva,529.982.247-25,beltrana@example.com,21998765432,Curso,Curso online,${receiver}`,
      ].join('\n') + '\n',
    );
    const watching = spawnPaycli(['--base-url', gate.url, '--verbose', 'cashin', '--batch', file, '--yes', '--watch', '--watch-timeout', '5m'], env);
    await waitFor(() => createdId(sb, 'pedido-wb1') !== undefined && createdId(sb, 'pedido-wb2') !== undefined, 60_000, 'both rows created');
    await waitFor(() => gate.times('pedido-wb1').length >= 1 && gate.times('pedido-wb2').length >= 1, 60_000, 'a lookup of each row');
    const [paid, failed] = [createdId(sb, 'pedido-wb1')!, createdId(sb, 'pedido-wb2')!];
    // paid and failed while paycli cannot ask: the postbacks tell it first
    gate.hold();
    expect((await runPaycli(['sandbox', 'pay', String(paid), '--sandbox-url', sb.url], { env })).code).toBe(0);
    expect((await runPaycli(['sandbox', 'fail', String(failed), '--sandbox-url', sb.url], { env })).code).toBe(0);
    await waitFor(
      () =>
        new RegExp(`postback: tx:${paid} is paid; asking the gateway`).test(watching.stderr()) &&
        new RegExp(`postback: tx:${failed} is failed; asking the gateway`).test(watching.stderr()),
      60_000,
      'both postbacks taken',
    );
    gate.release();
    const code = await watching.exit;
    expect(code, watching.stderr()).toBe(6);
    expect(watching.stderr().match(/listening for postbacks on/g)).toHaveLength(1); // one receiver for the rows
    expect(watching.stderr()).toMatch(/2 charge\(s\) watched: (1 paid, 1 failed|1 failed, 1 paid)/);
    for (const ref of ['pedido-wb1', 'pedido-wb2'])
      for (const times of [gate.times(ref), lookupTimes(sb, ref)]) for (const g of gaps(times)) expect(g).toBeGreaterThanOrEqual(1000);
    const history = JSON.parse((await runPaycli(['history', '--json'], { env })).stdout) as { orderId: string; status: string }[];
    expect(history.find((e) => e.orderId === 'pedido-wb1')?.status).toBe('paid');
    expect(history.find((e) => e.orderId === 'pedido-wb2')?.status).toBe('failed');
  }, 120_000);

  it('a postback URL whose port is taken (another receiver has it): a notice, and the wait asks the gateway only (exit 0 once paid)', async () => {
    const { env, sb } = await sandboxWithHome();
    const taken = createHttpServer((_req, res) => res.writeHead(200).end());
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (taken.address() as AddressInfo).port;
      const watching = spawnPaycli(
        [
          '--base-url',
          sb.url,
          '--json',
          ...CASHIN_ARGS,
          '--order-id',
          'pedido-wp4',
          '--postback-url',
          `http://shop:s3cr3t-token@127.0.0.1:${port}/pix?token=s3cr3t-token`,
          '--watch',
        ],
        env,
      );
      await waitFor(() => createdId(sb, 'pedido-wp4') !== undefined, 60_000, 'the cash-in');
      expect((await runPaycli(['sandbox', 'pay', String(createdId(sb, 'pedido-wp4')), '--sandbox-url', sb.url], { env })).code).toBe(0);
      expect(await watching.exit, watching.stderr()).toBe(0);
      expect(JSON.parse(watching.stdout())).toMatchObject({ status: 'paid' });
      for (const g of gaps(lookupTimes(sb, 'pedido-wp4'))) expect(g).toBeGreaterThanOrEqual(1000);
      expect(watching.stderr()).not.toContain('s3cr3t-token'); // the URL's user info and query are not repeated
      expect(watching.stderr()).toMatch(new RegExp(`cannot listen for postbacks at http://127.0.0.1:${port} \\(EADDRINUSE\\): waiting by asking the gateway only`));
    } finally {
      taken.closeAllConnections();
      await new Promise<void>((r) => taken.close(() => r()));
    }
  }, 120_000);
});
