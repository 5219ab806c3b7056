/**
 * The identical-payment check finds the rows of batch files through their files' lists (schema version 9,
 * src/ledger/batch-fingerprints.ts; docs/ledger-and-safety.md "How the ledger lies on disk"): a row listed ahead
 * of its wave or only by the trigger, unknown at any age, `ok` within the window; a single cash-out identical
 * to a batch row refused; `history`'s reuse of a reference; a ledger of version 8 brought up to date; and the
 * batch layer lists the fingerprint the ledger records for each row, cash-out and cash-in. And `history`'s time range
 * finds batch rows through their files (schema version 10: the index of times holds the other payments only).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LedgerKeeper } from '../../src/ledger/keeper.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { BATCH_FINGERPRINTS, BatchFingerprintList, FINGERPRINT_INDEX, RUN_INDEX, TIME_INDEX } from '../../src/ledger/batch-fingerprints.js';
import { paymentFingerprint, endpointIdentity } from '../../src/ledger/rules.js';
import { historyQuery, INSERT, SCHEMA_VERSION } from '../../src/ledger/schema.js';
import { UsageError } from '../../src/core/errors.js';
import { batchLedgerOf } from '../../src/batch/ledger.js';
import { beginInfo } from '../../src/batch/row.js';
import { BATCH_OPERATIONS } from '../../src/batch/outcome.js';
import type { Settings } from '../../src/config/settings.js';
import { olderLedger, openSqlite, samplePayment as payment, useDataDir } from '../helpers/ledger.js';

const TARGET = 'https://gw.example/transaction/cashout';
const BATCH = 'cashout-0123456789abcdef';
const MIN = 60_000;

describe('batch rows in the identical-payment check', () => {
  const tmp = useDataDir('paycli-batchfp-');

  it('a row listed ahead, and one listed only by the trigger, block while unknown at any age and when ok within the window; the fingerprint index holds no batch row', async () => {
    const local = Ledger.open({ create: true, beforeSend: true })!;
    const keeper = new LedgerKeeper(local);
    try {
      const list = new BatchFingerprintList();
      for (const n of [1, 2, 3]) list.add(n, paymentFingerprint(payment(n)));
      await keeper.listBatchRows(BATCH, endpointIdentity(TARGET), list.take());
      const now = Date.now();
      const wave = await keeper.recordMany([1, 2, 3].map((n) => payment(n, { batchId: BATCH, batchRow: n })));
      const [a, b] = wave.map((r) => (r as { id: number }).id);
      // another file's row, never listed ahead
      const [other] = await keeper.recordMany([payment(7, { batchId: 'cashout-fedcba9876543210', batchRow: 1 })]);
      const fp = (n: number) => paymentFingerprint(payment(n));
      const year = 365 * 24 * 60 * MIN;
      expect((await keeper.blockingCashOut(fp(1), 10, now + year))?.id).toBe(a); // no outcome: at any age
      expect((await keeper.blockingCashOut(fp(7), 0, now + year))?.id).toBe((other as { id: number }).id); // window off: unknown still blocks
      await keeper.endMany([
        [a!, 'ok', {}],
        [b!, 'unknown', {}],
      ]);
      expect((await keeper.blockingCashOut(fp(1), 10, now + 5 * MIN))?.id).toBe(a);
      expect(await keeper.blockingCashOut(fp(1), 10, now + 11 * MIN)).toBeUndefined();
      expect(await keeper.blockingCashOut(fp(1), 0, now)).toBeUndefined();
      expect((await keeper.blockingCashOut(fp(2), 0, now + year))?.id).toBe(b);
      expect(await keeper.blockingCashOut(fp(9), 10, now)).toBeUndefined();
      // a single cash-out identical to a batch row is refused; with --allow-duplicate it names the row it overrides
      const [refused] = await keeper.recordMany([payment(1)], { windowMin: 10 });
      expect(refused).toBeInstanceOf(UsageError);
      expect((refused as UsageError).code).toBe('duplicate_cashout');
      const forced = await keeper.begin(payment(2), { windowMin: 10, allowDuplicate: true });
      expect((await keeper.get(forced.id))?.overrides).toBe(b);
    } finally {
      await keeper.close();
    }
    const db = openSqlite(join(tmp.dir, 'data', 'ledger.db'), { mustExist: true });
    try {
      expect(db.prepare('SELECT count(*) FROM batch_fingerprints').value()).toBe(4);
      expect(db.prepare(`SELECT listed FROM batch_files WHERE batch_id = ?`).value(BATCH)).toBe(1);
      expect(db.prepare(`SELECT listed FROM batch_files WHERE batch_id = 'cashout-fedcba9876543210'`).value()).toBe(0);
      // the index lists the payments outside batch files only (here the forced single one)
      const inIndex = db
        .prepare(`SELECT count(*) FROM payments INDEXED BY payments_by_fingerprint8 WHERE (batch_id IS NULL OR batch_row IS NULL) AND substr(fingerprint, 1, 8) IS NOT NULL`)
        .value();
      expect(inIndex).toBe(1);
      expect(db.pragma('integrity_check')).toBe('ok');
    } finally {
      db.close();
    }
  });

  it("a wave's checks look in the files listed once for the wave and in the files of its rows as they are recorded (src/ledger/wave-files.ts)", async () => {
    const local = Ledger.open({ create: true, beforeSend: true })!;
    const keeper = new LedgerKeeper(local);
    const [B2, B3, B4] = ['cashout-1111111111111111', 'cashout-2222222222222222', 'cashout-3333333333333333'];
    const code = (r: unknown) => (r instanceof UsageError ? r.code : 'recorded');
    try {
      // a file never listed ahead: its first row lists it during the wave, and the wave's next identical row is refused
      const first = await keeper.recordMany([payment(1, { batchId: B2, batchRow: 1 }), payment(1, { batchId: B2, batchRow: 2 }), payment(2, { batchId: B2, batchRow: 3 })], {
        windowMin: 10,
      });
      expect(first.map(code)).toEqual(['recorded', 'duplicate_cashout', 'recorded']);
      // another file's wave: the row without an outcome blocks at any window; with the outcomes written in the same wave, ok blocks only in the window
      const [a, , c] = first.map((r) => (r as { id: number }).id);
      expect((await keeper.recordMany([payment(1, { batchId: B3, batchRow: 1 })], { windowMin: 0 })).map(code)).toEqual(['duplicate_cashout']);
      const ended = await keeper.recordMany([payment(1, { batchId: B3, batchRow: 2 }), payment(2, { batchId: B3, batchRow: 3 })], { windowMin: 0 }, [
        [a!, 'ok', {}],
        [c!, 'refused', {}],
      ]);
      expect(ended.map(code)).toEqual(['recorded', 'recorded']);
      // now B3's rows are unknown (no outcome): a third file's identical rows are refused, an ok row of B2 in the window blocks too
      const third = await keeper.recordMany([payment(2, { batchId: B4, batchRow: 1 }), payment(3, { batchId: B4, batchRow: 2 })], { windowMin: 10 });
      expect(third.map(code)).toEqual(['duplicate_cashout', 'recorded']);
      await keeper.endMany(ended.map((r) => [(r as { id: number }).id, 'refused', {}] as const));
      expect((await keeper.recordMany([payment(1, { batchId: B4, batchRow: 3 })], { windowMin: 10 })).map(code)).toEqual(['duplicate_cashout']);
      expect((await keeper.recordMany([payment(1, { batchId: B4, batchRow: 4 })], { windowMin: 0 })).map(code)).toEqual(['recorded']);
    } finally {
      await keeper.close();
    }
  });

  it('the reference of a batch row settled not sent by the gateway is reused by an identical single payment, as before', async () => {
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    try {
      const now = Date.now();
      const [row] = await keeper.recordMany([{ ...payment(4, { batchId: BATCH, batchRow: 4 }), orderId: 'paycli-ABCDEFGHJKMNPQRS-000000004' }]);
      const id = (row as { id: number }).id;
      await keeper.endMany([[id, 'unknown', {}]]);
      local.settle({ id, outcome: 'not_sent', now: new Date().toISOString(), by: 'gateway', note: null, transactionId: null, status: null, message: null });
      expect(await keeper.reusableOrderId(paymentFingerprint(payment(4)), now - MIN)).toBe('paycli-ABCDEFGHJKMNPQRS-000000004');
      expect(await keeper.reusableOrderId(paymentFingerprint(payment(4)), now + MIN)).toBeUndefined();
    } finally {
      await keeper.close();
    }
  });

  it('a run named only by batch rows is kept by the pruning of runs; a row moved into a file by an update is listed there and still blocks', async () => {
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    const db = openSqlite(local.file, { mustExist: true });
    try {
      const [row] = await keeper.recordMany([payment(5, { batchId: BATCH, batchRow: 5 })]);
      const runId = (await keeper.get((row as { id: number }).id))!.runId!;
      db.prepare(`UPDATE runs SET started_ms = 0, ended_ms = 0, batch_id = NULL WHERE id = ?`).run(runId);
      db.prepare(`INSERT INTO runs (id, pid, host, started_ms, ended_ms) VALUES ('unused-run', 1, 'h', 0, 0)`).run();
      expect(local.pruneRuns(Date.now())).toBe(1);
      expect(db.prepare('SELECT id FROM runs ORDER BY id').all()).toEqual([{ id: runId }]);
      const single = await keeper.begin(payment(6));
      await keeper.end(single.id, 'ok');
      db.prepare(`UPDATE payments SET batch_id = 'cashout-00000000000000aa', batch_row = 9 WHERE id = ?`).run(single.id);
      expect((await keeper.blockingCashOut(paymentFingerprint(payment(6)), 10, Date.now()))?.id).toBe(single.id);
      expect(
        db.prepare(`SELECT count(*) FROM batch_fingerprints AS x JOIN batch_files AS f ON f.id = x.file WHERE f.batch_id = 'cashout-00000000000000aa' AND x.row = 9`).value(),
      ).toBe(1);
    } finally {
      db.close();
      await keeper.close();
    }
  });

  it('a ledger of schema version 8 with batch rows is brought up to date: its rows listed, still blocking, the index holding the others only', async () => {
    const { old, file } = olderLedger(tmp.dir, 8, [
      [FINGERPRINT_INDEX, 'CREATE INDEX payments_by_fingerprint8 ON payments (substr(fingerprint, 1, 8));'],
      [RUN_INDEX, 'CREATE INDEX payments_by_run8 ON payments (substr(run_id, 1, 8));'],
      [BATCH_FINGERPRINTS, ''],
    ]);
    expect(old.prepare(`SELECT count(*) FROM sqlite_schema WHERE name IN ('batch_files', 'batch_fingerprints')`).value()).toBe(0);
    const now = Date.now();
    const row = (n: number, batchRow: number | null) => ({
      uuid: `old-${n}`,
      time: new Date(now).toISOString(),
      kind: 'cashout',
      fingerprint: Buffer.from(paymentFingerprint(payment(n)), 'hex'),
      value: 100 + n,
      target: TARGET,
      endpoint: endpointIdentity(TARGET),
      sandbox: 0,
      profile: 'default',
      pix_key_type: 2,
      pix_key: `payee${n}@example.com`,
      recipient: null,
      payer: null,
      product: null,
      order_id: null,
      batch_id: batchRow === null ? null : BATCH,
      batch_row: batchRow,
      allow_duplicate: 0,
      overrides: null,
      pid: 1,
      source: null,
      time_ms: now,
      deadline_ms: now + 1000,
      run_id: batchRow === null ? null : 'run-of-the-file',
    });
    old.prepare(INSERT).run(row(1, 1));
    old.prepare(INSERT).run(row(2, 2));
    old.prepare(INSERT).run(row(3, null));
    old.close();
    const keeper = new LedgerKeeper(Ledger.open({ create: true })!);
    try {
      expect((await keeper.blockingCashOut(paymentFingerprint(payment(1)), 10, now + 365 * 24 * 60 * MIN))?.uuid).toBe('old-1');
      expect((await keeper.blockingCashOut(paymentFingerprint(payment(2)), 0, now))?.uuid).toBe('old-2');
      expect((await keeper.blockingCashOut(paymentFingerprint(payment(3)), 0, now))?.uuid).toBe('old-3');
    } finally {
      await keeper.close();
    }
    const db = openSqlite(file, { mustExist: true });
    try {
      expect(db.pragma('user_version')).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT count(*) FROM batch_fingerprints').value()).toBe(2);
      expect(db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'payments_by_fingerprint8'`).value()).toMatch(/WHERE \(batch_id IS NULL OR batch_row IS NULL\)/);
      expect(db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'payments_by_run8'`).value()).toMatch(/WHERE \(batch_id IS NULL OR batch_row IS NULL\)/);
      expect(db.prepare('SELECT run_id FROM batch_runs').all()).toEqual([{ run_id: 'run-of-the-file' }]);
      expect(db.pragma('integrity_check')).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('the batch layer lists, before the first wave, the fingerprint the ledger records for each row (cash-out and cash-in)', async () => {
    const settings = { profile: 'default', timeoutMs: 1000 } as Settings;
    for (const kind of ['cashout', 'cashin'] as const) {
      const op = BATCH_OPERATIONS[kind];
      const target = `https://gw.example/transaction/${kind}`;
      const batchId = `${kind}-0123456789abcdef`;
      const keeper = new LedgerKeeper(Ledger.open({ create: true })!);
      try {
        const batch = batchLedgerOf(keeper, target);
        const rows = [1, 2, 3].map((n) => ({
          line: n + 1,
          row: n,
          orderId: `order-${kind}-${n}`,
          ownOrderId: true,
          body:
            kind === 'cashout'
              ? { value: 100 + n, pixKeyType: 2, pixKey: `payee${n}@example.com`, person: { name: `Payee ${n}` } }
              : { value: 100 + n, payerName: `Payer ${n}`, payerDocument: '12345678909', productName: 'Product' },
        }));
        for (const r of rows) batch.noteRow!(kind, r.row, r.body);
        const out = await batch.recordMany(
          rows.map((r) => beginInfo(op as never, r as never, target, false, settings, batchId)),
          { windowMin: 10, allowDuplicate: false },
        );
        expect(out.every((r) => !(r instanceof Error))).toBe(true);
      } finally {
        await keeper.close();
      }
      const db = openSqlite(join(tmp.dir, 'data', 'ledger.db'), { mustExist: true });
      try {
        const pairs = db
          .prepare(
            `SELECT hex(x.fp8) AS listed, hex(substr(p.fingerprint, 1, 8)) AS recorded, f.listed AS ahead FROM payments AS p JOIN batch_files AS f ON f.batch_id = p.batch_id AND f.endpoint = p.endpoint JOIN batch_fingerprints AS x ON x.file = f.id AND x.row = p.batch_row WHERE p.batch_id = ?`,
          )
          .all(batchId) as Array<{ listed: string; recorded: string; ahead: number }>;
        expect(pairs).toHaveLength(3);
        for (const p of pairs) expect([p.listed, p.ahead]).toEqual([p.recorded, 1]);
      } finally {
        db.close();
      }
    }
  });

  it("history's time range finds batch rows (listed ahead, by the trigger, moved in time) and the others, through the index of times and the files; the index holds no batch row", async () => {
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    const db = openSqlite(local.file, { mustExist: true });
    try {
      const list = new BatchFingerprintList();
      for (const n of [1, 2]) list.add(n, paymentFingerprint(payment(n)));
      await keeper.listBatchRows(BATCH, endpointIdentity(TARGET), list.take());
      const before = Date.now();
      const wave = (await keeper.recordMany([1, 2].map((n) => payment(n, { batchId: BATCH, batchRow: n })))) as Array<{ id: number }>;
      const [other] = (await keeper.recordMany([payment(3, { batchId: 'cashout-fedcba9876543210', batchRow: 1 })])) as Array<{ id: number }>;
      const single = await keeper.begin(payment(4));
      const after = Date.now() + 1;
      const ids = async (since: number, until: number) =>
        (await keeper.query({ since: new Date(since).toISOString(), until: new Date(until).toISOString(), limit: 100 })).map((e) => e.id);
      expect(await ids(before, after)).toEqual([single.id, other!.id, wave[1]!.id, wave[0]!.id]);
      expect(await ids(after, after + MIN)).toEqual([]);
      expect(await ids(before - MIN, before)).toEqual([]);
      // a row whose time moves two hours on (its file's latest time follows it), and one that moves back a day
      db.prepare('UPDATE payments SET time_ms = ? WHERE id = ?').run(before + 120 * MIN, wave[0]!.id);
      db.prepare('UPDATE payments SET time_ms = ? WHERE id = ?').run(before - 24 * 60 * MIN, other!.id);
      expect(await ids(before + 119 * MIN, before + 121 * MIN)).toEqual([wave[0]!.id]);
      expect(await ids(before - 24 * 60 * MIN - 1, before - 24 * 60 * MIN + 1)).toEqual([other!.id]);
      expect(await ids(before, after)).toEqual([single.id, wave[1]!.id]);
      // only the single payment is in the index of times; the query reads it and the files' rows by their indexes
      expect(db.prepare('SELECT count(*) FROM payments INDEXED BY payments_by_time_ms WHERE (batch_id IS NULL OR batch_row IS NULL) AND time_ms > 0').value()).toBe(1);
      const [sql, params] = historyQuery({ since: new Date(before).toISOString(), until: new Date(after).toISOString(), limit: 20 });
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
      expect(plan).toMatch(/USING INDEX payments_by_time_ms/);
      expect(plan).toMatch(/USING INDEX payments_by_batch/);
    } finally {
      db.close();
      await keeper.close();
    }
  });

  it("a ledger of schema version 9 is brought up to date: the index of times holds the payments outside batch files, and history's range still finds every row", async () => {
    const { old, file } = olderLedger(tmp.dir, 9, [[TIME_INDEX, 'CREATE INDEX payments_by_time_ms ON payments (time_ms);']]);
    expect(old.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'payments_by_time_ms'`).value()).not.toMatch(/WHERE/);
    old.close();
    const keeper = new LedgerKeeper(Ledger.open({ create: true })!);
    const now = Date.now();
    try {
      await keeper.recordMany([payment(1, { batchId: BATCH, batchRow: 1 }), payment(2)]);
      const found = await keeper.query({ since: new Date(now - MIN).toISOString(), until: new Date(now + MIN).toISOString(), limit: 10 });
      expect(found.map((e) => e.batchRow ?? null).sort()).toEqual([1, null]);
    } finally {
      await keeper.close();
    }
    const db = openSqlite(file, { mustExist: true });
    try {
      expect(db.pragma('user_version')).toBe(SCHEMA_VERSION);
      expect(db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'payments_by_time_ms'`).value()).toMatch(/WHERE \(batch_id IS NULL OR batch_row IS NULL\)/);
      expect(db.pragma('integrity_check')).toBe('ok');
    } finally {
      db.close();
    }
  });
});
