/**
 * `cashin --batch FILE --watch`: after the run, waits for every cash-in the file created (src/payment/watch.ts,
 * all rows sharing one gateway budget) and summarises them on stderr (docs/batch-runs.md "Waiting for the
 * charges: --watch"). Exit: the run's own code when it is not 0; else 0 when every charge reached the state
 * waited for, 6 when one ended otherwise or `--watch-timeout` passed; 130 on Ctrl-C (the charges still exist).
 * Rows whose postback URL is on this machine's loopback get one receiver for them all, started before the first
 * row is sent (src/payment/watch-postbacks.ts): their postbacks hurry the questions; the gateway's answers decide.
 * Each row's last state seen goes to its ledger entry, as a single cash-in's does (`history` shows it).
 */
import { ExitCode, InterruptedError } from '../../core/errors.js';
import { t } from '../../core/i18n/index.js';
import { logger } from '../../core/logger.js';
import { processContext } from '../../core/terminal.js';
import { watchByLookup, type Watched } from '../../payment/watch.js';
import type { PostbackHints } from '../../payment/watch-postbacks.js';
import type { GlobalFlags } from '../../config/settings.js';
import { commandContext } from '../context.js';
import { watchPlan, type WatchFlags } from '../run/watch.js';
import type { BatchLedger } from '../../batch/ledger.js';

/**
 * Checks the watch flags of a batch run before anything is sent.
 * @throws UsageError (exit 2) as `watchPlan`, or `--watch` on a cash-out batch
 */
export async function batchWatchPlan(opts: WatchFlags & GlobalFlags & { dryRun?: boolean }) {
  if (opts.dryRun) return undefined;
  const { outputRequest } = await import('../output/shape.js');
  return watchPlan(opts, commandContext(processContext(), await outputRequest('cashin', opts as Record<string, unknown>)), 'cashin');
}

/** Starts the postback receivers for the rows' local postback URLs, if any (src/payment/watch-postbacks.ts). Never throws. */
export async function listenForRows(postbackUrls: ReadonlySet<string>): Promise<PostbackHints | undefined> {
  if (postbackUrls.size === 0) return undefined;
  const { listenForPostbacks } = await import('../../payment/watch-postbacks.js');
  return listenForPostbacks(postbackUrls);
}

/** Waits for the created rows of a finished run, keeps their states in the ledger and prints the summary; sets the exit code. */
export async function watchBatchRows(
  plan: NonNullable<Awaited<ReturnType<typeof batchWatchPlan>>>,
  ledger: BatchLedger,
  batchId: string,
  postbacks?: PostbackHints,
): Promise<void> {
  const list: Watched[] = (await ledger.createdRows(batchId)).map((r) => ({
    key: { orderId: r.orderId },
    askedAt: Date.now(),
    ...(r.transactionId !== undefined ? { transactionId: r.transactionId } : {}),
  }));
  postbacks?.watch(list);
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  logger.notice(t('watch.batchStart', list.length, plan.until));
  try {
    await watchByLookup(plan.settings, list, { until: plan.until, signal: AbortSignal.any([interrupt.signal, AbortSignal.timeout(plan.timeoutMs)]) });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await noteStates(ledger, list);
  }
  const counts = new Map<string, number>();
  for (const w of list) counts.set(w.state ?? '?', (counts.get(w.state ?? '?') ?? 0) + 1);
  const summary = [...counts].map(([state, n]) => `${n} ${state}`).join(', ');
  const reached = list.filter((w) => w.end === 'reached').length;
  logger.notice(t('watch.batchSummary', list.length, summary || '0'));
  if (interrupt.signal.aborted && reached < list.length) throw new InterruptedError(t('watch.batchInterrupted', list.length - reached));
  if (reached < list.length && !process.exitCode) process.exitCode = ExitCode.NEEDS_ATTENTION;
}

/** Keeps each row's last state seen, when it moved past `created`, in its ledger entry; a ledger error is a warning (the charges are unchanged). */
async function noteStates(ledger: BatchLedger, list: readonly Watched[]): Promise<void> {
  try {
    for (const w of list) if (w.state !== undefined && w.state !== 'created' && 'orderId' in w.key) await ledger.noteStatus(w.key.orderId, w.state);
  } catch (err) {
    logger.warn(t('receipt.statusNotKept', (err as Error).message));
  }
}
