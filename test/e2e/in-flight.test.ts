/**
 * "Not found yet" is not "never sent" (docs/ledger-and-safety.md, "In flight"): against a test
 * gateway that answers slowly and creates each transaction when it answers (as a gateway behind a
 * queue does, even when the client has gone), no path of paycli pays twice: Ctrl-C and the same
 * command again, two runs of one batch file, a run killed and resumed at once, a stopped run, and
 * `reconcile` or a cash-out's own lookup during a slow send. Every test counts the POSTs that
 * reached the gateway and the distinct order references. The tests wait on events (a request
 * received, a line on stderr), not on the machine's speed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, runPaycli, spawnPaycli } from '../helpers/cli.js';
import { lookupGateway, useGatewayFixture, type LookupGateway } from '../helpers/gateway.js';

const KEY = 'sk_test_INFLIGHT_0123456789abcdef';
const t = useGatewayFixture(KEY);

/** Polls `cond` every 20 ms until it holds (bounded: fails after `ms`). */
async function waitFor(cond: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const posts = () => t.gw.received.filter((r) => r.method === 'POST');
const orderIds = () => new Set(posts().map((r) => (r.json as { orderId?: string }).orderId));

function slowGateway(delayMs: number): LookupGateway {
  const l = lookupGateway();
  l.delayMs = delayMs;
  t.gw.respond(l.responder);
  return l;
}

async function history(env: Record<string, string>): Promise<Array<{ id: number; outcome: string; completed?: boolean; orderId?: string; batchRow?: number }>> {
  const r = await runPaycli(['history', '--json', '--limit', '1000'], { env });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('a single cash-out in flight', () => {
  it('Ctrl-C while the answer is on its way keeps waiting; the same command meanwhile and afterwards sends nothing: 1 POST, recorded ok', async () => {
    const l = slowGateway(4000);
    const env = t.env();
    const first = spawnPaycli([...CASHOUT_ARGS, '--yes'], { env });
    await waitFor(() => posts().length === 1, 'the first POST');
    first.child.kill('SIGINT');
    await first.waitForStderr('waiting for the gateway');
    // The same command at once: the identical cash-out is in flight (its run is alive): refused, nothing sent.
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('duplicate');
    expect(again.stderr).toContain('still running');
    const r1 = await first.done;
    expect(r1.code).toBe(0);
    expect(r1.stdout).toContain('Transaction ID  500');
    // And again once the gateway has answered: an identical cash-out that was created is refused.
    const after = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('already sent');
    expect(posts()).toHaveLength(1);
    expect(l.held).toHaveLength(1);
    for (const out of [r1, again, after]) expect(out.stderr + out.stdout).not.toContain('nothing was created');
    const entries = await history(env);
    expect(entries.map((e) => e.outcome)).toEqual(['ok']);
  });

  it('Ctrl-C twice leaves it unknown (exit 130, naming reconcile); the same command is refused until the gateway can tell, then finds it: 1 POST, recorded ok', async () => {
    const l = slowGateway(3000);
    const env = t.env();
    const first = spawnPaycli([...CASHOUT_ARGS, '--yes'], { env });
    await waitFor(() => posts().length === 1, 'the first POST');
    first.child.kill('SIGINT');
    await first.waitForStderr('waiting for the gateway');
    first.child.kill('SIGINT');
    const r1 = await first.done;
    expect(r1.code).toBe(130);
    expect(r1.stderr).toContain('interrupted after the request was sent');
    expect(r1.stderr).toContain('paycli reconcile');
    expect(r1.stderr).not.toContain('nothing was created');
    // At once: its run is gone, but its deadline has not passed: "not found" proves nothing. Refused.
    const soon = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
    expect(soon.code).toBe(2);
    expect(soon.stderr).toContain('proves nothing');
    expect(posts()).toHaveLength(1);
    // Once the gateway has created it, the same command finds it: recorded ok, refused as a duplicate.
    await waitFor(() => l.held.length === 1, 'the gateway to create it');
    const later = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
    expect(later.code).toBe(2);
    expect(later.stderr).toContain('already sent');
    expect(posts()).toHaveLength(1);
    expect((await history(env)).map((e) => e.outcome)).toEqual(['ok']);
  });

  it('its own lookup after a timeout, and reconcile during a slow send, leave it unknown; reconcile finds it once the gateway has it', async () => {
    const l = slowGateway(3000);
    const env = t.env();
    // reconcile while a cash-out is waiting for its answer: that entry's run is alive: left alone.
    const running = spawnPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'pedido-slow-1'], { env });
    await waitFor(() => posts().length === 1, 'the first POST');
    const rec = await runPaycli(['reconcile', '--json'], { env });
    expect(rec.code).toBe(4);
    expect(JSON.parse(rec.stdout).entries[0]).toMatchObject({ result: 'unknown', reason: expect.stringContaining('still running') });
    expect((await running.done).code).toBe(0);
    // A cash-out whose own request times out before the gateway answers: its lookup hears "not found", which proves nothing.
    const timedOut = await runPaycli([...CASHOUT_ARGS.map((a) => (a === '1550' ? '1660' : a)), '--yes', '--timeout', '1000'], { env });
    expect(timedOut.code).toBe(4);
    expect(timedOut.stderr).toContain('asking the gateway');
    expect(timedOut.stderr).toContain('can be asked from');
    expect(timedOut.stderr).not.toContain('nothing was created');
    const entries = await history(env);
    expect(entries[0]!.outcome).toBe('unknown');
    // Once the gateway has created it, reconcile finds it.
    await waitFor(() => l.held.length === 2, 'the gateway to create the second');
    const rec2 = await runPaycli(['reconcile', '--json'], { env });
    expect(rec2.code).toBe(0);
    expect(JSON.parse(rec2.stdout)).toMatchObject({ settled: 1, unknown: 0 });
    expect(posts()).toHaveLength(2);
    expect((await history(env)).map((e) => e.outcome)).toEqual(['ok', 'ok']);
  });

  it('a "not found" after the deadline and settle-after, from a run that is gone, settles it not sent; the same command then sends it under the same order reference', async () => {
    const l = slowGateway(0);
    l.next.push('hang-before-create'); // received, never answered, never created
    const env = t.env({ PAYCLI_SETTLE_AFTER: '0' });
    const first = await runPaycli([...CASHOUT_ARGS, '--yes', '--timeout', '1000'], { env });
    expect(first.code).toBe(4);
    const ref = (posts()[0]!.json as { orderId: string }).orderId;
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`sent with order reference ${ref}`);
    expect(posts()).toHaveLength(2);
    expect(orderIds()).toEqual(new Set([ref]));
    expect(l.held).toHaveLength(1);
    expect((await history(env)).map((e) => e.outcome)).toEqual(['ok', 'not_sent']);
  });
});

