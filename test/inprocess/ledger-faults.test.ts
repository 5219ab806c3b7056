/**
 * The payment ledger on a disk that fills up, under a frozen neighbour, or tampered with while paycli runs, in process:
 * paycli run through its run context (test/helpers/run.ts) against a recording test gateway on 127.0.0.1, its data folder a small tmpfs in
 * a private mount namespace (`unshare -rm`, scripts/test-deps.txt). Every test counts the requests
 * that reached the gateway: nothing is sent that the ledger cannot record, nothing is sent twice,
 * and no message says "nothing was sent" after something was.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, childEnv, PAYCLI } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { cashOutAnswer, json, useGatewayFixture } from '../helpers/gateway.js';
import { ledgerFile, ledgerRows, openSqlite } from '../helpers/ledger.js';

const t = useGatewayFixture('sk_test_ledger_disk');
const sent = () => t.gw.received.filter((q) => q.method === 'POST');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitForFile(path: string): Promise<void> {
  while (!existsSync(path)) await sleep(20);
}

/**
 * Runs a shell script in a private mount namespace with the data folder (`$D`) a tmpfs of `size`,
 * `$P` the paycli command (node + launcher) and `$F` a folder outside the namespace for flags.
 * @returns the exit code of the script, its stdout (what the script echoes) and stderr (paycli's)
 */
