/**
 * The payment ledger (docs/ledger-and-safety.md "Payment ledger"): every cash-out and cash-in this machine sends is
 * recorded in `<data dir>/ledger.db` *before* it is sent, and completed with its outcome
 * afterwards. It is what stops a retried CI job from paying the same payout twice, and what
 * `paycli history` lists.
 *
 * Storage: SQLite through the driver seam of src/core/sqlite/driver.ts (`node:sqlite`, or better-sqlite3 on
 * Node 20; docs/node-versions.md), in WAL mode with `synchronous = FULL` (a recorded
 * payment is on disk before the request leaves). The file is created 0600 in a 0700 folder.
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
 * Its methods are those of src/ledger/store.ts `LedgerStore`; callers above src/ledger/ use them
 * through the asynchronous contract of src/ledger/contract.ts.
 * The API key is never written here; texts that came from a gateway or an error are redacted.
 *
 * Longer than 500 lines: one class over one connection, whose every method is a transaction on it
 * and its prepared statements; what is not (the schema and its SQL, the file on disk, the old
 * journal, the runs, the errors) lives beside it in schema.ts, files.ts, journal.ts, runs.ts, errors.ts.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { blocks, DEFAULT_WINDOW_MIN, cashInFingerprint, cashOutFingerprint, checkClock, displayTarget, duplicateError, endpointIdentity, orderTakenError, type Outcome, type PaymentKind } from './rules.js';
import { currentRun, currentRunId, forgetRunLock, runState, type RunRecord } from './runs.js';
import type { InFlightFacts, OwnerState } from './settle-rule.js';
import { MAX_TIMEOUT_MS } from '../config/settings.js';
import { VERSION } from '../core/version.js';
import { ATTENTION_SQL, needsAttention, BLOCKING, clean, clip, ENTRIES_WITH_RUN, factsJson, FORMAT, INSERT, migrate, ORDER_TAKEN, SCHEMA_VERSION, toEntry, toRun, type BeginInfo, type EndDetails, type InsertRow, type LedgerEntry, type LedgerQuery, type ResolvedBy, type Row, type BatchOutcome } from './schema.js';
import { JOURNAL_NAME } from './journal.js';
import { uuidV7 } from './uuid.js';
import { BUSY_TIMEOUT_MS, LedgerBusyError, LedgerUnavailableError } from './errors.js';
import type { Connection, Statement } from '../core/sqlite/driver.js';
import { journalPath, LEDGER_NAME, UNUSABLE_HINT, connect, createLedger, ensureDataDir, inspectFile, isHalfCreated, ledgerFailure, moveAsideHalfCreated, walIdentity } from './files.js';

export { JOURNAL_NAME } from './journal.js';
export { BUSY_TIMEOUT_MS, LedgerBusyError, LedgerUnavailableError } from './errors.js';
export type { BatchOutcome, BeginInfo, EndDetails, LedgerEntry, LedgerQuery, PaymentFacts, ResolvedBy } from './schema.js';

export { cashOutFingerprint, DEFAULT_WINDOW_MIN, endpointIdentity, outcomeOfError, type Outcome, type PaymentKind } from './rules.js';

export { journalPath, LEDGER_NAME, ledgerPath } from './files.js';
export { uuidV7 } from './uuid.js';
/** An open ledger. Every method throws {@link LedgerUnavailableError} or {@link LedgerBusyError} when SQLite fails. */
export class Ledger {
  /** Path of the database file. */
  readonly file: string;
  private readonly db: Connection;
  private readonly note: string;
  private readonly statements = new Map<string, Statement>();
  /** The run id this connection has registered in `runs` (once per process and ledger). */
  private registered: string | undefined;

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
   * Copies what the write-ahead log holds into `ledger.db` itself (a passive checkpoint), so that a
   * payment recorded before it is sent is in the database file, not only in a log that another
   * program could delete. Best effort, never an error.
   */
  private checkpoint(): void {
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Best effort: the commit is on disk already (in the log); a statement of this connection
      // still reading (SQLITE_LOCKED) or another writer (SQLITE_BUSY) leaves it for the next one.
    }
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
      db.pragma('journal_size_limit = 4194304');
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
   * The earlier identical cash-out that blocks a new one (src/ledger/rules.ts `blocks`), without
   * taking the write lock: lets paycli refuse before asking for confirmation. {@link begin}
   * checks again inside its transaction.
   * @param fingerprint src/ledger/rules.ts `cashOutFingerprint`
   * @param windowMin the profile's `duplicate-window` (0: only unknown outcomes block)
   */
  blockingCashOut(fingerprint: string, windowMin: number, now = Date.now()): LedgerEntry | undefined {
    return this.guard(() => {
      const row = this.stmt(BLOCKING).get({ fingerprint, windowOn: windowMin > 0 ? 1 : 0, since: now - Math.max(0, windowMin) * 60_000 }) as Row | undefined;
      const e = row ? toEntry(row) : undefined;
      return e && blocks(e, windowMin, now) ? e : undefined;
    });
  }

