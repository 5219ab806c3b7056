/**
 * What a batch run needs from the payment ledger (src/ledger/ledger.ts), in one place: what happened
 * before to a row's `orderId`, a record before each row is sent (with the batch id and row number),
 * its outcome after, and the settling of an unknown outcome.
 */
import type { BeginInfo, LedgerEntry } from '../ledger/ledger.js';
import { needsAttention, type BatchOutcome } from '../ledger/schema.js';
import type { EndRecord, LedgerContract } from '../ledger/contract.js';
import { endpointIdentity, outcomeOfError, paymentFingerprint, type Outcome } from '../ledger/rules.js';
import type { RunRecord } from '../ledger/runs.js';
import type { BatchTextSpec, FinishedBatchText } from '../ledger/batch-text.js';
import { legacyDerivedOrderId } from './order-refs.js';
import { BatchFingerprintList } from '../ledger/batch-fingerprints.js';
import type { Settings } from '../config/settings.js';
import type { UsageError } from '../core/errors.js';
import type { Settled } from '../payment/settle.js';

export { outcomeOfError, type Outcome };

/** The latest ledger entry of a row's `orderId` at the run's gateway. */
export interface PreviousRow {
  id: string | number;
  outcome: Outcome;
  /** False when no outcome was recorded (paycli killed after recording it). */
  completed: boolean;
  transactionId?: number | string;
  status?: string;
  message?: string;
  /** What was wrong in its create answer, while no `history resolve` settled it (src/ledger/schema.ts `needsAttention`). */
  attention?: string[];
}

/** What is recorded before a row is sent: the ledger's {@link BeginInfo}, with the order reference and batch position required. */
export type RowBegin = BeginInfo & Required<Pick<BeginInfo, 'orderId' | 'batchId' | 'batchRow'>>;

/** A row that an earlier run of the same file finished `ok`, as the results report it. */
export interface FinishedRow {
  row: number;
  orderId: string;
  /** Amount, in cents. */
  valueCents: number;
  transactionId?: number | string;
  status?: string;
}

/** What a batch run records of a file it checked and started: its rows, and the line of row 1 (each row then on its own line). */
export interface BatchFacts {
  rows: number;
  firstLine: number;
}

/** What a row records before it is sent, with how it is checked (the profile's window, `--allow-duplicate`). */
export interface RowRecordOptions {
  windowMin: number;
  allowDuplicate: boolean;
}

/**
 * The most rows a finished file may have for the run that finished it to keep its results lines for later re-runs
 * (src/ledger/kept-texts.ts): the lines are one text, about 80 bytes a row, built in memory as the run ends, and past
 * this it would raise the run's peak memory above what the send itself needs (docs/speed.md, "Re-running a finished
 * file"). A re-run of a larger file renders its lines from the rows, as before.
 */
export const KEEP_LINES_MAX_ROWS = 20_000;

/**
 * The ledger as a batch run uses it, for the one gateway endpoint the run sends to: what the
 * ledger knows of a row is what that gateway got. A file rehearsed on the sandbox, or paid at
 * another gateway, is nothing to this one. Asynchronous, over the ledger contract
 * (src/ledger/contract.ts): the local ledger and the team ledger alike.
 */
