/**
 * Steps 1 to 4 of a batch run as the command line shows them (docs/batch-runs.md; the entry is
 * src/cli/batch/run.ts): the check (src/batch/check.ts), the problems or the summary and the one
 * confirmation (src/cli/batch/confirm.ts), the send (src/batch/engine.ts) with the progress display,
 * the results file and Ctrl-C, then the summary and the exit code. The engine reports to
 * {@link reporterFor}; this module is its only voice on stdout and stderr.
 */
import { accessSync, constants as fsConstants, mkdirSync } from 'node:fs';
import { ExitCode, InterruptedError, NeedsAttentionError, UsageError } from '../../core/errors.js';
import { endpointHost, isSandbox } from '../../gateway/endpoint.js';
import { formatReais } from '../../pix/money.js';
import { logger, runStreams } from '../../core/logger.js';
import { settingsFor, type Settings } from '../../config/settings.js';
import { whenText } from '../../ledger/settle-rule.js';
import { processContext } from '../../core/terminal.js';
import { t } from '../../core/i18n/index.js';
import { NO_LEDGER, scanFile, SCHEMAS, type Operation, type Scan } from '../../batch/check.js';
import { BatchEngine, type BatchEnd, type BatchReporter } from '../../batch/engine.js';
import { boundStreamMemory } from '../../core/memory.js';
import { exitCodeOf, type Tally } from '../../batch/outcome.js';
import { withoutNothingSent } from '../../batch/recorder.js';
import { RowSpool } from '../../batch/spool.js';
import { csvDialect } from '../csv-dialect.js';
import { confirm, reportProblems, summaryText } from './confirm.js';
import { startProgress, type BatchCounters, type Progress } from './progress.js';
import { openResults, printSummary, resultsPath, type ResultsWriter } from './results.js';
import type { PreparedBatch } from './run.js';

/**
 * Steps 1 to 4 for a batch prepared by src/cli/batch/run.ts (which keeps the ledger and the file open
 * around it): checks every row, prints the summary and asks (or `--dry-run` ends there), sends,
 * reports. Sets `process.exitCode`; throws on 130 and usage errors.
 */
export async function checkAndSend(prepared: PreparedBatch): Promise<void> {
  const op: Operation = { ...prepared.op, ...SCHEMAS[prepared.op.kind] };
  const tick = boundStreamMemory();
  // The rows checked are the rows sent (src/batch/spool.ts); a dry run sends nothing.
  const spool = prepared.settings ? new RowSpool() : undefined;
  try {
    await checkThenSend(op, prepared, tick, spool);
  } finally {
    spool?.dispose();
  }
}

/** `--dry-run`: what would be sent, on stdout. */
function printDryRun(op: Operation, prepared: PreparedBatch, scan: Scan): void {
  const { source, sha256, batchId, opts } = prepared;
  const doc = {
    dryRun: true,
    file: source.name,
    sha256,
    batchId,
    rows: scan.rows,
    toSend: scan.toSend.count,
    totalCents: scan.toSend.cents,
    largestCents: scan.toSend.largest,
    largestRow: scan.toSend.largestRow,
  };
  if (opts.json) runStreams().stdout.write(`${JSON.stringify(doc)}\n`);
  else
    runStreams().stdout.write(
      `${t('batchRun.dryRun', source.name, t('batch.rows', scan.rows), t('batch.count', scan.toSend.count, op.kind), formatReais(scan.toSend.cents), formatReais(scan.toSend.largest), scan.toSend.largestRow)}\n`,
    );
  logger.notice(t('pay.dryRun', false));
}

