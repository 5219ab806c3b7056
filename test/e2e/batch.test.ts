/**
 * Batch runs end to end: the built paycli against a recording test gateway on 127.0.0.1 (which
 * can answer 429 or hold answers) and the standalone sandbox. Every test asserts what reached
 * the gateway.
 * Here only what needs a process of its own (a signal, a file or disk changed while it runs, Node's
 * own warnings, a terminal); the rest runs in process: test/inprocess/batch.test.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childEnv, makeHome, PAYCLI, runPaycli, type Home } from '../helpers/cli.js';
import { CASHIN_OK, CASHOUT_OK, json, lookupGateway, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';
import { startTty, type TtySession } from '../helpers/tty.js';

let home: Home;
let gw: TestGateway;
const sandboxes: SandboxProcess[] = [];
beforeEach(async () => {
  home = makeHome();
  gw = await startGateway((req, res) => {
    const body = req.json as { value?: number; orderId?: string };
    json(
      res,
      200,
      req.path.endsWith('/cashout')
        ? { ...CASHOUT_OK, transactionId: gw.received.length, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId }
        : { ...CASHIN_OK, transactionId: gw.received.length },
    );
  });
});
afterEach(async () => {
  await gw.close();
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
  home.cleanup();
});

const env = (extra: Record<string, string> = {}) => ({ ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: 'sk_test_batch', ...extra });
const HEADER = 'value,pix-key-type,pix-key,person-name,person-email,person-phone';
/** A valid cash-out row with a distinct e-mail key per `n`. */
const payoutRow = (n: number, cents = 1000 + n) => `${cents},email,fornecedor${n}@example.com,Fornecedor ${n},fornecedor${n}@example.com,11987654321`;
function writeCsv(name: string, lines: string[]): string {
  const file = join(home.dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
const results = (file: string) => readFileSync(file, 'utf8').trim().split('\n');
const cashouts = () => gw.received.filter((r) => r.method === 'POST' && r.path.endsWith('/cashout'));

describe('sending', () => {
  it('--concurrency 32 against a failing gateway, --json: stderr holds only JSON lines, no MaxListenersExceededWarning', async () => {
    const file = writeCsv('fail32.csv', [HEADER, ...Array.from({ length: 96 }, (_, i) => payoutRow(i + 1))]);
    gw.respond((req, res) => (req.method === 'GET' ? json(res, 404, { message: 'Transaction not found' }) : json(res, 500, { message: 'internal error' })));
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--json', '--concurrency', '32'], { env: env() });
    expect(r.code).toBe(5);
    expect(cashouts()).toHaveLength(96);
    expect(r.stderr).not.toMatch(/MaxListenersExceeded|Warning/);
    for (const line of r.stderr.trim().split('\n')) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
  });

  it('Ctrl-C: starts no more rows, waits for the ones in flight, records them, exit 130', async () => {
    const file = writeCsv('int.csv', [HEADER, ...Array.from({ length: 10 }, (_, i) => payoutRow(i + 1))]);
    const held: Array<() => void> = [];
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      held.push(() => json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId }));
    });
    const child = spawn(process.execPath, [PAYCLI, 'cashout', '--batch', file, '--yes', '--concurrency', '2'], { env: childEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await waitUntil(() => held.length === 2);
    child.kill('SIGINT');
    await waitUntil(() => /starting no more rows/.test(stderr));
    held.splice(0).forEach((answer) => answer());
    expect(await exited).toBe(130);
    expect(cashouts()).toHaveLength(2);
    const lines = results(`${file}.results.csv`).slice(1);
    expect(lines).toHaveLength(10); // every row once: 2 created, 8 not started
    expect(lines.filter((l) => /,ok,/.test(l))).toHaveLength(2);
    expect(lines.filter((l) => /,not_started,/.test(l))).toHaveLength(8);
    expect(stderr).toMatch(/8 +not started \(interrupted\)/);

    // The same command again: the 2 paid rows are skipped, the 8 others sent.
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
    });
    const again = await runPaycli(['cashout', '--batch', file, '--yes', '--concurrency', '2'], { env: env() });
    expect(again.code).toBe(0);
    expect(cashouts()).toHaveLength(10);
    expect(new Set(cashouts().map((c) => (c.json as { orderId: string }).orderId)).size).toBe(10);
    expect(again.stderr).toMatch(/2 +already paid/);
  });
});

