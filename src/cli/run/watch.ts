/**
 * `--watch` of `cashin` and `status`: waits until the transaction reaches a final state (or the one
 * of `--until`), asking the gateway (src/payment/watch.ts), then prints it
 * (docs/cash-in-and-cash-out.md "Waiting for the outcome: --watch").
 *
 * - A live line on stderr when it is a terminal and `--json` is off (elapsed time, state), rewritten in
 *   place so that what is above it (the QR code) stays on screen; nothing extra otherwise.
 * - Result on stdout: the last document (text as `status` shows it, or with `--json` its document,
 *   once); a cash-in's creation (its QR code) is shown first in text only.
 * - A cash-in whose postback URL is on this machine's loopback gets a postback receiver for the wait
 *   (src/payment/watch-postbacks.ts): its postbacks hurry the next question; the gateway's answer decides.
 * - Exit: 0 the state waited for; 6 (`needs_attention`) another final state, or `--watch-timeout`
 *   passed, or the wait for a created cash-in failed: the charge exists in every
 *   case, and the document says its state; 130 Ctrl-C or SIGTERM (the charge still exists).
 */
import { InterruptedError, NeedsAttentionError, PaycliError, UsageError } from '../../core/errors.js';
import { parseDuration } from '../../core/duration.js';
import { t } from '../../core/i18n/index.js';
import { logger } from '../../core/logger.js';
import { redact, sanitizeText } from '../../core/sanitize.js';
import { output, type Output } from '../../core/output.js';
import type { GlobalFlags } from '../../config/settings.js';
import { isSandbox } from '../../gateway/endpoint.js';
import { builtInSandboxError, describeKey, type LookupKey } from '../../gateway/lookup.js';
import type { Settings } from '../../gateway/connection.js';
import type { TransactionLookup } from '../../gateway/schemas.js';
import { formatLookup } from '../../payment/format.js';
import type { PostbackHints } from '../../payment/watch-postbacks.js';
import { stateOf, untilState, verdict, watchByLookup, type FinalState, type Watched } from '../../payment/watch.js';
import { transactionDoc } from '../output/documents.js';
import type { CommandContext } from '../context.js';

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
  /** The postback receiver of a cash-in whose postback URL is local (src/payment/watch-postbacks.ts), once started. */
  postbacks?: PostbackHints;
}

/**
 * Reads `--watch`, `--watch-timeout` and `--until`, and the lookup settings: before anything is sent.
 * @returns the plan, or undefined without `--watch`
 * @throws UsageError (exit 2, nothing sent): `--until`/`--watch-timeout` without `--watch`, a bad
 *   value, or the built-in sandbox (it keeps nothing another process could pay)
 */
export async function watchPlan(opts: WatchFlags & GlobalFlags, ctx: CommandContext, about?: 'cashin'): Promise<WatchPlan | undefined> {
  if (!opts.watch) {
    const stray = opts.until !== undefined ? '--until' : opts.watchTimeout !== undefined ? '--watch-timeout' : undefined;
    if (stray) throw new UsageError(t('watch.needsWatch', stray), { field: stray });
    return undefined;
  }
  const until = untilState(opts.until ?? 'paid');
  const timeoutMs = opts.watchTimeout === undefined ? DEFAULT_WATCH_TIMEOUT_MS : parseDuration(opts.watchTimeout);
  if (timeoutMs === undefined || timeoutMs < 1) throw new UsageError(t('watch.timeoutInvalid', opts.watchTimeout!), { field: '--watch-timeout' });
  const settings = await ctx.settings(opts, 'lookup', about, { quiet: about !== undefined });
  if (isSandbox(settings.endpoint)) throw builtInSandboxError();
  return { until, timeoutMs, settings };
}

const elapsed = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The live line on a terminal's stderr: started, updated each second, erased at the end. */
function liveLine(ctx: CommandContext, what: string): { set(state: string | undefined): void; stop(): void } {
  if (!ctx.isTTY.stderr || ctx.output.mode !== 'text') return { set() {}, stop() {} };
  const start = Date.now();
  let state: string | undefined;
  // the state is the gateway's word (stateOf keeps it terminal-safe); the whole line is cleaned again, and redacted
  const draw = () => ctx.stderr.write(`\r\x1b[2K${redact(sanitizeText(t('watch.live', what, state ?? '…', elapsed(Date.now() - start)), true))}`);
  draw();
  const timer = setInterval(draw, 1000);
  return {
    set(s) {
      state = s;
      draw();
    },
    stop() {
      clearInterval(timer);
      ctx.stderr.write('\r\x1b[2K');
    },
  };
}

