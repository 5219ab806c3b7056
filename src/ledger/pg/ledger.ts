/**
 * The team ledger (docs/ledger-and-safety.md, "Team ledger"): the same store as the local ledger
 * (src/ledger/ledger.ts, the methods of src/ledger/store.ts `LedgerStore`), kept in PostgreSQL so that every machine
 * of a team checks and records against one history.
 *
 * - The API stays synchronous: every call goes through src/ledger/pg/bridge.ts to the worker that
 *   owns the connection (src/ledger/pg/worker.ts, the only code that loads `pg`).
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
 *
 * Longer than 500 lines: one class with the local ledger's every method, each a statement or a
 * transaction on its one connection; the schema, the bridge and the worker live beside it.
 */
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { UsageError } from '../../core/errors.js';
import { redactUrls } from '../../core/secrets.js';
import { VERSION } from '../../core/version.js';
import { logger } from '../../core/logger.js';
import { t } from '../../core/i18n/index.js';
import { MAX_TIMEOUT_MS } from '../../config/settings.js';
import { LedgerUnavailableError } from '../errors.js';
import { blocks, DEFAULT_WINDOW_MIN, cashInFingerprint, cashOutFingerprint, checkClock, displayTarget, duplicateError, endpointIdentity, orderTakenError, type Outcome, type PaymentKind } from '../rules.js';
import type { RunRecord } from '../runs.js';
import type { InFlightFacts, OwnerState } from '../settle-rule.js';
import { clean, clip, factsJson, type BatchOutcome, type BeginInfo, type EndDetails, type LedgerEntry, type LedgerQuery, type ResolvedBy, type Row } from '../schema.js';
import type { SyncWorker } from './bridge.js';
import { PG_RUN_PROBE, PG_SCHEMA_VERSION } from './schema.js';
import type { BeginAnswer, BeginArgs, BeginManyArgs } from './worker.js';
import { startOpening, type PgOpening } from './opening.js';
import { ledgerWhere, pgFailure } from './failure.js';
import { endColumns, insertColumns, insertRows, PUSH_COLUMNS, PUSH_TYPES, pushRows, toPgEntry, toPgRun } from './rows.js';
import { uuidV7 } from '../uuid.js';

export { ledgerWhere, pgFailure } from './failure.js';
export { toPgEntry } from './rows.js';

export { PG_CONNECT_TIMEOUT_MS, PG_QUERY_TIMEOUT_MS, type PgOpening } from './opening.js';

/** This process as a run of the team ledger. */
interface PgRun extends RunRecord {}

/** One call the worker runs (src/ledger/pg/worker.ts `ops`). */
type Step = { op: string; args: unknown[] };

/** A connection to a team ledger, with the methods of src/ledger/store.ts `LedgerStore`. */
export class PgLedger {
  /** Where it is (`host:port/database`), in place of the local ledger's file path. */
  readonly file: string;
  private readonly bridge: SyncWorker;
  private readonly note: string;
  private me: PgRun | undefined;
  private depth = 0;
  /** Outcomes recorded inside a group, written together, with the next call or the commit. */
  private pendingEnds: unknown[][] = [];
  /** A group's BEGIN, not sent yet: it goes with the group's first call (or not at all when the group makes none). */
  private pendingBegin = false;
  /** This run's registration (its lock and row), not sent yet: it goes with the next call, before anything it names. */
  private pendingRegister: unknown[] | undefined;

  /** True once the connection was made: a connection that never came up is an error, not a loss. */
  private connected = false;

  private constructor(where: string, bridge: SyncWorker, note: string) {
    this.file = where;
    this.bridge = bridge;
    this.note = note;
  }

  /**
   * Connects to the team ledger and checks its schema version.
   * @param opts.beforeSend a paycli about to send: errors say "nothing was sent", and this process
   *   registers as a run (its advisory lock taken)
   * @param opts.migrating `paycli ledger migrate`: no schema check
   * @throws LedgerUnavailableError (exit 2)
   */
  static open(url: string, opts: { password?: string; beforeSend?: boolean; migrating?: boolean } = {}): PgLedger {
    return PgLedger.finish(PgLedger.start(url, opts), opts);
  }

