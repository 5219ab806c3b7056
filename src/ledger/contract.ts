/**
 * The ledger's contract (docs/ledger-and-safety.md, "The ledger contract"): what every caller above
 * src/ledger/ (payments, batches, history, reconcile) asks of a ledger, asynchronous, whichever store
 * holds it (the local SQLite ledger or the team ledger on PostgreSQL). It names no store: the stores
 * and src/ledger/async-store.ts import it, never the other way round.
 *
 * Groups are explicit operations, never a callback holding a transaction open across awaits:
 * {@link LedgerContract.recordMany} records many payments (after writing outcomes held back) in one
 * transaction, {@link LedgerContract.endMany} writes many outcomes in one, and
 * {@link LedgerContract.findManyByOrderId} looks many order references up in one round trip.
 *
 * Errors: every method rejects with LedgerUnavailableError (exit 2; "nothing was sent" before a
 * send) or LedgerBusyError when the store fails (src/ledger/errors.ts); the refusals of the rules
 * (src/ledger/rules.ts `duplicateError`, `orderTakenError`) are UsageError (exit 2).
 */
import type { UsageError } from '../core/errors.js';
import type { Outcome, PaymentKind } from './rules.js';
import type { RunRecord } from './runs.js';
import type { BatchOutcome, BeginInfo, EndDetails, LedgerEntry, LedgerQuery, ResolvedBy } from './schema.js';
import type { InFlightFacts } from './settle-rule.js';
import type { BatchTextSpec, FinishedBatchText } from './batch-text.js';
import type { ListedRows } from './batch-fingerprints.js';

/** A payment recorded before its send: its entry number, its uuid and the earlier identical cash-out it overrides (`--allow-duplicate`). */
export interface Recorded {
  id: number;
  uuid: string;
  earlier?: LedgerEntry;
}

/** How a payment is checked when it is recorded. */
export interface RecordOptions {
  /** The profile's `duplicate-window` in minutes (default 10; 0: only unknown outcomes block). */
  windowMin?: number;
  /** Record it even when an earlier identical cash-out blocks it (`--allow-duplicate`). */
  allowDuplicate?: boolean;
}

/** One outcome to write: the entry number, the outcome and what the gateway said. */
export type EndRecord = readonly [id: number, outcome: Outcome, details: EndDetails];

