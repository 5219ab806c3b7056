/**
 * Batch runs on the team ledger (src/ledger/pg/, docs/batch-runs.md and docs/ledger-and-safety.md "Team ledger"):
 * two HOMEs stand for two machines, one private PostgreSQL cluster, one test gateway. The same file
 * started from both at once, a sending machine killed mid-file and resumed from the other, the
 * database stopped mid-file, and `cashin --batch --watch` keeping each row's final state in the ledger.
 * Waits on events (requests the gateway holds), never on the clock.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runPaycli, spawnPaycli, type Home } from '../helpers/cli.js';
import { json, lookupGateway, startGateway, type LookupGateway, type TestGateway } from '../helpers/gateway.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

const KEY = 'sk_live_TEAMBATCH_0123456789abcdef';
let pg: PgCluster;
let gw: TestGateway;
let l: LookupGateway;
let a: Home;
let b: Home;

beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.destroy();
});
beforeEach(async () => {
  pg.sql('DROP SCHEMA IF EXISTS paycli CASCADE');
  gw = await startGateway();
  l = lookupGateway();
  gw.respond(l.responder);
  a = makeHome();
  b = makeHome();
  const m = await runPaycli(['ledger', 'migrate'], { env: env(a) });
  expect(m.code, m.stderr).toBe(0);
});
afterEach(async () => {
  release();
  await gw.close();
  a.cleanup();
  b.cleanup();
});

const env = (h: Home, extra: Record<string, string> = {}) => ({ ...h.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY, PAYCLI_LEDGER_URL: pg.urlWithPassword, ...extra });
const posts = () => gw.received.filter((r) => r.method === 'POST');
const orderIds = () => new Set(posts().map((r) => (r.json as { orderId: string }).orderId));
/** The same file in both HOMEs' folders (same content: same batch, same derived order references). */
function payoutFile(rows: number): string {
  const lines = ['value,pix-key-type,pix-key,person-name,person-email,person-phone'];
  for (let i = 1; i <= rows; i++) lines.push(`${1000 + i},email,payee${i}@example.com,Payee ${i},payee${i}@example.com,11987654321`);
  const file = join(a.dir, 'payouts.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i > 6000) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A gate in front of the gateway: POSTs wait while it is closed (created only when let through). */
let gate: Promise<void> | undefined;
let openGate: (() => void) | undefined;
const hold = () => {
  gate = new Promise((r) => (openGate = r));
};
const release = () => {
  openGate?.();
  gate = undefined;
};
function gated(): void {
  const inner = l.responder;
  gw.respond(async (req, res) => {
    if (req.method === 'POST' && gate) await gate;
    return inner(req, res);
  });
}

/**
 * Runs the file again from HOME b until it exits 0: rows recorded but never sent can be taken for
 * not sent only once their deadline has passed (docs/ledger-and-safety.md, "In flight"), so it is
 * tried once a second, at most 60 times.
 */
async function untilSettled(first: Awaited<ReturnType<typeof runPaycli>>, args: string[]): Promise<Awaited<ReturnType<typeof runPaycli>>> {
  let last = first;
  for (let i = 0; i < 60 && last.code !== 0; i++) {
    await sleep(1000);
    last = await runPaycli(args, { env: env(b, { PAYCLI_SETTLE_AFTER: '0' }) });
  }
  return last;
}

describe('one batch file, two machines', () => {
  it('the same 500-row file from both HOMEs at once, no order-id column: 500 POSTs, 500 order references; the later exits 2 batch_running naming the other', async () => {
    gated();
    hold();
    const file = payoutFile(500);
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '8', '--json'];
    const first = spawnPaycli(args, { env: env(a) });
    const second = spawnPaycli(args, { env: env(b) });
    // One owns the file and waits on the held gateway; the other must end meanwhile.
    const loser = await Promise.race([first.done.then((r) => ({ r, other: second })), second.done.then((r) => ({ r, other: first }))]);
    expect(loser.r.code, loser.r.stderr).toBe(2);
    expect(loser.r.stderr).toContain('batch_running');
    expect(loser.r.stderr).toMatch(new RegExp(`another run of .*payouts\\.csv at this gateway is still going \\(process ${loser.other.child.pid} on `));
    release();
    const winner = await loser.other.done;
    expect(winner.code, winner.stderr).toBe(0);
    expect(posts()).toHaveLength(500);
    expect(orderIds().size).toBe(500);
  });

  it('the sending machine SIGKILLed mid-file, resumed from the other HOME: every row paid once', async () => {
    gated();
    const file = payoutFile(60);
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '4', '--timeout', '2000', '--json'];
    const first = spawnPaycli(args, { env: env(a) });
    await waitFor(() => posts().length >= 20, '20 rows sent');
    hold(); // the rows now in flight are received but not answered (created when let through)
    await waitFor(() => posts().length >= 24, 'rows in flight');
    first.child.kill('SIGKILL');
    await first.done;
    release(); // the gateway creates what it received, as one behind a queue does
    await waitFor(() => l.held.length === posts().length, 'the gateway to create the rows it received');
    const resumed = await runPaycli(args, { env: env(b, { PAYCLI_SETTLE_AFTER: '0' }) });
    expect([0, 4], resumed.stderr).toContain(resumed.code);
    const created = l.held.map((t) => t.orderId);
    expect(new Set(created).size).toBe(created.length); // 0 duplicates
    // Whatever the resumed run could not settle yet, a later run does; still no duplicate.
    const last = await untilSettled(resumed, args);
    expect(last.code, last.stderr).toBe(0);
    const all = l.held.map((t) => t.orderId);
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all).size).toBe(60);
  });

  it('the database stopped mid-file: nothing sent after the loss, the rows in flight end unknown; after a restart a resume sends each remaining row once', async () => {
    gated();
    const file = payoutFile(60);
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '4', '--timeout', '2000', '--json'];
    const first = spawnPaycli(args, { env: env(a) });
    await waitFor(() => posts().length >= 20, '20 rows sent');
    hold();
    await waitFor(() => posts().length >= 24, 'rows in flight');
    await pg.stop();
    await first.waitForStderr('was lost');
    const sentAtLoss = posts().length;
    release();
    const r1 = await first.done;
    expect(r1.code).not.toBe(0);
    expect(posts()).toHaveLength(sentAtLoss); // nothing sent after the loss
    await pg.start();
    const unknown = Number(pg.sql(`SELECT count(*) FROM paycli.payments WHERE outcome IS NULL OR outcome = 'unknown'`));
    expect(unknown).toBeGreaterThan(0); // the rows in flight
    const last = await untilSettled(await runPaycli(args, { env: env(b, { PAYCLI_SETTLE_AFTER: '0' }) }), args);
    expect(last.code, last.stderr).toBe(0);
    const all = l.held.map((t) => t.orderId);
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all).size).toBe(60);
  });
});

