/**
 * What a batch run needs from the payment ledger (src/ledger/ledger.ts), in one place: what happened
 * before to a row's `orderId`, a record before each row is sent (with the batch id and row number),
 * its outcome after, and the settling of an unknown outcome.
 */
import type { BeginInfo, EndDetails, LedgerEntry } from '../../ledger/ledger.js';
import { needsAttention } from '../../ledger/schema.js';
import { openLedger } from '../../ledger/store.js';
import { endpointIdentity, outcomeOfError, type Outcome } from '../../ledger/rules.js';
import type { RunRecord } from '../../ledger/runs.js';
import type { Settings } from '../../config/settings.js';
import type { UsageError } from '../../core/errors.js';
import { settleEntry, type Settled } from '../../payment/settle.js';

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

/**
 * The ledger as a batch run uses it, for the one gateway endpoint the run sends to: what the
 * ledger knows of a row is what that gateway got. A file rehearsed on the sandbox, or paid at
 * another gateway, is nothing to this one.
 */
export interface BatchLedger {
  /** The latest entry with this `orderId` sent to this run's gateway, if any. */
  previous(orderId: string): PreviousRow | undefined;
  /** {@link previous} of each reference, in their order (the team ledger answers them in one round trip). */
  previousMany(orderIds: readonly string[]): Array<PreviousRow | undefined>;
  /**
   * Records a row before it is sent (a cash-out is checked against identical earlier ones).
   * @throws UsageError `duplicate_cashout`; the ledger's errors when it cannot write
   */
  begin(info: RowBegin, opts: { windowMin: number; allowDuplicate: boolean }): { id: number };
  /** {@link begin} of many rows in one round trip, each answered with its entry or its refusal (the team ledger only). */
  beginMany?(infos: readonly RowBegin[], opts: { windowMin: number; allowDuplicate: boolean }): Array<{ id: number } | UsageError>;
  end(id: string | number, outcome: Outcome, extra?: EndDetails): void;
  /** Runs `fn` in one transaction: the begins and ends inside it reach the disk together. */
  group<T>(fn: () => T): T;
  /** Records what a run learnt of the file of batch `batchId` (after every row was checked). */
  recordBatch(batchId: string, facts: BatchFacts): void;
  /**
   * Every row of batch `batchId`, when an earlier run of the same file recorded it
   * ({@link recordBatch}) and each row's latest entry at this run's gateway is `ok`; otherwise undefined (the run
   * then checks the file row by row). Lets a re-run of a finished file skip the check.
   */
  finishedBatch(batchId: string): { facts: BatchFacts; rows: FinishedRow[] } | undefined;
  /**
   * Every row of the file the gateway created (outcome `ok` with a transaction id), its latest entry,
   * whether or not it needs attention: what `--watch` waits for after a run.
   */
  createdRows(batchId: string): FinishedRow[];
  /**
   * Keeps the state the gateway now gives a created row in its latest entry at this gateway, as a single
   * cash-in's `--watch` keeps it (src/ledger/ledger.ts `noteStatus`): `history` shows it.
   */
  noteStatus(orderId: string, status: string): void;
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
  claim(batchId: string): RunRecord | undefined;
  /** Lets the file go (the run ends). */
  release(): void;
  /** Moves on the deadlines of rows recorded but not started yet (src/ledger/ledger.ts `extendDeadlines`). */
  extendDeadlines(ids: ReadonlyArray<string | number>, deadlineMs: number): void;
  /**
   * Throws the ledger's error when it is known to be unusable before a recorded row starts (a team
   * ledger whose connection was lost: nothing is sent after the loss). Costs no round trip.
   */
  usable(): void;
  close(): void;
}

/**
 * Opens the ledger for a batch run that sends to `target`.
 * @param target the full endpoint URL the rows go to, or `sandbox` (src/gateway/endpoint.ts `endpointTarget`)
 * @param profile the profile in use (its `ledger-url` chooses the team ledger)
 * @throws the ledger's errors (exit 2, nothing sent) when it cannot be opened
 */