export interface BatchLedger {
  /** The latest entry of each reference sent to this run's gateway, in their order (one round trip). */
  previousMany(orderIds: readonly string[]): Promise<Array<PreviousRow | undefined>>;
  /**
   * Writes `ends` (outcomes held back), then checks and records each row before it is sent, all in
   * ONE transaction (src/ledger/contract.ts `recordMany`): a wave of rows, one disk sync.
   * @returns per row, in order: its entry, or the UsageError (`duplicate_cashout` / `duplicate_order`) that refused it
   * @throws the ledger's errors: then nothing of the call is recorded
   */
  recordMany(infos: readonly RowBegin[], opts: RowRecordOptions, ends?: readonly EndRecord[]): Promise<Array<{ id: number } | UsageError>>;
  /**
   * Whether an older paycli recorded a row of batch `batchId` at this gateway under the reference it
   * derived then (src/batch/order-refs.ts `legacyDerivedOrderId`): the file then keeps those references.
   */
  legacyReferences(batchId: string, fileSha256: string, kind: 'cashin' | 'cashout'): Promise<boolean>;
  /**
   * The check of the file (src/batch/check.ts) gives each valid row here as it reads it: the rows are listed in the
   * ledger by fingerprint in one write before the first wave is recorded (src/ledger/batch-fingerprints.ts), so that
   * the waves write no random page of a fingerprint index. What this computes is the fingerprint the ledger records for
   * the row (src/batch/row.ts `beginInfo`, src/ledger/rules.ts `paymentFingerprint`); should they ever differ, the
   * ledger lists the recorded one as well, so the identical-payment check still finds the row.
   */
  noteRow?(kind: 'cashin' | 'cashout', row: number, body: { value: number }): void;
  /** Writes many outcomes in one transaction. */
  endMany(ends: readonly EndRecord[]): Promise<void>;
  /** Records what a run learnt of the file of batch `batchId` (after every row was checked). */
  recordBatch(batchId: string, facts: BatchFacts): Promise<void>;
  /**
   * Every row of batch `batchId`, when an earlier run of the same file recorded it
   * ({@link recordBatch}) and each row's latest entry at this run's gateway is `ok`; otherwise undefined (the run
   * then checks the file row by row). Lets a re-run of a finished file skip the check.
   */
  finishedBatch(batchId: string): Promise<{ facts: BatchFacts; rows: FinishedRow[] } | undefined>;
  /**
   * {@link finishedBatch} with the rows' lines rendered by the ledger in one statement
   * (src/ledger/batch-text.ts), from the cells `cellsOf` gives for the file's facts; undefined when
   * the file is not known finished, a text cell is left to the caller, or the ledger does not render
   * (the team ledger): the caller then reads {@link finishedBatch}. With `keep` (the run that finished
   * the file), the ledger keeps the lines for later re-runs, until a row of the batch changes; a file of more than
   * {@link KEEP_LINES_MAX_ROWS} rows keeps nothing (undefined).
   */
  finishedBatchText?(batchId: string, cellsOf: (facts: BatchFacts) => BatchTextSpec, keep?: boolean): Promise<(FinishedBatchText & { facts: BatchFacts }) | undefined>;
  /**
   * Every row of the file the gateway created (outcome `ok` with a transaction id), its latest entry,
   * whether or not it needs attention: what `--watch` waits for after a run.
   */
  createdRows(batchId: string): Promise<FinishedRow[]>;
  /**
   * Keeps the state the gateway now gives a created row in its latest entry at this gateway, as a single
   * cash-in's `--watch` keeps it (src/ledger/contract.ts `noteStatus`): `history` shows it.
   */
  noteStatus(orderId: string, status: string): Promise<void>;
  /**
   * Settles a row an earlier run left unknown: the settle step of every payment
   * (src/payment/settle.ts: asks the gateway by order reference; "not found" counts only once the
   * run that sent it is gone and its deadline plus `settle-after` has passed).
   */
  settle(id: string | number, lookup: Settings | { problem: string }, opts: { signal: AbortSignal; note: string }): Promise<Settled>;
  /**
   * Makes this run the one run of the file at this gateway (docs/batch-runs.md, "One run at a time").
   * @returns undefined when it is ours; the live run that has it otherwise
   */
  claim(batchId: string): Promise<RunRecord | undefined>;
  /** Lets the file go (the run ends). */
  release(): Promise<void>;
  /** Moves on the deadlines of rows recorded but not started yet (src/ledger/contract.ts `extendDeadlines`). */
  extendDeadlines(ids: ReadonlyArray<string | number>, deadlineMs: number): Promise<void>;
  /**
   * Throws the ledger's error when it is known to be unusable before a recorded row starts (a team
   * ledger whose connection was lost: nothing is sent after the loss). Costs no round trip.
   */
  usable(): void;
  close(): Promise<void>;
}