describe('a group of rows recorded in one round trip', () => {
  const rowsCsv = (rows: Array<[number, string]>) =>
    ['value,pix-key-type,pix-key,person-name,person-email,person-phone', ...rows.map(([v, k]) => `${v},email,${k},Payee,${k},11987654321`)].join('\n') + '\n';

  it('each row is checked against what the ledger held before: one identical to a cash-out sent alone is refused (not sent), the rest of its group sent once', async () => {
    const alone = await runPaycli(
      [
        'cashout',
        '--value',
        '1002',
        '--pix-key-type',
        'email',
        '--pix-key',
        'payee2@example.com',
        '--person-name',
        'Payee',
        '--person-email',
        'payee2@example.com',
        '--person-phone',
        '11987654321',
        '--yes',
        '--json',
      ],
      { env: env(b) },
    );
    expect(alone.code, alone.stderr).toBe(0);
    const file = payoutFile(6);
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--json'], { env: env(a) });
    expect(r.code, r.stderr).toBe(6); // a row not sent needs attention
    const results = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { row: number; outcome: string; error?: string })
      .sort((x, y) => x.row - y.row);
    expect(results.map((x) => [x.row, x.outcome])).toEqual([
      [1, 'ok'],
      [2, 'not_sent'],
      [3, 'ok'],
      [4, 'ok'],
      [5, 'ok'],
      [6, 'ok'],
    ]);
    expect(results[1]!.error).toMatch(/identical cash-out/);
    expect(posts()).toHaveLength(6); // the one alone, then rows 1 and 3 to 6
    expect(pg.sql(`SELECT count(*) FROM paycli.payments WHERE batch_id IS NOT NULL`)).toBe('5');
  });

  it('rows of one group that could refuse each other (identical, --allow-duplicate) are checked one after the other: each recorded and sent once, each overriding the one before', async () => {
    const file = join(a.dir, 'same.csv');
    writeFileSync(
      file,
      rowsCsv([
        [1001, 'one@example.com'],
        [1500, 'same@example.com'],
        [1500, 'same@example.com'],
        [1500, 'same@example.com'],
      ]),
    );
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--json', '--allow-duplicate'], { env: env(a) });
    expect(r.code, r.stderr).toBe(0);
    expect(posts()).toHaveLength(4);
    const rows = pg.sql(
      `SELECT batch_row || ':' || coalesce((SELECT o.batch_row::text FROM paycli.payments AS o WHERE o.id = p.overrides), '-') FROM paycli.payments AS p ORDER BY batch_row`,
    );
    expect(rows.split('\n')).toEqual(['1:-', '2:-', '3:2', '4:3']);
  });
});

