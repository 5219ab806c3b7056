/**
 * How the local ledger lies on disk (docs/ledger-and-safety.md "The write-ahead log is part of the ledger", docs/speed.md
 * "Disk written per batch row"): a new ledger's 1 KiB pages and 16 MiB log, a single payment copied into `ledger.db`
 * before it is sent while a batch's wave stays in the log, and a ledger of schema version 4 (4 KiB
 * pages, the index on the text time) opened and brought up to date by this paycli; the fingerprint indexed by its
 * first 8 bytes (schema version 8), from a new ledger and from one of version 7.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LedgerKeeper } from '../../src/ledger/keeper.js';
import { Ledger, WAL_CHECKPOINT_BYTES } from '../../src/ledger/ledger.js';
import { BLOCKING, INSERT, RUN_KEY, SCHEMA_VERSION } from '../../src/ledger/schema.js';
import { BATCH_FINGERPRINTS, FINGERPRINT_INDEX, RUN_INDEX } from '../../src/ledger/batch-fingerprints.js';
import { olderLedger, openSqlite, samplePayment as payment, useDataDir } from '../helpers/ledger.js';

/** The ids of the payments `ledger.db` holds on its own, without its write-ahead log (a copy of the file alone, opened read-only). */
function idsInFileAlone(dir: string, file: string): number[] {
  const copy = join(dir, 'copy', 'ledger.db');
  mkdirSync(join(dir, 'copy'), { recursive: true });
  rmSync(`${copy}-wal`, { force: true });
  copyFileSync(file, copy);
  const db = openSqlite(copy, { mustExist: true });
  try {
    return (db.prepare('SELECT id FROM payments ORDER BY id').all() as Array<{ id: number }>).map((r) => r.id);
  } finally {
    db.close();
    rmSync(join(dir, 'copy'), { recursive: true, force: true });
  }
}

