/**
 * The payment ledger (src/ledger/ledger.ts) and the duplicate-payout guard, against the built CLI and a
 * test gateway on 127.0.0.1; every test counts the requests that reached the gateway. Covers a
 * lock holder stopped with SIGSTOP, a damaged, read-only, linked, foreign or full ledger, an
 * unknown outcome under a clock moved on and back (faketime), 20 concurrent processes, spellings
 * of one gateway URL and the import of an old journal.jsonl. `paycli history` is in history.test.ts.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/ledger.test.ts.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, childEnv, PAYCLI, runPaycli } from '../helpers/cli.js';
import { CASHOUT_OK, json, useGatewayFixture } from '../helpers/gateway.js';
import { ledgerFile, ledgerRows } from '../helpers/ledger.js';
import { chooseDriver } from '../../src/core/sqlite/connect.js';
import { startSandboxProcess } from '../helpers/sandbox.js';

const KEY = 'sk_live_LEDGER_0123456789abcdef';
/** What paycli loads for its ledger (src/core/sqlite/connect.ts): `node:sqlite`, or better-sqlite3's addon on Node 20. */
const SQLITE_LOAD = /better_sqlite3\.node$|^node:sqlite$/;
const SQLITE_LOAD_LINE = /^loaded (.*better_sqlite3\.node|node:sqlite)$/m;
const DRIVER_LOAD_LINE = chooseDriver() === 'node:sqlite' ? /^loaded node:sqlite$/m : /^loaded .*better_sqlite3\.node$/m;
const STOP_HOOK = join(__dirname, '../helpers/ledger-stop.cjs');
const t = useGatewayFixture(KEY);
const dataDir = () => t.home.env.PAYCLI_DATA_DIR!;
const file = () => ledgerFile(dataDir());
const rows = () => ledgerRows(dataDir());
/** The payments that reached the gateway (a lookup by order reference after an unknown outcome is a GET). */
const sent = () => t.gw.received.filter((q) => q.method === 'POST');
const withValue = (args: string[], cents: number) => args.map((a, i) => (args[i - 1] === '--value' ? String(cents) : a));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
/** The state letter of a process in /proc (T = stopped). */
const procState = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return '';
  }
};

describe('start-up', () => {
  it('the SQLite driver (node:sqlite, or better-sqlite3 on Node 20) is loaded only by the commands that use the ledger, never for --help, --version, --dry-run or a validation error', async () => {
    const hook = ['-r', join(__dirname, '../helpers/report-loads.cjs')];
    const env = t.env({ PAYCLI_TEST_REPORT_LOADS: SQLITE_LOAD.source });
    for (const args of [['--version'], ['--help'], ['cashout', '--help'], ['history', '--help'], ['cashin', '--help'], ['config', 'list']]) {
      const r = await runPaycli(args, { env, nodeArgs: hook });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stderr, args.join(' ')).not.toMatch(SQLITE_LOAD_LINE);
    }
    const dry = await runPaycli([...CASHOUT_ARGS, '--yes', '--dry-run'], { env, nodeArgs: hook });
    const invalid = await runPaycli([...CASHOUT_ARGS.map((a) => (a === 'fulano@example.com' ? 'not-an-email' : a)), '--yes'], { env, nodeArgs: hook });
    expect([dry.code, invalid.code]).toEqual([0, 2]);
    expect(dry.stderr + invalid.stderr).not.toMatch(SQLITE_LOAD_LINE);
    for (const args of [[...CASHOUT_ARGS, '--yes'], CASHIN_ARGS, ['history']]) {
      const r = await runPaycli(args, { env, nodeArgs: hook });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(DRIVER_LOAD_LINE);
    }
  });
});