function inSmallDisk(size: string, script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const data = join(t.home.dir, 'small-data');
  const flags = join(t.home.dir, 'flags');
  mkdirSync(data, { recursive: true });
  mkdirSync(flags, { recursive: true });
  const full = `set -u\nD="$PAYCLI_DATA_DIR"\nF="${flags}"\nP() { "${process.execPath}" "${PAYCLI}" "$@"; }\nmount -t tmpfs -o size=${size},mode=0700 none "$D" || exit 99\n${script}`;
  return new Promise((resolve) => {
    const child = spawn('unshare', ['-rm', 'sh', '-c', full], { env: childEnv({ ...env, PAYCLI_DATA_DIR: data }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Fills the data folder's tmpfs (inside the namespace) to the last block. */
const FILL = 'dd if=/dev/zero of="$D/filler" bs=4096 2>/dev/null; sync';

describe('a disk that fills up after the request left', () => {
  it('a cash-out that was paid says it was sent and its outcome is not recorded, never "nothing was sent"; the entry blocks an identical one', async () => {
    const flags = join(t.home.dir, 'flags');
    t.gw.respond(async (req, res) => {
      // The request has left paycli: the disk fills up before the answer comes back.
      writeFileSync(join(flags, 'fill'), '');
      await waitForFile(join(flags, 'filled'));
      json(res, 200, cashOutAnswer((req.json as { value: number }).value));
    });
    const script = [
      'P ' + [...CASHOUT_ARGS, '--yes'].map((a) => `'${a}'`).join(' ') + ' > "$F/out1" 2> "$F/err1" &',
      'pid=$!',
      'while [ ! -e "$F/fill" ]; do sleep 0.02; done',
      FILL,
      'touch "$F/filled"',
      'wait $pid; echo "first $?"',
      'rm -f "$D/filler"',
      'P ' + [...CASHOUT_ARGS, '--yes'].map((a) => `'${a}'`).join(' ') + '; echo "second $?"',
    ].join('\n');
    const r = await inSmallDisk('1m', script, t.env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('first 0'); // created: exit 0, the result on stdout
    const first = readFileSync(join(flags, 'err1'), 'utf8');
    // Recorded (the log's space is reused) or not: either way never "nothing was sent" after the send.
    expect(first).not.toContain('nothing was sent');
    if (first.includes('could not be recorded'))
      expect(first).toMatch(
        /warning: cash-out entry 1 was sent and created, but that outcome could not be recorded in the ledger \(the payment ledger .*\): the entry stays with an unknown outcome, which blocks an identical cash-out/,
      );
    // The entry recorded before sending blocks an identical cash-out: refused, not sent again.
    expect(r.stdout).toContain('second 2');
    expect(r.stderr).toMatch(/an identical cash-out (was already sent|may already have been paid)/);
    expect(sent()).toHaveLength(1);
  }, 30_000);
});

describe('a ledger created on a nearly full disk', () => {
  const cashout = 'P ' + [...CASHOUT_ARGS, '--yes'].map((a) => `'${a}'`).join(' ');
  for (const size of ['96k', '104k', '112k']) {
    it(`on ${size}: the first cash-out sends nothing; once the disk grows the ledger works (never damaged), one request in total`, async () => {
      const script = [`${cashout}; echo "first $?"`, 'mount -o remount,size=8m "$D" || exit 98', `${cashout}; echo "second $?"`, `${cashout}; echo "third $?"`].join('\n');
      const r = await inSmallDisk(size, script, t.env());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/SQLITE_CORRUPT|damaged|not a paycli ledger/);
      const first = /first (\d+)/.exec(r.stdout)![1];
      // On the smallest disks nothing can be recorded, so nothing is sent; a larger one may take it whole.
      if (first === '2') expect(r.stderr).toMatch(/the disk is full \(SQLITE_FULL\); nothing was sent/);
      else expect(first).toBe('0');
      expect(r.stdout).toContain(first === '2' ? 'second 0' : 'second 2');
      expect(r.stdout).toContain('third 2'); // the identical one is refused: the ledger kept the payment
      expect(sent()).toHaveLength(1);
    }, 30_000);
  }

  /** A ledger with no entry: made by a cash-out that stops before sending (the lookup of its order reference fails). */
  async function emptyLedger(): Promise<string> {
    t.gw.respond((req, res) => (req.method === 'GET' ? json(res, 503, { message: 'try later' }) : json(res, 200, cashOutAnswer((req.json as { value: number }).value))));
    const r = await runPaycli([...CASHOUT_ARGS, '--order-id', 'invoice-1', '--yes'], { env: t.env() });
    expect(r.code, r.stderr).toBe(5);
    expect(sent()).toHaveLength(0);
    const file = ledgerFile(t.home.env.PAYCLI_DATA_DIR!);
    expect(ledgerRows(t.home.env.PAYCLI_DATA_DIR!)).toHaveLength(0);
    checkpoint(file);
    t.gw.respond((req, res) =>
      json(res, req.method === 'GET' ? 404 : 200, req.method === 'GET' ? { message: 'Transaction not found' } : cashOutAnswer((req.json as { value: number }).value)),
    );
    return file;
  }
  /** Writes the ledger's write-ahead log into the file and removes it (closing the last connection does). */
  function checkpoint(file: string): void {
    const db = openSqlite(file);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  }
  /**
   * Cuts the ledger after its payments table's root page, as an older paycli's creation on a full disk left it
   * (with SQLite's 4 KiB pages then: its schema on the first page, which the 1 KiB pages of a new ledger no longer hold).
   */
  function cutAfterPayments(file: string): void {
    const db = openSqlite(file);
    // The schema of such an older paycli: no kept results lines (schema 7), whose triggers would take the schema past the first page,
    // nor lists of batch rows (schema 9).
    for (const { name } of db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`).all() as { name: string }[]) db.exec(`DROP TRIGGER ${name}`);
    db.exec('DROP TABLE batch_texts; DROP TABLE batch_fingerprints; DROP TABLE batch_files; DROP TABLE batch_runs');
    db.pragma('journal_mode = DELETE');
    db.pragma('page_size = 4096');
    db.exec('VACUUM');
    db.close();
    const head = readFileSync(file);
    const pageSize = head.readUInt16BE(16);
    expect(head.readUInt32BE(28)).toBeGreaterThan(5);
    truncateSync(file, 5 * pageSize);
  }

  it('a half-created ledger that holds no entry (cut short after its payments table) is made again, the old file kept; the cash-out is sent once', async () => {
    const file = await emptyLedger();
    cutAfterPayments(file);
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/was left half-created .* and held no entry: made again from nothing; the old file is kept as .*ledger\.db\.half-created-/);
    expect(readdirSync(t.home.env.PAYCLI_DATA_DIR!).filter((f) => f.startsWith('ledger.db.half-created-'))).toHaveLength(1);
    expect(sent()).toHaveLength(1);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(2);
    expect(sent()).toHaveLength(1);
  });

  it('a ledger cut short that holds an entry is never discarded: exit 2, nothing sent, the file left as it is', async () => {
    const file = await emptyLedger();
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    expect(sent()).toHaveLength(1);
    checkpoint(file);
    cutAfterPayments(file);
    const size = readFileSync(file).length;
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/damaged or truncated \(SQLITE_CORRUPT.*nothing was sent/);
    expect(r.stderr).not.toContain('half-created');
    expect(readFileSync(file).length).toBe(size);
    expect(sent()).toHaveLength(1);
  });
});

describe('the write-ahead log deleted while paycli runs', () => {
  /** Starts a cash-out in the background; resolves with its exit code and stderr. */
  function background(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [PAYCLI, ...args], { env: childEnv(t.env()), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  }
  const removeWal = () => {
    const file = ledgerFile(t.home.env.PAYCLI_DATA_DIR!);
    expect(existsSync(`${file}-wal`)).toBe(true);
    rmSync(`${file}-wal`);
    rmSync(`${file}-shm`, { force: true });
  };

  it('during a send: the payment is in the ledger file already, so an identical cash-out is refused; the sender says its outcome is not recorded; one request in total', async () => {
    let release: (() => void) | undefined;
    t.gw.respond((req, res) => {
      if (req.method === 'GET') return json(res, 404, { message: 'Transaction not found' }); // a lookup by order reference
      release = () => json(res, 200, cashOutAnswer((req.json as { value: number }).value));
    });
    const a = background([...CASHOUT_ARGS, '--yes']);
    while (!release) await sleep(20);
    removeWal(); // a cleaner deletes ledger.db-wal and ledger.db-shm while the request is in flight
    const b = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(b.code, b.stderr).toBe(2);
    expect(b.stderr).toMatch(/an identical cash-out may already have been paid.*its outcome is unknown/s);
    release();
    const done = await a;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(
      /cash-out entry 1 was sent and created, but that outcome could not be recorded in the ledger \(the payment ledger .* lost its write-ahead log while paycli ran \(.*ledger\.db-wal was (deleted|replaced) by another program\)/,
    );
    expect(done.stderr).not.toContain('nothing was sent');
    const c = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(c.code).toBe(2);
    expect(sent()).toHaveLength(1);
  });

  it('during a batch run (its waves not copied into ledger.db one by one): the run notices before its next wave and stops; no row after it is sent', async () => {
    const held: Array<() => void> = [];
    t.gw.respond((req, res) => {
      if (req.method === 'GET') return json(res, 404, { message: 'Transaction not found' });
      held.push(() => json(res, 200, cashOutAnswer((req.json as { value: number }).value)));
    });
    const rows = Array.from({ length: 12 }, (_, i) => `${1000 + i},email,fornecedor${i}@example.com,Fornecedor ${i},fornecedor${i}@example.com,11987654321`);
    const file = join(t.home.dir, 'wal-batch.csv');
    writeFileSync(file, `value,pix-key-type,pix-key,person-name,person-email,person-phone\n${rows.join('\n')}\n`);
    const run = runPaycli(['cashout', '--batch', file, '--yes', '--concurrency', '2'], { env: t.env() });
    while (held.length < 2) await sleep(20); // the first wave is in flight
    removeWal();
    let ended = false;
    void run.finally(() => (ended = true));
    while (!ended) {
      for (const answer of held.splice(0)) answer(); // every request answered as it comes
      await sleep(20);
    }
    const r = await run;
    // The wave in flight and the one recorded before the log went (unless a 10 s stall had its start wait on a write); none after.
    const n = sent().length;
    expect([2, 4]).toContain(n);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(new RegExp(`lost its write-ahead log while paycli ran .* ${n} created, ${12 - n} not started`, 's'));
    // The connection still held the deleted log: closing it copied the rows into ledger.db (their outcomes were lost),
    // so the same command sends only the rows never started and leaves those unknown (not sent again).
    const recorded = Array.from({ length: n }, (_, i) => i + 1);
    expect(ledgerRows(t.home.env.PAYCLI_DATA_DIR!).map((e) => [e.batch_row, e.outcome])).toEqual(recorded.map((row) => [row, null]));
    t.gw.respond((req, res) =>
      req.method === 'GET' ? json(res, 404, { message: 'Transaction not found' }) : json(res, 200, cashOutAnswer((req.json as { value: number }).value)),
    );
    const again = await runPaycli(['cashout', '--batch', file, '--yes', '--concurrency', '2'], { env: t.env() });
    expect(again.stderr).toContain(`unknown: rows 1-${n}`);
    expect(sent().map((q) => (q.json as { value: number }).value)).toEqual(Array.from({ length: 12 }, (_, i) => 1000 + i)); // each row once
  });

  it('before the payment is recorded: paycli notices its log went away and stops, nothing sent; the next run sends it once', async () => {
    let release: (() => void) | undefined;
    t.gw.respond((req, res) => {
      if (req.method === 'GET') release = () => json(res, 404, { message: 'Transaction not found' });
      else json(res, 200, cashOutAnswer((req.json as { value: number }).value));
    });
    const a = background([...CASHOUT_ARGS, '--order-id', 'invoice-7', '--yes']);
    while (!release) await sleep(20); // the ledger is open; the gateway is being asked about invoice-7
    removeWal();
    release();
    const done = await a;
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(
      /lost its write-ahead log while paycli ran \(.*ledger\.db-wal was deleted by another program\); paycli stops rather than record into a log no other paycli reads; nothing was sent/,
    );
    expect(sent()).toHaveLength(0);
    t.gw.respond((req, res) =>
      req.method === 'GET' ? json(res, 404, { message: 'Transaction not found' }) : json(res, 200, cashOutAnswer((req.json as { value: number }).value)),
    );
    const again = await runPaycli([...CASHOUT_ARGS, '--order-id', 'invoice-7', '--yes'], { env: t.env() });
    expect(again.code, again.stderr).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--order-id', 'invoice-7', '--yes'], { env: t.env() })).code).toBe(2);
    expect(sent()).toHaveLength(1);
  });
});