describe('what was checked is what is sent', () => {
  it('a file rewritten while its rows are being sent: every row goes out as it was checked and confirmed', async () => {
    // Far larger than what the reading streams hold at once (a few 64 KiB buffers): most rows are
    // read after the rewrite.
    const rows = 3000;
    const row = (n: number, cents: number) => `${cents},email,fornecedor${n}@example.com,Fornecedor ${n} ${'de Souza '.repeat(9).trim()},fornecedor${n}@example.com,11987654321`;
    const file = writeCsv('moving.csv', [HEADER, ...Array.from({ length: rows }, (_, i) => row(i + 1, 1001 + i))]);
    let first: (() => void) | undefined;
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      const answer = () => json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
      if (cashouts().length === 1) first = answer;
      else answer();
    });
    const child = spawn(process.execPath, [PAYCLI, 'cashout', '--batch', file, '--yes', '--concurrency', '1'], { env: childEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await waitUntil(() => first !== undefined);
    // Every amount becomes R$ 9.999,99 while the first row is on its way.
    writeCsv('moving.csv', [HEADER, ...Array.from({ length: rows }, (_, i) => row(i + 1, 999_999))]);
    first!();
    expect(await exited).toBe(0);
    expect(cashouts().map((c) => (c.json as { value: number }).value)).toEqual(Array.from({ length: rows }, (_, i) => 1001 + i));
  });

  it('a temporary folder that fills up while the rows are kept: exit 2, nothing sent', async () => {
    // A 64 KiB file system of its own (a private mount namespace), far smaller than the rows checked.
    const small = join(home.dir, 'small-tmp');
    mkdirSync(small);
    const file = writeCsv('big.csv', [HEADER, ...Array.from({ length: 3000 }, (_, i) => payoutRow(i + 1))]);
    const script = 'mount -t tmpfs -o size=64k none "$TMPDIR" && exec "$0" "$@"';
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('unshare', ['-rm', 'sh', '-c', script, process.execPath, PAYCLI, 'cashout', '--batch', file, '--yes'], {
        env: childEnv(env({ TMPDIR: small })),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(r.stderr).toContain('cannot keep the checked rows in');
    expect(r.stderr).toContain('(ENOSPC); nothing was sent');
    expect(r.code).toBe(2);
    expect(gw.received).toHaveLength(0);
    expect(existsSync(`${file}.results.csv`)).toBe(false);
  });

  it('a ledger disk that fills up mid-run: every row is in the summary and the results once, by state; the same command then sends the rest, each row once in total', async () => {
    // The ledger on a 192 KiB file system of its own (a private mount namespace): it fills up after
    // some rows are recorded; the second run, after the file system grew, resumes.
    const data = join(home.dir, 'small-data');
    mkdirSync(data);
    const rows = 600;
    const file = writeCsv('full.csv', [HEADER, ...Array.from({ length: rows }, (_, i) => payoutRow(i + 1))]);
    const [r1, r2] = [join(home.dir, 'r1.csv'), join(home.dir, 'r2.csv')];
    gw.respond(lookupGateway().responder); // answers lookups: the resume asks about rows whose outcome the full disk kept from the ledger
    const script = [
      'mount -t tmpfs -o size=192k none "$PAYCLI_DATA_DIR" || exit 99',
      '"$0" "$1" cashout --batch "$2" --yes --results "$3"; echo "first $?"',
      'mount -o remount,size=8m "$PAYCLI_DATA_DIR" || exit 98',
      '"$0" "$1" cashout --batch "$2" --yes --results "$4"; echo "second $?"',
    ].join('\n');
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('unshare', ['-rm', 'sh', '-c', script, process.execPath, PAYCLI, file, r1, r2], {
        env: childEnv({ ...env(), PAYCLI_DATA_DIR: data }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.code, r.stderr).toBe(0);
    const first = results(r1)
      .slice(1)
      .map((l) => l.split(','));
    // Every row exactly once, in one of two states: created, or not started (nothing of it sent).
    expect(first.map((c) => Number(c[0])).sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    const created = first.filter((c) => c[3] === 'ok').length;
    const notStarted = first.filter((c) => c[3] === 'not_started').length;
    expect(created).toBeGreaterThan(0);
    expect(notStarted).toBeGreaterThan(0);
    expect(created + notStarted).toBe(rows);
    expect(r.stdout).toContain('first 6');
    expect(r.stderr).toMatch(new RegExp(`${created} +cash-outs created`));
    expect(r.stderr).toMatch(new RegExp(`${notStarted} +not started \\(the run stopped; see below\\)`));
    expect(r.stderr).toMatch(/not started: rows [0-9]+-600/);
    expect(r.stderr).toContain('disk is full (SQLITE_FULL); the run stopped after sending some rows');
    expect(r.stderr).toContain(`${created} created, ${notStarted} not started`);
    expect(r.stderr).not.toMatch(/sending some rows.*nothing was sent/);
    // The outcomes the full disk kept from the ledger: said to be sent, never "nothing was sent".
    expect(r.stderr).toMatch(
      /were sent, but their outcomes could not be recorded in the ledger \(the payment ledger .* the disk is full \(SQLITE_FULL\)\): the ledger keeps them with an unknown outcome, so they are not sent again/,
    );
    expect(r.stderr.match(/nothing was sent/g) ?? []).toHaveLength(0);
    // The resume: the created rows are found (in the ledger, or at the gateway by order reference),
    // the rows not started are sent; a row recorded but never sent whose ending the full disk lost
    // stays unknown until its deadline has passed (a lookup's "not found" proves nothing before),
    // and is not sent. No row reached the gateway twice.
    expect(r.stdout).toMatch(/second (0|4)/);
    const second = results(r2)
      .slice(1)
      .map((l) => l.split(','));
    const firstState = new Map(first.map((c) => [c[0], c[3]]));
    expect(second.filter((c) => c[3] === 'already_ok')).toHaveLength(created);
    for (const c of second.filter((c) => c[3] === 'ok' || c[3] === 'unknown')) expect(firstState.get(c[0])).toBe('not_started');
    expect(second.filter((c) => c[3] === 'ok').length + second.filter((c) => c[3] === 'unknown').length).toBe(notStarted);
    expect(cashouts()).toHaveLength(created + second.filter((c) => c[3] === 'ok').length);
    expect(new Set(cashouts().map((c) => (c.json as { orderId: string }).orderId)).size).toBe(cashouts().length);
  }, 60_000);

  it('a file that changes between its fingerprint and its check is refused, nothing sent', async () => {
    // A FIFO gives each reader what the writer of that moment writes: the fingerprint (the first
    // read) sees one file and the check (the second) another.
    const fifoDir = join(home.dir, 'fifo');
    mkdirSync(fifoDir);
    const fifo = join(fifoDir, 'rows.jsonl');
    execFileSync('mkfifo', [fifo]);
    const doc = (value: number) =>
      JSON.stringify({ value, pixKeyType: 'email', pixKey: 'ana@example.com', person: { name: 'Ana', email: 'ana@example.com', phone: '11987654321' } });
    const child = spawn(process.execPath, [PAYCLI, 'cashout', '--batch', fifo, '--yes'], { env: childEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    // Whether paycli has the FIFO open now (its open file descriptors, /proc/<pid>/fd).
    const paycliReads = () => {
      try {
        return readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
          try {
            return readlinkSync(`/proc/${child.pid}/fd/${fd}`) === fifo;
          } catch {
            return false;
          }
        });
      } catch {
        return false; // it has ended
      }
    };
    const feed = (async () => {
      for (const value of [1000, 50_000]) {
        // One writer per open by paycli: its write waits until paycli opens the FIFO to read. A writer
        // exits once its line is in the pipe, maybe before paycli has read it; the next writer waits
        // until paycli has closed that read, or paycli would read both lines at once.
        await new Promise<void>((resolve) => {
          const w = spawn('sh', ['-c', 'cat > "$0"', fifo], { stdio: ['pipe', 'ignore', 'ignore'] });
          w.on('close', () => resolve());
          w.stdin.end(`${doc(value)}\n`);
        });
        while (paycliReads()) await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const code = await exited;
    await feed;
    expect(code).toBe(2);
    expect(stderr).toContain('changed while it was being checked; nothing was sent');
    expect(gw.received).toHaveLength(0);
  });
});

async function waitUntil(cond: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('resume', () => {
  it('SIGKILL in the middle, then the same command until done: exactly one request per row in total (rows the killed run may have in flight wait for their deadline)', async () => {
    const sb = await startSandboxProcess(['--json'], home.env);
    sandboxes.push(sb);
    const rows = Array.from({ length: 300 }, (_, i) => payoutRow(i + 1));
    const file = writeCsv('kill.csv', [HEADER, ...rows]);
    // No settle-after, and a timeout of 10 s: the killed run's rows become decidable within the test, yet not before the
    // immediate re-run has looked at them, nor does a request of the later runs time out, on a machine slowed by other work.
    const env = { ...home.env, PAYCLI_SETTLE_AFTER: '0' };
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '4', '--base-url', sb.url, '--timeout', '10000'];
    const posts = () =>
      sb
        .log()
        .split('\n')
        .filter((l) => l.includes('POST /transaction/cashout')).length;
    const child = spawn(process.execPath, [PAYCLI, ...args], { env: childEnv(env), stdio: ['ignore', 'ignore', 'ignore'] });
    const exited = new Promise<void>((r) => child.on('close', () => r()));
    await waitUntil(() => posts() >= 60, 30_000);
    child.kill('SIGKILL');
    await exited;
    const first = posts();
    expect(first).toBeLessThan(300);
    // At once: the rows the killed run recorded may still be in flight: left unknown (exit 4), the others sent.
    const again = await runPaycli(args, { env, timeoutMs: 60_000 });
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('run the same command again after');
    // Once their deadline has passed, the same command settles them by lookup and sends what never arrived.
    const latest = Math.max(
      ...(JSON.parse((await runPaycli(['history', '--json', '--limit', '1000'], { env })).stdout) as Array<{ deadlineMs?: number }>).map((e) => e.deadlineMs ?? 0),
    );
    while (Date.now() <= latest + 50) await new Promise((r) => setTimeout(r, 100));
    const done = await runPaycli(args, { env, timeoutMs: 60_000 });
    expect(done.code, done.stderr).toBe(0);
    expect(posts()).toBe(300);
    const lines = results(`${file}.results-3.csv`).slice(1);
    expect(lines).toHaveLength(300);
    const already = lines.filter((l) => l.includes(',already_ok,')).length;
    expect(already).toBeGreaterThanOrEqual(first - 4); // those whose answer came back before the kill, and the ones found by lookup
    expect(lines.filter((l) => l.includes(',ok,')).length + already).toBe(300);
    // a fourth run sends nothing
    const fourth = await runPaycli(args, { env, timeoutMs: 60_000 });
    expect(fourth.code).toBe(0);
    expect(fourth.stderr).toMatch(/300 +already paid/);
    expect(posts()).toBe(300);
  }, 120_000);
});

describe('progress on a terminal', () => {
  let tty: TtySession | undefined;
  afterEach(() => {
    tty?.kill();
    tty = undefined;
  });

  it('a live bar with done/total and the counters while running (tmux), then the summary', async () => {
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      setTimeout(() => json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId }), 300);
    });
    const file = writeCsv('slow.csv', [HEADER, ...Array.from({ length: 10 }, (_, i) => payoutRow(i + 1))]);
    tty = startTty(['cashout', '--batch', file, '--yes', '--concurrency', '1'], env(), home.dir);
    // while running: some rows done, not all; ok counts them, nothing refused or unknown, reais sent so far
    const running = await tty.waitFor(/\b[3-8]\/10 \| ok [3-8] · refused 0 · unknown 0 \| R\$ [0-9.,]+ \|/, 15_000);
    const m = /\b([3-8])\/10 \| ok ([3-8]) · refused 0 · unknown 0 \| (R\$ [0-9.,]+) \| ([0-9.]+)\/s \| .* left/.exec(running)!;
    expect(m, running).not.toBeNull();
    expect(m[2]).toBe(m[1]); // every finished row is ok
    const done = Number(m[1]);
    const cents = 1000 * done + (done * (done + 1)) / 2; // rows 1..done, in order at concurrency 1
    expect(m[3]).toBe(`R$ ${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`);
    expect(running).not.toContain('Batch summary');
    expect(cashouts().length).toBeLessThan(10);

    expect(await tty.exitCode(20_000)).toBe(0);
    const end = tty.screen();
    expect(end).toMatch(/10\/10 \| ok 10 · refused 0 · unknown 0 \| R\$ 100,55 \|/);
    expect(end).toMatch(/Batch summary\n +10 +cash-outs created +R\$ 100,55/);
    expect(end).toContain(`Results: ${file}.results.csv`);
    expect(cashouts()).toHaveLength(10);
  });
});
