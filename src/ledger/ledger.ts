/**
 * The payment ledger (docs/ledger-and-safety.md "Payment ledger"): every cash-out and cash-in this machine sends is
 * recorded in `<data dir>/ledger.db` *before* it is sent, and completed with its outcome
 * afterwards. It is what stops a retried CI job from paying the same payout twice, and what
 * `paycli history` lists.
 *
 * Storage: SQLite through the driver seam of src/core/sqlite/driver.ts (`node:sqlite`, or better-sqlite3 on
 * Node 20; docs/node-versions.md), in WAL mode with `synchronous = FULL` (a recorded
 * payment is on disk before the request leaves), 0600 in a 0700 folder, 1 KiB pages (src/ledger/files.ts). A single payment
 * is copied into `ledger.db` before it is sent (its commit synced by that copy), a batch's waves at {@link WAL_CHECKPOINT_BYTES}
 * of log; an outcome is committed without waiting for the disk (docs/ledger-and-safety.md "How many times a payment waits for the disk").
 *
 * Concurrency: the duplicate check of a cash-out and the record of the new one are ONE
 * `BEGIN IMMEDIATE` transaction. SQLite's write lock is a kernel (fcntl) lock: it stays held by
 * its process while that process is paused (`kill -STOP`, a suspended VM) and is released by the
 * kernel when it dies, so no second identical cash-out can pass the check meanwhile, and nothing
 * is ever "taken over" from a live process. A paycli that waits for the lock gives up after
 * {@link BUSY_TIMEOUT_MS} with exit 2 `ledger_busy`, nothing sent.
 *
 * Fail closed: when the ledger cannot be opened, read or written (damaged or truncated, not a
 * database, read-only, disk full, a symbolic link, owned by another user), paycli sends nothing:
 * {@link LedgerUnavailableError} (exit 2, `journal_unavailable`) names the file.
 *
 * The first time a ledger is created in a data folder that holds a `journal.jsonl` (the format of
 * paycli before the ledger), its payments are imported into the new database before it is put in
 * place, so the import happens exactly once; the journal file is kept untouched.
 *
 * A store only (src/ledger/statements.ts `SyncStatements`): statements, each method one transaction,
 * answering at once; the rules over it are src/ledger/keeper.ts, and callers above src/ledger/ use it
 * through the asynchronous contract of src/ledger/contract.ts. The schema and its SQL, the file on
 * disk, the old journal, the runs and the errors live in schema.ts, files.ts, journal.ts, runs.ts, errors.ts.
 * The API key is never written here; texts that came from a gateway or an error are redacted.
 * Longer than 500 lines: one class, each statement a short method over the connection, its prepared
 * statements and its error mapping (`guard`), which a split would have to share.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { t } from '../core/i18n/index.js';
import { refuses } from './blocking.js';
import type { PaymentKind } from './rules.js';
import { currentRun, currentRunId, forgetRunLock, runState, type RunRecord } from './runs.js';
import type { OwnerState } from './settle-rule.js';
import { prunableRunSql, type Checked, type EndRow, type NewPayment, type SettleRow, type StoredRun, type SyncStatements } from './statements.js';
import { VERSION } from '../core/version.js';
import {
  ATTENTION_SQL,
  BLOCKING,
  clip,
  ENTRIES_WITH_RUN,
  FINGERPRINT_KEY,
  fingerprintValue,
  FORMAT,
  historyQuery,
  INSERT,
  migrate,
  ORDER_TAKEN,
  RUN_KEY,
  SCHEMA_VERSION,
  toEntry,
  toRun,
  type InsertRow,
  type LedgerEntry,
  type LedgerQuery,
  type Row,
  type BatchOutcome,
} from './schema.js';
import { orderIs } from './order-key.js';
import { uuidV7 } from './uuid.js';
import { END_ROW, endRowParams, targetColumn, timeColumn, uuidColumn } from './derived.js';
import { LedgerUnavailableError } from './errors.js';
import { batchTextSql, finishedText, type BatchTextSpec, type FinishedBatchText } from './batch-text.js';
import { KEEP_TEXT, KEPT_TEXT, keptTextKey, readMapped } from './kept-texts.js';
import { FILE_OF, LIST_FILE, LIST_ROW, LISTED, OUTSIDE_FILES, RECENT_FILE_ROWS, type ListedRows } from './batch-fingerprints.js';
import { runRead, type Connection, type Statement } from '../core/sqlite/driver.js';
import { BLOCKING_IN_FILES, WaveFiles } from './wave-files.js';
import { journalPath, LEDGER_NAME, UNUSABLE_HINT, connect, ensureDataDir, inspectFile, JOURNAL_NAME, ledgerFailure, WAL_CHECKPOINT_BYTES, walIdentity } from './files.js';
import { createLedger, isHalfCreated, moveAsideHalfCreated } from './create.js';

export { JOURNAL_NAME } from './files.js';
export { BUSY_TIMEOUT_MS, LedgerBusyError, LedgerUnavailableError } from './errors.js';
export type { BatchOutcome, BeginInfo, EndDetails, LedgerEntry, LedgerQuery, PaymentFacts, ResolvedBy } from './schema.js';

export { cashOutFingerprint, DEFAULT_WINDOW_MIN, endpointIdentity, outcomeOfError, type Outcome, type PaymentKind } from './rules.js';

export { journalPath, LEDGER_NAME, ledgerPath, WAL_CHECKPOINT_BYTES } from './files.js';

export { uuidV7 } from './uuid.js';
/** An open local ledger. Every method rejects with {@link LedgerUnavailableError} or {@link LedgerBusyError} when SQLite fails. */
export class Ledger implements SyncStatements {
  /** Path of the database file. */
  readonly file: string;
  private readonly db: Connection;
  /** What errors add before a send. */
  readonly note: string;
  /** An entry without a run is judged by its process id on this machine; every method answers at once. */
  readonly byPid = true;
  readonly sync = true as const;
  private readonly statements = new Map<string, Statement>();
  /** The run id this connection has registered in `runs` (once per process and ledger). */
  private registered: string | undefined;

