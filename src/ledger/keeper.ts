/**
 * The ledger's rules, written once over either store (docs/ledger-and-safety.md, "The ledger
 * contract"): {@link LedgerKeeper} implements the contract of src/ledger/contract.ts over a store
 * of src/ledger/statements.ts (the local SQLite ledger or the team ledger on PostgreSQL), which
 * only runs statements. Here live:
 * - what a payment recorded before its send is (its fingerprint, uuid, deadline, run), and how the
 *   identical-payment window and the `duplicate_cashout` / `duplicate_order` checks answer
 *   (the conditions themselves: src/ledger/blocking.ts, shared with the stores' SQL);
 * - what an outcome and a settlement write (texts redacted and clipped), and when a settled entry
 *   may be settled again;
 * - whose run an entry is and whether it is alive (src/ledger/settle-rule.ts `InFlightFacts`), which
 *   run owns a batch file, and which finished runs are pruned ({@link RUNS_KEPT_MS}).
 *
 * One call at a time: every method waits for the previous one to end (a store's transaction never
 * has another call of this process in its middle); `iterate` is the exception, it only reads.
 */
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { MAX_TIMEOUT_MS } from '../config/settings.js';
import type { EndRecord, LedgerContract, Recorded, RecordOptions } from './contract.js';
import { cashOutFingerprint, checkClock, paymentFingerprint, displayTarget, duplicateError, endpointIdentity, orderTakenError, type Outcome, type PaymentKind } from './rules.js';
import { blocks, DEFAULT_WINDOW_MIN, windowStart } from './blocking.js';
import type { RunRecord } from './runs.js';
import { clean, clip, factsJson, needsAttention, type BeginInfo, type EndDetails, type LedgerEntry, type LedgerQuery, type ResolvedBy } from './schema.js';
import type { InFlightFacts, OwnerState } from './settle-rule.js';
import type { AnyStatements, Checked, EndRow, LedgerStatements, NewPayment, StoredRun, SyncStatements } from './statements.js';
import { uuidV7 } from './uuid.js';
import type { BatchTextSpec, FinishedBatchText } from './batch-text.js';
import type { ListedRows } from './batch-fingerprints.js';

/**
 * How long a finished run (its batch released, or found gone) is kept in `runs`: 30 days. Runs that
 * an entry still needs are kept whatever their age (src/ledger/statements.ts `pruneRuns`).
 */
export const RUNS_KEPT_MS = 30 * 86_400_000;

/** How often a ledger is pruned at most (the time of the last pruning is the meta key `runs_pruned_ms`). */
const PRUNE_EVERY_MS = 86_400_000;

/** A value now (a store that answers at once) or later (one that waits for its database). */
type Maybe<T> = T | Promise<T>;

/** `f(v)`, now when `v` is a value, later when it is a promise: one rule serves both kinds of store. */
function then<T, U>(v: Maybe<T>, f: (t: T) => Maybe<U>): Maybe<U> {
  return v instanceof Promise ? v.then(f) : f(v);
}

/** A store as the rules call it (either kind: src/ledger/statements.ts `AnyStatements`). */
type Store = {
  [K in Exclude<keyof LedgerStatements, 'exclusive'>]: LedgerStatements[K] extends (...a: infer A) => Promise<infer R> ? (...a: A) => Maybe<R> : LedgerStatements[K];
} & {
  exclusive<T>(lock: string | undefined, fn: () => Maybe<T>): Maybe<T>;
};

/** The store behind either kind, as the rules call it. */
const rulesOf = (s: AnyStatements): Store => s as unknown as Store;

/**
 * Checks and records `infos` after writing `ends`, in ONE transaction of the store: per payment its
 * entry (with the earlier cash-out it overrides) or its refusal (`duplicate_cashout`, `duplicate_order`).
 */