  /**
   * Starts opening a team ledger: the worker starts, loads the driver, connects and reads the
   * schema version while the caller goes on (a cash-out reads its flags meanwhile). Nothing is
   * waited for and nothing thrown about the database here: {@link finish} does that.
   */
  static start(url: string, opts: { password?: string; beforeSend?: boolean } = {}): PgOpening {
    return startOpening(url, opts);
  }

  /** Lets a ledger {@link start}ed go unused (its worker ends, and its connection with it). */
  static discard(opening: PgOpening): void {
    opening.bridge.close();
  }

  /**
   * Waits until a ledger {@link start}ed is connected, checks its schema version (unless
   * `migrating`) and, before a send, registers this process as a run (sent with the first call).
   * @throws LedgerUnavailableError (exit 2)
   */
  static finish(opening: PgOpening, opts: { migrating?: boolean } = {}): PgLedger {
    const note = opening.beforeSend ? `; ${t('common.nothingSent')}` : '';
    const ledger = new PgLedger(ledgerWhere(opening.url), opening.bridge, note);
    opening.onEvent.handler = (event) => ledger.onLost(event);
    try {
      const { version } = ledger.bridge.answer<{ version: number }>();
      ledger.connected = true;
      if (!opts.migrating) ledger.checkVersion(version);
      if (opening.beforeSend) ledger.register();
      return ledger;
    } catch (err) {
      ledger.bridge.close();
      throw pgFailure(err, ledger.file, ledger.note);
    }
  }

  /** The worker saw the connection end: said once on stderr (a batch then starts no more rows). */
  private onLost(event: unknown): void {
    if (!this.connected) return;
    const why = (event as { lost?: string })?.lost || t('team.serverClosed');
    logger.warn(t('team.lostWarning', this.file, redactUrls(why)));
  }

  /**
   * Throws when the connection is known to be lost (no round trip: the worker raised a flag).
   * @throws LedgerUnavailableError
   */
  assertConnected(): void {
    if (this.bridge.lost) throw new LedgerUnavailableError(t('team.lostNow', this.file, this.note || `; ${t('team.nothingMoreSent')}`), { hint: t('team.lostHint') });
  }

