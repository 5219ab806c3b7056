/**
 * What a ledger store does (docs/ledger-and-safety.md, "The ledger contract"): statements on its
 * database and nothing else. The rules (the identical-payment window, the `duplicate_cashout` and
 * `duplicate_order` checks, what begin / end / settle write, whose run an entry is and whether it
 * is alive, which run owns a batch file, which runs are pruned) are written once, in
 * src/ledger/keeper.ts, over this interface. Two stores implement it: the local SQLite ledger
 * (src/ledger/ledger.ts, synchronous underneath) and the team ledger on PostgreSQL
 * (src/ledger/pg/ledger.ts).
 *
 * Atomicity is the store's: {@link LedgerStatements.checkAndInsert} is one transaction that no
 * other paycli (this machine's or another's) can interleave with a check of the same gateway
 * endpoint (SQLite `BEGIN IMMEDIATE`; PostgreSQL an advisory lock per endpoint), and
 * {@link LedgerStatements.exclusive} runs a few statements as one such transaction. The keeper
 * makes one call at a time on a store, so a transaction of a store never sees another call of
 * the same process in its middle.
 *
 * Errors: every method rejects with LedgerUnavailableError or LedgerBusyError (src/ledger/errors.ts),
 * worded with {@link LedgerStatements.note} before a send.
 */
import type { PaymentKind } from './rules.js';
import type { Outcome } from './blocking.js';
import type { RunRecord } from './runs.js';
import type { OwnerState } from './settle-rule.js';
import type { BatchOutcome, LedgerEntry, LedgerQuery, ResolvedBy } from './schema.js';
import type { BatchTextSpec, FinishedBatchText } from './batch-text.js';
import type { ListedRows } from './batch-fingerprints.js';

/**
 * Which runs pruning deletes (src/ledger/keeper.ts `RUNS_KEPT_MS`), as an SQL condition on a row of
 * `runs`: started before `before` and either finished before it (its batch released, or found gone)
 * or never the owner of a batch file. Each store adds the runs its entries still need
 * ({@link LedgerStatements.pruneRuns}).
 * @param before the store's placeholder for the cut-off (epoch ms)
 */
export function prunableRunSql(before: string): string {
  return `started_ms < ${before} AND (ended_ms < ${before} OR gone_ms < ${before} OR batch_id IS NULL)`;
}

/** A run as recorded, with when it was first found gone and the batch file it claimed. */
export type StoredRun = RunRecord & { goneMs?: number; batchId?: string };

/** One payment to check and record, every column decided by the keeper (cents; epoch ms). */
export interface NewPayment {
  uuid: string;
  /** ISO 8601 UTC and epoch ms of the same moment. */
  time: string;
  timeMs: number;
  kind: PaymentKind;
  fingerprint: string;
  value: number;
  target: string;
  endpoint: string;
  sandbox: boolean;
  profile: string;
  pixKeyType: number | null;
  pixKey: string | null;
  recipient: string | null;
  payer: string | null;
  product: string | null;
  orderId: string | null;
  batchId: string | null;
  batchRow: number | null;
  allowDuplicate: boolean;
  pid: number;
  deadlineMs: number;
  /** The run that records it (registered by the store with its first payment). */
  run: RunRecord;
  /** The identical-payment check of a cash-out (src/ledger/blocking.ts `blockingSql`); none for a cash-in. */
  check?: { windowOn: boolean; sinceMs: number };
}

/** What the check of a {@link NewPayment} found, and its entry number when it was recorded. */
export interface Checked {
  /** The earlier identical cash-out that blocks it (recorded anyway with `allowDuplicate`). */
  blocked?: LedgerEntry;
  /** The entry that holds its order reference at its gateway (then it is not recorded). */
  taken?: LedgerEntry;
  /** Its entry number, when recorded. */
  id?: number;
}

/** An outcome to write, as the keeper made it (texts redacted and clipped, `answer` JSON text). */
export interface EndRow {
  id: number;
  outcome: Outcome;
  endTime: string;
  transactionId: number | string | null;
  status: string | null;
  httpStatus: number | null;
  message: string | null;
  answer: string | null;
}

/** A settlement to write (src/ledger/keeper.ts `resolve`). */
export interface SettleRow {
  id: number;
  outcome: Exclude<Outcome, 'unknown'>;
  /** ISO time of the settlement. */
  now: string;
  by: ResolvedBy;
  note: string | null;
  transactionId: number | string | null;
  status: string | null;
  message: string | null;
}

