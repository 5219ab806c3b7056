/**
 * Schema version 12 (docs/ledger-and-safety.md "How the ledger lies on disk"): order references indexed by a shorter
 * key (src/ledger/order-key.ts) and a batch row's uuid kept as its 16 bytes (src/ledger/derived.ts). Every look-up by
 * order reference (the `duplicate_order` check, a batch's look-up of its references, `history --order-id`, the reuse of
 * a reference) finds the same entries as before, through the index; two references that share a key are told apart;
 * every reader gets a batch row's uuid back as text; a ledger of version 11 is brought up to date.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { derivedOrderId, legacyDerivedOrderId } from '../../src/batch/order-refs.js';
import { LedgerKeeper } from '../../src/ledger/keeper.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { ORDER_INDEX, orderIs } from '../../src/ledger/order-key.js';
import { INSERT, ORDER_TAKEN, SCHEMA_VERSION, historyQuery } from '../../src/ledger/schema.js';
import { UUID_IS, uuidColumn } from '../../src/ledger/derived.js';
import { olderLedger, openSqlite, samplePayment as payment, useDataDir } from '../helpers/ledger.js';

const BATCH = 'cashout-0123456789abcdef';
const SHA = 'ab'.repeat(32);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** References of every shape: derived, derived of an older paycli, chosen by a person, and two sharing a key (same first three characters of the file part, same row). */
const REFS = [
  derivedOrderId(SHA, 'cashout', 1),
  derivedOrderId(SHA, 'cashout', 2),
  legacyDerivedOrderId(SHA, 'cashout', 3),
  'pedido-42',
  `${derivedOrderId(SHA, 'cashout', 5).slice(0, 10)}ZZZZZZZZZZZZZ-000000005`,
  derivedOrderId(SHA, 'cashout', 5),
  'paycli-0000000000000000-00000000x',
];

