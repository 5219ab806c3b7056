/**
 * When a gateway's "Transaction not found" proves that a payment was never sent
 * (docs/ledger-and-safety.md, "In flight"). A lookup by order reference answers for the moment it
 * is asked: a request still queued or processing at the gateway is not found yet, and is created
 * later. So "not found" settles an entry as `not_sent` only when
 * 1. the run that recorded it is gone (its process ended: a stopped process is alive), and
 * 2. the entry's deadline (the last moment its request may have been sent, plus its timeout)
 *    and a grace period (the profile's `settle-after`) have passed.
 * Before that the outcome stays unknown. "Found" settles at any time: it is proof either way.
 * Pure: the clock and the owner's state are passed in (unit-tested with a fake clock).
 */
import { formatLocalTime } from '../core/local-time.js';
import { isPortuguese, t } from '../core/i18n/index.js';

/** The state of the run that recorded an entry (src/ledger/runs.ts `runState`). */
export type OwnerState =
  /** This very process: it is alive, and it knows whether its own request is still open. */
  | 'self'
  /** Its process is running, or stopped (SIGSTOP): it may still send, or still be waiting. */
  | 'alive'
  /** Its process has ended (its lock is free and its process id is gone or reused). */
  | 'gone'
  /** Cannot be told from here (another host): treated as alive. */
  | 'unknown';

export { DEFAULT_SETTLE_AFTER_MS } from '../gateway/connection.js';

/** What the rule needs of an entry. */
export interface InFlightFacts {
  /** The entry's deadline in epoch milliseconds: the latest its request may have left, plus its timeout. */
  deadlineMs: number;
  /** The state of the run that recorded it. */
  owner: OwnerState;
  /** For `self`: true while this process may still send it or is still waiting for its answer. */
  selfOpen?: boolean;
}

/** The verdict: may "not found" settle the entry as `not_sent` now, and if not, why and from when. */
export type SettleVerdict =
  | { settle: true }
  | {
      settle: false;
      /** `owner_alive`: its run may still send it; `deadline`: it may still be in flight at the gateway. */
      why: 'owner_alive' | 'deadline';
      /** From this epoch millisecond a lookup can decide (deadline + grace), when the owner is gone. */
      decidableAt?: number;
    };

/**
 * Whether a "Transaction not found" settles an entry as `not_sent` now.
 * @param facts the entry's deadline and its owner's state
 * @param graceMs the profile's `settle-after`, in milliseconds (>= 0)
 * @param now epoch milliseconds (tests pass a fake clock)
 * @returns `{settle: true}`, or why not and, when only time is missing, from when it can
 */
export function notFoundSettles(facts: InFlightFacts, graceMs: number, now: number): SettleVerdict {
  const decidableAt = facts.deadlineMs + Math.max(0, graceMs);
  if (facts.owner === 'alive' || facts.owner === 'unknown' || (facts.owner === 'self' && facts.selfOpen)) return { settle: false, why: 'owner_alive', decidableAt };
  if (now < decidableAt) return { settle: false, why: 'deadline', decidableAt };
  return { settle: true };
}

/**
 * The deadline of a request: the latest moment it may leave (`startBy`, epoch ms) plus its timeout (ms).
 * A request that has not left by `startBy` is not sent unless its deadline is first moved on in
 * the ledger (src/ledger/ledger.ts `extendDeadlines`).
 */
export function deadlineOf(startBy: number, timeoutMs: number): number {
  return startBy + timeoutMs;
}

/**
 * A time for messages, in the local zone with its offset, to the second (src/core/local-time.ts):
 * `2026-11-25T12:04:15-03:00`, or `25/11/2026 12:04:15 -03:00` in Portuguese.
 * @param timeZone an IANA zone (the local one by default; tests inject one)
 */
export function whenText(ms: number, timeZone?: string): string {
  return formatLocalTime(ms, { portuguese: isPortuguese(), ...(timeZone ? { timeZone } : {}) });
}

/** Words for a verdict that does not settle, for messages and the `reason` of JSON output. */
export function verdictWords(v: Exclude<SettleVerdict, { settle: true }>): string {
  if (v.why === 'owner_alive') return t('settle.ownerAlive');
  return t('settle.untilDeadline', whenText(v.decidableAt!));
}
