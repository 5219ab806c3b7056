/**
 * The identical-payment window and the order-reference rule, each written once (docs/ledger-and-safety.md
 * "Duplicate cash-outs", docs/order-references.md): in TypeScript for entries in memory and as the SQL
 * conditions both stores build their check-and-record statements from (src/ledger/schema.ts,
 * src/ledger/pg/schema.ts). No imports: the PostgreSQL statements and a batch's own checks load it alone.
 */
/**
 * How a payment ended: `ok` the gateway created it; `refused` the gateway said no (4xx,
 * 401/403); `not_sent` nothing reached the gateway; `unknown` it may have reached the gateway
 * but no valid answer came back (timeout, reset, 5xx, wrong shape, Ctrl-C after sending), or
 * paycli stopped before recording the answer.
 */
export type Outcome = 'ok' | 'refused' | 'unknown' | 'not_sent';

/** Every {@link Outcome}, in the order `history` documents them. */
export const OUTCOMES: readonly Outcome[] = ['ok', 'refused', 'unknown', 'not_sent'];

/** Default duplicate window in minutes (the profile's `duplicate-window` overrides it): both stores use it. */
export const DEFAULT_WINDOW_MIN = 10;

/** What the duplicate rule needs to know about an earlier cash-out. */
export interface EarlierPayment {
  /** Ledger entry number. */
  id: number;
  /** ISO 8601 UTC time it was recorded, just before sending. */
  time: string;
  /** The same as epoch milliseconds, when known (what is compared). */
  timeMs?: number;
  /** Amount in cents. */
  value: number;
  pixKey?: string;
  sandbox: boolean;
  /** Its outcome; `unknown` also while no outcome is recorded. */
  outcome: Outcome;
  /** False when no outcome was recorded at all (paycli killed, or still sending). */
  completed: boolean;
  transactionId?: number | string;
}

/**
 * Whether an earlier identical cash-out blocks a new one (docs/ledger-and-safety.md "Duplicate cash-outs"):
 * - outcome unknown (or none recorded): blocks, with no time limit, until it is resolved
 *   (`paycli history resolve`, or a lookup at the gateway): the clock plays no part, so a clock
 *   moved forwards or backwards cannot let the same payout through;
 * - outcome `ok`: blocks within `windowMin` minutes of when it was recorded; an entry recorded
 *   "in the future" (the clock moved back since) is inside the window; `windowMin` 0 turns
 *   this part off;
 * - `refused` and `not_sent` never block.
 * Its SQL form, which both stores' statements are built from, is {@link blockingSql} just below:
 * a change of the rule is made in these two together.
 */
export function blocks(e: Pick<EarlierPayment, 'time' | 'timeMs' | 'outcome'>, windowMin: number, now = Date.now()): boolean {
  if (e.outcome === 'unknown') return true;
  if (e.outcome !== 'ok' || windowMin <= 0) return false;
  const t = e.timeMs ?? Date.parse(e.time);
  return !Number.isFinite(t) || t >= now - windowMin * 60_000; // a time that cannot be read counts as recent
}

/**
 * {@link blocks} as an SQL condition on a row of `payments` (both stores build their check from it:
 * src/ledger/schema.ts `BLOCKING`, src/ledger/pg/schema.ts `PG_CHECK_AND_INSERT`). The parameters are
 * the store's placeholders: `windowOn` a boolean (true when `windowMin > 0`), `since` epoch ms
 * ({@link windowStart}).
 * @param col how a column is named (`outcome`, `b.outcome`)
 */
export function blockingSql(p: { windowOn: string; since: string }, col = (c: string) => c): string {
  return `(${col('outcome')} IS NULL OR ${col('outcome')} = 'unknown' OR (${col('outcome')} = 'ok' AND ${p.windowOn} AND (${col('time_ms')} IS NULL OR ${col('time_ms')} >= ${p.since})))`;
}

/** The first moment (epoch ms) of the identical-payment window at `now`: an `ok` cash-out recorded since then blocks. */
export function windowStart(windowMin: number, now: number): number {
  return now - Math.max(0, windowMin) * 60_000;
}

/**
 * Whether an entry holds its order reference at its gateway (the `duplicate_order` rule,
 * docs/order-references.md): still open (no outcome, or unknown) or created (`ok`). As an SQL
 * condition on a row of `payments`, for both stores.
 * @param col how a column is named
 */
export function orderHeldSql(col = (c: string) => c): string {
  return `(${col('outcome')} IS NULL OR ${col('outcome')} IN ('unknown', 'ok'))`;
}

/**
 * What a check finds against a new payment decides whether it is recorded: an earlier identical
 * cash-out that blocks it refuses it unless `--allow-duplicate`; an entry holding its order
 * reference always does. Its SQL form, {@link refusesSql}, is just below: a change is made in both.
 */
export function refuses(found: { blocked?: unknown; taken?: unknown }, allowDuplicate: boolean): boolean {
  return (found.blocked !== undefined && !allowDuplicate) || found.taken !== undefined;
}

/**
 * {@link refuses} as an SQL condition, for a store that checks and records in one statement
 * (src/ledger/pg/schema.ts `PG_CHECK_AND_INSERT`).
 * @param p SQL booleans: an earlier cash-out blocks, `--allow-duplicate`, the order reference is held
 */
export function refusesSql(p: { blocked: string; allowDuplicate: string; taken: string }): string {
  return `((${p.blocked} AND NOT ${p.allowDuplicate}) OR ${p.taken})`;
}
