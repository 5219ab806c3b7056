/**
 * The batch engine (src/batch/engine.ts) driven in-process: a gateway function in memory, a ledger in
 * memory (the batch's view of the contract, src/batch/ledger.ts `BatchLedger`), a reporter that keeps
 * what it is told, and a fake clock for the progress's rate. Checks that a created-but-wrong answer
 * (status 2, a wrong gross, a cash-in BR Code without an amount) is its own outcome with its reason, on
 * the run and on every later run of the file (exit 6); the limbo bound of a run killed mid-file (at
 * most 2 x concurrency rows recorded without an outcome, and a restart sends every other row at once);
 * and the rate and time left of a resumed run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { settingsFrom } from '../../src/config/settings.js';
import { UsageError } from '../../src/core/errors.js';
import type { EndRecord } from '../../src/ledger/contract.js';
import type { BeginInfo, EndDetails } from '../../src/ledger/schema.js';
import type { Outcome } from '../../src/ledger/rules.js';
import { buildStaticBrCode } from '../../src/pix/brcode.js';
import { SCHEMAS, type Operation } from '../../src/batch/check.js';
import { BatchEngine, type BatchEnd, type SendPlan } from '../../src/batch/engine.js';
import type { BatchLedger, PreviousRow } from '../../src/batch/ledger.js';
import { BATCH_OPERATIONS, exitCodeOf, type BatchKind, type RowResult } from '../../src/batch/outcome.js';
import { RowSpool } from '../../src/batch/spool.js';
import { eta, type BatchCounters } from '../../src/cli/batch/progress.js';

const GATEWAY = 'http://127.0.0.1:9';
const ENV = { PAYCLI_BASE_URL: GATEWAY, PAYCLI_API_KEY: 'sk_test_0123456789abcdef' };

/** One ledger entry of the memory ledger. */
interface Entry {
  id: number;
  orderId: string;
  outcome: Outcome;
  completed: boolean;
  transactionId?: number | string;
  attention?: string[];
}

/** The batch's ledger in memory: rows recorded by `recordMany`, outcomes by `endMany`; `settle` answers as the test says. */
class MemoryBatchLedger implements BatchLedger {
  entries: Entry[] = [];
  /** How settling a row an earlier run left unknown ends (default: still unknown, decidable at 1,000,000). */
  settleAs: (id: number) => Awaited<ReturnType<BatchLedger['settle']>> = () => ({ state: 'unknown', why: 'its run may still send it', decidableAt: 1_000_000 });
  /** A copy: what a process killed now leaves on disk. */
  snapshot(): MemoryBatchLedger {
    const copy = new MemoryBatchLedger();
    copy.entries = this.entries.map((e) => ({ ...e }));
    return copy;
  }
  private apply(ends: readonly EndRecord[]): void {
    for (const [id, outcome, details] of ends) {
      const e = this.entries.find((x) => x.id === id)!;
      Object.assign(e, { outcome, completed: true }, details.transactionId !== undefined ? { transactionId: details.transactionId } : {});
      const attention = (details as EndDetails & { answer?: { attention?: string[] } }).answer?.attention;
      if (attention?.length) e.attention = attention;
    }
  }
  async legacyReferences(): Promise<boolean> {
    return false;
  }
  async previousMany(orderIds: readonly string[]): Promise<Array<PreviousRow | undefined>> {
    return orderIds.map((orderId) => {
      const e = this.entries.filter((x) => x.orderId === orderId).at(-1);
      return (
        e && {
          id: e.id,
          outcome: e.outcome,
          completed: e.completed,
          ...(e.transactionId !== undefined ? { transactionId: e.transactionId } : {}),
          ...(e.attention ? { attention: e.attention } : {}),
        }
      );
    });
  }
  async recordMany(infos: readonly BeginInfo[], _opts: unknown, ends: readonly EndRecord[] = []): Promise<Array<{ id: number } | UsageError>> {
    this.apply(ends);
    return infos.map((info) => {
      const id = this.entries.length + 1;
      this.entries.push({ id, orderId: info.orderId!, outcome: 'unknown', completed: false });
      return { id };
    });
  }
  async endMany(ends: readonly EndRecord[]): Promise<void> {
    this.apply(ends);
  }
  recordBatch = async () => undefined;
  finishedBatch = async () => undefined;
  createdRows = async () => [];
  noteStatus = async () => undefined;
  settle = async (id: string | number) => this.settleAs(Number(id));
  claim = async () => undefined;
  release = async () => undefined;
  extendDeadlines = async () => undefined;
  usable = () => undefined;
  close = async () => undefined;
  /** Entries recorded without an outcome. */
  open(): Entry[] {
    return this.entries.filter((e) => !e.completed);
  }
}