/** A ledger store: statements only (see the file's comment). */
export interface LedgerStatements {
  /** The local ledger's file path, or a team ledger's `host:port/database`. */
  readonly file: string;
  /** What errors add before a send (`; nothing was sent`), else ''. */
  readonly note: string;
  /** Entries recorded by a paycli before runs (no run id) are judged by process id, on this machine: true for the local store only. */
  readonly byPid: boolean;
  close(): Promise<void>;
  /** Throws at once, without a round trip, when the store is known to be unusable (a lost connection). */
  usable(): void;
  /** This process as a run of this ledger, made on first use (registered with its first write). */
  self(now: number): RunRecord;
  /** This process's run, when it has one. */
  selfId(): string | undefined;
  /** The latest cash-out with `fingerprint` that `blockingSql` finds. */
  blocking(fingerprint: string, windowOn: boolean, sinceMs: number): Promise<LedgerEntry | undefined>;
  /**
   * In ONE transaction: writes `ends`, then checks each payment in order (the latest blocking
   * cash-out, the entry holding its order reference) and records it unless src/ledger/blocking.ts
   * `refuses`; each check sees the payments recorded before it.
   */
  checkAndInsert(rows: readonly NewPayment[], ends: readonly EndRow[]): Promise<Checked[]>;
  /** Writes outcomes (the latest wins), in one transaction. */
  writeEnds(ends: readonly EndRow[]): Promise<void>;
  extendDeadlines(ids: readonly number[], deadlineMs: number): Promise<void>;
  run(id: string): Promise<StoredRun | undefined>;
  /** Every run recorded (`ledger push`). */
  runs(): Promise<StoredRun[]>;
  /** Whether another run is alive, by the store's own evidence (a kernel lock file; a session advisory lock). */
  probe(run: StoredRun): Promise<OwnerState>;
  /** Records a run found gone (keeping the first time). */
  markGone(id: string, ms: number): Promise<void>;
  /**
   * Runs `fn` (statements of this store only) as one exclusive transaction; `lock` names what it
   * serialises across processes (a batch file at a gateway).
   */
  exclusive<T>(lock: string | undefined, fn: () => T | Promise<T>): Promise<T>;
  /** The other runs that claimed a batch file at a gateway and are not recorded ended or gone. */
  claimants(batchId: string, endpoint: string, exceptId: string): Promise<StoredRun[]>;
  /** Registers `run` (if it is not yet) and records that it owns a batch file at a gateway. */
  takeBatch(run: RunRecord, batchId: string, endpoint: string): Promise<void>;
  /** Records that a run ended its batch. */
  endRun(id: string, ms: number): Promise<void>;
  /** Deletes the runs that ended or were found gone before `beforeMs` and that no entry needs (its `runKept` rule). @returns how many */
  pruneRuns(beforeMs: number): Promise<number>;
  /** The order reference of the latest identical payment settled `not_sent` by the gateway since `sinceMs`, unused since. */
  reusableOrderId(fingerprint: string, sinceMs: number): Promise<string | undefined>;
  /** One entry; `forUpdate` inside {@link exclusive}: locked until it ends. */
  get(id: number, forUpdate?: boolean): Promise<LedgerEntry | undefined>;
  /** The entries of many order references, each newest first. */
  findByOrderIds(orderIds: readonly string[]): Promise<Map<string, LedgerEntry[]>>;
  batchOutcomes(batchId: string, endpoint: string): Promise<BatchOutcome[]>;
  /** A finished batch's lines (src/ledger/batch-text.ts); a store without it (the team ledger) leaves the caller to {@link batchOutcomes}. */
  finishedBatchText?(batchId: string, endpoint: string, rows: number, spec: BatchTextSpec, keep?: boolean): Promise<FinishedBatchText | undefined>;
  /**
   * Lists the rows of a batch file at a gateway by fingerprint, in one synced write, unless they were listed
   * (src/ledger/batch-fingerprints.ts); a store without it (the team ledger) needs no list.
   */
  listBatchRows?(batchId: string, endpoint: string, rows: ListedRows): Promise<void>;
  batchRows(batchId: string): Promise<LedgerEntry[]>;
  listUnknown(opts: { since?: string; kind?: PaymentKind }): Promise<LedgerEntry[]>;
  /** Writes a settlement; @returns the entry after it. */
  settle(row: SettleRow): Promise<LedgerEntry>;
  /** Entries newest first, at most `limit` (-1: all), one at a time. */
  iterate(q: LedgerQuery): AsyncIterable<LedgerEntry>;
  /** The status the gateway now gives a created payment. */
  noteStatus(id: number, status: string | null): Promise<void>;
  meta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
}

/**
 * {@link LedgerStatements} of a store that answers at once (the local SQLite ledger): the same
 * methods, returning their values; `exclusive` runs a synchronous `fn`. src/ledger/keeper.ts
 * `statementsOf` makes it a {@link LedgerStatements}.
 */
export type SyncStatements = {
  [K in Exclude<keyof LedgerStatements, 'exclusive' | 'iterate'>]: NonNullable<LedgerStatements[K]> extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => R
    : LedgerStatements[K];
} & {
  /** It answers at once. */
  readonly sync: true;
  exclusive<T>(lock: string | undefined, fn: () => T): T;
  iterate(q: LedgerQuery): Iterable<LedgerEntry>;
};

/** Either kind of store: the rules of src/ledger/keeper.ts are written once over both. */
export type AnyStatements = LedgerStatements | SyncStatements;