describe('the local ledger on disk', () => {
  const tmp = useDataDir('paycli-storage-');

  it('a new ledger has 1 KiB pages, copies its log at 16 MiB, and has no index on the text time', async () => {
    const local = Ledger.open({ create: true })!;
    local.close();
    const db = openSqlite(join(tmp.dir, 'data', 'ledger.db'), { mustExist: true });
    try {
      expect(db.pragma('page_size')).toBe(1024);
      expect(db.pragma('user_version')).toBe(SCHEMA_VERSION);
      expect(db.prepare(`SELECT name FROM sqlite_schema WHERE name = 'payments_by_time'`).value()).toBeUndefined();
    } finally {
      db.close();
    }
    expect(WAL_CHECKPOINT_BYTES).toBe(16 * 1024 * 1024);
  });

  it('the fingerprint is indexed by its first 8 bytes and the run by 8 characters (schema 8): the identical-payment check and the pruning of runs go through those indexes; a ledger of version 7 is converted and its entry still blocks', async () => {
    const { old, file } = olderLedger(tmp.dir, 7, [
      [FINGERPRINT_INDEX, 'CREATE INDEX payments_by_fingerprint ON payments (fingerprint);'],
      [BATCH_FINGERPRINTS, ''],
      [RUN_INDEX, 'CREATE INDEX payments_by_run ON payments (run_id);'],
    ]);
    old.close();
    const first = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(first);
    const now = Date.now();
    try {
      const { id } = await keeper.begin(payment(1));
      const entry = await keeper.get(id);
      expect((await keeper.blockingCashOut(entry!.fingerprint, 10, now))?.id).toBe(id);
      expect(await keeper.blockingCashOut('e'.repeat(64), 10, now)).toBeUndefined();
    } finally {
      await keeper.close();
    }
    const db = openSqlite(file, { mustExist: true });
    try {
      expect(db.pragma('user_version')).toBe(SCHEMA_VERSION);
      const indexes = (db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'payments_by_fingerprint%'`).all() as Array<{ name: string }>).map(
        (r) => r.name,
      );
      expect(indexes).toEqual(['payments_by_fingerprint8']);
      expect(db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'payments_by_run%'`).all()).toEqual([{ name: 'payments_by_run8' }]);
      const runPlan = db.prepare(`EXPLAIN QUERY PLAN SELECT 1 FROM runs WHERE NOT EXISTS (SELECT 1 FROM payments WHERE ${RUN_KEY('runs.id')})`).all() as Array<{ detail: string }>;
      expect(runPlan.map((r) => r.detail).join('\n')).toMatch(/USING INDEX payments_by_run8/);
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${BLOCKING}`).all({ fingerprint: Buffer.alloc(32), windowOn: 1, since: 0 }) as Array<{ detail: string }>;
      expect(plan.map((r) => r.detail).join('\n')).toMatch(/USING INDEX payments_by_fingerprint8/);
      expect(db.pragma('integrity_check')).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('a single payment is in ledger.db itself before it is sent; the rows of a batch wave stay in the log until it is copied', async () => {
    const local = Ledger.open({ create: true, beforeSend: true })!;
    const keeper = new LedgerKeeper(local);
    try {
      const { id } = await keeper.begin(payment(1));
      expect(idsInFileAlone(tmp.dir, local.file)).toEqual([id]);
      expect((await keeper.get(id))?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      const wave = await keeper.recordMany([1, 2, 3].map((n) => payment(10 + n, { batchId: 'cashout-0123456789abcdef', batchRow: n })));
      const waveIds = wave.map((r) => (r instanceof Error ? Number.NaN : Number(r.id)));
      expect(waveIds.every(Number.isInteger)).toBe(true);
      expect(idsInFileAlone(tmp.dir, local.file)).toEqual([id]);
      expect((await keeper.batchRows('cashout-0123456789abcdef')).map((e) => e.id)).toEqual(waveIds);
    } finally {
      await keeper.close();
    }
  });

  it('a single payment whose copy into ledger.db is held up (another connection reading the file as it was) is made durable by a synced commit of the log instead; once the reader is gone, the next one is copied', async () => {
    const local = Ledger.open({ create: true, beforeSend: true })!;
    const keeper = new LedgerKeeper(local);
    const reader = openSqlite(local.file, { mustExist: true });
    const synced = () => reader.prepare(`SELECT value FROM meta WHERE key = 'log_synced'`).value();
    try {
      const first = await keeper.begin(payment(1));
      expect(synced()).toBeUndefined(); // copied whole: the checkpoint synced the log and the file
      await keeper.end(first.id, 'ok');
      reader.exec('BEGIN');
      expect(reader.prepare('SELECT count(*) FROM payments').value()).toBe(1); // holds the state of now until it ends
      const second = await keeper.begin(payment(2));
      reader.exec('COMMIT');
      expect(synced()).toMatch(/^[0-9a-f-]{36}$/); // the log was synced with a commit of its own
      expect(idsInFileAlone(tmp.dir, local.file)).toEqual([first.id]); // the copy waited for the reader
      const third = await keeper.begin(payment(3));
      expect(idsInFileAlone(tmp.dir, local.file)).toEqual([first.id, second.id, third.id]);
    } finally {
      reader.close();
      await keeper.close();
    }
  });

  it('a ledger of schema version 4 (4 KiB pages, an entry with a hex fingerprint) is brought up to date: the entry kept and still blocks, its fingerprint 32 bytes, the text time index gone, its page size kept', async () => {
    const { old, file } = olderLedger(tmp.dir, 4, [
      ['fingerprint BLOB NOT NULL', 'fingerprint TEXT NOT NULL'],
      ['CREATE INDEX payments_by_time_ms', 'CREATE INDEX payments_by_time ON payments (time);\nCREATE INDEX payments_by_time_ms'],
    ]);
    const now = Date.now();
    old.prepare(INSERT).run({
      uuid: 'old-entry',
      time: new Date(now).toISOString(),
      kind: 'cashout',
      fingerprint: 'f'.repeat(64),
      value: 500,
      target: 'https://gw.example/transaction/cashout',
      endpoint: 'https://gw.example',
      sandbox: 0,
      profile: 'default',
      pix_key_type: 2,
      pix_key: 'old@example.com',
      recipient: null,
      payer: null,
      product: null,
      order_id: 'invoice-1',
      batch_id: null,
      batch_row: null,
      allow_duplicate: 0,
      overrides: null,
      pid: 1,
      source: null,
      time_ms: now,
      deadline_ms: now + 1000,
      run_id: null,
    });
    expect(old.pragma('page_size')).toBe(4096);
    expect(old.prepare(`SELECT name FROM sqlite_schema WHERE name = 'payments_by_time'`).value()).toBe('payments_by_time');
    old.close();

    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    try {
      const entry = await keeper.blockingCashOut('f'.repeat(64), 10, now);
      expect(entry?.uuid).toBe('old-entry');
      expect(entry?.orderId).toBe('invoice-1');
      const { id } = await keeper.begin(payment(2));
      expect((await keeper.get(id))?.value).toBe(102);
    } finally {
      await keeper.close();
    }
    const db = openSqlite(file, { mustExist: true });
    try {
      expect(db.pragma('user_version')).toBe(SCHEMA_VERSION);
      expect(db.pragma('page_size')).toBe(4096);
      expect(db.prepare(`SELECT name FROM sqlite_schema WHERE name = 'payments_by_time'`).value()).toBeUndefined();
      expect(db.pragma('integrity_check')).toBe('ok');
      expect(db.prepare('SELECT count(*) FROM payments').value()).toBe(2);
      expect(db.prepare(`SELECT typeof(fingerprint) || ' ' || length(fingerprint) FROM payments WHERE uuid = 'old-entry'`).value()).toBe('blob 32');
    } finally {
      db.close();
    }
  });
});
