/**
 * Waiting for a transaction's outcome by asking the gateway (README "Checkout: wait until it is paid",
 * docs/cash-in-and-cash-out.md "Waiting for the outcome: --watch").
 *
 * - States are the gateway family's words (`created`, `paid`, `failed`, `canceled`, `refund`,
 *   `infraction`, and `expired`); a cash-out digit is read as its word. Final: paid, failed, canceled,
 *   refund, expired ({@link FINAL_STATES}); a paid one can still become a refund, so `--until refund`
 *   waits on past `paid`.
 * - Each transaction is asked about by its order reference (else its id) at most once a second: the
 *   pause after an answer starts at 1 s and grows by half up to {@link MAX_INTERVAL_MS}, with up to
 *   a fifth more at random (jitter) so that many watches do not ask in step.
 * - All transactions of one wait share {@link MAX_IN_FLIGHT} requests at a time and at most
 *   {@link MAX_PER_SECOND} requests a second. A 429 pauses every one of them for its `Retry-After`
 *   (src/gateway/net.ts `retryAfterMs`), plus jitter; network failures and 5xx answers only lengthen
 *   that transaction's pause. A 401/403 or an answer outside the interface ends the wait (thrown).
 * - A postback (src/payment/watch-postbacks.ts) only hurries the next question: {@link nudge} ends the
 *   transaction's pause, but the question still waits until a second after its last answer, and keeps to
 *   the shared budget and any 429 pause. The gateway's answer decides, never the postback.
 * - Memory: one small record per transaction, the last document only (bounded by the number watched).
 */
import { setMaxListeners } from 'node:events';
import { GatewayError, GatewayRefusedError, NetworkError, PaycliError, UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { logger } from '../core/logger.js';
import { sanitizeText } from '../core/sanitize.js';
import { retryAfterMs } from '../gateway/net.js';
import { findTransaction, type LookupKey } from '../gateway/lookup.js';
import { CASH_OUT_STATUS_NAMES } from '../gateway/status-words.js';
import type { TransactionLookup } from '../gateway/schemas.js';
import type { Settings } from '../gateway/connection.js';

/** States after which a transaction does not change (but `paid` → `refund`). */
export const FINAL_STATES = ['paid', 'failed', 'canceled', 'refund', 'expired'] as const;
export type FinalState = (typeof FINAL_STATES)[number];
/** States a final one can still move to (the sandbox's lifecycle: src/sandbox/lifecycle.ts). */
const LATER: Record<string, readonly string[]> = { paid: ['refund'] };

/** Longest pause between two questions about one transaction, in ms. */
export const MAX_INTERVAL_MS = 10_000;
/** Shortest pause between two questions about one transaction, in ms: once a second at most. */
export const MIN_INTERVAL_MS = 1000;
/** Requests out at once for one wait, whatever the number of transactions. */
export const MAX_IN_FLIGHT = 8;
/** Requests started per second for one wait, whatever the number of transactions. */
export const MAX_PER_SECOND = 50;

/** Longest state word kept, in characters (a longer status from a gateway is cut). */
const MAX_STATE_LENGTH = 40;

/**
 * A state word: a cash-out digit as its word, lower case, `refunded` as `refund`. A character the
 * terminal must not get (src/core/sanitize.ts: escapes, controls, bidi marks) is kept visible as a
 * `\uXXXX` escape rather than removed, so that `paid` with an escape sequence in it is not `paid`
 * (it waits on, and shows what the gateway sent) and no output of a wait carries it raw.
 */
export function stateOf(status: string | number): string {
  const s = [...String(status).trim().toLowerCase().slice(0, MAX_STATE_LENGTH)]
    .map((c) => (sanitizeText(c, true) === c ? c : `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`))
    .join('');
  if (s in CASH_OUT_STATUS_NAMES) return CASH_OUT_STATUS_NAMES[s as keyof typeof CASH_OUT_STATUS_NAMES];
  return s === 'refunded' ? 'refund' : s;
}

/**
 * Reads `--until`: one of {@link FINAL_STATES} (`refunded` for `refund`).
 * @throws UsageError (exit 2, nothing sent) for another word
 */
export function untilState(text: string): FinalState {
  const s = stateOf(text);
  if ((FINAL_STATES as readonly string[]).includes(s)) return s as FinalState;
  throw new UsageError(t('watch.untilInvalid', text, FINAL_STATES.join(', ')), { field: '--until' });
}

/** What a state means for a wait for `until`: go on waiting, the state waited for, or another end. */
export function verdict(state: string, until: FinalState): 'wait' | 'reached' | 'ended' {
  if (state === until) return 'reached';
  if (!(FINAL_STATES as readonly string[]).includes(state)) return 'wait';
  return LATER[state]?.includes(until) ? 'wait' : 'ended';
}

/** One transaction watched, and how it ended. */
export interface Watched {
  key: LookupKey;
  /** The last state seen (undefined before the first answer). */
  state?: string;
  /** The last document, as validated and as received. */
  data?: TransactionLookup;
  raw?: unknown;
  end?: 'reached' | 'ended';
  /** When the gateway was last asked about it (or created it), epoch ms: the first question waits a pause from then. */
  askedAt?: number;
  /** Its transaction id when known (a created cash-in): a postback must name it to count. */
  transactionId?: number | string;
  /** Set by {@link nudge}: ask again as soon as a second has passed since the last answer. */
  nudged?: boolean;
  /** Ends the current pause early (set while one runs). */
  wake?: () => void;
}

/**
 * Hurries the next question about `w` (a postback said it changed): its pause ends now, and the
 * question waits only until a second after its last answer. Does nothing to a wait that ended.
 */
export function nudge(w: Watched): void {
  if (w.end) return;
  w.nudged = true;
  w.wake?.();
}

/** Options of one wait. */
export interface WatchOptions {
  until: FinalState;
  signal: AbortSignal;
  /** Called after each answer that changed a state (for a live line). */
  onChange?(w: Watched): void;
  /** Random number in [0, 1) for jitter (tests may fix it). */
  random?: () => number;
}

/** Sleeps `ms`, less when `signal` aborts or, given `w`, when {@link nudge} wakes it. */
const sleep = (ms: number, signal: AbortSignal, w?: Watched) =>
  new Promise<void>((resolve) => {
    if (signal.aborted || ms <= 0 || w?.nudged) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      if (w) w.wake = undefined;
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    if (w) w.wake = done;
  });

/** The pause of `w` after an answer at `answeredAt` (epoch ms): `ms`, or once nudged, until a second after that answer. */
async function rest(w: Watched, ms: number, answeredAt: number, signal: AbortSignal): Promise<void> {
  await sleep(ms - (Date.now() - answeredAt), signal, w);
  if (!w.nudged || signal.aborted) return;
  w.nudged = false;
  await sleep(answeredAt + MIN_INTERVAL_MS - Date.now(), signal);
}

/** The pause before asking again after `tries` answers, jitter included (never under a second). */
export function pauseAfter(tries: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_INTERVAL_MS, MIN_INTERVAL_MS * 1.5 ** Math.max(0, tries - 3));
  return Math.max(MIN_INTERVAL_MS, Math.round(base * (1 + random() / 5)));
}