  /** This connection's `PRAGMA synchronous` (set to FULL as it opens). */
  private level: 'FULL' | 'NORMAL' = 'FULL';

  /** Device and inode of the write-ahead log this connection writes (set once it exists). */
  private wal: { dev: number; ino: number } | undefined;

  private constructor(file: string, db: Connection, note: string) {
    this.file = file;
    this.db = db;
    this.note = note;
    this.wal = walIdentity(file);
  }

  /**
   * Checks that `ledger.db-wal` is still the write-ahead log this connection opened. A log deleted
   * or replaced while paycli runs (a cleaner, a backup tool, a person) takes with it what was
   * written since the last checkpoint, and a new paycli would start another log and not see it:
   * the ledger stops instead of writing into a log nobody else reads (docs/ledger-and-safety.md).
   * @throws LedgerUnavailableError when it went away
   */
  private checkWal(note: string): void {
    const now = walIdentity(this.file);
    if (!this.wal) {
      this.wal = now;
      return;
    }
    if (now && now.dev === this.wal.dev && now.ino === this.wal.ino) return;
    throw new LedgerUnavailableError(t('ledgerFile.walLost', this.file, Boolean(now), note), { hint: t('ledgerFile.walLostHint', dirname(this.file)) });
  }

  /**
   * Copies the write-ahead log into `ledger.db` (a passive checkpoint), so that a single payment recorded before it is sent
   * is in the file, not only in a log another program could delete. Best effort, never an error. A batch's waves are not
   * copied one by one: SQLite copies the log at {@link WAL_CHECKPOINT_BYTES} (docs/ledger-and-safety.md "The write-ahead log is part of the ledger").
   * @returns true when the whole log is in `ledger.db` and both files were synced (SQLite syncs the log before a
   *   checkpoint and the file after a complete one); false when part of it could not be copied
   */
  private checkpoint(): boolean {
    try {
      const r = this.stmt('PRAGMA wal_checkpoint(PASSIVE)').get() as { busy: number; log: number; checkpointed: number } | undefined;
      return r !== undefined && r.busy === 0 && r.log >= 0 && r.checkpointed === r.log;
    } catch {
      // Best effort: a statement of this connection still reading (SQLITE_LOCKED) or another
      // writer (SQLITE_BUSY) leaves it for the next one.
      return false;
    }
  }