export function recordRule(store: AnyStatements, infos: readonly BeginInfo[], opts: RecordOptions, ends: readonly EndRecord[]): Maybe<Array<Recorded | UsageError>> {
  const s = rulesOf(store);
  if (!infos.length && !ends.length) return [];
  const now = Date.now();
  if (infos.length) checkClock(now, s.note);
  const windowMin = opts.windowMin ?? DEFAULT_WINDOW_MIN;
  const self = infos.length ? s.self(now) : undefined;
  // one run record, one ISO time and one end time for the whole call (a batch wave: many rows)
  const run = self && { ...self, host: clip(self.host, 200)!, user: clip(self.user, 100)! };
  const time = new Date(now).toISOString();
  const rows = infos.map((info) => newPayment(info, opts, windowMin, now, time, run!));
  const endTime = ends.length ? new Date().toISOString() : '';
  return then(
    s.checkAndInsert(
      rows,
      ends.map((e) => endRow(e, endTime)),
    ),
    (found) => found.map((f, i) => answerOf(f, rows[i]!, windowMin, now, s.note)),
  );
}

/** What a check found, as the contract answers it. */
function answerOf(f: Checked, row: NewPayment, windowMin: number, now: number, note: string): Recorded | UsageError {
  if (f.id !== undefined) return { id: f.id, uuid: row.uuid, ...(f.blocked ? { earlier: f.blocked } : {}) };
  if (f.blocked && !row.allowDuplicate) return duplicateError(f.blocked, windowMin, now);
  return orderTakenError(f.taken!, note);
}

/** Writes outcomes (the latest wins), in one transaction. */
export function endRule(store: AnyStatements, ends: readonly EndRecord[]): Maybe<void> {
  if (!ends.length) return;
  const endTime = new Date().toISOString();
  return rulesOf(store).writeEnds(ends.map((e) => endRow(e, endTime)));
}

/** Whether a run is alive: this process; one recorded gone; else the store's evidence (a run found gone is recorded so). */
function stateRule(s: Store, run: StoredRun): Maybe<OwnerState> {
  if (run.id === s.selfId()) return 'self';
  if (run.goneMs !== undefined) return 'gone';
  return then(s.probe(run), (state) => (state === 'gone' ? then(s.markGone(run.id, Date.now()), () => state) : state));
}

/**
 * Makes this process the one run of a batch file at a gateway (docs/batch-runs.md, "One run at a
 * time"): in one exclusive transaction, a run that claimed the same file and gateway and is alive
 * (running or stopped) keeps it; else this run takes it.
 * @returns undefined when this run owns the file now; the live run that owns it otherwise
 */
export function claimRule(store: AnyStatements, batchId: string, endpoint: string): Maybe<RunRecord | undefined> {
  const s = rulesOf(store);
  // This run first (a team ledger registers it ahead of the transaction), then the transaction.
  const me = s.self(Date.now());
  return s.exclusive<RunRecord | undefined>(`${batchId} ${endpoint}`, () => {
    const firstAlive = (others: StoredRun[], i: number): Maybe<RunRecord | undefined> => {
      if (i === others.length) return then(s.takeBatch(me, batchId, endpoint), () => undefined);
      return then(stateRule(s, others[i]!), (state) => (state !== 'gone' ? others[i] : firstAlive(others, i + 1)));
    };
    return then(s.claimants(batchId, endpoint, me.id), (others) => firstAlive(others, 0));
  });
}

/** Lets the batch file this run owns go, and prunes the finished runs when the last pruning is a day old ({@link RUNS_KEPT_MS}). */
export function releaseRule(store: AnyStatements): Maybe<void> {
  const s = rulesOf(store);
  const id = s.selfId();
  if (id === undefined) return;
  const now = Date.now();
  return then(s.endRun(id, now), () =>
    then(s.meta('runs_pruned_ms'), (last) => {
      if (now - Number(last ?? 0) >= PRUNE_EVERY_MS) return then(pruneRule(store, now), () => undefined);
    }),
  );
}

/** Prunes the runs that finished more than {@link RUNS_KEPT_MS} ago and that no entry needs. @returns how many went */
export function pruneRule(store: AnyStatements, now = Date.now()): Maybe<number> {
  const s = rulesOf(store);
  return then(s.pruneRuns(now - RUNS_KEPT_MS), (gone) => then(s.setMeta('runs_pruned_ms', String(now)), () => gone));
}

/**
 * Settles an entry: `ok` (from now on it blocks an identical cash-out within the window,
 * counted from when it was sent), `not_sent` or `refused` (it no longer blocks), with who
 * settled it, when, and the note. An entry whose outcome another paycli recorded meanwhile keeps
 * it when the gateway settles (what the gateway said is recorded already).
 * @throws UsageError (exit 2) when there is no such entry, or a person settles a known outcome
 */