  /**
   * Refuses a cash-out that an earlier identical one blocks ({@link blockingCashOut}), before
   * anything is asked or sent.
   * @param target full endpoint URL, or `sandbox`
   * @throws UsageError `duplicate_cashout` (exit 2)
   */
  checkCashOut(target: string, body: { value: number; pixKeyType: number; pixKey: string }, windowMin: number): void {
    const now = Date.now();
    const earlier = this.blockingCashOut(cashOutFingerprint(target, body), windowMin, now);
    if (earlier) throw duplicateError(earlier, windowMin, now);
  }

  /**
   * Records a payment before it is sent. For a cash-out, in the same `BEGIN IMMEDIATE`
   * transaction, first refuses it when an earlier identical one blocks it ({@link blockingCashOut});
   * with `allowDuplicate` it is recorded anyway, with the earlier entry it overrides.
   * Cash-ins are recorded, never refused.
   * @returns the new entry's number and the earlier identical cash-out, if any
   * @throws UsageError `duplicate_cashout` (exit 2); LedgerBusyError after {@link BUSY_TIMEOUT_MS};
   *   LedgerUnavailableError
   */
  begin(info: BeginInfo, opts: { windowMin?: number; allowDuplicate?: boolean } = {}): { id: number; uuid: string; earlier?: LedgerEntry } {
    const windowMin = opts.windowMin ?? DEFAULT_WINDOW_MIN;
    if (info.kind === 'cashout' && (info.pixKeyType === undefined || info.pixKey === undefined)) throw new TypeError('a cash-out needs pixKeyType and pixKey');
    const fingerprint = info.kind === 'cashout' ? cashOutFingerprint(info.target, { value: info.value, pixKeyType: info.pixKeyType!, pixKey: info.pixKey! }) : cashInFingerprint(info.target, { value: info.value, payer: info.payer });
    const row: InsertRow = {
      uuid: '',
      time: '',
      kind: info.kind,
      fingerprint,
      value: info.value,
      target: displayTarget(info.target),
      endpoint: endpointIdentity(info.target),
      sandbox: info.sandbox ? 1 : 0,
      profile: clip(info.profile, 100)!,
      pix_key_type: info.pixKeyType ?? null,
      pix_key: clip(info.pixKey, 200),
      recipient: clip(info.recipient, 200),
      payer: clip(info.payer, 200),
      product: clip(info.product, 200),
      order_id: clip(info.orderId, 200),
      batch_id: clip(info.batchId, 200),
      batch_row: info.batchRow ?? null,
      allow_duplicate: opts.allowDuplicate ? 1 : 0,
      overrides: null,
      pid: process.pid,
      source: null,
      time_ms: null,
      deadline_ms: null,
      run_id: null,
    };
    const record = () => {
      const now = Date.now();
      checkClock(now, this.note);
      const earlier = info.kind === 'cashout' ? this.blockingCashOut(fingerprint, windowMin, now) : undefined;
      if (earlier && !opts.allowDuplicate) throw duplicateError(earlier, windowMin, now);
      // One order reference, one payment at a gateway: a second one with the same reference waits
      // for the first to be settled (docs/order-references.md).
      if (row.order_id !== null) {
        const taken = this.stmt(ORDER_TAKEN).get({ order_id: row.order_id, endpoint: row.endpoint }) as Row | undefined;
        if (taken) throw orderTakenError(toEntry(taken), this.note);
      }
      row.run_id = this.registerRun(now).id;
      row.uuid = uuidV7(now);
      row.time = new Date(now).toISOString();
      row.time_ms = now;
      row.deadline_ms = now + Math.max(0, info.startWithinMs ?? 0) + info.timeoutMs;
      row.overrides = earlier?.id ?? null;
      const id = Number(this.stmt(INSERT).run(row).lastInsertRowid);
      return { id, uuid: row.uuid, ...(earlier ? { earlier } : {}) };
    };
    // Inside a {@link group} the write lock is already held: the check and the insert run in its
    // transaction directly (a refusal writes nothing, so no savepoint is needed).
    if (this.db.inTransaction) return this.guard(record);
    this.checkWal(this.note);
    const begun = this.guard(() => this.db.immediate(record));
    this.checkpoint();
    this.checkWal(this.note);
    return begun;
  }

