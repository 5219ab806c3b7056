/**
 * What a batch run produces (docs/batch-runs.md, "Results"): the kinds of batch, how each row ended
 * ({@link RowResult}), the counts per outcome ({@link Tally}) and the exit code they give. The CLI
 * writes them (src/cli/batch/results.ts); this layer only computes them.
 */
import { ExitCode } from '../core/errors.js';
import { CASHIN_PATH, CASHOUT_PATH } from '../gateway/contract.js';
import { CASHIN_FIELDS, CASHOUT_FIELDS, type FieldSpec } from '../gateway/fields.js';

/** What a batch pays: cash-outs or cash-ins. */
export type BatchKind = 'cashin' | 'cashout';

/** A kind of batch as its messages name it, its interface path and its fields (src/gateway/fields.ts). */
export interface BatchOperation {
  kind: BatchKind;
  noun: string;
  plural: string;
  path: string;
  fields: readonly FieldSpec[];
}

/** The two kinds of batch (interface paths from src/gateway/contract.ts, fields from src/gateway/fields.ts). */
export const BATCH_OPERATIONS: Record<BatchKind, BatchOperation> = {
  cashout: { kind: 'cashout', noun: 'cash-out', plural: 'cash-outs', path: CASHOUT_PATH, fields: CASHOUT_FIELDS },
  cashin: { kind: 'cashin', noun: 'cash-in', plural: 'cash-ins', path: CASHIN_PATH, fields: CASHIN_FIELDS },
};

/**
 * How a row ended. `already_ok`, `already_refused`: done by an earlier run of the same file, not
 * sent again. `already_at_gateway`: a cash-out whose own `order-id` the gateway already holds
 * though this ledger has no payment of it (another machine or home sent it): not sent, so that it
 * is not paid twice (docs/batch-runs.md). `not_started`: the run stopped (Ctrl-C, a full disk, a
 * refused credential…) before this row was sent; nothing of it reached the gateway, and the same
 * command sends it (docs/batch-runs.md).
 */
export type RowOutcome = 'ok' | 'already_ok' | 'already_at_gateway' | 'refused' | 'already_refused' | 'unknown' | 'not_sent' | 'needs_attention' | 'not_started';

/** One line of the results. Amounts in integer cents. */
export interface RowResult {
  row: number;
  line: number;
  orderId: string;
  outcome: RowOutcome;
  /** Amount of the row, in cents. */
  valueCents: number;
  transactionId?: number | string;
  /** Cash-out status digit (interface §3). */
  status?: string;
  /** Cash-out fee and net, in cents (interface §2.4 `tax`, `liquid`). */
  feeCents?: number;
  netCents?: number;
  /** Cash-in BR Code and the PNG written under `--qr-dir`. */
  brCode?: string;
  png?: string;
  error?: string;
  /** True on every row of a run against the built-in sandbox (no money moved); set by the writer. */
  sandbox?: boolean;
}

/** Counts per outcome (rows and cents), for the final summary. */
export type Tally = Record<RowOutcome, { rows: number; cents: number }>;

/** A {@link Tally} with every outcome at zero. */
export function emptyTally(): Tally {
  return Object.fromEntries(
    (['ok', 'already_ok', 'already_at_gateway', 'refused', 'already_refused', 'unknown', 'not_sent', 'needs_attention', 'not_started'] as RowOutcome[]).map((o) => [
      o,
      { rows: 0, cents: 0 },
    ]),
  ) as Tally;
}

/** The outcomes whose rows the summary lists by number. */
export type ListedOutcome = 'already_at_gateway' | 'refused' | 'unknown' | 'needs_attention' | 'not_sent' | 'not_started';

/** The rows of each {@link ListedOutcome}, none yet. */
export function emptyListed(): Record<ListedOutcome, number[]> {
  return { already_at_gateway: [], refused: [], unknown: [], needs_attention: [], not_sent: [], not_started: [] };
}

/**
 * The exit code of a run that was not stopped (docs/batch-runs.md, "Exit codes"): rows left unknown
 * give `unknownExit` (4, or 5 when the gateway answered outside the interface); else 6 when a row needs
 * attention, was not sent or was already at the gateway; else 1 when one was refused; else 0.
 */
export function exitCodeOf(tally: Tally, unknownExit: number): number {
  if (tally.unknown.rows) return unknownExit;
  if (tally.needs_attention.rows || tally.not_sent.rows || tally.already_at_gateway.rows) return ExitCode.NEEDS_ATTENTION;
  if (tally.refused.rows || tally.already_refused.rows) return ExitCode.REFUSED;
  return ExitCode.OK;
}
