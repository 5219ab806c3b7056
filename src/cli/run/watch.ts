/**
 * `--watch` of `cashin` and `status`: waits until the transaction reaches a final state (or the one
 * of `--until`), asking the gateway (src/payment/watch.ts), then prints it
 * (docs/cash-in-and-cash-out.md "Waiting for the outcome: --watch").
 *
 * - A live line on stderr when it is a terminal and `--json` is off (elapsed time, state), rewritten in
 *   place so that what is above it (the QR code) stays on screen; nothing extra otherwise.
 * - Result on stdout: the last document (text as `status` shows it, or with `--json` the gateway's
 *   document, once).
 * - Exit: 0 the state waited for; 6 another final state (`not_paid`), `--watch-timeout` passed
 *   (`watch_timeout`) or, after a cash-in was created, the wait failed (`watch_failed`): the charge
 *   exists in every case; 130 Ctrl-C or SIGTERM (the charge still exists).
 */
import { ExitCode, InterruptedError, PaycliError, UsageError } from '../../core/errors.js';
import { parseDuration } from '../../core/duration.js';
import { t } from '../../core/i18n/index.js';
import { printResult } from '../../core/logger.js';
import { sanitizeJson } from '../../core/sanitize.js';
import type { RunContext } from '../../core/terminal.js';
import { settingsFor, type GlobalFlags } from '../../config/settings.js';
import { isSandbox } from '../../gateway/endpoint.js';
import { builtInSandboxError, describeKey, type LookupKey } from '../../gateway/lookup.js';
import type { Settings } from '../../gateway/connection.js';
import { formatLookup } from '../../payment/format.js';
import { stateOf, untilState, verdict, watchByLookup, type FinalState, type Watched } from '../../payment/watch.js';
import type { TransactionLookup } from '../../gateway/schemas.js';

/** Longest wait without `--watch-timeout`, in ms (30 min). */
export const DEFAULT_WATCH_TIMEOUT_MS = 30 * 60_000;

/** The watch flags shared by `cashin` and `status`. */
export interface WatchFlags {
  watch?: boolean;
  watchTimeout?: string;
  until?: string;
}

/** What a wait needs, read from the flags. */
export interface WatchPlan {
  until: FinalState;
  timeoutMs: number;
  settings: Settings;
}

/**
 * Reads `--watch`, `--watch-timeout` and `--until`, and the lookup settings: before anything is sent.
 * @returns the plan, or undefined without `--watch`
 * @throws UsageError (exit 2, nothing sent): `--until`/`--watch-timeout` without `--watch`, a bad
 *   value, or the built-in sandbox (it keeps nothing another process could pay)
 */
export function watchPlan(opts: WatchFlags & GlobalFlags, about?: 'cashin'): WatchPlan | undefined {
  if (!opts.watch) {
    const stray = opts.until !== undefined ? '--until' : opts.watchTimeout !== undefined ? '--watch-timeout' : undefined;
    if (stray) throw new UsageError(t('watch.needsWatch', stray), { field: stray });
    return undefined;
  }
  const until = untilState(opts.until ?? 'paid');
  const timeoutMs = opts.watchTimeout === undefined ? DEFAULT_WATCH_TIMEOUT_MS : parseDuration(opts.watchTimeout);
  if (timeoutMs === undefined) throw new UsageError(t('watch.timeoutInvalid', opts.watchTimeout!), { field: '--watch-timeout' });
  const settings = settingsFor(opts, 'lookup', about, { quiet: about !== undefined });
  if (isSandbox(settings.endpoint)) throw builtInSandboxError();
  return { until, timeoutMs, settings };
}

const elapsed = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The live line on a terminal's stderr: started, updated each second, erased at the end. */
function liveLine(ctx: RunContext, json: boolean, what: string): { set(state: string | undefined): void; stop(): void } {
  if (!ctx.isTTY.stderr || json) return { set() {}, stop() {} };
  const start = Date.now();
  let state: string | undefined;
  const draw = () => process.stderr.write(`\r\x1b[2K${t('watch.live', what, state ?? '…', elapsed(Date.now() - start))}`);
  draw();
  const timer = setInterval(draw, 1000);
  return {
    set(s) {
      state = s;
      draw();
    },
    stop() {
      clearInterval(timer);
      process.stderr.write('\r\x1b[2K');
    },
  };
}

/**
 * Waits for one transaction and prints its last document.
 * @param first the answer of a lookup just made (`status`): its state counts, and the next question waits a pause
 * @param created for a cash-in just created: what to print on stdout if the wait ends without a
 *   document (its creation answer), and that a failed wait is exit 6, not the lookup's own code
 * @throws PaycliError exit 6 (`not_paid`, `watch_timeout`, `watch_failed`), InterruptedError (130),
 *   and for `status` the lookup's own errors
 */
export async function watchOne(key: LookupKey, plan: WatchPlan, opts: GlobalFlags, ctx: RunContext, created?: { label: string; raw: unknown }, first?: { data: TransactionLookup; raw: unknown }): Promise<void> {
  const what = describeKey(key);
  const w: Watched = { key, askedAt: Date.now() };
  if (first) {
    Object.assign(w, { state: stateOf(first.data.status), data: first.data, raw: first.raw });
    const v = verdict(w.state!, plan.until);
    if (v !== 'wait') w.end = v;
  }
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const timeout = AbortSignal.timeout(plan.timeoutMs);
  const live = liveLine(ctx, Boolean(opts.json), what);
  if (w.state) live.set(w.state);
  let failure: unknown;
  try {
    if (!w.end) await watchByLookup(plan.settings, [w], { until: plan.until, signal: AbortSignal.any([interrupt.signal, timeout]), onChange: (x) => live.set(x.state) });
  } catch (err) {
    failure = err;
  } finally {
    live.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const print = () => {
    if (w.data) printResult(opts.json ? { json: sanitizeJson(w.raw) } : formatLookup(w.data), created ? { created: created.label } : {});
    else if (created && opts.json) printResult({ json: sanitizeJson(created.raw) }, { created: created.label });
  };
  print();
  if (failure !== undefined) {
    if (!created || !(failure instanceof PaycliError)) throw failure;
    throw new PaycliError('watch_failed', ExitCode.NEEDS_ATTENTION, t('watch.failed', what, failure.message), { hint: failure.details.hint });
  }
  if (w.end === 'reached') return;
  if (w.end === 'ended') throw new PaycliError('not_paid', ExitCode.NEEDS_ATTENTION, t('watch.ended', what, w.state!, plan.until));
  if (interrupt.signal.aborted) throw new InterruptedError(t('watch.interrupted', what, w.state ?? '?'));
  throw new PaycliError('watch_timeout', ExitCode.NEEDS_ATTENTION, t('watch.timeout', what, w.state ?? '?', elapsed(plan.timeoutMs)), { hint: t('watch.timeoutHint', what) });
}