/** What the gateway answers a POST: the default well-formed answer, changed by `answer`; `hold` keeps it from answering. */
interface MemoryGateway {
  posts: Array<{ path: string; body: { value: number; orderId: string } }>;
  answer?: (body: { value: number }, data: Record<string, unknown>) => Record<string, unknown>;
  /** While set, POSTs are received and never answered (a process killed then never learns). */
  hold?: boolean;
}

const spools: RowSpool[] = [];
afterEach(() => {
  for (const s of spools.splice(0)) s.dispose();
});

/** A spool of `n` valid rows of `kind` (cash-outs to distinct e-mail keys, or cash-ins), amounts 1000 + row. */
async function spoolOf(kind: BatchKind, n: number): Promise<RowSpool> {
  const spool = new RowSpool();
  spools.push(spool);
  for (let row = 1; row <= n; row++) {
    const value = 1000 + row;
    const body =
      kind === 'cashout'
        ? { value, pixKeyType: 2, pixKey: `row${row}@example.com`, person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' } }
        : { value, payerName: 'Fulano de Tal', payerDocument: '52998224725', productName: 'Pedido' };
    await spool.add({ line: row + 1, row, body, orderId: `paycli-b1-${row}`, ownOrderId: false });
  }
  await spool.finish();
  return spool;
}

/** Runs the engine once over `rows` rows; the reporter keeps every row result and whether it was skipped. */
async function runOnce(kind: BatchKind, rows: number, ledger: MemoryBatchLedger, gw: MemoryGateway, concurrency = 4) {
  const op: Operation = { ...BATCH_OPERATIONS[kind], ...SCHEMAS[kind] };
  const settings = settingsFrom({ flags: {}, env: ENV, config: {}, op: kind });
  const results: Array<RowResult & { skipped: boolean }> = [];
  const plan: SendPlan = {
    ...{ op, spool: await spoolOf(kind, rows), batchId: 'b1', settings, target: `${GATEWAY}${op.path}`, ledger, concurrency },
    ...{ retryRefused: false, allowDuplicate: false, lookup: () => settingsFrom({ flags: {}, env: ENV, config: {}, op: 'lookup', about: kind }), tick: () => undefined },
    send: async (_s, path, body) => {
      const b = body as { value: number; orderId: string };
      gw.posts.push({ path, body: b });
      if (gw.hold) return new Promise(() => undefined);
      const id = gw.posts.length;
      const data: Record<string, unknown> =
        kind === 'cashout'
          ? { transactionId: id, gross: b.value, tax: '65', liquid: String(b.value - 65), status: '0', createdAt: '2026-11-21T12:00:00.000Z' }
          : {
              transactionId: id,
              externalId: 'e',
              qrCode: buildStaticBrCode({ key: 'fulano@example.com', merchantName: 'Fulano', merchantCity: 'BRASILIA', amountCents: b.value }),
              qrCodeBase64: 'iVBORw0KGgo=',
            };
      const answered = gw.answer ? gw.answer(b, data) : data;
      return { status: 200, data: answered, raw: answered, sandbox: false };
    },
  };
  const engine = new BatchEngine(plan, {
    row: (r, skipped) => void results.push({ ...r, skipped }),
    durable: () => undefined,
    notice: () => undefined,
    warn: () => undefined,
    debug: () => undefined,
  });
  return { engine, results, done: engine.run() as Promise<BatchEnd> };
}

/** Yields to the event loop until `cond` holds (bounded by turns, never by time). */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  expect(cond()).toBe(true);
}