export function resolveRule(store: AnyStatements, id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: ResolvedBy; note?: string } & EndDetails): Maybe<LedgerEntry> {
  const s = rulesOf(store);
  return s.exclusive<LedgerEntry>(undefined, () =>
    then(s.get(id, true), (before) => {
      if (!before) throw new UsageError(t('ledger.noEntry', id), { field: 'entry' });
      const known = before.completed && before.outcome !== 'unknown';
      if (known && opts.by === 'gateway') return before;
      if (known && !needsAttention(before)) throw new UsageError(t('ledger.hasOutcome', id, before.outcome), { field: 'entry' });
      const row = {
        id,
        outcome,
        now: new Date().toISOString(),
        by: opts.by,
        note: clean(opts.note, 500),
        transactionId: opts.transactionId ?? null,
        status: clean(opts.status, 20),
        message: clean(opts.message, 500),
      };
      return s.settle(row);
    }),
  );
}

/**
 * What the in-flight rule needs of an entry: its deadline (an entry of a paycli before deadlines
 * were recorded: its time plus the longest timeout) and the state of its run. An entry of a
 * paycli before runs were recorded is judged by its process id on this machine (local store), else unknown.
 */
export function inFlightRule(store: AnyStatements, e: LedgerEntry): Maybe<InFlightFacts & { run?: RunRecord }> {
  const s = rulesOf(store);
  const deadlineMs = e.deadlineMs ?? (e.timeMs ?? Date.now()) + MAX_TIMEOUT_MS;
  if (!e.runId) return { deadlineMs, owner: s.byPid ? pidState(e.pid) : 'unknown' };
  return then(s.run(e.runId), (run) => (run ? then(stateRule(s, run), (owner) => ({ deadlineMs, owner, run })) : { deadlineMs, owner: 'unknown' as const }));
}

/** The earlier identical cash-out that blocks a new one (src/ledger/blocking.ts `blocks`). */
export function blockingRule(store: AnyStatements, fingerprint: string, windowMin: number, now: number): Maybe<LedgerEntry | undefined> {
  return then(rulesOf(store).blocking(fingerprint, windowMin > 0, windowStart(windowMin, now)), (e) => (e && blocks(e, windowMin, now) ? e : undefined));
}

/** The contract of src/ledger/contract.ts over a store: see the file's comment. */
export class LedgerKeeper implements LedgerContract {
  readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();

  /** The store, asynchronous (for the statements passed through as they are). */
  readonly store: LedgerStatements;
  /** The store as it is (the rules run a synchronous store's transaction in one go). */
  private readonly raw: AnyStatements;

  /** @param store an open store, either kind; the keeper owns it from now on (closing the keeper closes it) */
  constructor(store: AnyStatements) {
    this.raw = store;
    this.store = statementsOf(store);
    this.file = store.file;
  }

  /** Runs `fn` after every call before it has ended (one call at a time on the store). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const out = this.queue.then(fn, fn);
    this.queue = out.then(
      () => undefined,
      () => undefined,
    );
    return out;
  }

  close(): Promise<void> {
    return this.serial(() => this.store.close());
  }

  usable(): void {
    this.store.usable();
  }

  blockingCashOut(fingerprint: string, windowMin: number, now = Date.now()): Promise<LedgerEntry | undefined> {
    return this.serial(async () => blockingRule(this.raw, fingerprint, windowMin, now));
  }

  checkCashOut(target: string, body: { value: number; pixKeyType: number; pixKey: string }, windowMin: number): Promise<void> {
    return this.serial(async () => {
      const now = Date.now();
      const earlier = await blockingRule(this.raw, cashOutFingerprint(target, body), windowMin, now);
      if (earlier) throw duplicateError(earlier, windowMin, now);
    });
  }

  async begin(info: BeginInfo, opts: RecordOptions = {}): Promise<Recorded> {
    const [out] = await this.recordMany([info], opts);
    if (out instanceof UsageError) throw out;
    return out!;
  }

  recordMany(infos: readonly BeginInfo[], opts: RecordOptions = {}, ends: readonly EndRecord[] = []): Promise<Array<Recorded | UsageError>> {
    return this.serial(async () => recordRule(this.raw, infos, opts, ends));
  }

  end(id: number, outcome: Outcome, extra: EndDetails = {}): Promise<void> {
    return this.endMany([[id, outcome, extra]]);
  }

  endMany(ends: readonly EndRecord[]): Promise<void> {
    return this.serial(async () => endRule(this.raw, ends));
  }

  extendDeadlines(ids: readonly number[], deadlineMs: number): Promise<void> {
    return this.serial(async () => {
      if (ids.length) await this.store.extendDeadlines(ids, deadlineMs);
    });
  }

  inFlight(e: LedgerEntry): Promise<InFlightFacts & { run?: RunRecord }> {
    return this.serial(async () => inFlightRule(this.raw, e));
  }

  run(id: string): Promise<RunRecord | undefined> {
    return this.serial(() => this.store.run(id));
  }

  /** Every run recorded (`ledger push`). */
  runs(): Promise<RunRecord[]> {
    return this.serial(() => this.store.runs());
  }