/** A folder the PNGs of `--qr-dir` can be written into, checked before anything is sent. @throws UsageError */
function checkQrDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, fsConstants.W_OK | fsConstants.X_OK);
  } catch (err) {
    throw new UsageError(t('batchRun.qrDir', dir, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--qr-dir', hint: t('batchRun.qrDirHint') });
  }
}

/** The summary before sending (stderr; one JSON line with `--json`), then the one confirmation. */
async function showAndConfirm(op: Operation, prepared: PreparedBatch, scan: Scan, settings: Settings): Promise<void> {
  const { opts, source, sha256, batchId } = prepared;
  const summary = summaryText(op, source, sha256, scan, settings);
  const { count, cents, largest, largestRow } = scan.toSend;
  if (opts.json) {
    const batch = { file: source.name, sha256, batchId, rows: scan.rows, toSend: count, totalCents: cents, largestCents: largest, largestRow };
    const earlier = { alreadyOk: scan.alreadyOk, alreadyRefused: scan.alreadyRefused, unknown: scan.unknown };
    runStreams().stderr.write(`${JSON.stringify({ batch: { ...batch, ...earlier, profile: settings.profile, gateway: endpointHost(settings.endpoint, 'SANDBOX') } })}\n`);
  } else runStreams().stderr.write(`\n${summary}\n\n`);
  await confirm(op, summary, count, opts);
}

/** {@link checkAndSend} with its spool (undefined for a dry run). */
async function checkThenSend(op: Operation, prepared: PreparedBatch, tick: () => void, spool: RowSpool | undefined): Promise<void> {
  const { opts, source, format, sha256, batchId, settings, ledger } = prepared;
  const legacyOrderIds = ledger ? await ledger.legacyReferences(batchId, sha256, op.kind) : false;
  const scan = await scanFile(op, source, format, sha256, ledger ?? NO_LEDGER, { ...opts, legacyOrderIds }, tick, spool);
  if (scan.problems.length) return reportProblems(source, scan.problems, Boolean(opts.json));
  if (!settings) return printDryRun(op, prepared, scan);
  if (scan.firstLine !== undefined) await ledger!.recordBatch(batchId, { rows: scan.rows, firstLine: scan.firstLine });
  const results = resultsPath(opts.batch, opts.results, batchId);
  if (opts.qrDir !== undefined) checkQrDir(opts.qrDir);
  if (scan.toSend.count > 0) await showAndConfirm(op, prepared, scan, settings);
  await prepared.beforeSend?.(scan.postbackUrls);
  const writer = await openResults(results, source, format, Boolean(opts.json), csvDialect(opts.csvDialect), isSandbox(settings.endpoint));
  try {
    await send(op, prepared, scan, spool!, writer, tick);
  } finally {
    writer.close();
  }
}

/** The engine's reporter (src/batch/engine.ts `BatchReporter`): counters and progress, the results file, notices on stderr. */
function reporterFor(counters: BatchCounters, progress: () => Progress | undefined, writer: ResultsWriter): BatchReporter {
  return {
    row(r, skipped) {
      if (skipped) counters.skipped++;
      if (r.outcome === 'ok') {
        counters.ok++;
        counters.sentCents += r.valueCents;
      } else if (r.outcome === 'refused') counters.refused++;
      else if (r.outcome === 'unknown') counters.unknown++;
      counters.done++;
      writer.write(r);
      progress()?.update();
    },
    durable: () => writer.flush(),
    notice: (text) => logger.notice(text),
    warn: (text) => logger.warn(text),
    debug: (text) => logger.debug(text),
  };
}

/** Step 3 and 4: the send with progress and Ctrl-C, then the summary and the exit code. */
async function send(op: Operation, prepared: PreparedBatch, scan: Scan, spool: RowSpool, writer: ResultsWriter, tick: () => void): Promise<void> {
  const { opts, settings, batchId, target, ledger, concurrency, rate } = prepared;
  const counters: BatchCounters = { total: scan.rows, done: 0, skipped: 0, ok: 0, refused: 0, unknown: 0, sentCents: 0 };
  let progress: Progress | undefined;
  let lookup: Settings | undefined;
  const engine = new BatchEngine(
    {
      ...{ op, spool, batchId, settings: settings!, target: target!, ledger: ledger!, concurrency },
      ...(rate !== undefined ? { rate } : {}),
      ...(opts.qrDir !== undefined ? { qrDir: opts.qrDir } : {}),
      retryRefused: Boolean(opts.retryRefused),
      allowDuplicate: Boolean(opts.allowDuplicate),
      lookup: () => (lookup ??= settingsFor(opts, 'lookup', op.kind, { quiet: true })),
      tick,
    },
    reporterFor(counters, () => progress, writer),
  );
  progress = await startProgress(counters, { json: Boolean(opts.json), tty: processContext().isTTY.stderr });
  // Ctrl-C / SIGTERM: stop starting rows and let the ones in flight finish; a second one aborts them.
  const onSignal = () => engine.interrupt();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let end: BatchEnd;
  try {
    end = await engine.run();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    progress.stop();
  }
  writer.flush();
  conclude(op, end, Boolean(opts.json), writer.path);
}

/** The summary, and the exit code of the run (thrown for a stop). */
function conclude(op: Operation, end: BatchEnd, json: boolean, resultsFile: string): void {
  const { tally, listed, fatal } = end;
  printSummary(op.kind, tally, listed, json, resultsFile, fatal ? t('batchRun.stopped') : t('error.interrupted'));
  if (fatal) {
    // "Nothing was sent" (exit 2) may not be said once something was.
    if (end.sentAny && fatal.exitCode === ExitCode.USAGE) throw new NeedsAttentionError([t('batchRun.stoppedAfterSending', withoutNothingSent(fatal.message), runStates(tally))]);
    throw fatal;
  }
  if (end.stopped) throw new InterruptedError(t('batch.notStarted', tally.not_started.rows));
  if (tally.unknown.rows && end.decidableAt !== undefined) logger.notice(t('batchRun.leftUnknown', whenText(end.decidableAt)));
  process.exitCode = exitCodeOf(tally, end.unknownExit);
}

/** How many rows ended in each state, in words (`112 created, 16 not sent, 472 not started`). */
function runStates(tally: Tally): string {
  return Object.entries(tally)
    .filter(([, v]) => v.rows)
    .map(([k, v]) => `${v.rows} ${t(`batchState.${k as keyof Tally}`)}`)
    .join(', ');
}