describe('created but wrong: needs attention, on this run and every later one', () => {
  const cases: Array<[string, BatchKind, MemoryGateway['answer'], RegExp]> = [
    ['a cash-out answered status 2 (failed)', 'cashout', (_b, d) => ({ ...d, status: '2' }), /status/i],
    ['a cash-out answered the wrong gross', 'cashout', (b, d) => ({ ...d, gross: b.value + 100, liquid: String(b.value + 35) }), /gross/i],
    [
      'a cash-in answered a BR Code without an amount',
      'cashin',
      (_b, d) => ({ ...d, qrCode: buildStaticBrCode({ key: 'fulano@example.com', merchantName: 'Fulano', merchantCity: 'BRASILIA' }) }),
      /amount/i,
    ],
  ];
  for (const [what, kind, answer, reason] of cases) {
    it(`${what}: the row is needs_attention with its reason, exit 6; a second run sends nothing and says the same`, async () => {
      const ledger = new MemoryBatchLedger();
      const gw: MemoryGateway = { posts: [], answer };
      const first = await runOnce(kind, 3, ledger, gw);
      const end = await first.done;
      expect(first.results.map((r) => r.outcome)).toEqual(['needs_attention', 'needs_attention', 'needs_attention']);
      for (const r of first.results) expect(r.error).toMatch(reason);
      expect(end.tally.needs_attention.rows).toBe(3);
      expect(end.listed.needs_attention.sort()).toEqual([1, 2, 3]);
      expect(exitCodeOf(end.tally, end.unknownExit)).toBe(6);
      expect(ledger.entries.every((e) => e.outcome === 'ok' && e.attention?.length)).toBe(true);
      // the same file again: nothing sent, still needs attention (never already_ok), exit 6
      const second = await runOnce(kind, 3, ledger, gw);
      const end2 = await second.done;
      expect(gw.posts).toHaveLength(3);
      expect(second.results.map((r) => [r.outcome, r.skipped])).toEqual([
        ['needs_attention', true],
        ['needs_attention', true],
        ['needs_attention', true],
      ]);
      for (const r of second.results) expect(r.error).toMatch(reason);
      expect(end2.tally.already_ok.rows).toBe(0);
      expect(exitCodeOf(end2.tally, end2.unknownExit)).toBe(6);
    });
  }
});

describe('a run killed mid-file', () => {
  it('leaves at most 2 x concurrency rows recorded without an outcome; a restart sends every other row at once, once, and says when the rest can be decided', async () => {
    const ledger = new MemoryBatchLedger();
    const gw: MemoryGateway = { posts: [] };
    const first = await runOnce('cashout', 200, ledger, gw, 4);
    await until(() => gw.posts.length >= 64);
    gw.hold = true; // what is in flight from now on never answers
    await until(() => first.engine.inFlight === 4);
    const disk = ledger.snapshot(); // SIGKILL: what the ledger holds now is all a restart knows
    const open = disk.open();
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThanOrEqual(8);
    // restarted at once: the open rows may be in flight (settle rule: still unknown), every other row is sent now
    const gw2: MemoryGateway = { posts: [] };
    const second = await runOnce('cashout', 200, disk, gw2, 4);
    const end = await second.done;
    const waiting = second.results.filter((r) => r.outcome === 'unknown');
    expect(waiting.map((r) => r.orderId).sort()).toEqual(open.map((e) => e.orderId).sort());
    expect(end.decidableAt).toBe(1_000_000);
    expect(exitCodeOf(end.tally, end.unknownExit)).toBe(4);
    const sentFirst = new Set(gw.posts.map((p) => p.body.orderId));
    const sentAgain = gw2.posts.map((p) => p.body.orderId);
    expect(sentAgain.filter((o) => sentFirst.has(o) && !open.some((e) => e.orderId === o))).toEqual([]); // nothing the first run finished is sent again
    expect(new Set(sentAgain).size).toBe(sentAgain.length);
    expect(second.results).toHaveLength(200);
    expect(end.tally.ok.rows + end.tally.already_ok.rows + waiting.length).toBe(200);
  });
});

describe('progress of a resumed run', () => {
  it('counts the rows an earlier run finished as skipped, and leaves them out of the rate and the time left', async () => {
    const ledger = new MemoryBatchLedger();
    const first = await runOnce('cashout', 150, ledger, { posts: [] });
    await first.done;
    const second = await runOnce('cashout', 200, ledger, { posts: [] });
    await second.done;
    const counters: BatchCounters = { total: 200, done: 0, skipped: 0, ok: 0, refused: 0, unknown: 0, sentCents: 0 };
    const startedAt = 1_000_000;
    // halfway through the 50 rows left, 10 s after the start (the fake clock)
    for (const r of second.results.slice(0, 175)) {
      counters.done++;
      if (r.skipped) counters.skipped++;
    }
    expect(counters.skipped).toBe(150);
    const { rate, left } = eta(counters, startedAt, startedAt + 10_000);
    expect(rate).toBeCloseTo(2.5); // 25 rows sent in 10 s, not 175
    expect(left).toBe(10); // 25 rows left at 2.5 a second
  });
});