/** Renders a result now, before the run ends (the creation of a cash-in before its wait, the last document before exit 130). */
export async function renderNow(ctx: CommandContext, result: Output): Promise<void> {
  const { Printer } = await import('../output/printer.js');
  await new Printer({ stdout: ctx.stdout, stderr: ctx.stderr, stdoutIsTTY: ctx.isTTY.stdout }, ctx.output).render(result);
}

/** What a wait is about besides its key. */
export interface WatchAbout {
  /** The answer of a lookup just made (`status`): its state counts, and the next question waits a pause. */
  first?: { data: TransactionLookup; raw: unknown };
  /** For a cash-in just created: its label (`cash-in 42`), its result (shown if the wait ends with no document) and ledger entry. */
  created?: { label: string; result: Output; entry?: number; profile?: string; transactionId?: number | string };
}

/**
 * Waits for one transaction; returns its last document as the run's result.
 * @returns the result; with `attention` (exit 6) when it ended in another final state or
 *   `--watch-timeout` passed (the charge still exists)
 * @throws InterruptedError (130) on Ctrl-C/SIGTERM, after the last document is shown; for a
 *   created cash-in, NeedsAttentionError (exit 6) when the wait failed; for `status`, the lookup's own errors
 */
export async function watchOne(key: LookupKey, plan: WatchPlan, ctx: CommandContext, about: WatchAbout = {}): Promise<Output> {
  const what = describeKey(key);
  const w: Watched = { key, askedAt: Date.now(), ...(about.created?.transactionId !== undefined ? { transactionId: about.created.transactionId } : {}) };
  if (about.first) {
    Object.assign(w, { state: stateOf(about.first.data.status), data: about.first.data, raw: about.first.raw });
    const v = verdict(w.state!, plan.until);
    if (v !== 'wait') w.end = v;
  }
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const timeout = AbortSignal.timeout(plan.timeoutMs);
  const live = liveLine(ctx, what);
  if (w.state) live.set(w.state);
  let failure: unknown;
  try {
    plan.postbacks?.watch([w]);
    if (!w.end) await watchByLookup(plan.settings, [w], { until: plan.until, signal: AbortSignal.any([interrupt.signal, timeout]), onChange: (x) => live.set(x.state) });
  } catch (err) {
    failure = err;
  } finally {
    live.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (w.data && about.created?.entry !== undefined && w.state !== 'created') await noteState(ctx, about.created, w.state!);
  const more = about.created ? { created: about.created.label } : {};
  const last: Output | undefined = w.data ? output(transactionDoc(w.data, w.raw), () => formatLookup(w.data!), more) : undefined;
  if (failure !== undefined) {
    if (!about.created || !(failure instanceof PaycliError)) throw failure;
    await renderNow(ctx, last ?? about.created.result);
    throw new NeedsAttentionError([t('watch.failed', what, failure.message)], failure.details.hint !== undefined ? { hint: failure.details.hint } : {});
  }
  if (w.end === 'reached') return last!;
  const fallback = last ?? about.created?.result ?? output(null, '');
  if (w.end === 'ended') return { ...fallback, attention: { problems: [t('watch.ended', what, w.state!, plan.until)] } };
  if (interrupt.signal.aborted) {
    if (last || ctx.output.mode !== 'text') await renderNow(ctx, fallback);
    throw new InterruptedError(t('watch.interrupted', what, w.state ?? '?'));
  }
  return { ...fallback, attention: { problems: [t('watch.timeout', what, w.state ?? '?', elapsed(plan.timeoutMs))], hint: t('watch.timeoutHint', what) } };
}

/** Keeps the state seen in the ledger entry of a watched cash-in (a paid one enters the statements). */
async function noteState(ctx: CommandContext, created: NonNullable<WatchAbout['created']>, state: string): Promise<void> {
  try {
    const ledger = await ctx.readLedger(created.profile);
    await ledger?.noteStatus(created.entry!, state);
  } catch (err) {
    logger.warn(t('receipt.statusNotKept', (err as Error).message));
  }
}
