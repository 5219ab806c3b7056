/**
 * The team ledger's store (docs/ledger-and-safety.md, "Team ledger"): the statements of
 * src/ledger/statements.ts `LedgerStatements` on PostgreSQL, so that every machine of a team checks
 * and records against one history. The rules over it are src/ledger/keeper.ts's, as for the local store.
 *
 * - Asynchronous, on the main thread: every call goes to the one connection
 *   (src/ledger/pg/connection.ts, the only code that loads `pg`), one call at a time, each bounded
 *   in time; while one waits, Ctrl-C, timers and progress keep working.
 * - Check-and-record of a payment is one transaction holding `pg_advisory_xact_lock` of its
 *   gateway endpoint: two paycli on two machines paying the same endpoint check and record one
 *   after the other, and the second sees the first's entry.
 * - A run's liveness comes from the database: each run holds a session-level advisory lock keyed by
 *   its id for the life of its connection (src/ledger/pg/schema.ts `PG_RUN_LOCK`). A stopped
 *   process keeps its connection, so its lock; a killed one loses both. Another paycli tries the
 *   lock: held means alive, free means gone.
 * - Fail closed: unreachable, authentication refused, a schema of another version, a connection lost
 *   before the record is committed: {@link LedgerUnavailableError} (exit 2, nothing sent), naming
 *   the host and database, never the password. After a send, a failed write leaves the entry
 *   unknown, as the local ledger does (src/payment/record-end.ts).
 */
import { hostname, userInfo } from 'node:os';
import { redactUrls } from '../../core/secrets.js';
import { VERSION } from '../../core/version.js';
import { uuidV7 } from '../uuid.js';
import { logger } from '../../core/logger.js';
import { t } from '../../core/i18n/index.js';
import { LedgerUnavailableError } from '../errors.js';
import type { PaymentKind } from '../rules.js';
import type { RunRecord } from '../runs.js';
import type { OwnerState } from '../settle-rule.js';
import { ATTENTION_SQL, clip, type BatchOutcome, type LedgerEntry, type LedgerQuery, type Row } from '../schema.js';
import { prunableRunSql, type Checked, type EndRow, type LedgerStatements, type NewPayment, type SettleRow, type StoredRun } from '../statements.js';
import { PG_BLOCKING, PG_REUSABLE, PG_REUSABLE_LIMIT, PG_RUN_PROBE, PG_SCHEMA_VERSION } from './schema.js';
import { patiently, type BeginAnswer, type PgConnection, type Statement, type Step } from './connection.js';
import { startOpening, type PgOpening } from './opening.js';
import { ledgerWhere, pgFailure } from './failure.js';
import { beginArgs, checkedOf, endColumns, endValues, insertColumns, insertRows, PUSH_COLUMNS, PUSH_TYPES, pushRows, queryWhere, toPgEntry, toPgRun } from './rows.js';

export { ledgerWhere, pgFailure } from './failure.js';
export { toPgEntry } from './rows.js';

export { PG_CONNECT_TIMEOUT_MS, PG_QUERY_TIMEOUT_MS, type PgOpening } from './opening.js';

/** How long what {@link PgLedger.blocking} read ahead stays usable (ms): the payment asks for it at once. */
const READ_AHEAD_MS = 2000;

/** This process as a run of the team ledger. */
interface PgRun extends RunRecord {}

/** A connection to a team ledger: a store of src/ledger/statements.ts. */
export class PgLedger implements LedgerStatements {
  /** Where it is (`host:port/database`), in place of the local ledger's file path. */
  readonly file: string;
  private readonly conn: PgConnection;
  /** What errors add before a send. */
  readonly note: string;
  /** An entry without a run names no process of this machine. */
  readonly byPid = false;
  private me: PgRun | undefined;
  /** A transaction's BEGIN, not sent yet: it goes with the transaction's first call. */
  private pendingBegin = false;
  /** This run's registration (its lock and row), not sent yet: it goes with the next call, before anything it names. */
  private pendingRegister: unknown[] | undefined;
  /** The end of the queue of calls: one call of the contract at a time on the one connection. */
  private tail: Promise<unknown> = Promise.resolve();
  /** True once this process recorded a payment here: from then on an interrupted wait no longer says "nothing was sent". */
  private recorded = false;
  /** What {@link blocking} read ahead (the reusable attempts, newest first) for the next call, if it is {@link reusableOrderId} (src/payment/pipeline.ts). */
  private readAhead: { fingerprint: string; rows: Row[]; atMs: number } | undefined;