describe('duplicate-payout guard', () => {
  it('an unknown outcome, then the same cash-out 11 minutes later (faketime): refused; a day earlier: refused; after history resolve --outcome not_sent: sent once', async () => {
    t.gw.respond(() => undefined);
    expect((await runPaycli(['--timeout', '300', ...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(4);
    t.gw.respond((_req, res) => json(res, 200, CASHOUT_OK));
    const at = (offset: string) => ['faketime', '-f', offset];
    for (const offset of ['+11m', '+30d', '-1d']) {
      const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env(), wrapper: at(offset) });
      expect(r.code, `${offset}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/may already have been paid: .*entry 1; its outcome is unknown/);
    }
    // the fake clock really moved: an entry recorded under it carries its time
    const probe = await runPaycli(['--json', '--base-url', 'sandbox', ...withValue(CASHOUT_ARGS, 7), '--yes'], { env: t.env(), wrapper: at('+11m') });
    expect(probe.code).toBe(0);
    expect(Date.parse(rows().pop()!.time as string) - Date.now()).toBeGreaterThan(10 * 60_000);
    expect(sent()).toHaveLength(1);

    const resolved = await runPaycli(['history', 'resolve', '1', '--outcome', 'not_sent', '--note', 'not in the gateway statement'], { env: t.env() });
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toMatch(/^entry 1 \(cash-out R\$ 15,50 to fulano@example\.com at .*\) resolved: not_sent; it no longer blocks an identical cash-out/);
    expect(rows()[0]).toMatchObject({ outcome: 'not_sent', resolved_by: 'hand', note: 'not in the gateway statement' });

    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env(), wrapper: at('+11m') });
    expect(again.code, again.stderr).toBe(0);
    expect(sent()).toHaveLength(2);
    // and that one, ok, blocks the next identical one within the window
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env(), wrapper: at('+12m') })).code).toBe(2);
    expect(sent()).toHaveLength(2);
  }, 60_000);

  it('crash: a cash-out SIGKILLed after sending leaves an entry without outcome, which blocks until resolved', async () => {
    t.gw.respond(() => undefined); // never answers
    const child = spawn(process.execPath, [PAYCLI, ...CASHOUT_ARGS, '--yes'], { env: childEnv(t.env()), stdio: 'ignore' });
    const closed = new Promise<NodeJS.Signals | null>((r) => child.on('close', (_c, s) => r(s)));
    await waitFor(() => t.gw.received.length > 0, 10_000, 'the request');
    child.kill('SIGKILL');
    expect(await closed).toBe('SIGKILL');
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toMatchObject({ kind: 'cashout', value: 1550, outcome: null });

    t.gw.respond((_req, res) => json(res, 200, CASHOUT_OK));
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/may already have been paid: .*its outcome is unknown \(paycli was killed before the answer, or it is still being sent\)/);
    expect(sent()).toHaveLength(1);
    const hist = await runPaycli(['--json', 'history'], { env: t.env() });
    expect(JSON.parse(hist.stdout)).toMatchObject([{ id: 1, kind: 'cashout', outcome: 'unknown', completed: false }]);
    const forced = await runPaycli([...CASHOUT_ARGS, '--yes', '--allow-duplicate'], { env: t.env() });
    expect(forced.code).toBe(0);
    expect(sent()).toHaveLength(2);
  });
});

describe('concurrency', () => {
  it('a holder stopped with SIGSTOP for 15 s inside its transaction keeps the lock: the identical cash-out waits, gives up (ledger_busy, nothing sent); exactly 1 request after SIGCONT', async () => {
    const holder = spawn(process.execPath, ['-r', STOP_HOOK, PAYCLI, ...CASHOUT_ARGS, '--yes'], { env: childEnv(t.env()), stdio: ['ignore', 'pipe', 'pipe'] });
    let holderErr = '';
    holder.stderr!.on('data', (d: Buffer) => (holderErr += d.toString()));
    const holderDone = new Promise<number | null>((r) => holder.on('close', (code) => r(code)));
    try {
      await waitFor(() => procState(holder.pid!) === 'T', 20_000, 'the holder to stop itself inside its transaction');
      const started = Date.now();
      let secondAt = 0;
      const second = runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env(), timeoutMs: 40_000 }).then((r) => {
        secondAt = Date.now() - started;
        return r;
      });
      await sleep(15_000);
      expect(procState(holder.pid!)).toBe('T');
      expect(sent()).toHaveLength(0);
      const r = await second;
      expect(secondAt).toBeGreaterThanOrEqual(9_000); // it waited for the lock, about 10 s
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stderr.trim().split('\n').pop()!)).toMatchObject({ error: { code: 'ledger_busy' } });
      expect(r.stderr).toMatch(/ledger .*ledger\.db is busy: another paycli has held its lock for more than 10 s; nothing was sent/);
    } finally {
      holder.kill('SIGCONT');
    }
    expect(await holderDone, holderErr).toBe(0);
    expect(sent()).toHaveLength(1);
    // and now the identical one is refused as a duplicate
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(2);
    expect(sent()).toHaveLength(1);
    expect(rows()).toHaveLength(1);
  }, 60_000);

  it('20 concurrent identical cash-outs: exactly 1 is sent, 19 refused as duplicates', async () => {
    t.gw.respond((_req, res) => {
      setTimeout(() => json(res, 200, CASHOUT_OK), 300);
    });
    const runs = await Promise.all(Array.from({ length: 20 }, () => runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env(), timeoutMs: 60_000 })));
    expect(runs.map((r) => r.code).sort()).toEqual([0, ...Array(19).fill(2)]);
    expect(runs.filter((r) => r.code === 2).map((r) => (JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code)).toEqual(
      Array(19).fill('duplicate_cashout'),
    );
    expect(sent()).toHaveLength(1);
    expect(rows()).toHaveLength(1);
  }, 90_000);

  it('20 concurrent different cash-outs against the standalone sandbox: 20 sent, none refused as busy, 20 complete entries', async () => {
    const sandbox = await startSandboxProcess([], t.home.env);
    try {
      const runs = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          runPaycli(['--json', '--base-url', sandbox.url, ...withValue(CASHOUT_ARGS, 1000 + i), '--yes'], { env: { ...t.home.env, PAYCLI_API_KEY: KEY }, timeoutMs: 60_000 }),
        ),
      );
      expect(
        runs.map((r) => r.code),
        runs.map((r) => r.stderr).join('\n'),
      ).toEqual(Array(20).fill(0));
      const all = rows();
      expect(all).toHaveLength(20);
      expect(all.every((r) => r.outcome === 'ok')).toBe(true);
      expect(all.map((r) => r.value as number).sort()).toEqual(Array.from({ length: 20 }, (_, i) => 1000 + i));
      expect(new Set(all.map((r) => r.transaction_id)).size).toBe(20);
    } finally {
      await sandbox.stop();
    }
  }, 90_000);
});

describe('fail closed: a ledger that cannot be used sends nothing', () => {
  /** Sends one cash-out so that the ledger exists and holds a payment a damaged ledger could hide. */
  async function _withOnePayment(): Promise<void> {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    expect(sent()).toHaveLength(1);
    expect(existsSync(`${file()}-wal`)).toBe(false); // checkpointed at exit: the file holds it all
  }
  /** The identical cash-out, a different one and a cash-in: all exit 2, journal_unavailable naming the file, nothing sent. */
  async function _expectNothingSent(reason: RegExp): Promise<void> {
    for (const args of [[...CASHOUT_ARGS, '--yes'], [...withValue(CASHOUT_ARGS, 999), '--yes'], CASHIN_ARGS]) {
      const r = await runPaycli(args, { env: t.env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`the payment ledger ${file()}`);
      expect(r.stderr).toMatch(reason);
      expect(r.stderr).toMatch(/nothing was sent/);
      const j = await runPaycli(['--json', ...args], { env: t.env() });
      expect(j.code).toBe(2);
      expect(JSON.parse(j.stderr.trim().split('\n').pop()!)).toMatchObject({ error: { code: 'journal_unavailable' } });
    }
    expect(sent()).toHaveLength(1);
  }

  it('disk full (a full tmpfs as the data folder)', async (ctx) => {
    const mnt = join(t.home.dir, 'small');
    mkdirSync(mnt);
    const mounted = await new Promise<boolean>((r) =>
      spawn('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', mnt], { stdio: 'ignore' })
        .on('close', (c) => r(c === 0))
        .on('error', () => r(false)),
    );
    if (!mounted) ctx.skip(); // needs root (mount); reported as skipped, never as passed
    try {
      const env = { ...t.env(), PAYCLI_DATA_DIR: mnt };
      expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env })).code).toBe(0);
      copyFileSync(ledgerFile(mnt), join(t.home.dir, 'keep.db'));
      // fill the rest of the disk
      const fd = openSync(join(mnt, 'filler'), 'w');
      try {
        for (;;) writeSync(fd, Buffer.alloc(4096, 1));
      } catch {
        /* ENOSPC */
      } finally {
        closeSync(fd);
      }
      for (const cents of [999, 1998, 2997]) {
        const r = await runPaycli([...withValue(CASHOUT_ARGS, cents), '--yes'], { env });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`the payment ledger ${ledgerFile(mnt)} cannot be used: (the disk is full|an I/O error)`));
        expect(r.stderr).toMatch(/nothing was sent/);
      }
      expect(sent()).toHaveLength(1);
    } finally {
      await new Promise((r) => spawn('umount', ['-l', mnt], { stdio: 'ignore' }).on('close', r));
    }
  });
});