  /** The schema version the database holds (0: none). */
  schemaVersion(): number {
    const rows = this.q(`SELECT to_regclass('paycli.meta') IS NOT NULL AS has`);
    if (!rows[0]?.has) return 0;
    const v = this.q(`SELECT value FROM paycli.meta WHERE key = 'schema_version'`)[0]?.value;
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
  migrate(migrations: readonly string[]): { from: number; to: number } {
    return this.guard(() => {
      this.bridge.call('query', 'SELECT pg_advisory_lock(2, 0)');
      try {
        const from = this.schemaVersion();
        if (from > migrations.length) throw new LedgerUnavailableError(t('team.schemaNewer', this.file, from, migrations.length, ''), { hint: t('team.schemaNewerHint') });
        for (let v = from; v < migrations.length; v++) {
          this.q('BEGIN');
          try {
            this.q(migrations[v]!);
            this.q(`INSERT INTO paycli.meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [String(v + 1)]);
            this.q('COMMIT');
          } catch (err) {
            this.bridge.call('query', 'ROLLBACK');
            throw err;
          }
        }
        return { from, to: Math.max(from, migrations.length) };
      } finally {
        this.bridge.call('query', 'SELECT pg_advisory_unlock(2, 0)');
      }
    });
  }

  /** {@link q} as a function (for the statements of ./rows.ts). */
  private readonly statement = (sql: string, params: unknown[]): Row[] => this.q(sql, params);

  /** Runs one statement (after what is pending). @throws WorkerCallError */
  private q(sql: string, params: unknown[] = []): Row[] {
    return this.call<Row[]>('query', sql, params);
  }

  /**
   * Calls `op` in the worker, with what this ledger kept pending sent ahead of it in the same trip
   * (this run's registration, a group's BEGIN, a group's outcomes), in that order.
   * @throws WorkerCallError
   */
  private call<T>(op: string, ...args: unknown[]): T {
    const pre: Step[] = [];
    const register = this.pendingRegister;
    if (register) pre.push({ op: 'register', args: [register] });
    if (this.pendingBegin) pre.push({ op: 'query', args: ['BEGIN'] });
    if (this.pendingEnds.length) pre.push({ op: 'endMany', args: [endColumns(this.pendingEnds), true] });
    this.pendingRegister = undefined;
    this.pendingBegin = false;
    this.pendingEnds = [];
    if (!pre.length) return this.bridge.call<T>(op, ...args);
    try {
      const out = this.bridge.call<unknown[]>('many', [...pre, { op, args }]);
      return out[out.length - 1] as T;
    } catch (err) {
      // Whether the registration went through is not known: this process counts as no run yet.
      if (register) this.me = undefined;
      throw err;
    }
  }

  private guard<T>(fn: () => T, note = this.note): T {
    try {
      return fn();
    } catch (err) {
      throw pgFailure(err, this.file, note);
    }
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
    const run: PgRun = { id: randomUUID(), pid: process.pid, procStart: null, host: hostname(), bootId: null, startedMs: Date.now(), user, version: VERSION };
    this.pendingRegister = [run.id, run.pid, clip(run.host, 200), clip(run.user, 100), run.version, run.startedMs];
    this.me = run;
    return run;
  }

  close(): void {
    try {
      this.bridge.call('close');
    } catch {
      /* closing */
    }
    this.bridge.close();
  }

  blockingCashOut(fingerprint: string, windowMin: number, now = Date.now()): LedgerEntry | undefined {
    return this.guard(() => {
      const row = this.q(`SELECT * FROM paycli.payments WHERE fingerprint = $1 AND kind = 'cashout'
        AND (outcome IS NULL OR outcome = 'unknown' OR (outcome = 'ok' AND $2::boolean AND (time_ms IS NULL OR time_ms >= $3))) ORDER BY id DESC LIMIT 1`, [fingerprint, windowMin > 0, now - Math.max(0, windowMin) * 60_000])[0];
      const e = row ? toPgEntry(row) : undefined;
      return e && blocks(e, windowMin, now) ? e : undefined;
    });
  }

  checkCashOut(target: string, body: { value: number; pixKeyType: number; pixKey: string }, windowMin: number): void {
    const now = Date.now();
    const earlier = this.blockingCashOut(cashOutFingerprint(target, body), windowMin, now);
    if (earlier) throw duplicateError(earlier, windowMin, now);
  }

  begin(info: BeginInfo, opts: { windowMin?: number; allowDuplicate?: boolean } = {}): { id: number; uuid: string; earlier?: LedgerEntry } {
    const now = Date.now();
    checkClock(now, this.note);
    const args = this.beginArgs(info, opts, now, this.guard(() => this.register()));
    const answer = this.guard(() => this.call<BeginAnswer>('begin', args));
    return this.begun(answer, args, opts.windowMin ?? DEFAULT_WINDOW_MIN, now);
  }

  /**
   * {@link begin} of many payments (a batch's group) in one round trip and, with no two of them
   * able to refuse each other, one statement: each is checked and recorded as {@link begin} would
   * one after the other. A refusal is that payment's answer, as the error {@link begin} throws
   * (`duplicate_cashout`, `duplicate_order`); the others are recorded all the same.
   * @returns per payment, in order: its entry, or the error that refused it
   * @throws LedgerUnavailableError (nothing of the call recorded when outside a group; inside, the group's transaction fails)
   */
  beginMany(infos: readonly BeginInfo[], opts: { windowMin?: number; allowDuplicate?: boolean } = {}): Array<{ id: number; uuid: string; earlier?: LedgerEntry } | UsageError> {
    if (!infos.length) return [];
    const now = Date.now();
    checkClock(now, this.note);
    const run = this.guard(() => this.register());
    const rows = infos.map((info) => this.beginArgs(info, opts, now, run));
    const call: BeginManyArgs = { rows, inTransaction: this.depth > 0 };
    const answers = this.guard(() => this.call<BeginAnswer[]>('beginMany', call));
    const windowMin = opts.windowMin ?? DEFAULT_WINDOW_MIN;
    return answers.map((answer, i) => {
      try {
        return this.begun(answer, rows[i]!, windowMin, now);
      } catch (err) {
        if (err instanceof UsageError) return err;
        throw err;
      }
    });
  }

  /** What the worker needs to check and record one payment. */
  private beginArgs(info: BeginInfo, opts: { windowMin?: number; allowDuplicate?: boolean }, now: number, run: PgRun): BeginArgs & { uuid: string } {
    const windowMin = opts.windowMin ?? DEFAULT_WINDOW_MIN;
    if (info.kind === 'cashout' && (info.pixKeyType === undefined || info.pixKey === undefined)) throw new TypeError('a cash-out needs pixKeyType and pixKey');
    const fingerprint = info.kind === 'cashout' ? cashOutFingerprint(info.target, { value: info.value, pixKeyType: info.pixKeyType!, pixKey: info.pixKey! }) : cashInFingerprint(info.target, { value: info.value, payer: info.payer });
    const uuid = uuidV7(now);
    const endpoint = endpointIdentity(info.target);
    const orderId = clip(info.orderId, 200);
    const values = [
      uuid, new Date(now).toISOString(), info.kind, fingerprint, info.value, displayTarget(info.target), endpoint, info.sandbox ? 1 : 0, clip(info.profile, 100),
      info.pixKeyType ?? null, clip(info.pixKey, 200), clip(info.recipient, 200), clip(info.payer, 200), clip(info.product, 200), orderId, clip(info.batchId, 200), info.batchRow ?? null,
      opts.allowDuplicate ? 1 : 0, null, process.pid, null, now, now + Math.max(0, info.startWithinMs ?? 0) + info.timeoutMs, run.id, clip(run.user, 100), clip(run.host, 200), VERSION,
    ];
    return { uuid, endpoint, ...(info.kind === 'cashout' ? { fingerprint } : {}), windowOn: windowMin > 0, sinceMs: now - Math.max(0, windowMin) * 60_000, allowDuplicate: Boolean(opts.allowDuplicate), orderId, values, inTransaction: this.depth > 0 };
  }

  /** The entry the worker recorded, or the error of its refusal. @throws UsageError `duplicate_cashout` / `duplicate_order` */
  private begun(answer: BeginAnswer, args: { uuid: string }, windowMin: number, now: number): { id: number; uuid: string; earlier?: LedgerEntry } {
    if ('blocked' in answer) throw duplicateError(toPgEntry(answer.blocked), windowMin, now);
    if ('taken' in answer) throw orderTakenError(toPgEntry(answer.taken), this.note);
    return { id: answer.id, uuid: args.uuid, ...(answer.earlier ? { earlier: toPgEntry(answer.earlier) } : {}) };
  }

  extendDeadlines(ids: readonly number[], deadlineMs: number): void {
    if (!ids.length) return;
    this.guard(() => void this.q('UPDATE paycli.payments SET deadline_ms = greatest(coalesce(deadline_ms, 0), $2) WHERE id = ANY($1::bigint[]) AND outcome IS NULL', [ids, deadlineMs]));
  }

  inFlight(e: LedgerEntry): InFlightFacts & { run?: RunRecord } {
    const deadlineMs = e.deadlineMs ?? (e.timeMs ?? Date.now()) + MAX_TIMEOUT_MS;
    if (!e.runId) return { deadlineMs, owner: 'unknown' };
    const run = this.run(e.runId);
    if (!run) return { deadlineMs, owner: 'unknown' };
    return { deadlineMs, owner: this.stateOf(run), run };
  }

  run(id: string): (RunRecord & { goneMs?: number }) | undefined {
    return this.guard(() => {
      const r = this.q('SELECT * FROM paycli.runs WHERE id = $1', [id])[0];
      return r ? toPgRun(r) : undefined;
    });
  }

  /** Whether a run is alive: its advisory lock held (running or stopped) or free (gone, recorded so). */
  private stateOf(run: RunRecord & { goneMs?: number }): OwnerState {
    if (this.me && run.id === this.me.id) return 'self';
    if (run.goneMs !== undefined) return 'gone';
    return this.guard(() => {
      const free = this.q(PG_RUN_PROBE, [run.id])[0]?.free === true;
      if (!free) return 'alive';
      this.q('UPDATE paycli.runs SET gone_ms = coalesce(gone_ms, $1) WHERE id = $2', [Date.now(), run.id]);
      return 'gone';
    });
  }

  claimBatch(batchId: string, endpoint: string): RunRecord | undefined {
    return this.guard(() => {
      const me = this.register();
      return this.transaction(() => {
        this.q('SELECT pg_advisory_xact_lock(3, hashtext($1))', [`${batchId} ${endpoint}`]);
        const others = this.q(`SELECT * FROM paycli.runs WHERE batch_id = $1 AND endpoint = $2 AND id <> $3 AND ended_ms IS NULL AND gone_ms IS NULL`, [batchId, endpoint, me.id]).map(toPgRun);
        for (const other of others) if (this.stateOf(other) !== 'gone') return other;
        this.q('UPDATE paycli.runs SET batch_id = $1, endpoint = $2 WHERE id = $3', [batchId, endpoint, me.id]);
        return undefined;
      });
    });
  }

  releaseBatch(): void {
    if (!this.me) return;
    const id = this.me.id;
    this.guard(() => void this.q('UPDATE paycli.runs SET ended_ms = $1 WHERE id = $2 AND batch_id IS NOT NULL', [Date.now(), id]));
  }

  end(id: number, outcome: Outcome, extra: EndDetails = {}): void {
    const values = [id, outcome, new Date().toISOString(), extra.transactionId === undefined ? null : JSON.stringify(extra.transactionId), clean(extra.status, 20), extra.httpStatus ?? null, clean(extra.message, 500), factsJson(extra.answer)];
    // Inside a group the outcomes are written together, in one statement with the next call or the commit.
    if (this.depth > 0) {
      this.pendingEnds.push(values);
      return;
    }
    this.guard(() => void this.call('endMany', endColumns([values]), false), '');
  }

  /**
   * BEGIN … COMMIT around `fn` (nested calls run inside the outer one). The BEGIN goes with the
   * first call inside; a group that only wrote outcomes writes them in one transaction of their
   * own that does not wait for the disk (src/ledger/pg/worker.ts `endMany`: an outcome lost to a
   * database crash leaves its entry unknown); the COMMIT of anything else waits for it.
   */
  private transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.pendingBegin = true;
    this.depth++;
    try {
      const out = fn();
      this.depth--;
      if (!this.pendingBegin) this.q('COMMIT');
      else {
        this.pendingBegin = false;
        const ends = this.pendingEnds;
        this.pendingEnds = [];
        if (ends.length) this.call('endMany', endColumns(ends), false);
      }
      return out;
    } catch (err) {
      if (this.depth > 0) this.depth--;
      this.pendingEnds = [];
      const begun = !this.pendingBegin;
      this.pendingBegin = false;
      if (begun) {
        try {
          this.q('ROLLBACK');
        } catch {
          /* the first error is the one to report */
        }
      }
      throw err;
    }
  }

  group<T>(fn: () => T): T {
    return this.guard(() => this.transaction(fn));
  }

  reusableOrderId(fingerprint: string, sinceMs: number): string | undefined {
    return this.guard(
      () =>
        this.q(
          `SELECT order_id FROM paycli.payments AS p WHERE fingerprint = $1 AND outcome = 'not_sent' AND resolved_by = 'gateway' AND order_id IS NOT NULL AND time_ms >= $2
             AND NOT EXISTS (SELECT 1 FROM paycli.payments AS q WHERE q.order_id = p.order_id AND q.id > p.id) ORDER BY id DESC LIMIT 1`,
          [fingerprint, sinceMs],
        )[0]?.order_id as string | undefined,
    );
  }

  get(id: number): LedgerEntry | undefined {
    return this.guard(() => {
      const row = this.q('SELECT * FROM paycli.payments WHERE id = $1', [id])[0];
      return row ? toPgEntry(row) : undefined;
    });
  }

  findByOrderId(orderId: string): LedgerEntry[] {
    return this.guard(() => this.q('SELECT * FROM paycli.payments WHERE order_id = $1 ORDER BY id DESC', [orderId]).map(toPgEntry));
  }

  /**
   * {@link findByOrderId} for many order references in one statement (a batch asks for a group of
   * rows at once: one round trip instead of one a row).
   * @returns each reference's entries, newest first (a reference without any: no key)
   * @throws LedgerUnavailableError
   */
  findByOrderIds(orderIds: readonly string[]): Map<string, LedgerEntry[]> {
    const out = new Map<string, LedgerEntry[]>();
    if (!orderIds.length) return out;
    const rows = this.guard(() => this.q('SELECT * FROM paycli.payments WHERE order_id = ANY($1::text[]) ORDER BY id DESC', [[...new Set(orderIds)]]));
    for (const r of rows) {
      const key = r.order_id as string;
      const list = out.get(key);
      if (list) list.push(toPgEntry(r));
      else out.set(key, [toPgEntry(r)]);
    }
    return out;
  }

  batchOutcomes(batchId: string, endpoint: string): BatchOutcome[] {
    return this.guard(() =>
      this.q('SELECT batch_row, order_id, value, outcome, transaction_id, status FROM paycli.payments WHERE batch_id = $1 AND endpoint = $2 ORDER BY batch_row, id', [batchId, endpoint]).map(
        (r) => [r.batch_row, r.order_id, r.value, r.outcome ?? null, r.transaction_id ?? null, r.status ?? null] as BatchOutcome,
      ),
    );
  }

  batchRows(batchId: string): LedgerEntry[] {
    return this.guard(() => this.q('SELECT * FROM paycli.payments WHERE batch_id = $1 ORDER BY batch_row, id', [batchId]).map(toPgEntry));
  }

  listUnknown(opts: { since?: string; kind?: PaymentKind } = {}): LedgerEntry[] {
    return this.guard(() =>
      this.q(`SELECT * FROM paycli.payments WHERE (outcome IS NULL OR outcome = 'unknown') AND ($1::bigint IS NULL OR time_ms IS NULL OR time_ms >= $1) AND ($2::text IS NULL OR kind = $2) ORDER BY id`, [
        opts.since === undefined ? null : Date.parse(opts.since),
        opts.kind ?? null,
      ]).map(toPgEntry),
    );
  }

  resolve(id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: ResolvedBy; note?: string } & EndDetails): LedgerEntry {
    return this.guard(() =>
      this.transaction(() => {
        const row = this.q('SELECT * FROM paycli.payments WHERE id = $1 FOR UPDATE', [id])[0];
        const before = row ? toPgEntry(row) : undefined;
        if (!before) throw new UsageError(t('ledger.noEntry', id), { field: 'entry' });
        // Another machine's paycli recorded the outcome meanwhile (the run ended between our read and the
        // lookup): what the gateway said is already in the ledger; the recorded outcome stands.
        if (before.completed && before.outcome !== 'unknown' && opts.by === 'gateway') return before;
        if (before.completed && before.outcome !== 'unknown') throw new UsageError(t('ledger.hasOutcome', id, before.outcome), { field: 'entry' });
        const now = new Date().toISOString();
        const after = this.q(
          `UPDATE paycli.payments SET outcome = $2, end_time = coalesce(end_time, $3), resolved_by = $4, resolved_time = $3, note = $5,
             transaction_id = coalesce($6::jsonb, transaction_id), status = coalesce($7, status), message = coalesce($8, message) WHERE id = $1 RETURNING *`,
          [id, outcome, now, opts.by, clean(opts.note, 500), opts.transactionId === undefined ? null : JSON.stringify(opts.transactionId), clean(opts.status, 20), clean(opts.message, 500)],
        )[0]!;
        return toPgEntry(after);
      }),
    );
  }

  query(q: LedgerQuery): LedgerEntry[] {
    return [...this.iterate(q)];
  }

  /** {@link query} in pages of 1,000 by entry number (an export of the whole ledger keeps memory flat). */
  *iterate(q: LedgerQuery): Generator<LedgerEntry> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      if (value === undefined) return;
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    add('time_ms >= ?', q.since === undefined ? undefined : Date.parse(q.since));
    add('time_ms < ?', q.until === undefined ? undefined : Date.parse(q.until));
    add('kind = ?', q.kind);
    if (q.outcome === 'unknown') where.push(`(outcome IS NULL OR outcome = 'unknown')`);
    else add('outcome = ?', q.outcome);
    add('profile = ?', q.profile);
    add('order_id = ?', q.orderId);
    add(`transaction_id #>> '{}' = ?`, q.transactionId);
    add('batch_id = ?', q.batchId);
    add('os_user = ?', q.by?.user);
    add('lower(host) = lower(?)', q.by?.host);
    let left = q.limit < 0 ? Infinity : q.limit;
    let below: number | undefined;
    while (left > 0) {
      const page = Math.min(left, 1000);
      const sql = `SELECT * FROM paycli.payments WHERE ${[...where, below === undefined ? 'true' : `id < ${below}`].join(' AND ')} ORDER BY id DESC LIMIT ${page}`;
      const rows = this.guard(() => this.q(sql, params));
      for (const r of rows) yield toPgEntry(r);
      if (rows.length < page) return;
      left -= rows.length;
      below = Number(rows[rows.length - 1]!.id);
    }
  }

  meta(key: string): string | undefined {
    return this.guard(() => this.q('SELECT value FROM paycli.meta WHERE key = $1', [key])[0]?.value as string | undefined);
  }

  /** {@link Ledger.noteStatus}: the status the gateway now gives a created payment. */
  noteStatus(id: number, status: string): void {
    this.guard(() => void this.q(`UPDATE paycli.payments SET status = $1 WHERE id = $2 AND outcome = 'ok'`, [clean(status, 20), id]), '');
  }

  setMeta(key: string, value: string): void {
    this.guard(() => void this.q('INSERT INTO paycli.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]));
  }

  /**
   * Copies entries (and the runs they name) of a local ledger here, skipping those whose uuid the
   * team ledger holds already (`paycli ledger push`): pushing twice adds nothing.
   * @returns how many entries were added
   */
  push(entries: Iterable<LedgerEntry>, runs: (id: string) => RunRecord | undefined, onProgress?: (done: number) => void): number {
    const seenRuns = new Set<string>();
    let added = 0;
    let done = 0;
    let chunk: LedgerEntry[] = [];
    const flush = () => {
      if (!chunk.length) return;
      const { runRows, rows } = pushRows(chunk, runs, seenRuns);
      this.guard(() =>
        this.transaction(() => {
          if (runRows.length) insertRows(this.statement, 'paycli.runs (id, pid, host, os_user, version, started_ms, gone_ms)', 7, runRows, 'ON CONFLICT (id) DO NOTHING');
          added += insertColumns(this.statement, PUSH_COLUMNS, PUSH_TYPES, rows);
        }),
      );
      done += chunk.length;
      chunk = [];
      onProgress?.(done);
    };
    for (const e of entries) {
      chunk.push(e);
      if (chunk.length >= 5000) flush();
    }
    flush();
    return added;
  }
}