  /**
   * This process's run, registered in `runs` on first use (inside the caller's transaction) with
   * its kernel lock taken (src/ledger/runs.ts).
   */
  private registerRun(now: number): RunRecord {
    const run = currentRun(dirname(this.file), VERSION, now);
    if (this.registered !== run.id) {
      this.stmt(`INSERT OR IGNORE INTO runs (id, pid, proc_start, host, boot_id, user, version, started_ms) VALUES (@id, @pid, @proc_start, @host, @boot_id, @user, @version, @started_ms)`).run({
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
    return run;
  }

  /**
   * Moves the deadline of entries of this run that have no outcome yet to `deadlineMs` (a batch
   * about to start rows later than it planned when it recorded them: their requests may leave
   * later, so a lookup must wait longer before "not found" counts).
   */
  extendDeadlines(ids: readonly number[], deadlineMs: number): void {
    if (!ids.length) return;
    this.guard(() =>
      this.db.immediate(() => {
        const st = this.stmt('UPDATE payments SET deadline_ms = max(coalesce(deadline_ms, 0), @deadline) WHERE id = @id AND outcome IS NULL');
        for (const id of ids) st.run({ id, deadline: deadlineMs });
      }),
    );
  }

  /**
   * What the in-flight rule (src/ledger/settle-rule.ts) needs of an entry: its deadline and the
   * state of the run that recorded it. An entry of a paycli before runs were recorded has no
   * deadline (its time plus the longest timeout is taken) and is judged by its process id alone.
   * A run found gone is marked so, with the time it was first found gone.
   */
  inFlight(e: LedgerEntry): InFlightFacts & { run?: RunRecord } {
    const deadlineMs = e.deadlineMs ?? (e.timeMs ?? Date.now()) + MAX_TIMEOUT_MS;
    if (!e.runId) {
      if (e.pid === undefined || e.pid === process.pid) return { deadlineMs, owner: e.pid === process.pid ? 'alive' : 'gone' };
      try {
        process.kill(e.pid, 0);
        return { deadlineMs, owner: 'alive' };
      } catch (err) {
        return { deadlineMs, owner: (err as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'gone' };
      }
    }
    const run = this.run(e.runId);
    if (!run) return { deadlineMs, owner: 'unknown' };
    return { deadlineMs, owner: this.stateOf(run), run };
  }

  /** A run by id, as recorded. */
  run(id: string): RunRecord | undefined {
    return this.guard(() => {
      const r = this.stmt('SELECT * FROM runs WHERE id = ?').get(id) as Row | undefined;
      return r ? toRun(r) : undefined;
    });
  }

  /** Every run recorded (`paycli ledger push` copies them with the entries). */
  runs(): RunRecord[] {
    return this.guard(() => (this.stmt('SELECT * FROM runs').all() as Row[]).map(toRun));
  }

  /** Whether a run is alive (src/ledger/runs.ts `runState`); one found gone is recorded so, and its lock file removed. */
  private stateOf(run: RunRecord & { goneMs?: number }): OwnerState {
    if (run.goneMs !== undefined) return 'gone';
    const state = runState(run, dirname(this.file));
    if (state === 'gone') {
      this.guard(() => void this.stmt('UPDATE runs SET gone_ms = coalesce(gone_ms, ?) WHERE id = ?').run(Date.now(), run.id));
      forgetRunLock(dirname(this.file), run.id);
    }
    return state;
  }

  /**
   * Makes this process the one run of a batch file at a gateway (docs/batch-runs.md, "One run at a
   * time"): in one `BEGIN IMMEDIATE`, the other runs that claimed the same file and gateway are
   * checked; one that is alive (running or stopped) keeps it.
   * @returns undefined when this run now owns the file; the live run that owns it otherwise
   */
  claimBatch(batchId: string, endpoint: string): RunRecord | undefined {
    return this.guard(() =>
      this.db.immediate(() => {
          const now = Date.now();
          const me = this.registerRun(now);
          const others = (this.stmt(`SELECT * FROM runs WHERE batch_id = ? AND endpoint = ? AND id <> ? AND ended_ms IS NULL AND gone_ms IS NULL`).all(batchId, endpoint, me.id) as Row[]).map(toRun);
          for (const other of others) {
            const state = this.stateOf(other);
            if (state !== 'gone') return other;
          }
          this.stmt('UPDATE runs SET batch_id = ?, endpoint = ? WHERE id = ?').run(batchId, endpoint, me.id);
          return undefined;
      }),
    );
  }

  /** Lets the batch file this run owns go (at the end of a batch run). */
  releaseBatch(): void {
    const id = currentRunId();
    if (id === undefined) return;
    this.guard(() => void this.stmt('UPDATE runs SET ended_ms = ? WHERE id = ? AND batch_id IS NOT NULL').run(Date.now(), id));
  }

  /**
   * Records how a payment ended (the latest call wins). `message` is redacted and shortened.
   * @throws LedgerUnavailableError, LedgerBusyError
   */
  end(id: number, outcome: Outcome, extra: EndDetails = {}): void {
    // After the send: its errors never say "nothing was sent".
    if (!this.db.inTransaction) this.checkWal('');
    this.guard(() =>
      this.stmt(`UPDATE payments SET outcome = @outcome, end_time = @end, transaction_id = coalesce(@transaction_id, transaction_id), status = coalesce(@status, status), http_status = @http_status, message = @message, answer = coalesce(@answer, answer) WHERE id = @id`).run({
        id,
        answer: factsJson(extra.answer),
        outcome,
        end: new Date().toISOString(),
        transaction_id: extra.transactionId ?? null,
        status: clean(extra.status, 20),
        http_status: extra.httpStatus ?? null,
        message: clean(extra.message, 500),
      }),
      '',
    );
  }

  /**
   * Runs `fn` in one `BEGIN IMMEDIATE` transaction: the {@link begin}s and {@link end}s inside it
   * (each then a savepoint) reach the disk together, with one sync (a batch records its rows in
   * groups). Keep `fn` short and synchronous: other paycli processes wait for it.
   */
  group<T>(fn: () => T): T {
    this.checkWal(this.note);
    const out = this.guard(() => this.db.immediate(fn));
    this.checkpoint();
    this.checkWal(this.note);
    return out;
  }

  /**
   * The order reference of the latest identical payment (same fingerprint) recorded since
   * `sinceMs` that the gateway was found not to have (settled `not_sent` by a lookup), and that no
   * later entry has used: a payment tried again is sent under it, so the gateway sees one order.
   */
  reusableOrderId(fingerprint: string, sinceMs: number): string | undefined {
    return this.guard(
      () =>
        this.stmt(
          `SELECT order_id FROM payments AS p WHERE fingerprint = ? AND outcome = 'not_sent' AND resolved_by = 'gateway' AND order_id IS NOT NULL AND time_ms >= ?
             AND NOT EXISTS (SELECT 1 FROM payments AS q WHERE q.order_id = p.order_id AND q.id > p.id) ORDER BY id DESC LIMIT 1`,
        ).value(fingerprint, sinceMs) as string | undefined,
    );
  }

  /** One entry by number, or undefined. */
  get(id: number): LedgerEntry | undefined {
    return this.guard(() => {
      const row = this.stmt(`${ENTRIES_WITH_RUN} WHERE p.id = ?`).get(id) as Row | undefined;
      return row ? toEntry(row) : undefined;
    });
  }

  /** The entries sent with this `orderId`, newest first (index `payments_by_order_id`). */
  findByOrderId(orderId: string): LedgerEntry[] {
    return this.guard(() => (this.stmt('SELECT * FROM payments WHERE order_id = ? ORDER BY id DESC').all(orderId) as Row[]).map(toEntry));
  }

  /**
   * The entries of a batch sent to one endpoint, as plain tuples (no entries built: a re-run of a
   * finished file reads only this): `[row number, order reference, amount in cents, outcome or
   * null while none is recorded, transaction id or null, status or null]`, by row number and,
   * within a row, oldest first (so a row's last tuple is its latest entry).
   * @param endpoint only entries sent to this gateway (src/ledger/rules.ts `endpointIdentity`)
   */
  batchOutcomes(batchId: string, endpoint: string): BatchOutcome[] {
    return this.guard(() => this.stmt(`SELECT batch_row, order_id, value, outcome, transaction_id, status, ${ATTENTION_SQL} FROM payments WHERE batch_id = ? AND endpoint = ? ORDER BY batch_row, id`).allArrays(batchId, endpoint) as BatchOutcome[]);
  }

  /** The entries of a batch, by row number then entry number (a row sent twice appears twice). */
  batchRows(batchId: string): LedgerEntry[] {
    return this.guard(() => (this.stmt('SELECT * FROM payments WHERE batch_id = ? ORDER BY batch_row, id').all(batchId) as Row[]).map(toEntry));
  }

  /**
   * Entries whose outcome is unknown (or not recorded), oldest first.
   * @param opts.since only those recorded at or after this ISO time
   */
  listUnknown(opts: { since?: string; kind?: PaymentKind } = {}): LedgerEntry[] {
    return this.guard(() =>
      (
        this.stmt(`SELECT * FROM payments WHERE (outcome IS NULL OR outcome = 'unknown') AND (@since IS NULL OR time_ms IS NULL OR time_ms >= @since) AND (@kind IS NULL OR kind = @kind) ORDER BY id`).all({
          since: opts.since === undefined ? null : Date.parse(opts.since),
          kind: opts.kind ?? null,
        }) as Row[]
      ).map(toEntry),
    );
  }

  /**
   * Settles an entry whose outcome is unknown: `ok` (it was paid: from now on it blocks an identical
   * cash-out within the window, counted from when it was sent), `not_sent` or `refused` (it no
   * longer blocks). Recorded with who settled it, when, and the note.
   * @throws UsageError (exit 2) when there is no such entry, or its outcome is already known
   */
  resolve(id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: ResolvedBy; note?: string } & EndDetails): LedgerEntry {
    this.checkWal(this.note);
    return this.guard(() =>
      this.db.immediate(() => {
          const before = this.get(id);
          if (!before) throw new UsageError(t('ledger.noEntry', id), { field: 'entry' });
          if (before.completed && before.outcome !== 'unknown' && !needsAttention(before)) {
            throw new UsageError(t('ledger.hasOutcome', id, before.outcome), { field: 'entry' });
          }
          const now = new Date().toISOString();
          this.stmt(
            `UPDATE payments SET outcome = @outcome, end_time = coalesce(end_time, @now), resolved_by = @by, resolved_time = @now, note = @note,
               transaction_id = coalesce(@transaction_id, transaction_id), status = coalesce(@status, status), message = coalesce(@message, message) WHERE id = @id`,
          ).run({ id, outcome, now, by: opts.by, note: clean(opts.note, 500), transaction_id: opts.transactionId ?? null, status: clean(opts.status, 20), message: clean(opts.message, 500) });
          return this.get(id)!;
        }),
    );
  }

  /** What `paycli history` shows: newest first (by entry number), at most `limit`, reading only those rows. */
  query(q: LedgerQuery): LedgerEntry[] {
    return [...this.iterate(q)];
  }

  /**
   * {@link query} one entry at a time (for exports of the whole ledger: memory stays flat). The
   * connection runs nothing else until the iteration ends.
   */
  *iterate(q: LedgerQuery): Generator<LedgerEntry> {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: q.limit };
    const add = (sql: string, name: string, value: unknown) => {
      if (value === undefined) return;
      where.push(sql);
      params[name] = value;
    };
    add('p.time_ms >= @since', 'since', q.since === undefined ? undefined : Date.parse(q.since));
    add('p.time_ms < @until', 'until', q.until === undefined ? undefined : Date.parse(q.until));
    add('p.kind = @kind', 'kind', q.kind);
    if (q.outcome === 'unknown') where.push(`(p.outcome IS NULL OR p.outcome = 'unknown')`);
    else add('p.outcome = @outcome', 'outcome', q.outcome);
    add('p.profile = @profile', 'profile', q.profile);
    add('p.order_id = @order_id', 'order_id', q.orderId);
    // an id kept as a number may be stored as a REAL (500.0): compared as a number too
    add('(CAST(p.transaction_id AS TEXT) = @transaction_id OR p.transaction_id = CAST(@transaction_id AS REAL))', 'transaction_id', q.transactionId);
    add('p.batch_id = @batch_id', 'batch_id', q.batchId);
    add('r.user = @by_user', 'by_user', q.by?.user);
    add('r.host = @by_host COLLATE NOCASE', 'by_host', q.by?.host);
    const sql = `${ENTRIES_WITH_RUN}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY p.id DESC LIMIT @limit`;
    const rows = this.guard(() => this.stmt(sql).iterate(params));
    for (;;) {
      const next = this.guard(() => rows.next());
      if (next.done) return;
      yield toEntry(next.value);
    }
  }

  /**
   * Records the status the gateway now gives a created payment (`paid` for a cash-in seen paid:
   * docs/receipts-and-statements.md "Statements"); nothing else of the entry changes.
   * @throws LedgerUnavailableError, LedgerBusyError
   */
  noteStatus(id: number, status: string): void {
    this.guard(() => void this.stmt(`UPDATE payments SET status = @status WHERE id = @id AND outcome = 'ok'`).run({ id, status: clean(status, 20) }), '');
  }

  /** Facts about the ledger itself, for `history --json` and support: entries imported, and when. */
  meta(key: string): string | undefined {
    return this.guard(() => this.stmt('SELECT value FROM meta WHERE key = ?').value(key) as string | undefined);
  }

  /** Records a fact (`key` → `value` text), replacing an earlier one: what a batch run learnt of its file. */
  setMeta(key: string, value: string): void {
    this.guard(() => void this.stmt('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value));
  }
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