/** The latest entry among `entries` (newest first) at `endpoint`, as a batch row sees it. */
function latestAt(entries: readonly LedgerEntry[], endpoint: string): PreviousRow | undefined {
  const e = entries.find((entry) => entry.endpoint === endpoint);
  if (!e) return undefined;
  return {
    id: e.id,
    outcome: e.outcome,
    completed: e.completed,
    ...(e.transactionId !== undefined ? { transactionId: e.transactionId } : {}),
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(e.message !== undefined ? { message: e.message } : {}),
    ...(needsAttention(e) ? { attention: e.answer!.attention! } : {}),
  };
}

/** The batch's facts as recorded by {@link BatchLedger.recordBatch}, or undefined when unreadable (the file is then checked row by row). */
function parseFacts(text: string | undefined): BatchFacts | undefined {
  if (text === undefined) return undefined;
  try {
    const facts = JSON.parse(text) as BatchFacts;
    return Number.isSafeInteger(facts?.rows) && Number.isSafeInteger(facts.firstLine) && facts.rows >= 1 ? facts : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The rows of {@link BatchLedger.finishedBatch} from the batch's entries (by row, oldest first: a row's
 * last one is its latest), or undefined when one is missing, not `ok`, or needs attention (reported as
 * such, row by row, until `history resolve` settles it).
 */
function finishedRows(entries: readonly BatchOutcome[], facts: BatchFacts): FinishedRow[] | undefined {
  const rows: FinishedRow[] = [];
  for (let i = 0; i < entries.length; i++) {
    const [row, orderId, value, outcome, transactionId, status, attention] = entries[i]!;
    if (i + 1 < entries.length && entries[i + 1]![0] === row) continue;
    if (row !== rows.length + 1 || outcome !== 'ok' || attention) return undefined;
    rows.push({ row, orderId, valueCents: value, ...(transactionId !== null ? { transactionId } : {}), ...(status !== null ? { status } : {}) });
  }
  return rows.length === facts.rows ? rows : undefined;
}

/** The rows the gateway created (latest entry `ok` with a transaction id), from the batch's entries. */
function createdOf(entries: readonly BatchOutcome[]): FinishedRow[] {
  const rows: FinishedRow[] = [];
  for (let i = 0; i < entries.length; i++) {
    const [row, orderId, value, outcome, transactionId, status] = entries[i]!;
    if ((i + 1 < entries.length && entries[i + 1]![0] === row) || outcome !== 'ok' || transactionId === null) continue;
    rows.push({ row, orderId, valueCents: value, transactionId, ...(status !== null ? { status } : {}) });
  }
  return rows;
}

/**
 * The batch's view of an open ledger contract, for the endpoint `target`.
 * @param target the full endpoint URL the rows go to, or `sandbox` (src/gateway/endpoint.ts `endpointTarget`)
 * @param keepLinesMaxRows the most rows of a file whose lines are kept ({@link KEEP_LINES_MAX_ROWS}; tests set fewer)
 */
export function batchLedgerOf(ledger: LedgerContract, target: string, keepLinesMaxRows = KEEP_LINES_MAX_ROWS): BatchLedger {
  const endpoint = endpointIdentity(target);
  const listed = new BatchFingerprintList();
  const latest = async (orderId: string) => latestAt(await ledger.findByOrderId(orderId), endpoint);
  return {
    async previousMany(orderIds) {
      if (!orderIds.length) return [];
      const found = await ledger.findManyByOrderId(orderIds);
      return orderIds.map((orderId) => latestAt(found.get(orderId) ?? [], endpoint));
    },
    noteRow(kind, row, body) {
      const b = body as Record<string, unknown>;
      const fields = kind === 'cashout' ? { pixKeyType: b.pixKeyType as number, pixKey: b.pixKey as string } : { payer: b.payerName as string };
      listed.add(row, paymentFingerprint({ kind, target, value: body.value, ...fields }));
    },
    async recordMany(infos, opts, ends = []) {
      // the file's rows listed by fingerprint before its first wave is recorded (one write; none when listed before)
      if (listed.size && infos.length) await ledger.listBatchRows(infos[0]!.batchId, endpoint, listed.take());
      return ledger.recordMany(infos, opts, ends);
    },
    endMany: (ends) => ledger.endMany(ends),
    async legacyReferences(batchId, fileSha256, kind) {
      const entries = await ledger.batchOutcomes(batchId, endpoint);
      // a reference of today's form (a `-` before the row number) is not hashed again
      return entries.some(([row, orderId]) => orderId.length === 33 && orderId[23] !== '-' && orderId === legacyDerivedOrderId(fileSha256, kind, row));
    },
    recordBatch: (batchId, facts) => ledger.setMeta(`batch:${batchId}`, JSON.stringify(facts)),
    async finishedBatch(batchId) {
      const facts = parseFacts(await ledger.meta(`batch:${batchId}`));
      if (!facts) return undefined;
      const rows = finishedRows(await ledger.batchOutcomes(batchId, endpoint), facts);
      return rows ? { facts, rows } : undefined;
    },
    async finishedBatchText(batchId, cellsOf, keep) {
      const facts = ledger.finishedBatchText && parseFacts(await ledger.meta(`batch:${batchId}`));
      if (keep && facts && facts.rows > keepLinesMaxRows) return undefined;
      const text = facts && (await ledger.finishedBatchText!(batchId, endpoint, facts.rows, cellsOf(facts), keep));
      return text ? { ...text, facts: facts! } : undefined;
    },
    async noteStatus(orderId, status) {
      const e = await latest(orderId);
      if (e?.outcome === 'ok') await ledger.noteStatus(Number(e.id), status);
    },
    createdRows: async (batchId) => createdOf(await ledger.batchOutcomes(batchId, endpoint)),
    async settle(id, lookup, opts) {
      const e = await ledger.get(Number(id));
      if (!e) return { state: 'unknown', why: `ledger entry ${id} is gone` };
      // loaded when a row is settled: the gateway client and its schemas are not on the path of a re-run of a finished file (docs/speed.md)
      const { settleEntry } = await import('../payment/settle.js');
      return settleEntry(ledger, e, lookup, opts);
    },
    claim: (batchId) => ledger.claimBatch(batchId, endpoint),
    release: () => ledger.releaseBatch(),
    extendDeadlines: async (ids, deadlineMs) => {
      if (ids.length) await ledger.extendDeadlines(ids.map(Number), deadlineMs);
    },
    usable: () => ledger.usable(),
    close: () => ledger.close(),
  };
}

/**
 * Opens the ledger for a batch run that sends to `target`: the profile's team ledger, or the local one
 * (src/ledger/async-store.ts `openContract`).
 * @param target the full endpoint URL the rows go to, or `sandbox` (src/gateway/endpoint.ts `endpointTarget`)
 * @param profile the profile in use (its `ledger-url` chooses the team ledger)
 * @throws the ledger's errors (exit 2, nothing sent) when it cannot be opened
 */
export async function openBatchLedger(target: string, profile?: string): Promise<BatchLedger> {
  // loaded here: a re-run of a finished file answered by finishedKept never loads the whole store
  const { openContract } = await import('../ledger/async-store.js');
  return batchLedgerOf(await openContract(profile), target);
}

/**
 * {@link BatchLedger.finishedBatchText} of a re-run (not `keep`) when the local ledger kept the lines,
 * read without opening the whole store (src/ledger/read-kept.ts `keptBatchText`: docs/speed.md "A batch re-run
 * without the command tree"); undefined in every other case, for {@link openBatchLedger}'s ledger to answer.
 * @param target the full endpoint URL the rows go to, or `sandbox` (src/gateway/endpoint.ts `endpointTarget`)
 * @param profile the profile in use (its `ledger-url` chooses the team ledger, which this leaves alone)
 */
export async function finishedKept(
  target: string,
  profile: string | undefined,
  batchId: string,
  cellsOf: (facts: BatchFacts) => BatchTextSpec,
): Promise<(Omit<FinishedBatchText, 'text'> & { text: Uint8Array; facts: BatchFacts }) | undefined> {
  const { keptBatchText } = await import('../ledger/read-kept.js');
  const kept = keptBatchText(profile, batchId, endpointIdentity(target), (text) => {
    const facts = parseFacts(text);
    return facts && { spec: cellsOf(facts), rows: facts.rows };
  });
  return kept && { rows: kept.rows, cents: kept.cents, text: kept.bytes, facts: parseFacts(kept.facts)! };
}