  private constructor(where: string, conn: PgConnection, note: string) {
    this.file = where;
    this.conn = conn;
    this.note = note;
  }

  /**
   * Connects to the team ledger and checks its schema version.
   * @param opts.beforeSend a paycli about to send: errors say "nothing was sent", and this process
   *   registers as a run (its advisory lock taken)
   * @param opts.migrating `paycli ledger migrate`: no schema check
   * @throws LedgerUnavailableError (exit 2); InterruptedError (Ctrl-C while it waits, exit 130)
   */
  static open(url: string, opts: { password?: string; beforeSend?: boolean; migrating?: boolean } = {}): Promise<PgLedger> {
    return PgLedger.finish(PgLedger.start(url, opts), opts);
  }

  /**
   * Starts opening a team ledger: the driver loads, connects and reads the schema version while
   * the caller goes on (a cash-out reads its flags meanwhile). Nothing is waited for and nothing
   * thrown about the database here: {@link finish} does that.
   */
  static start(url: string, opts: { password?: string; beforeSend?: boolean } = {}): PgOpening {
    return startOpening(url, opts);
  }

  /** Lets a ledger {@link start}ed go unused (its connection closed, or its attempt to connect let go). */
  static discard(opening: PgOpening): Promise<void> {
    return opening.connection.close();
  }

  /**
   * Waits until a ledger {@link start}ed is connected, checks its schema version (unless
   * `migrating`) and, before a send, registers this process as a run (sent with the first call).
   * @throws LedgerUnavailableError (exit 2); InterruptedError (Ctrl-C while it waits, exit 130)
   */
  static async finish(opening: PgOpening, opts: { migrating?: boolean } = {}): Promise<PgLedger> {
    const note = opening.beforeSend ? `; ${t('common.nothingSent')}` : '';
    const where = ledgerWhere(opening.url);
    const conn = opening.connection;
    let version: number;
    try {
      version = await patiently(conn.ready, where, note, () => void PgLedger.discard(opening));
    } catch (err) {
      throw pgFailure(err, where, note);
    }
    const ledger = new PgLedger(where, conn, note);
    conn.onLost = (why) => ledger.onLost(why);
    try {
      if (!opts.migrating) ledger.checkVersion(version);
      if (opening.beforeSend) ledger.register();
      return ledger;
    } catch (err) {
      await conn.close();
      throw pgFailure(err, ledger.file, ledger.note);
    }
  }

  /** The connection ended without paycli closing it: said once on stderr (a batch then starts no more rows). */
  private onLost(why: string): void {
    logger.warn(t('team.lostWarning', this.file, redactUrls(why || t('team.serverClosed'))));
  }

  /**
   * Throws when the connection is known to be lost (no round trip).
   * @throws LedgerUnavailableError
   */
  usable(): void {
    if (this.conn.lost) throw new LedgerUnavailableError(t('team.lostNow', this.file, this.note || `; ${t('team.nothingMoreSent')}`), { hint: t('team.lostHint') });
  }

  /** The schema version the database holds (0: none). */
  private async schemaVersion(): Promise<number> {
    const rows = await this.q(`SELECT to_regclass('paycli.meta') IS NOT NULL AS has`);
    if (!rows[0]?.has) return 0;
    const v = (await this.q(`SELECT value FROM paycli.meta WHERE key = 'schema_version'`))[0]?.value;
    return v === undefined ? 0 : Number(v);
  }

  private checkVersion(v: number): void {
    if (v === PG_SCHEMA_VERSION) return;
    if (v > PG_SCHEMA_VERSION) throw new LedgerUnavailableError(t('team.schemaNewer', this.file, v, PG_SCHEMA_VERSION, this.note), { hint: t('team.schemaNewerHint') });
    throw new LedgerUnavailableError(t('team.schemaOlder', this.file, v, PG_SCHEMA_VERSION, this.note), { hint: t('team.schemaOlderHint') });
  }