  claimBatch(batchId: string, endpoint: string): Promise<RunRecord | undefined> {
    return this.serial(async () => claimRule(this.raw, batchId, endpoint));
  }

  releaseBatch(): Promise<void> {
    return this.serial(async () => releaseRule(this.raw));
  }

  /** Prunes the finished runs now, whenever it last ran (tests; src/ledger/keeper.ts `RUNS_KEPT_MS`). @returns how many went */
  pruneRuns(now = Date.now()): Promise<number> {
    return this.serial(async () => pruneRule(this.raw, now));
  }

  reusableOrderId(fingerprint: string, sinceMs: number): Promise<string | undefined> {
    return this.serial(() => this.store.reusableOrderId(fingerprint, sinceMs));
  }

  get(id: number): Promise<LedgerEntry | undefined> {
    return this.serial(() => this.store.get(id));
  }

  async findByOrderId(orderId: string): Promise<LedgerEntry[]> {
    return (await this.findManyByOrderId([orderId])).get(orderId) ?? [];
  }

  findManyByOrderId(orderIds: readonly string[]): Promise<Map<string, LedgerEntry[]>> {
    return this.serial(async () => (orderIds.length ? this.store.findByOrderIds([...new Set(orderIds)]) : new Map()));
  }

  batchOutcomes(batchId: string, endpoint: string) {
    return this.serial(() => this.store.batchOutcomes(batchId, endpoint));
  }

  finishedBatchText(batchId: string, endpoint: string, rows: number, spec: BatchTextSpec, keep?: boolean): Promise<FinishedBatchText | undefined> {
    const render = this.store.finishedBatchText;
    return this.serial(async () => render?.call(this.store, batchId, endpoint, rows, spec, keep));
  }

  listBatchRows(batchId: string, endpoint: string, rows: ListedRows): Promise<void> {
    const list = this.store.listBatchRows;
    return this.serial(async () => list?.call(this.store, batchId, endpoint, rows));
  }

  batchRows(batchId: string): Promise<LedgerEntry[]> {
    return this.serial(() => this.store.batchRows(batchId));
  }

  listUnknown(opts: { since?: string; kind?: PaymentKind } = {}): Promise<LedgerEntry[]> {
    return this.serial(() => this.store.listUnknown(opts));
  }

  resolve(id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: ResolvedBy; note?: string } & EndDetails): Promise<LedgerEntry> {
    return this.serial(async () => resolveRule(this.raw, id, outcome, opts));
  }

  async query(q: LedgerQuery): Promise<LedgerEntry[]> {
    const out: LedgerEntry[] = [];
    for await (const e of this.iterate(q)) out.push(e);
    return out;
  }

  /** One entry at a time, each step after the calls before it (it only reads). */
  async *iterate(q: LedgerQuery): AsyncGenerator<LedgerEntry> {
    const it = this.store.iterate(q)[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await this.serial(() => it.next());
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await it.return?.();
    }
  }

  /** Records the status the gateway now gives a created payment (`paid` for a cash-in seen paid); nothing else changes. */
  noteStatus(id: number, status: string): Promise<void> {
    return this.serial(() => this.store.noteStatus(id, clean(status, 20)));
  }

  meta(key: string): Promise<string | undefined> {
    return this.serial(() => this.store.meta(key));
  }

  setMeta(key: string, value: string): Promise<void> {
    return this.serial(() => this.store.setMeta(key, value));
  }
}