/** An open ledger, local or team. Every method may reject with the errors of the file's comment. */
export interface LedgerContract {
  /** Where it is: the local ledger's file path, or a team ledger's `host:port/database` (never its password). */
  readonly file: string;
  /** Closes the connection (a team ledger's session ends, and its run's lock with it). */
  close(): Promise<void>;
  /**
   * Rejects at once, without a round trip, when the ledger is known to be unusable (a team ledger
   * whose connection was lost): a batch starts no more rows.
   */
  usable(): void;
  /** The earlier identical cash-out that blocks a new one (src/ledger/rules.ts `blocks`), read only. */
  blockingCashOut(fingerprint: string, windowMin: number, now?: number): Promise<LedgerEntry | undefined>;
  /** Rejects with UsageError `duplicate_cashout` when an earlier identical cash-out blocks this one. */
  checkCashOut(target: string, body: { value: number; pixKeyType: number; pixKey: string }, windowMin: number): Promise<void>;
  /**
   * Checks (identical-payment window, order reference taken) and records one payment, in one
   * transaction, before it is sent.
   * @throws UsageError `duplicate_cashout` / `duplicate_order` (exit 2)
   */
  begin(info: BeginInfo, opts?: RecordOptions): Promise<Recorded>;
  /**
   * Writes `ends` (outcomes held back), then checks and records each of `infos` as {@link begin}
   * would, one after the other, all in ONE transaction (one disk sync). A refusal is that payment's
   * answer; the others are recorded all the same.
   * @returns per payment, in order: its entry, or the UsageError that refused it
   * @throws the store's errors: then nothing of the call is recorded
   */
  recordMany(infos: readonly BeginInfo[], opts?: RecordOptions, ends?: readonly EndRecord[]): Promise<Array<Recorded | UsageError>>;
  /** Records how a payment ended (the latest call wins); after a send, so errors never say "nothing was sent". */
  end(id: number, outcome: Outcome, extra?: EndDetails): Promise<void>;
  /** {@link end} of many payments in one transaction. */
  endMany(ends: readonly EndRecord[]): Promise<void>;
  /** Moves the deadline of entries without an outcome to at least `deadlineMs` (epoch ms). */
  extendDeadlines(ids: readonly number[], deadlineMs: number): Promise<void>;
  /** What the in-flight rule (src/ledger/settle-rule.ts) needs of an entry: its deadline and its run's state. */
  inFlight(e: LedgerEntry): Promise<InFlightFacts & { run?: RunRecord }>;
  /** A run by id, as recorded. */
  run(id: string): Promise<RunRecord | undefined>;
  /** Makes this process the one run of a batch file at a gateway; resolves to the live run that owns it otherwise. */
  claimBatch(batchId: string, endpoint: string): Promise<RunRecord | undefined>;
  /** Lets the batch file this run owns go. */
  releaseBatch(): Promise<void>;
  /** The order reference of the latest identical payment settled `not_sent` by the gateway since `sinceMs`, unused since. */
  reusableOrderId(fingerprint: string, sinceMs: number): Promise<string | undefined>;
  /** One entry by number. */
  get(id: number): Promise<LedgerEntry | undefined>;
  /** The entries sent with `orderId`, newest first. */
  findByOrderId(orderId: string): Promise<LedgerEntry[]>;
  /** {@link findByOrderId} of many references in one round trip: each reference's entries, newest first (none: no key). */
  findManyByOrderId(orderIds: readonly string[]): Promise<Map<string, LedgerEntry[]>>;
  /** A batch's entries at one endpoint as tuples, by row then oldest first (src/ledger/schema.ts `BatchOutcome`). */
  batchOutcomes(batchId: string, endpoint: string): Promise<BatchOutcome[]>;
  /**
   * The lines of a batch whose `rows` rows are all finished, rendered by the store in one statement
   * (src/ledger/batch-text.ts); undefined when a row is not finished, a text cell is the caller's to
   * write, or the store does not render (the team ledger): the caller then reads {@link batchOutcomes}.
   * With `keep` (the run that finished the file), the store keeps the lines for later re-runs, until
   * a row of the batch changes (src/ledger/schema.ts `BATCH_TEXTS`).
   */
  finishedBatchText?(batchId: string, endpoint: string, rows: number, spec: BatchTextSpec, keep?: boolean): Promise<FinishedBatchText | undefined>;
  /**
   * Lists every row of a batch file at a gateway by its fingerprint's first 8 bytes, before its first wave
   * (src/ledger/batch-fingerprints.ts): one write for the file instead of a random page of an index a row. A
   * file listed before is left as it is; a store without the list (the team ledger) does nothing.
   */
  listBatchRows(batchId: string, endpoint: string, rows: ListedRows): Promise<void>;
  /** A batch's entries, by row then entry number. */
  batchRows(batchId: string): Promise<LedgerEntry[]>;
  /** Entries whose outcome is unknown, oldest first. */
  listUnknown(opts?: { since?: string; kind?: PaymentKind }): Promise<LedgerEntry[]>;
  /**
   * Settles an unknown outcome, by hand or from the gateway's answer, with a note.
   * @throws UsageError (exit 2) when there is no such entry or its outcome is known
   */
  resolve(id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: ResolvedBy; note?: string } & EndDetails): Promise<LedgerEntry>;
  /** What `paycli history` shows: newest first, at most `limit`. */
  query(q: LedgerQuery): Promise<LedgerEntry[]>;
  /** {@link query} one entry at a time (memory stays flat for an export of the whole ledger). */
  iterate(q: LedgerQuery): AsyncIterable<LedgerEntry>;
  /** The status the gateway now gives a created payment (`status`, `watch`): kept on its entry when its outcome is `ok`. */
  noteStatus(id: number, status: string): Promise<void>;
  /** A fact about the ledger (`key` → text). */
  meta(key: string): Promise<string | undefined>;
  /** Records a fact, replacing an earlier one. */
  setMeta(key: string, value: string): Promise<void>;
}