describe('one batch file, one run at a time', () => {
  const ROWS = 200;
  function payoutFile(dir: string, rows = ROWS): string {
    const lines = ['value,pix-key-type,pix-key,person-name,person-email,person-phone'];
    for (let i = 1; i <= rows; i++) lines.push(`${1000 + i},email,payee${i}@example.com,Payee ${i},payee${i}@example.com,11987654321`);
    const file = join(dir, 'payouts.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  it('a second run while the first is going exits 2 batch_running naming it; with --wait it sends nothing; 200 POSTs, 200 order references', async () => {
    slowGateway(150);
    const env = t.env();
    const file = payoutFile(t.home.dir);
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '8', '--json'];
    const first = spawnPaycli(args, { env });
    await waitFor(() => posts().length >= 1, 'the first run to start sending');
    const second = await runPaycli(args, { env });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('batch_running');
    expect(second.stderr).toMatch(new RegExp(`another run of .*payouts\\.csv at this gateway is still going \\(process ${first.child.pid} on `));
    const waiting = spawnPaycli([...args, '--wait'], { env });
    await waiting.waitForStderr('waiting for the other run');
    const r1 = await first.done;
    expect(r1.code).toBe(0);
    const r3 = await waiting.done;
    expect(r3.code).toBe(0);
    expect(r3.stderr).toContain('nothing to send');
    // the wait polls many times: no listener is left behind (stderr carries only the run's JSON lines)
    expect(r3.stderr).not.toMatch(/MaxListenersExceeded|Warning/);
    for (const line of r3.stderr.trim().split('\n')) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(posts()).toHaveLength(ROWS);
    expect(orderIds().size).toBe(ROWS);
  });

  it('a run killed mid-file and restarted at once sends no row twice; rows it may have sent wait for their deadline, then every row ends ok', async () => {
    const l = slowGateway(2000);
    const env = t.env({ PAYCLI_SETTLE_AFTER: '1s' });
    const rows = 40;
    const file = payoutFile(t.home.dir, rows);
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '4', '--timeout', '3000'];
    const first = spawnPaycli(args, { env });
    await waitFor(() => posts().length >= 4, 'the first run to start sending');
    first.child.kill('SIGKILL');
    await first.done;
    // Restarted at once: the killed run's rows may still be in flight: left unknown, not sent again.
    const resumed = await runPaycli(args, { env, timeoutMs: 120_000 });
    expect(resumed.code).toBe(4);
    expect(resumed.stderr).toContain('run the same command again after');
    // Runs again until every row is settled (each run sends only what the gateway never got).
    let last = resumed;
    for (let i = 0; i < 20 && last.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      last = await runPaycli(args, { env, timeoutMs: 120_000 });
    }
    expect(last.code).toBe(0);
    expect(orderIds().size).toBe(rows);
    expect(posts()).toHaveLength(rows);
    expect(l.held).toHaveLength(rows);
  }, 180_000);

  it('SIGKILL after 64 POSTs of 200 rows (concurrency 4, gateway 150 ms), restarted at once: at most 8 rows wait, the run says when; after their deadline the same command pays each remaining row once, exit 0', async () => {
    const l = slowGateway(150);
    const env = t.env({ PAYCLI_SETTLE_AFTER: '0' });
    const file = payoutFile(t.home.dir);
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '4', '--timeout', '2000'];
    const first = spawnPaycli(args, { env });
    await waitFor(() => posts().length >= 64, '64 POSTs of the first run');
    first.child.kill('SIGKILL');
    await first.done;
    // Rows recorded without an outcome: only those in flight or about to start (2 x concurrency).
    const open = (await history(env)).filter((e) => e.outcome === 'unknown');
    expect(open.length).toBeLessThanOrEqual(8);
    const resumed = await runPaycli(args, { env, timeoutMs: 120_000 });
    const waiting = readFileSync(`${file}.results-2.csv`, 'utf8')
      .split('\n')
      .filter((line) => line.includes(',unknown,'));
    expect(waiting.length, resumed.stderr).toBeLessThanOrEqual(8);
    if (waiting.length) {
      expect(resumed.code).toBe(4);
      expect(resumed.stderr).toContain('run the same command again after');
    } else expect(resumed.code, resumed.stderr).toBe(0);
    expect(posts().length).toBe(orderIds().size); // no row POSTed twice
    // Once their deadline has passed, the same command settles them by lookup and pays what never arrived.
    const deadline = Math.max(0, ...(await history(env)).filter((e) => e.outcome === 'unknown').map((e) => (e as { deadlineMs?: number }).deadlineMs ?? 0));
    while (Date.now() <= deadline + 50) await new Promise((r) => setTimeout(r, 100));
    const done = await runPaycli(args, { env, timeoutMs: 120_000 });
    expect(done.code, done.stderr).toBe(0);
    expect(posts()).toHaveLength(200);
    expect(orderIds().size).toBe(200);
    expect(l.held).toHaveLength(200);
  }, 180_000);

  it('a run stopped (SIGSTOP) for 20 s still owns its file: a second run refuses, reconcile leaves its rows alone; after SIGCONT the first finishes; 0 duplicates', async () => {
    const l = slowGateway(100);
    const env = t.env({ PAYCLI_SETTLE_AFTER: '0' });
    const rows = 60;
    const file = payoutFile(t.home.dir, rows);
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '2', '--timeout', '2000'];
    const first = spawnPaycli(args, { env });
    await waitFor(() => posts().length >= 2, 'the first run to start sending');
    first.child.kill('SIGSTOP');
    try {
      const second = await runPaycli(args, { env });
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('is still going');
      // reconcile leaves the stopped run's rows alone
      const rec = await runPaycli(['reconcile', '--json'], { env });
      expect(JSON.parse(rec.stdout).entries.every((e: { result: string; reason: string }) => e.result === 'unknown' && e.reason.includes('still running'))).toBe(true);
      await new Promise((r) => setTimeout(r, 20_000)); // stopped for 20 s: still its owner
      const third = await runPaycli(['--json', ...args], { env });
      expect(third.code).toBe(2);
      expect(JSON.parse(third.stderr.trim().split('\n').pop()!).error.code).toBe('batch_running');
    } finally {
      first.child.kill('SIGCONT');
    }
    // It finishes. Requests it had started may meet connections the gateway closed while it was stopped:
    // those rows end unknown (exit 4), and a later run settles them once their deadline has passed.
    const r1 = await first.done;
    expect([0, 4], r1.stderr).toContain(r1.code);
    let last = r1;
    for (let i = 0; i < 30 && last.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      last = await runPaycli(args, { env });
    }
    expect(last.code, last.stderr).toBe(0);
    expect(orderIds().size).toBe(rows);
    expect(l.held).toHaveLength(rows); // each row created once at the gateway
  }, 120_000);

  it('settle-after below one minute for a gateway outside this machine is refused before anything is recorded or sent; on loopback 0 is allowed', async () => {
    const remote = await runPaycli([...CASHOUT_ARGS, '--yes', '--base-url', 'https://gw.example'], { env: t.env({ PAYCLI_SETTLE_AFTER: '0' }) });
    expect(remote.code, remote.stderr).toBe(2);
    expect(remote.stdout).toBe('');
    expect(remote.stderr).toMatch(/^error: PAYCLI_SETTLE_AFTER: settle-after 0 ms is below 60s, the shortest for a gateway outside this machine/m);
    expect(t.gw.received).toHaveLength(0);
    expect(await history(t.env())).toHaveLength(0);
    const local = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env({ PAYCLI_SETTLE_AFTER: '0' }) });
    expect(local.code, local.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
  });
});