describe('order references by key and uuids as bytes (schema 12)', () => {
  const tmp = useDataDir('paycli-order-key-');

  it('every look-up by order reference finds its entries, through the index', async () => {
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    const db = openSqlite(local.file, { mustExist: true });
    try {
      const rows = (await keeper.recordMany(REFS.map((orderId, i) => payment(i, { orderId, batchId: BATCH, batchRow: i + 1 })))) as Array<{ id: number }>;
      const single = await keeper.begin(payment(50, { orderId: 'pedido-43' }));
      const found = await keeper.findManyByOrderId([...REFS, 'pedido-43', derivedOrderId(SHA, 'cashout', 9)]);
      REFS.forEach((ref, i) => expect(found.get(ref)?.map((e) => e.id)).toEqual([rows[i]!.id]));
      expect(found.get('pedido-43')?.map((e) => e.id)).toEqual([single.id]);
      expect(found.has(derivedOrderId(SHA, 'cashout', 9))).toBe(false);
      for (const [i, ref] of REFS.entries()) {
        expect((await keeper.query({ limit: 10, orderId: ref })).map((e) => e.id)).toEqual([rows[i]!.id]);
        // the duplicate_order check: a reference held at its gateway refuses another payment with it
        const [again] = await keeper.recordMany([payment(100 + i, { orderId: ref })]);
        expect((again as UsageError).code).toBe('duplicate_order');
      }
      const [elsewhere] = await keeper.recordMany([payment(200, { orderId: REFS[0]!, target: 'https://other.example/transaction/cashout' })]);
      expect(elsewhere).not.toBeInstanceOf(UsageError); // another gateway: the reference is free there
      // a reference the gateway said was never received may be sent again (the reuse of a reference)
      await keeper.endMany([[rows[3]!.id, 'unknown', {}]]);
      await keeper.resolve(rows[3]!.id, 'not_sent', { by: 'gateway' });
      const fp = (await keeper.get(rows[3]!.id))!.fingerprint;
      expect(await keeper.reusableOrderId(fp, 0)).toBe('pedido-42');
      const plan = (sql: string, params: Record<string, unknown>) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
      expect(plan(ORDER_TAKEN, { order_id: REFS[0], endpoint: 'x' })).toContain('payments_by_order');
      expect(plan(`SELECT * FROM payments WHERE ${orderIs('order_id', '@order_id')} ORDER BY id DESC`, { order_id: REFS[0] })).toContain('payments_by_order');
      const [history, params] = historyQuery({ limit: 10, orderId: REFS[0]! });
      expect(plan(history, params)).toContain('payments_by_order');
      const reuse = `SELECT 1 FROM payments AS p WHERE NOT EXISTS (SELECT 1 FROM payments AS q WHERE ${orderIs('q.order_id', 'p.order_id')} AND q.id > p.id)`;
      expect(plan(reuse, {})).toContain('payments_by_order');
      // the keys: one integer for a derived reference, the reference itself otherwise; two references may share one
      const key = (ref: string) => db.prepare(`SELECT ${ORDER_INDEX.slice(ORDER_INDEX.indexOf('(CASE'), -2)} AS k`.replaceAll('order_id', '@r')).get({ r: ref }) as { k: unknown };
      expect(typeof key(REFS[0]!).k).toBe('number');
      expect(key(REFS[4]!).k).toBe(key(REFS[5]!).k);
      expect(key(REFS[2]!).k).toBe(REFS[2]);
      expect(key('pedido-42').k).toBe('pedido-42');
    } finally {
      db.close();
      await keeper.close();
    }
  });

  it("a batch row's uuid is kept as its 16 bytes and read back as its text", async () => {
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    const db = openSqlite(local.file, { mustExist: true });
    try {
      const [row] = (await keeper.recordMany([payment(1, { batchId: BATCH, batchRow: 1, orderId: REFS[0] })])) as Array<{ id: number; uuid: string }>;
      const single = await keeper.begin(payment(2));
      const raw = (id: number) => db.prepare('SELECT typeof(uuid) AS t, length(uuid) AS n FROM payments WHERE id = ?').get(id) as { t: string; n: number };
      expect(raw(row!.id)).toEqual({ t: 'blob', n: 16 });
      expect(raw(single.id)).toEqual({ t: 'text', n: 36 });
      const entry = (await keeper.get(row!.id))!;
      expect(entry.uuid).toBe(row!.uuid);
      expect(entry.uuid).toMatch(UUID);
      expect((await keeper.query({ limit: 10 })).find((e) => e.id === row!.id)!.uuid).toBe(row!.uuid);
      expect((await keeper.findManyByOrderId([REFS[0]!])).get(REFS[0]!)![0]!.uuid).toBe(row!.uuid);
      expect((await keeper.batchRows(BATCH))[0]!.uuid).toBe(row!.uuid);
      // a look-up by uuid (the journal's outcomes) finds either form
      const byUuid = (uuid: string) =>
        (db.prepare(`SELECT id FROM payments WHERE ${UUID_IS}`).all({ uuid, uuid_bytes: uuidColumn(uuid, true) }) as Array<{ id: number }>).map((r) => r.id);
      expect(byUuid(row!.uuid)).toEqual([row!.id]);
      expect(byUuid((await keeper.get(single.id))!.uuid)).toEqual([single.id]);
      expect(uuidColumn('old-entry', true)).toBe('old-entry');
    } finally {
      db.close();
      await keeper.close();
    }
  });

  it('a ledger of schema version 11 is brought up to date: its references keyed, its rows read as before', async () => {
    const { old, file } = olderLedger(tmp.dir, 11, [[ORDER_INDEX, 'CREATE INDEX payments_by_order_id ON payments (order_id);']]);
    const names = (db: typeof old) => (db.prepare(`SELECT name FROM sqlite_schema WHERE name LIKE 'payments_by_order%'`).all() as Array<{ name: string }>).map((r) => r.name);
    expect(names(old)).toEqual(['payments_by_order_id']);
    const now = Date.now();
    const columns = { time: new Date(now).toISOString(), kind: 'cashout', fingerprint: Buffer.alloc(32, 7), value: 500, target: 'https://gw.example/transaction/cashout' };
    const nulls = { recipient: null, payer: null, product: null, batch_id: null, batch_row: null, overrides: null, source: null, run_id: null };
    old.prepare(INSERT).run({
      ...{ uuid: 'd2f1c0de-0000-7000-8000-000000000001', ...columns, endpoint: 'https://gw.example', sandbox: 0, profile: 'default', pix_key_type: 2 },
      ...{ pix_key: 'old@example.com', order_id: REFS[1], allow_duplicate: 0, pid: 1, time_ms: now, deadline_ms: now + 1000, ...nulls },
    });
    old.close();
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    try {
      const db = openSqlite(file, { mustExist: true });
      try {
        expect(db.pragma('user_version')).toBe(SCHEMA_VERSION);
        expect(SCHEMA_VERSION).toBe(12);
        expect(names(db)).toEqual(['payments_by_order']);
      } finally {
        db.close();
      }
      const [kept] = (await keeper.findManyByOrderId([REFS[1]!])).get(REFS[1]!)!;
      expect(kept!.uuid).toBe('d2f1c0de-0000-7000-8000-000000000001');
      expect((await keeper.query({ limit: 10, orderId: REFS[1]! })).map((e) => e.id)).toEqual([kept!.id]);
      const [a] = (await keeper.recordMany([payment(1, { batchId: BATCH, batchRow: 1, orderId: REFS[0] })])) as Array<{ id: number }>;
      expect((await keeper.findManyByOrderId([REFS[0]!])).get(REFS[0]!)?.map((e) => e.id)).toEqual([a!.id]);
      const [again] = await keeper.recordMany([payment(2, { orderId: REFS[0] })]);
      expect((again as UsageError).code).toBe('duplicate_order');
    } finally {
      await keeper.close();
    }
  });
});