/**
 * A payment as it is checked and recorded: its fingerprint, display target, gateway identity, uuid, deadline and run.
 * @param time `now` as ISO text; `run` with its host and user clipped as recorded
 */
function newPayment(info: BeginInfo, opts: RecordOptions, windowMin: number, now: number, time: string, run: RunRecord): NewPayment {
  if (info.kind === 'cashout' && (info.pixKeyType === undefined || info.pixKey === undefined)) throw new TypeError('a cash-out needs pixKeyType and pixKey');
  const cashout = info.kind === 'cashout';
  return {
    uuid: uuidV7(now),
    time,
    timeMs: now,
    kind: info.kind,
    fingerprint: paymentFingerprint(info),
    value: info.value,
    target: displayTarget(info.target),
    endpoint: endpointIdentity(info.target),
    sandbox: info.sandbox,
    profile: clip(info.profile, 100)!,
    pixKeyType: info.pixKeyType ?? null,
    pixKey: clip(info.pixKey, 200),
    recipient: clip(info.recipient, 200),
    payer: clip(info.payer, 200),
    product: clip(info.product, 200),
    orderId: clip(info.orderId, 200),
    batchId: clip(info.batchId, 200),
    batchRow: info.batchRow ?? null,
    allowDuplicate: Boolean(opts.allowDuplicate),
    pid: process.pid,
    deadlineMs: now + Math.max(0, info.startWithinMs ?? 0) + info.timeoutMs,
    run,
    ...(cashout ? { check: { windowOn: windowMin > 0, sinceMs: windowStart(windowMin, now) } } : {}),
  };
}

/** An outcome as it is written: the message redacted and shortened, `endTime` the time its write began (ISO). */
function endRow([id, outcome, extra]: EndRecord, endTime: string): EndRow {
  return {
    id,
    outcome,
    endTime,
    transactionId: extra.transactionId ?? null,
    status: clean(extra.status, 20),
    httpStatus: extra.httpStatus ?? null,
    message: clean(extra.message, 500),
    answer: factsJson(extra.answer),
  };
}

/** Whether a process of this machine is alive (an entry recorded before runs were). A stopped process is alive. */
function pidState(pid: number | undefined): OwnerState {
  if (pid === undefined) return 'gone';
  if (pid === process.pid) return 'alive';
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'gone';
  }
}

/**
 * A store of either kind as a {@link LedgerStatements}: one that answers at once (the local SQLite
 * ledger) has each answer wrapped in a promise, its `exclusive` a `BEGIN IMMEDIATE` around `fn`
 * (the keeper's one-call-at-a-time keeps any other call out of it; a SQLite call never waits, so
 * the transaction ends in the same turn of the event loop).
 */
export function statementsOf(store: AnyStatements): LedgerStatements {
  if (!isSync(store)) return store;
  const s = store;
  const wrapped = {} as Record<string, unknown>;
  for (let o: object | null = s; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const k of Object.getOwnPropertyNames(o)) {
      const v = (s as unknown as Record<string, unknown>)[k];
      if (k === 'constructor' || k in wrapped || typeof v !== 'function') continue;
      wrapped[k] = async (...args: unknown[]) => (v as (...a: unknown[]) => unknown).apply(s, args);
    }
  }
  return {
    ...(wrapped as unknown as LedgerStatements),
    file: s.file,
    note: s.note,
    byPid: s.byPid,
    usable: () => s.usable(),
    self: (now) => s.self(now),
    selfId: () => s.selfId(),
    exclusive: async (lock, fn) =>
      s.exclusive(lock, () => {
        const out = fn();
        if (out instanceof Promise) throw new TypeError('a transaction of the local ledger cannot wait');
        return out;
      }),
    iterate: async function* (q) {
      yield* s.iterate(q);
    },
  };
}

/** Whether a store answers at once (the local ledger). */
function isSync(s: AnyStatements): s is SyncStatements {
  return 'sync' in s && s.sync === true;
}