  /**
   * Applies the migrations the database lacks, each in its own transaction, under an advisory lock
   * (two migrating at once apply each once).
   * @returns the versions before and after
   */
  migrate(migrations: readonly string[]): Promise<{ from: number; to: number }> {
    return this.serial(async () => {
      await this.q('SELECT pg_advisory_lock(2, 0)');
      try {
        const from = await this.schemaVersion();
        if (from > migrations.length) throw new LedgerUnavailableError(t('team.schemaNewer', this.file, from, migrations.length, ''), { hint: t('team.schemaNewerHint') });
        for (let v = from; v < migrations.length; v++) {
          const version = String(v + 1);
          await this.transaction(async () => {
            await this.q(migrations[v]!);
            await this.q(`INSERT INTO paycli.meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [version]);
          });
        }
        return { from, to: Math.max(from, migrations.length) };
      } finally {
        await this.q('SELECT pg_advisory_unlock(2, 0)');
      }
    });
  }

  /** {@link q} as a function (for the statements of ./rows.ts). */
  private readonly statement = (sql: string, params: unknown[]): Promise<Row[]> => this.q(sql, params);

  /** Runs one statement (after what is pending). @throws PgCallError */
  private q(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.call<Row[]>('query', sql, params);
  }

  /**
   * Calls `op` on the connection, with what this ledger kept pending sent ahead of it in the same
   * trip (this run's registration, a transaction's BEGIN), in that order.
   * @throws PgCallError
   */
  private async call<T>(op: string, ...args: unknown[]): Promise<T> {
    const pre: Step[] = [];
    const register = this.pendingRegister;
    if (register) pre.push({ op: 'register', args: [register] });
    if (this.pendingBegin) pre.push({ op: 'query', args: ['BEGIN'] });
    this.pendingRegister = undefined;
    this.pendingBegin = false;
    if (!pre.length) return this.conn.call<T>(op, ...args);
    try {
      const out = await this.conn.call<unknown[]>('many', [...pre, { op, args }]);
      return out[out.length - 1] as T;
    } catch (err) {
      // Whether the registration went through is not known: this process counts as no run yet.
      if (register) this.me = undefined;
      throw err;
    }
  }

  /**
   * Runs `fn` (statements of one call of the contract) after the calls before it, while nothing
   * else uses the connection; waits without blocking ({@link patiently}: a notice after a second,
   * Ctrl-C stops it). A driver's error becomes a LedgerUnavailableError whose message ends with `note`.
   */
  private serial<T>(fn: () => Promise<T>, note = this.note): Promise<T> {
    this.readAhead = undefined;
    const run = async (): Promise<T> => {
      try {
        return await patiently(fn(), this.file, this.recorded ? '' : note, () => this.conn.destroy());
      } catch (err) {
        throw pgFailure(err, this.file, note);
      }
    };
    const p = this.tail.then(run, run);
    this.tail = p.catch(() => undefined);
    return p;
  }

  /**
   * Registers this process as a run: its lock first (so a visible run is a locked one while it
   * lives), then its row, in one statement sent with the next call (src/ledger/pg/schema.ts `PG_RUN_REGISTER`).
   */
  private register(): PgRun {
    if (this.me) return this.me;
    let user = 'unknown';
    try {
      user = userInfo().username;
    } catch {
      /* no user database entry (a container) */
    }
    const run: PgRun = { id: uuidV7(), pid: process.pid, procStart: null, host: hostname(), bootId: null, startedMs: Date.now(), user, version: VERSION };
    this.pendingRegister = [run.id, run.pid, clip(run.host, 200), clip(run.user, 100), run.version, run.startedMs];
    this.me = run;
    return run;
  }

  /** Closes the connection (the session ends, and this run's lock with it); waits for the calls before it, within their limits. */
  async close(): Promise<void> {
    await this.tail;
    await this.conn.close();
  }

  self(): RunRecord {
    return this.register();
  }

  selfId(): string | undefined {
    return this.me?.id;
  }

  /** Also reads ahead what {@link reusableOrderId} asks next, in the same round trip. */
  async blocking(fingerprint: string, windowOn: boolean, sinceMs: number): Promise<LedgerEntry | undefined> {
    const reads: Statement[] = [
      [PG_BLOCKING, [fingerprint, windowOn, sinceMs]],
      [PG_REUSABLE, [fingerprint, null]],
    ];
    const [blocking, reusable] = await this.serial(() => this.call<Row[][]>('queries', reads));
    this.readAhead = { fingerprint, rows: reusable!, atMs: Date.now() };
    const row = blocking![0];
    return row ? toPgEntry(row) : undefined;
  }

  /**
   * One payment and no outcome: BEGIN, the endpoint's lock, check-and-record and COMMIT in one
   * round trip (src/ledger/pg/connection.ts `begin`). Else one transaction: the outcomes, the
   * endpoint locks, then (with no two payments able to refuse each other) one statement.
   */
  async checkAndInsert(rows: readonly NewPayment[], ends: readonly EndRow[]): Promise<Checked[]> {
    if (!rows.length) {
      await this.writeEnds(ends);
      return [];
    }
    const args = rows.map((r) => beginArgs(r, rows.length > 1 || ends.length > 0));
    const answers = await this.serial(async () => {
      if (!args[0]!.inTransaction) return [await this.call<BeginAnswer>('begin', args[0])];
      return this.transaction(async () => {
        if (ends.length) await this.call('endMany', endColumns(ends.map(endValues)), true);
        return this.call<BeginAnswer[]>('beginMany', { rows: args, inTransaction: true });
      });
    });
    const found = answers.map(checkedOf);
    if (found.some((f) => f.id !== undefined)) this.recorded = true;
    return found;
  }

  async extendDeadlines(ids: readonly number[], deadlineMs: number): Promise<void> {
    await this.serial(() =>
      this.q('UPDATE paycli.payments SET deadline_ms = greatest(coalesce(deadline_ms, 0), $2) WHERE id = ANY($1::bigint[]) AND outcome IS NULL', [ids, deadlineMs]),
    );
  }

  async run(id: string): Promise<StoredRun | undefined> {
    const r = (await this.serial(() => this.q('SELECT * FROM paycli.runs WHERE id = $1', [id])))[0];
    return r ? toPgRun(r) : undefined;
  }

  async runs(): Promise<StoredRun[]> {
    return (await this.serial(() => this.q('SELECT * FROM paycli.runs'))).map(toPgRun);
  }

  /** Its advisory lock held (running or stopped): alive; free: gone. */
  async probe(run: StoredRun): Promise<OwnerState> {
    const free = (await this.serial(() => this.q(PG_RUN_PROBE, [run.id])))[0]?.free === true;
    return free ? 'gone' : 'alive';
  }

  async markGone(id: string, ms: number): Promise<void> {
    await this.serial(() => this.q('UPDATE paycli.runs SET gone_ms = coalesce(gone_ms, $1) WHERE id = $2', [ms, id]));
  }

  /** BEGIN … COMMIT around `fn`, holding the advisory lock of `lock` (a batch file at a gateway) when one is named. */
  exclusive<T>(lock: string | undefined, fn: () => T | Promise<T>): Promise<T> {
    return this.transaction(async () => {
      if (lock !== undefined) await this.serial(() => this.q('SELECT pg_advisory_xact_lock(3, hashtext($1))', [lock]));
      return fn();
    }, true);
  }

  async claimants(batchId: string, endpoint: string, exceptId: string): Promise<StoredRun[]> {
    const sql = 'SELECT * FROM paycli.runs WHERE batch_id = $1 AND endpoint = $2 AND id <> $3 AND ended_ms IS NULL AND gone_ms IS NULL';
    return (await this.serial(() => this.q(sql, [batchId, endpoint, exceptId]))).map(toPgRun);
  }

  /** The run's row is written with this process's first call ({@link register}), before this. */
  async takeBatch(run: RunRecord, batchId: string, endpoint: string): Promise<void> {
    await this.serial(() => this.q('UPDATE paycli.runs SET batch_id = $1, endpoint = $2 WHERE id = $3', [batchId, endpoint, run.id]));
  }

  async endRun(id: string, ms: number): Promise<void> {
    await this.serial(() => this.q('UPDATE paycli.runs SET ended_ms = $1 WHERE id = $2 AND batch_id IS NOT NULL', [ms, id]));
  }

  /** Keeps the runs of entries still open (their in-flight rule asks for the run); who sent an entry is on the entry itself. */
  async pruneRuns(beforeMs: number): Promise<number> {
    const sql = `DELETE FROM paycli.runs AS r WHERE ${prunableRunSql('$1::bigint')}
      AND NOT EXISTS (SELECT 1 FROM paycli.payments AS p WHERE p.run_id = r.id AND (p.outcome IS NULL OR p.outcome = 'unknown'))`;
    const rows = await this.serial(() => this.q(`WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`, [beforeMs]));
    return Number(rows[0]?.n ?? 0);
  }

  /** Outcomes in one statement, in a transaction of their own that does not wait for the disk (src/ledger/pg/connection.ts `endMany`). */
  async writeEnds(ends: readonly EndRow[]): Promise<void> {
    if (ends.length) await this.serial(() => this.call('endMany', endColumns(ends.map(endValues)), false), '');
  }

  /**
   * BEGIN … COMMIT around `fn` (the BEGIN goes with the first call inside); ROLLBACK when it throws.
   * @param outside the statements inside go through {@link serial} themselves (the keeper's `exclusive`)
   */
  private async transaction<T>(fn: () => Promise<T>, outside = false): Promise<T> {
    const q = (sql: string) => (outside ? this.serial(() => this.q(sql)) : this.q(sql));
    this.pendingBegin = true;
    try {
      const out = await fn();
      if (this.pendingBegin) this.pendingBegin = false;
      else await q('COMMIT');
      return out;
    } catch (err) {
      const begun = !this.pendingBegin;
      this.pendingBegin = false;
      if (begun) await q('ROLLBACK').catch(() => undefined); // the first error is the one to report
      throw err;
    }
  }

  /** From what {@link blocking} read ahead just before, when it can tell; else one statement. */
  async reusableOrderId(fingerprint: string, sinceMs: number): Promise<string | undefined> {
    const ahead = this.readAhead;
    this.readAhead = undefined;
    if (ahead && ahead.fingerprint === fingerprint && Date.now() - ahead.atMs <= READ_AHEAD_MS) {
      const hit = ahead.rows.find((r) => r.time_ms !== null && Number(r.time_ms) >= sinceMs);
      // Fewer rows than the limit: every candidate was read, so none found means none.
      if (hit || ahead.rows.length < PG_REUSABLE_LIMIT) return hit?.order_id as string | undefined;
    }
    return (await this.serial(() => this.q(PG_REUSABLE, [fingerprint, sinceMs])))[0]?.order_id as string | undefined;
  }

  async get(id: number, forUpdate = false): Promise<LedgerEntry | undefined> {
    const row = (await this.serial(() => this.q(`SELECT * FROM paycli.payments WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id])))[0];
    return row ? toPgEntry(row) : undefined;
  }

  /** Many order references in one statement (one round trip for a batch's group of rows). */
  async findByOrderIds(orderIds: readonly string[]): Promise<Map<string, LedgerEntry[]>> {
    const out = new Map<string, LedgerEntry[]>();
    const rows = await this.serial(() => this.q('SELECT * FROM paycli.payments WHERE order_id = ANY($1::text[]) ORDER BY id DESC', [[...orderIds]]));
    for (const r of rows) {
      const key = r.order_id as string;
      const list = out.get(key);
      if (list) list.push(toPgEntry(r));
      else out.set(key, [toPgEntry(r)]);
    }
    return out;
  }

  batchOutcomes(batchId: string, endpoint: string): Promise<BatchOutcome[]> {
    return this.serial(async () =>
      (
        await this.q(
          `SELECT batch_row, order_id, value, outcome, transaction_id, status, ${ATTENTION_SQL} AS attention FROM paycli.payments WHERE batch_id = $1 AND endpoint = $2 ORDER BY batch_row, id`,
          [batchId, endpoint],
        )
      ).map((r) => [r.batch_row, r.order_id, r.value, r.outcome ?? null, r.transaction_id ?? null, r.status ?? null, Number(r.attention)] as BatchOutcome),
    );
  }

  batchRows(batchId: string): Promise<LedgerEntry[]> {
    return this.serial(async () => (await this.q('SELECT * FROM paycli.payments WHERE batch_id = $1 ORDER BY batch_row, id', [batchId])).map(toPgEntry));
  }

  listUnknown(opts: { since?: string; kind?: PaymentKind }): Promise<LedgerEntry[]> {
    return this.serial(async () =>
      (
        await this.q(
          `SELECT * FROM paycli.payments WHERE (outcome IS NULL OR outcome = 'unknown') AND ($1::bigint IS NULL OR time_ms IS NULL OR time_ms >= $1) AND ($2::text IS NULL OR kind = $2) ORDER BY id`,
          [opts.since === undefined ? null : Date.parse(opts.since), opts.kind ?? null],
        )
      ).map(toPgEntry),
    );
  }

  async settle(r: SettleRow): Promise<LedgerEntry> {
    const sql = `UPDATE paycli.payments SET outcome = $2, end_time = coalesce(end_time, $3), resolved_by = $4, resolved_time = $3, note = $5,
      transaction_id = coalesce($6::jsonb, transaction_id), status = coalesce($7, status), message = coalesce($8, message) WHERE id = $1 RETURNING *`;
    const params = [r.id, r.outcome, r.now, r.by, r.note, r.transactionId === null ? null : JSON.stringify(r.transactionId), r.status, r.message];
    return toPgEntry((await this.serial(() => this.q(sql, params)))[0]!);
  }

  /** {@link query} in pages of 1,000 by entry number (an export of the whole ledger keeps memory flat). */
  async *iterate(q: LedgerQuery): AsyncGenerator<LedgerEntry> {
    const [where, params] = queryWhere(q);
    let left = q.limit < 0 ? Infinity : q.limit;
    let below: number | undefined;
    while (left > 0) {
      const page = Math.min(left, 1000);
      const sql = `SELECT * FROM paycli.payments WHERE ${[...where, below === undefined ? 'true' : `id < ${below}`].join(' AND ')} ORDER BY id DESC LIMIT ${page}`;
      const rows = await this.serial(() => this.q(sql, params));
      for (const r of rows) yield toPgEntry(r);
      if (rows.length < page) return;
      left -= rows.length;
      below = Number(rows[rows.length - 1]!.id);
    }
  }

  meta(key: string): Promise<string | undefined> {
    return this.serial(async () => (await this.q('SELECT value FROM paycli.meta WHERE key = $1', [key]))[0]?.value as string | undefined);
  }

  async noteStatus(id: number, status: string | null): Promise<void> {
    await this.serial(() => this.q(`UPDATE paycli.payments SET status = $1 WHERE id = $2 AND outcome = 'ok'`, [status, id]), '');
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.serial(() => this.q('INSERT INTO paycli.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]));
  }

  /**
   * Copies entries (and the runs they name) of a local ledger here, skipping those whose uuid the
   * team ledger holds already (`paycli ledger push`): pushing twice adds nothing.
   * @returns how many entries were added
   */
  async push(entries: Iterable<LedgerEntry>, runs: (id: string) => RunRecord | undefined, onProgress?: (done: number) => void): Promise<number> {
    const seenRuns = new Set<string>();
    let added = 0;
    let done = 0;
    let chunk: LedgerEntry[] = [];
    const flush = async () => {
      if (!chunk.length) return;
      const { runRows, rows } = pushRows(chunk, runs, seenRuns);
      await this.serial(() =>
        this.transaction(async () => {
          if (runRows.length) await insertRows(this.statement, 'paycli.runs (id, pid, host, os_user, version, started_ms, gone_ms)', 7, runRows, 'ON CONFLICT (id) DO NOTHING');
          added += await insertColumns(this.statement, PUSH_COLUMNS, PUSH_TYPES, rows);
        }),
      );
      done += chunk.length;
      chunk = [];
      onProgress?.(done);
    };
    for (const e of entries) {
      chunk.push(e);
      if (chunk.length >= 5000) await flush();
    }
    await flush();
    return added;
  }
}