describe('a row created but wrong, on the team ledger', () => {
  it('stays needs_attention (exit 6) when the other machine runs the file again, until history resolve settles it; sent once', async () => {
    gw.respond((req, res) => {
      if (req.method === 'GET') return json(res, 404, { message: 'Transaction not found' });
      const v = (req.json as { value: number }).value;
      json(res, 200, { transactionId: 9, gross: v, tax: '0', liquid: String(v), status: '2', createdAt: '2026-11-21T12:00:00.000Z' });
    });
    const file = payoutFile(1);
    const args = ['cashout', '--batch', file, '--yes', '--json'];
    const first = await runPaycli(args, { env: env(a) });
    expect(first.code, first.stderr).toBe(6);
    const again = await runPaycli(args, { env: env(b) });
    expect(again.code, again.stderr).toBe(6);
    const row = JSON.parse(again.stdout.trim()) as { outcome: string; error: string };
    expect(row.outcome).toBe('needs_attention');
    expect(row.error).toMatch(/status 2 \(failed\)/);
    const entry = /ledger entry (\d+)/.exec(row.error)![1]!;
    const resolved = await runPaycli(['history', 'resolve', entry, '--outcome', 'ok'], { env: env(b) });
    expect(resolved.code, resolved.stderr).toBe(0);
    const settled = await runPaycli(args, { env: env(a) });
    expect(settled.code, settled.stderr).toBe(0);
    expect((JSON.parse(settled.stdout.trim()) as { outcome: string }).outcome).toBe('already_ok');
    expect(posts()).toHaveLength(1);
  });
});

describe('cashin --batch --watch on the team ledger', () => {
  it("each row's final state goes to its entry: the other machine's history shows one row paid and one failed", async () => {
    const file = join(a.dir, 'charges.csv');
    copyFileSync(resolve(__dirname, '../../examples/charges.csv'), file);
    const lookups = () => gw.received.filter((r) => r.method === 'GET' && r.path.includes('/by/orderId/'));
    const watching = runPaycli(['cashin', '--batch', file, '--yes', '--watch', '--watch-timeout', '5m'], { env: env(a), timeoutMs: 120_000 });
    await waitFor(() => new Set(lookups().map((r) => r.path)).size >= 2, 'a lookup of each row');
    const [paid, failed] = [l.held[0]!, l.held[1]!];
    paid.status = 'paid';
    failed.status = 'failed';
    const out = await watching;
    expect(out.code, out.stderr).toBe(6);
    const history = await runPaycli(['history', '--json'], { env: env(b) });
    expect(history.code, history.stderr).toBe(0);
    const entries = JSON.parse(history.stdout) as { orderId: string; status: string }[];
    expect(entries.find((e) => e.orderId === paid.orderId)?.status).toBe('paid');
    expect(entries.find((e) => e.orderId === failed.orderId)?.status).toBe('failed');
  }, 120_000);
});