/**
 * Asks the gateway about every transaction of `list` until each reaches `until` or another end, or
 * `signal` aborts (then those not ended keep `end` undefined). Updates the records in place.
 * @throws AuthError, GatewayError for an answer outside the interface, GatewayRefusedError when the
 *   gateway has no lookups — the wait cannot go on
 */
export async function watchByLookup(settings: Settings, list: Watched[], opts: WatchOptions): Promise<void> {
  const random = opts.random ?? Math.random;
  const shared = { inFlight: 0, pausedUntil: 0, nextStart: 0, waiters: [] as (() => void)[] };
  const stop = new AbortController();
  const signal = AbortSignal.any([opts.signal, stop.signal]);
  setMaxListeners(0, signal); // one short-lived listener per transaction waiting, each removed when its pause ends

  /** Waits for a request slot: the 429 pause, the per-second spacing, then a free place. */
  async function slot(): Promise<void> {
    for (;;) {
      const now = Date.now();
      const wait = Math.max(shared.pausedUntil - now, shared.nextStart - now);
      if (wait > 0) await sleep(wait, signal);
      else if (shared.inFlight >= MAX_IN_FLIGHT) await new Promise<void>((r) => shared.waiters.push(r));
      else break;
      if (signal.aborted) return;
    }
    shared.inFlight++;
    shared.nextStart = Date.now() + 1000 / MAX_PER_SECOND;
  }
  const release = () => {
    shared.inFlight--;
    shared.waiters.shift()?.();
  };
  const wakeAll = () => {
    for (const w of shared.waiters.splice(0)) w();
  };
  signal.addEventListener('abort', wakeAll, { once: true });

  async function one(w: Watched): Promise<void> {
    if (w.askedAt !== undefined) await rest(w, pauseAfter(1, random), w.askedAt, signal);
    for (let tries = 1; !signal.aborted; tries++) {
      await slot();
      if (signal.aborted) return;
      let pause = pauseAfter(tries, random);
      try {
        const found = await findTransaction(settings, w.key, { signal, attempts: 1 });
        if (found.kind === 'unsupported') throw new GatewayRefusedError(t('status.noLookup', found.answer), { hint: t('status.noLookupHint') });
        if (found.kind === 'found') {
          const state = stateOf(found.data.status);
          const changed = state !== w.state;
          Object.assign(w, { state, data: found.data, raw: found.raw });
          const v = verdict(state, opts.until);
          if (v !== 'wait') w.end = v;
          if (changed || v !== 'wait') opts.onChange?.(w);
          if (v !== 'wait') return;
        }
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof GatewayRefusedError && err.details.status === 429) {
          const wait = retryAfterMs(err.details.retryAfter) + Math.round(random() * 250);
          shared.pausedUntil = Math.max(shared.pausedUntil, Date.now() + wait);
          logger.debug(`429 from the gateway: every watched transaction waits ${wait} ms`);
          pause = Math.max(pause, wait);
        } else if (err instanceof NetworkError || (err instanceof GatewayError && (err.details.status ?? 0) >= 500 && err.details.status !== 501)) {
          logger.debug(`lookup failed while watching (${(err as PaycliError).message}); asking again later`);
          pause = pauseAfter(tries + 3, random);
        } else {
          stop.abort();
          throw err;
        }
      } finally {
        release();
      }
      await rest(w, pause, Date.now(), signal);
    }
  }

  try {
    const results = await Promise.allSettled(list.map((w) => one(w)));
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  } finally {
    signal.removeEventListener('abort', wakeAll);
  }
}