export function openBatchLedger(target: string, profile?: string): BatchLedger {
  const ledger = openLedger(profile);
  const endpoint = endpointIdentity(target);
  const latest = (entries: readonly LedgerEntry[]): PreviousRow | undefined => {
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
  };
  return {
    previous: (orderId) => latest(ledger.findByOrderId(orderId)),
    previousMany(orderIds) {
      if (!ledger.findByOrderIds) return orderIds.map((orderId) => latest(ledger.findByOrderId(orderId)));
      const found = ledger.findByOrderIds(orderIds);
      return orderIds.map((orderId) => latest(found.get(orderId) ?? []));
    },
    group: (fn) => ledger.group(fn),
    recordBatch: (batchId, facts) => ledger.setMeta(`batch:${batchId}`, JSON.stringify(facts)),
    finishedBatch(batchId) {
      const text = ledger.meta(`batch:${batchId}`);
      if (text === undefined) return undefined;
      let facts: BatchFacts;
      try {
        facts = JSON.parse(text) as BatchFacts;
      } catch {
        return undefined; // an unreadable record: the file is checked row by row, as on a first run
      }
      if (!Number.isSafeInteger(facts?.rows) || !Number.isSafeInteger(facts.firstLine) || facts.rows < 1) return undefined;
      // Entries come by row, oldest first: a row's last one is its latest.
      const entries = ledger.batchOutcomes(batchId, endpoint);
      const rows: FinishedRow[] = [];
      for (let i = 0; i < entries.length; i++) {
        const [row, orderId, value, outcome, transactionId, status, attention] = entries[i]!;
        if (i + 1 < entries.length && entries[i + 1]![0] === row) continue;
        // a row that needs attention is reported as such, row by row, until `history resolve` settles it
        if (row !== rows.length + 1 || outcome !== 'ok' || attention) return undefined;
        rows.push({ row, orderId, valueCents: value, ...(transactionId !== null ? { transactionId } : {}), ...(status !== null ? { status } : {}) });
      }
      if (rows.length !== facts.rows) return undefined;
      return { facts, rows };
    },
    noteStatus(orderId, status) {
      const e = latest(ledger.findByOrderId(orderId));
      if (e?.outcome === 'ok') ledger.noteStatus(e.id as number, status);
    },
    createdRows(batchId) {
      const entries = ledger.batchOutcomes(batchId, endpoint);
      const rows: FinishedRow[] = [];
      for (let i = 0; i < entries.length; i++) {
        const [row, orderId, value, outcome, transactionId, status] = entries[i]!;
        if ((i + 1 < entries.length && entries[i + 1]![0] === row) || outcome !== 'ok' || transactionId === null) continue;
        rows.push({ row, orderId, valueCents: value, transactionId, ...(status !== null ? { status } : {}) });
      }
      return rows;
    },
    begin: (info, opts) => ledger.begin(info, opts),
    ...(ledger.beginMany ? { beginMany: (infos: readonly RowBegin[], opts: { windowMin: number; allowDuplicate: boolean }) => ledger.beginMany!(infos, opts) } : {}),
    end: (id, outcome, extra) => ledger.end(Number(id), outcome, extra),
    async settle(id, lookup, opts) {
      const e = ledger.get(Number(id));
      if (!e) return { state: 'unknown', why: `ledger entry ${id} is gone` };
      return settleEntry(ledger, e, lookup, opts);
    },
    claim: (batchId) => ledger.claimBatch(batchId, endpoint),
    release: () => ledger.releaseBatch(),
    extendDeadlines: (ids, deadlineMs) => ledger.extendDeadlines(ids.map(Number), deadlineMs),
    usable: () => (ledger as { assertConnected?: () => void }).assertConnected?.(),
    close: () => ledger.close(),
  };
}