  /**
   * Sets how this connection's commits wait for the disk (`PRAGMA synchronous`, outside a transaction only):
   * `FULL` (the default of the ledger) syncs the log at every commit; `NORMAL` leaves the sync to the next
   * checkpoint (docs/ledger-and-safety.md "How many times a payment waits for the disk").
   */
  private synchronous(level: 'FULL' | 'NORMAL'): void {
    if (this.level !== level) this.db.pragma(`synchronous = ${level}`);
    this.level = level;
  }

  /**
   * One commit that waits for the disk (`synchronous = FULL`), so that the log is synced and every commit before it in
   * the log with it. It must change a page for SQLite to write and sync anything (an update to the same value writes
   * nothing): the meta row `log_synced` takes a new random value.
   */
  private syncLog(): void {
    this.db.immediate(() => this.stmt(`INSERT OR REPLACE INTO meta (key, value) VALUES ('log_synced', ?)`).run(uuidV7()));
  }

  /**
   * Opens the ledger of the data folder, creating it (and importing an old `journal.jsonl`)
   * when it does not exist and `create` is true.
   * @param opts.create create a missing ledger (default true); false returns undefined instead,
   *   unless a `journal.jsonl` waits to be imported
   * @param opts.beforeSend the caller is about to send a payment: errors say "nothing was sent"
   * @throws LedgerUnavailableError, LedgerBusyError
   */
  static open(opts: { create?: boolean; beforeSend?: boolean; rebuilt?: boolean } = {}): Ledger | undefined {
    const create = opts.create ?? true;
    const note = opts.beforeSend ? `; ${t('common.nothingSent')}` : '';
    const dir = ensureDataDir(create || existsSync(journalPath()), note);
    if (!dir) return undefined;
    const file = join(dir, LEDGER_NAME);
    let st = inspectFile(file, note);
    if (!st) {
      if (!create && !existsSync(join(dir, JOURNAL_NAME))) return undefined;
      createLedger(dir, file, note);
      st = inspectFile(file, note);
      if (!st) throw new LedgerUnavailableError(t('ledgerFile.vanished', file, note));
    }
    if (st.size === 0) throw new LedgerUnavailableError(t('ledgerFile.empty', file, note), { hint: UNUSABLE_HINT(file) });
    inspectFile(`${file}-wal`, note);
    inspectFile(`${file}-shm`, note);
    let db: Connection | undefined;
    try {
      db = connect(file);
      db.pragma('cell_size_check = ON');
      db.pragma('trusted_schema = OFF');
      if (db.pragma('journal_mode') !== 'wal') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma(`journal_size_limit = ${WAL_CHECKPOINT_BYTES}`);
      db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.floor(WAL_CHECKPOINT_BYTES / (db.pragma('page_size') as number)))}`);
      // SQLite's own default page cache (2 MiB), also with better-sqlite3 (whose default is 16 MiB): every query of
      // the ledger goes through an index, and a batch of 100,000 rows would otherwise fill 16 MiB of
      // memory with pages it does not read again (docs/speed.md, batch memory).
      db.pragma('cache_size = -2000');
      const format = db.prepare(`SELECT value FROM meta WHERE key = 'format'`).value();
      if (format !== FORMAT) throw new LedgerUnavailableError(t('ledgerFile.notPaycli', file, note), { hint: UNUSABLE_HINT(file) });
      const version = db.pragma('user_version') as number;
      if (version > SCHEMA_VERSION) throw new LedgerUnavailableError(t('ledgerFile.newer', file, version, note));
      if (version < SCHEMA_VERSION) migrate(db);
      return new Ledger(file, db, note);
    } catch (err) {
      try {
        db?.close();
      } catch {
        /* already failing */
      }
      const code = (err as { code?: unknown })?.code;
      // A ledger whose creation stopped half-way and that holds no entry is made again (once).
      if (!opts.rebuilt && create && typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') && isHalfCreated(file)) {
        moveAsideHalfCreated(file, st);
        return Ledger.open({ ...opts, rebuilt: true });
      }
      throw ledgerFailure(err, file, note);
    }
  }

  /** Closes the connection (the process exiting does the same). */
  close(): void {
    this.db.close();
    if (shared === this) shared = undefined;
  }

  usable(): void {}

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * Runs `fn`, turning SQLite's errors into paycli's.
   * @param note what the error adds ("; nothing was sent" before a send); '' for what is recorded after one
   */
  private guard<T>(fn: () => T, note = this.note): T {
    try {
      return fn();
    } catch (err) {
      throw ledgerFailure(err, this.file, note);
    }
  }

  /**
   * Runs `fn` in one `BEGIN IMMEDIATE` (no other paycli checks or records meanwhile); inside a group, in a savepoint.
   * How its commit reaches the disk (docs/ledger-and-safety.md "How many times a payment waits for the disk"):
   * - `synced`: the commit syncs the log (`synchronous = FULL`) before it returns; `synced+copy` then copies the log
   *   into `ledger.db` as well, as far as it can ({@link checkpoint});
   * - `copied` (a single payment before its send): the commit is made without a sync, then copied into `ledger.db` by a
   *   checkpoint, which syncs the log and then the file: durable, and in the file, with two syncs instead of four. When
   *   the copy cannot be made whole (another paycli reading an older state), one more commit syncs the log; should that
   *   one fail, the error is thrown with the payment committed but not sent: it stays in flight, as a payment whose
   *   paycli was killed before sending (docs/ledger-and-safety.md "In flight");
   * - `unsynced`: an outcome after a send. It is written at once (it survives the process being killed) and reaches
   *   the disk with the next sync (the next payment's, or the checkpoint as the ledger closes); lost to a crash of the
   *   machine before that, the entry stays without an outcome, in flight, and the in-flight rule settles it.
   */
  private write<T>(fn: () => T, note = this.note, mode: 'synced' | 'synced+copy' | 'copied' | 'unsynced' = 'synced'): T {
    if (this.db.inTransaction) return this.guard(() => this.db.immediate(fn), note);
    this.checkWal(note);
    const out = this.guard(() => {
      if (mode === 'synced' || mode === 'synced+copy') return this.db.immediate(fn);
      this.synchronous('NORMAL');
      try {
        return this.db.immediate(fn);
      } finally {
        this.synchronous('FULL'); // every other write of this connection waits for the disk
      }
    }, note);
    if (mode === 'synced+copy') this.checkpoint();
    if (mode === 'copied' && !this.checkpoint()) this.guard(() => this.syncLog(), note);
    this.checkWal(note);
    return out;
  }

  self(now: number): RunRecord {
    return this.guard(() => currentRun(dirname(this.file), VERSION, now));
  }

  selfId(): string | undefined {
    return currentRunId();
  }

  blocking(fingerprint: string, windowOn: boolean, sinceMs: number): LedgerEntry | undefined {
    return this.guard(() => this.entry(BLOCKING, { fingerprint: fingerprintValue(fingerprint), windowOn: windowOn ? 1 : 0, since: sinceMs }));
  }

  private entry(sql: string, params: unknown): LedgerEntry | undefined {
    const row = this.stmt(sql).get(params) as Row | undefined;
    return row ? toEntry(row) : undefined;
  }

  /**
   * In one `BEGIN IMMEDIATE`: the outcomes, then each payment checked and recorded unless refused
   * (src/ledger/blocking.ts `refuses`). A payment outside a batch is then copied into `ledger.db`
   * ({@link checkpoint}); a batch's rows are left in the write-ahead log (docs/ledger-and-safety.md).
   */
  checkAndInsert(rows: readonly NewPayment[], ends: readonly EndRow[]): Checked[] {
    const write = () => {
      this.endRows(ends);
      const files = new WaveFiles((sql, params) => this.stmt(sql).all(params) as Array<{ id: number }>, rows); // once a wave
      return rows.map((r) => this.checkOne(r, files));
    };
    return this.write(write, this.note, rows.some((r) => r.batchId === null) ? 'copied' : 'synced');
  }

  private checkOne(r: NewPayment, files: WaveFiles): Checked {
    const fingerprint = fingerprintValue(r.fingerprint); // once a row: the check and the insert take the same bytes
    const blocked = r.check ? this.entry(BLOCKING_IN_FILES, files.params(fingerprint, r.check)) : undefined;
    const taken = r.orderId === null ? undefined : this.entry(ORDER_TAKEN, { order_id: r.orderId, endpoint: r.endpoint });
    const found: Checked = { ...(blocked ? { blocked } : {}), ...(taken ? { taken } : {}) };
    if (refuses(found, r.allowDuplicate)) return found;
    this.registerRun(r.run);
    found.id = Number(this.stmt(INSERT).run(insertRow(r, fingerprint, blocked?.id ?? null)).lastInsertRowid);
    files.recorded(r);
    return found;
  }

  /** Registers a run in `runs` (once per run and connection), inside the caller's transaction. */
  private registerRun(run: RunRecord): void {
    if (this.registered === run.id) return;
    this.stmt(
      `INSERT OR IGNORE INTO runs (id, pid, proc_start, host, boot_id, user, version, started_ms) VALUES (@id, @pid, @proc_start, @host, @boot_id, @user, @version, @started_ms)`,
    ).run({
      id: run.id,
      pid: run.pid,
      proc_start: run.procStart,
      host: clip(run.host, 200),
      boot_id: run.bootId,
      user: clip(run.user, 100),
      version: run.version,
      started_ms: run.startedMs,
    });
    this.registered = run.id;
  }

  /** After the send: its errors never say "nothing was sent"; committed without waiting for the disk ({@link write} `unsynced`). */
  writeEnds(ends: readonly EndRow[]): void {
    this.write(() => this.endRows(ends), '', 'unsynced');
  }

  private endRows(ends: readonly EndRow[]): void {
    const st = this.stmt(END_ROW);
    for (const e of ends) st.run(endRowParams(e));
  }

  /** Copied into `ledger.db` at once, as a single payment is: a later deadline lost with the log could let a lookup decide too early. */
  extendDeadlines(ids: readonly number[], deadlineMs: number): void {
    this.write(
      () => {
        const st = this.stmt('UPDATE payments SET deadline_ms = max(coalesce(deadline_ms, 0), @deadline) WHERE id = @id AND outcome IS NULL');
        for (const id of ids) st.run({ id, deadline: deadlineMs });
      },
      this.note,
      'synced+copy',
    );
  }

  run(id: string): StoredRun | undefined {
    return this.guard(() => {
      const r = this.stmt('SELECT * FROM runs WHERE id = ?').get(id) as Row | undefined;
      return r ? toRun(r) : undefined;
    });
  }

  runs(): StoredRun[] {
    return this.guard(() => (this.stmt('SELECT * FROM runs').all() as Row[]).map(toRun));
  }

  /** src/ledger/runs.ts `runState`: the run's kernel lock, and its process on Linux. */
  probe(run: StoredRun): OwnerState {
    return runState(run, dirname(this.file));
  }

  /** Records a run found gone and removes its lock file. */
  markGone(id: string, ms: number): void {
    this.guard(() => void this.stmt('UPDATE runs SET gone_ms = coalesce(gone_ms, ?) WHERE id = ?').run(ms, id));
    forgetRunLock(dirname(this.file), id);
  }

  /** `fn` in one `BEGIN IMMEDIATE` (SQLite's write lock serialises every writer, so `lock` needs nothing more), copied into `ledger.db` after. */
  exclusive<T>(_lock: string | undefined, fn: () => T): T {
    return this.write(fn, this.note, 'synced+copy');
  }

  claimants(batchId: string, endpoint: string, exceptId: string): StoredRun[] {
    const sql = 'SELECT * FROM runs WHERE batch_id = ? AND endpoint = ? AND id <> ? AND ended_ms IS NULL AND gone_ms IS NULL';
    return this.guard(() => (this.stmt(sql).all(batchId, endpoint, exceptId) as Row[]).map(toRun));
  }

  takeBatch(run: RunRecord, batchId: string, endpoint: string): void {
    this.guard(() => {
      this.registerRun(run);
      this.stmt('UPDATE runs SET batch_id = ?, endpoint = ? WHERE id = ?').run(batchId, endpoint, run.id);
    });
  }

  endRun(id: string, ms: number): void {
    this.guard(() => void this.stmt('UPDATE runs SET ended_ms = ? WHERE id = ? AND batch_id IS NOT NULL').run(ms, id));
  }

  /**
   * Keeps every run an entry names: `history` shows who sent an entry from its run (src/ledger/schema.ts `ENTRIES_WITH_RUN`);
   * a batch row's run is in `batch_runs` (src/ledger/batch-fingerprints.ts).
   */
  pruneRuns(beforeMs: number): number {
    const sql = `DELETE FROM runs WHERE ${prunableRunSql('@before')} AND NOT EXISTS (SELECT 1 FROM payments WHERE ${RUN_KEY('runs.id')})
      AND NOT EXISTS (SELECT 1 FROM batch_runs WHERE run_id = runs.id)`;
    return this.write(() => Number(this.stmt(sql).run({ before: beforeMs }).changes));
  }

  reusableOrderId(fingerprint: string, sinceMs: number): string | undefined {
    // among the payments outside batch files and the rows of the files recorded since then (src/ledger/batch-fingerprints.ts)
    const sql = `SELECT id, order_id FROM (SELECT * FROM payments WHERE ${FINGERPRINT_KEY('@fingerprint')} AND ${OUTSIDE_FILES} UNION ALL ${RECENT_FILE_ROWS}) AS p
      WHERE outcome = 'not_sent' AND resolved_by = 'gateway' AND order_id IS NOT NULL AND time_ms >= @since
      AND NOT EXISTS (SELECT 1 FROM payments AS q WHERE ${orderIs('q.order_id', 'p.order_id')} AND q.id > p.id) ORDER BY id DESC LIMIT 1`;
    return this.guard(() => (this.stmt(sql).get({ fingerprint: fingerprintValue(fingerprint), since: sinceMs }) as { order_id: string } | undefined)?.order_id);
  }

  get(id: number): LedgerEntry | undefined {
    return this.guard(() => this.entry(`${ENTRIES_WITH_RUN} WHERE p.id = ?`, id));
  }

  /** Each reference through the index `payments_by_order` (src/ledger/order-key.ts), in one read transaction (a batch asks about 64 to 256 at once: docs/speed.md). */
  findByOrderIds(orderIds: readonly string[]): Map<string, LedgerEntry[]> {
    return this.guard(() =>
      runRead(this.db, () => {
        const out = new Map<string, LedgerEntry[]>();
        const st = this.stmt(`SELECT * FROM payments WHERE ${orderIs('order_id', '@order_id')} ORDER BY id DESC`);
        for (const orderId of orderIds) {
          const found = (st.all({ order_id: orderId }) as Row[]).map(toEntry);
          if (found.length) out.set(orderId, found);
        }
        return out;
      }),
    );
  }

  /** Plain tuples (src/ledger/schema.ts `BatchOutcome`), no entries built: a re-run of a finished file reads only this. */
  batchOutcomes(batchId: string, endpoint: string): BatchOutcome[] {
    const sql = `SELECT batch_row, order_id, value, outcome, transaction_id, status, ${ATTENTION_SQL} FROM payments WHERE batch_id = ? AND endpoint = ? ORDER BY batch_row, id`;
    return this.guard(() => this.stmt(sql).allArrays(batchId, endpoint) as BatchOutcome[]);
  }

  /**
   * The lines of a finished batch (src/ledger/batch-text.ts): those kept for it when they are still its
   * rows' (table `batch_texts`), else rendered in one statement, and kept when `keep` (in one
   * `BEGIN IMMEDIATE` with the statement: no row changes in between); undefined when it is not
   * finished or a cell is the writer's.
   */
  finishedBatchText(batchId: string, endpoint: string, rows: number, spec: BatchTextSpec, keep = false): FinishedBatchText | undefined {
    const statement = batchTextSql(spec);
    const at = { batch: batchId, endpoint, key: keptTextKey(spec, statement, rows) };
    const render = () =>
      finishedText(spec, statement, rows, this.stmt(statement.sql).get({ ...statement.params, batch: batchId, endpoint, rows }) as Parameters<typeof finishedText>[3]);
    if (!keep) return this.guard(() => readMapped(this.db, () => (this.stmt(KEPT_TEXT).get(at) as FinishedBatchText | undefined) ?? render()));
    const kept = this.guard(() => this.stmt(KEPT_TEXT).get(at)) as FinishedBatchText | undefined;
    if (kept) return kept;
    return this.write(() => {
      const text = render();
      if (text) this.stmt(KEEP_TEXT).run({ ...at, ...text });
      return text;
    }, '');
  }

  /** One synced write, left in the log as a wave is; nothing when the file's rows were listed before. */
  listBatchRows(batchId: string, endpoint: string, rows: ListedRows): void {
    this.write(() => {
      const at = { batch: batchId, endpoint };
      this.stmt(LIST_FILE).run(at);
      const file = this.stmt(FILE_OF).get(at) as { id: number; listed: number };
      if (file.listed) return;
      const st = this.stmt(LIST_ROW);
      for (const i of rows.order) st.run(file.id, rows.fp8.subarray(i * 8, i * 8 + 8), rows.rows[i]);
      this.stmt(LISTED).run(file.id);
    });
  }

  batchRows(batchId: string): LedgerEntry[] {
    return this.guard(() => (this.stmt('SELECT * FROM payments WHERE batch_id = ? ORDER BY batch_row, id').all(batchId) as Row[]).map(toEntry));
  }

  listUnknown(opts: { since?: string; kind?: PaymentKind }): LedgerEntry[] {
    const sql = `SELECT * FROM payments WHERE (outcome IS NULL OR outcome = 'unknown') AND (@since IS NULL OR time_ms IS NULL OR time_ms >= @since) AND (@kind IS NULL OR kind = @kind) ORDER BY id`;
    const params = { since: opts.since === undefined ? null : Date.parse(opts.since), kind: opts.kind ?? null };
    return this.guard(() => (this.stmt(sql).all(params) as Row[]).map(toEntry));
  }

  settle(r: SettleRow): LedgerEntry {
    const sql = `UPDATE payments SET outcome = @outcome, end_time = coalesce(end_time, @now), resolved_by = @by, resolved_time = @now, note = @note,
      transaction_id = coalesce(@transaction_id, transaction_id), status = coalesce(@status, status), message = coalesce(@message, message) WHERE id = @id`;
    return this.guard(() => {
      this.stmt(sql).run({ id: r.id, outcome: r.outcome, now: r.now, by: r.by, note: r.note, transaction_id: r.transactionId, status: r.status, message: r.message });
      return this.entry(`${ENTRIES_WITH_RUN} WHERE p.id = ?`, r.id)!;
    });
  }

  /** Newest first (by entry number), at most `limit`, reading only those rows; the connection runs nothing else until the iteration ends. */
  *iterate(q: LedgerQuery): Generator<LedgerEntry> {
    const [sql, params] = historyQuery(q);
    const rows = this.guard(() => this.stmt(sql).iterate(params));
    try {
      for (;;) {
        const next = this.guard(() => rows.next());
        if (next.done) return;
        yield toEntry(next.value);
      }
    } finally {
      // Ended early (a caller's error, a `break`): the statement lets the connection go, or closing it would throw "busy".
      rows.return?.();
    }
  }

  noteStatus(id: number, status: string | null): void {
    this.guard(() => void this.stmt(`UPDATE payments SET status = @status WHERE id = @id AND outcome = 'ok'`).run({ id, status }), '');
  }

  meta(key: string): string | undefined {
    return this.guard(() => this.stmt('SELECT value FROM meta WHERE key = ?').value(key) as string | undefined);
  }

  setMeta(key: string, value: string): void {
    this.guard(() => void this.stmt('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value));
  }
}

/** A payment as the named parameters of src/ledger/schema.ts `INSERT`; `fingerprint` is its {@link fingerprintValue}. */
function insertRow(r: NewPayment, fingerprint: InsertRow['fingerprint'], overrides: number | null): InsertRow {
  return {
    uuid: uuidColumn(r.uuid, r.batchId !== null && r.batchRow !== null),
    time: timeColumn(r.time, r.timeMs, r.batchId !== null && r.batchRow !== null),
    kind: r.kind,
    fingerprint,
    value: r.value,
    target: targetColumn(r.target, r.endpoint, r.batchId !== null && r.batchRow !== null),
    endpoint: r.endpoint,
    sandbox: r.sandbox ? 1 : 0,
    profile: r.profile,
    pix_key_type: r.pixKeyType,
    pix_key: r.pixKey,
    recipient: r.recipient,
    payer: r.payer,
    product: r.product,
    order_id: r.orderId,
    batch_id: r.batchId,
    batch_row: r.batchRow,
    allow_duplicate: r.allowDuplicate ? 1 : 0,
    overrides,
    pid: r.pid,
    source: null,
    time_ms: r.timeMs,
    deadline_ms: r.deadlineMs,
    run_id: r.run.id,
  };
}

let shared: Ledger | undefined;

/**
 * The ledger of this process (opened once, created when missing), for the commands that send.
 * @throws LedgerUnavailableError (nothing was sent), LedgerBusyError
 */
export function openLedger(): Ledger {
  shared ??= Ledger.open({ create: true, beforeSend: true })!;
  return shared;
}

/** Closes the ledger of this process, if open (a run in a test's process ends with it). */
export function closeLedger(): void {
  shared?.close();
}
