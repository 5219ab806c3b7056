/**
 * `paycli cashout --batch <file>` and `paycli cashin --batch <file>` (docs/batch-runs.md): many
 * payments from a CSV or JSON Lines file, in four steps.
 * 1. Check: every row goes through the same mapping and schema as a single payment; any bad row
 *    (or two identical payments, unless `--allow-duplicate`) stops the run with exit 2, every
 *    problem listed by line and column, nothing sent.
 * 2. Confirm once: count, total, largest, profile, gateway, the file's fingerprint.
 * 3. Send: `--concurrency` requests in flight over kept-alive connections, `--rate` per second;
 *    each row recorded in the ledger (batch id, row number, `orderId`) before it is sent; a 429
 *    (not processed) waits for `Retry-After` and sends that row again; nothing else is retried.
 * 4. Report: a results line per row (file, and stdout with `--json`), a summary, the exit code.
 * Re-running the same file resumes it: each row's `orderId` (its column, or derived from the file
 * and the row) finds what an earlier run did with it. A cash-out row with its own `order-id` that
 * this ledger has not paid is first asked about at the gateway, as a single `--order-id` cash-out
 * is (src/gateway/lookup.ts `witnessOrder`): one the gateway already holds is not sent.
 *
 * This module is the run's entry: it checks the flags, fingerprints the file and opens the ledger.
 * A file every row of which an earlier run paid at the same gateway is reported from the ledger
 * here, without loading the schemas or the HTTP client; steps 1 to 4 are src/cli/batch/send.ts (the engine: src/batch/),
 * loaded only when there is something to check or send (docs/speed.md).
 */
import { BATCH_OPERATIONS, type BatchKind, type BatchOperation } from '../../batch/outcome.js';
import { endpointTarget, isSandbox } from '../../gateway/endpoint.js';
import { ExitCode, InterruptedError, UsageError } from '../../core/errors.js';
import { interruptSignal } from '../../core/terminal.js';
import { describeRun } from '../../ledger/runs.js';
import { logger } from '../../core/logger.js';
import { settingsFor, type Settings } from '../../config/settings.js';
import { batchFormat, fileSha256, openSource, type BatchFormat, type BatchSource } from '../../batch/read.js';
import type { PostbackHints } from '../../payment/watch-postbacks.js';
import { finishedKept, openBatchLedger, type BatchFacts, type BatchLedger, type FinishedRow } from '../../batch/ledger.js';
import type { BatchTextSpec, FinishedBatchText } from '../../ledger/batch-text.js';
import { emptyTally, finishedCells, openResults, printSummary, resultsPath, resultsSep, type ResultsShape } from './results.js';
import type { RunModule } from '../lazy.js';
import type { PaymentFlags } from '../run/payment.js';
import { t } from '../../core/i18n/index.js';
import { parseEncoding } from '../../core/text-encoding.js';
import { csvDialect } from '../csv-dialect.js';

/** Default and largest `--concurrency`. */
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 32;

/** Flags of a batch run (on top of the single payment's). */
export type BatchOptions = PaymentFlags & {
  batch: string;
  batchFormat?: string;
  concurrency?: string;
  rate?: string;
  results?: string;
  retryRefused?: boolean;
  /** `--wait`: wait for another live run of the same file to end, instead of exit 2 `batch_running`. */
  wait?: boolean;
  allowDuplicate?: boolean;
  yes?: boolean;
  qrDir?: string;
  /** `--encoding` of the file (src/core/text-encoding.ts). */
  encoding?: string;
  /** `--csv-dialect` of a CSV results file (src/cli/csv-dialect.ts). */
  csvDialect?: string;
};

export { BATCH_OPERATIONS, type BatchKind, type BatchOperation } from '../../batch/outcome.js';

/** A batch run after its flags were checked, its file fingerprinted and its ledger opened. */
export interface PreparedBatch {
  op: BatchOperation;
  opts: BatchOptions;
  source: BatchSource;
  format: BatchFormat;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  /** `<kind>-<first 16 hex digits of the SHA-256>`: the file's rows in the ledger. */
  batchId: string;
  concurrency: number;
  /** `--rate`, requests started per second. */
  rate?: number;
  /** Undefined with `--dry-run` (nothing is resolved that is not needed to check the file). */
  settings?: Settings;
  /** The full endpoint URL the rows go to, or `sandbox` (src/gateway/endpoint.ts `endpointTarget`); with settings. */
  target?: string;
  /** The ledger for that endpoint; with settings. */
  ledger?: BatchLedger;
  /** Called once the rows are checked and confirmed, before the first is sent, with their distinct postback URLs. Must not throw. */
  beforeSend?(postbackUrls: ReadonlySet<string>): Promise<void>;
}

/** Parses a positive integer flag within bounds. @throws UsageError */
function intFlag(name: string, raw: string | undefined, def: number, max: number): number {
  if (raw === undefined) return def;
  if (!/^[0-9]+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > max) throw new UsageError(t('batchRun.intFlag', name, max, JSON.stringify(raw)), { field: name });
  return Number(raw);
}

/** `--rate`: requests started per second (a positive number, fractions allowed). @throws UsageError */
function rateFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(raw.trim()) || !(n > 0) || n > 10_000) throw new UsageError(t('batchRun.rate', JSON.stringify(raw)), { field: '--rate' });
  return n;
}

/**
 * Runs a batch. Sets `process.exitCode` (0, 1, 4, 5, 6; 2 for a bad file); throws on 130 and usage errors.
 * @throws UsageError (exit 2, nothing sent) for a flag of single payments, a bad `--concurrency`,
 *   `--rate` or format, a file that cannot be read; the ledger's errors when it cannot be opened
 */
export async function runBatch(kind: BatchKind, opts: BatchOptions): Promise<void> {
  const op = BATCH_OPERATIONS[kind];
  const single = [...op.fields.map((f) => [f.attr, f.flag] as const), ['input', '--input'], ['amount', '--amount'], ['qrFile', '--qr-file'], ['qr', '--qr']] as const;
  for (const [attr, flag] of single) {
    if (opts[attr] !== undefined) throw new UsageError(t('batchRun.singleOnly', flag), { field: flag });
  }
  const format = batchFormat(opts.batch, opts.batchFormat);
  const concurrency = intFlag('--concurrency', opts.concurrency, DEFAULT_CONCURRENCY, MAX_CONCURRENCY);
  const rate = rateFlag(opts.rate);
  if (opts.qrDir !== undefined && kind !== 'cashin') throw new UsageError(t('batchRun.qrDirCashIn'), { field: '--qr-dir' });
  const watching = opts.watch || opts.until !== undefined || opts.watchTimeout !== undefined ? await import('./watch.js') : undefined;
  const plan = watching ? await watching.batchWatchPlan(opts) : undefined;
  const source = await openSource(opts.batch, parseEncoding(opts.encoding));
  let ledger: BatchLedger | undefined;
  try {
    const sha256 = await fileSha256(source);
    const batchId = `${kind}-${sha256.slice(0, 16)}`;
    const settings = opts.dryRun ? undefined : settingsFor(opts, kind);
    // Where the rows go: the ledger answers for that gateway only (a sandbox rehearsal pays nothing elsewhere).
    const target = settings ? endpointTarget(settings.endpoint, op.path) : undefined;
    // A finished file has nothing to send: reported from the ledger, read only (no claim needed); its kept
    // lines first without opening the whole store (src/batch/ledger.ts `finishedKept`), else by the store.
    const sandbox = settings !== undefined && isSandbox(settings.endpoint);
    const kept: FinishedSource = { batchId, lines: (cellsOf) => finishedKept(target!, settings?.profile, batchId, cellsOf) };
    if (target !== undefined && (await reportFinished(op, source, format, opts, sandbox, kept))) return;
    ledger = target !== undefined ? await openBatchLedger(target, settings?.profile) : undefined;
    if (ledger && (await reportFinished(op, source, format, opts, sandbox, storeSource(ledger, batchId)))) return;
    if (ledger) {
      await claimFile(ledger, batchId, source.name, Boolean(opts.wait));
      // The other run may have finished it meanwhile.
      if (opts.wait && (await reportFinished(op, source, format, opts, sandbox, storeSource(ledger, batchId)))) return;
    }
    const { checkAndSend } = await import('./send.js');
    let postbacks: PostbackHints | undefined;
    try {
      await checkAndSend({
        op,
        opts,
        source,
        format,
        sha256,
        batchId,
        concurrency,
        ...(rate !== undefined ? { rate } : {}),
        ...(settings ? { settings, target: target!, ledger: ledger! } : {}),
        // --watch with rows whose postback URL is on this machine: listen there before the first row is sent
        ...(plan ? { beforeSend: async (urls: ReadonlySet<string>) => void (postbacks = await watching!.listenForRows(urls)) } : {}),
      });
      if (plan && ledger) await watching!.watchBatchRows(plan, ledger, batchId, postbacks);
      if (ledger && !process.exitCode) await keepFinished(source, format, batchId, ledger, opts, sandbox);
    } finally {
      await postbacks?.close();
    }
  } finally {
    try {
      await ledger?.release();
    } catch {
      /* the claim ends with this process anyway (its lock is released by the kernel) */
    }
    await ledger?.close().catch(() => undefined);
    source.dispose();
  }
}

/** How often `--wait` looks whether the other run of the file has ended, in milliseconds. */
const WAIT_POLL_MS = 250;

/**
 * One batch file, one run at a time (docs/batch-runs.md, "One run at a time"): makes this run the
 * owner of the file at its gateway. Another run of it that is alive (running, or stopped by Ctrl-Z
 * or SIGSTOP) keeps it: exit 2 `batch_running`, nothing sent, naming that run; with `--wait`,
 * waits for it to end (Ctrl-C stops waiting, nothing sent) and continues.
 * @throws UsageError `batch_running`; InterruptedError when Ctrl-C ends the wait; the ledger's errors
 */
async function claimFile(ledger: BatchLedger, batchId: string, file: string, wait: boolean): Promise<void> {
  let other = await ledger.claim(batchId);
  if (!other) return;
  if (!wait) {
    throw new UsageError(t('batchRun.running', file, describeRun(other)), { field: '--batch', hint: t('batchRun.runningHint') }, 'batch_running');
  }
  logger.notice(t('batchRun.waiting', file, describeRun(other)));
  const interrupt = interruptSignal();
  try {
    while (other) {
      // one listener per poll, removed when the poll ends (a long wait adds none)
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          interrupt.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, WAIT_POLL_MS);
        interrupt.signal.addEventListener('abort', done, { once: true });
      });
      if (interrupt.signal.aborted) throw new InterruptedError(t('batchRun.waitInterrupted', file));
      other = await ledger.claim(batchId);
    }
  } finally {
    interrupt.dispose();
  }
  logger.notice(t('batchRun.otherEnded', file));
}

/**
 * The run module of `cashout --batch` / `cashin --batch` (src/cli/lazy.ts): {@link runBatch} of that
 * kind, for the options of either command.
 */
export function batchRunModule<O>(kind: BatchKind): RunModule<O> {
  return { run: (opts) => runBatch(kind, opts as unknown as BatchOptions) };
}

/** The results of a run of the file with these options, as {@link finishedCells} needs them. */
async function finishedShape(source: BatchSource, format: BatchFormat, opts: BatchOptions, sandbox: boolean): Promise<ResultsShape> {
  const dialect = csvDialect(opts.csvDialect);
  return { file: opts.results, json: Boolean(opts.json), dialect, sep: await resultsSep(source, format, dialect), sandbox };
}

/**
 * After a run that ended with every row `ok` (exit 0): has the local ledger keep the lines a re-run
 * of the file with the same options writes (src/ledger/batch-text.ts), so that the re-run reads them
 * instead of rendering them. A kept text is dropped when a row of the batch changes; failing to keep
 * one changes nothing (the re-run renders).
 */
async function keepFinished(source: BatchSource, format: BatchFormat, batchId: string, ledger: BatchLedger, opts: BatchOptions, sandbox: boolean): Promise<void> {
  try {
    const shape = await finishedShape(source, format, opts, sandbox);
    if (finishedCells(shape, 1)) await ledger.finishedBatchText?.(batchId, (facts) => finishedCells(shape, facts.firstLine)!, true);
  } catch {
    /* a cache: the re-run renders the lines */
  }
}

/** Where a finished file's results come from ({@link reportFinished}): its lines, kept or rendered by the ledger, else its rows. */
interface FinishedSource {
  batchId: string;
  /** The lines as a text, or as their UTF-8 bytes (kept lines read without the store). */
  lines(cellsOf: (facts: BatchFacts) => BatchTextSpec): Promise<(Omit<FinishedBatchText, 'text'> & { text: string | Uint8Array; facts: BatchFacts }) | undefined>;
  rows?(): Promise<{ facts: BatchFacts; rows: FinishedRow[] } | undefined>;
}

/** The finished file `batchId` as the opened ledger gives it. */
const storeSource = (ledger: BatchLedger, batchId: string): FinishedSource => ({
  batchId,
  lines: async (cellsOf) => ledger.finishedBatchText?.(batchId, cellsOf),
  rows: () => ledger.finishedBatch(batchId),
});

/**
 * A re-run of a file every row of which an earlier run finished `ok` at the same gateway (the
 * ledger knows the file by its SHA-256 and its rows by their batch position): nothing to send, so
 * the rows are not checked again; each is reported `already_ok` from the ledger, with the summary,
 * exit 0. CSV results lines are rendered by the ledger in one statement when it can
 * (src/ledger/batch-text.ts: the local ledger, texts the writer leaves as they are), else written
 * row by row (docs/speed.md).
 * @returns false when the ledger does not know the file as finished (the run then checks it row by row)
 */
async function reportFinished(op: BatchOperation, source: BatchSource, format: BatchFormat, opts: BatchOptions, sandbox: boolean, from: FinishedSource): Promise<boolean> {
  const shape = await finishedShape(source, format, opts, sandbox);
  const rendered = finishedCells(shape, 1) && (await from.lines((facts) => finishedCells(shape, facts.firstLine)!));
  const listed = rendered ? undefined : await from.rows?.();
  if (!rendered && !listed) return false;
  const results = resultsPath(opts.batch, opts.results, from.batchId);
  const writer = await openResults(results, source, format, shape.json, shape.dialect, sandbox);
  const tally = emptyTally();
  try {
    if (rendered) {
      writer.writeLines(rendered.text);
      tally.already_ok = { rows: rendered.rows, cents: rendered.cents };
    }
    const { firstLine } = listed?.facts ?? { firstLine: 0 };
    for (const r of listed?.rows ?? []) {
      tally.already_ok.rows++;
      tally.already_ok.cents += r.valueCents;
      writer.write({
        row: r.row,
        line: firstLine + r.row - 1,
        orderId: r.orderId,
        outcome: 'already_ok',
        valueCents: r.valueCents,
        transactionId: r.transactionId,
        status: r.status,
      });
    }
  } finally {
    writer.close();
  }
  logger.notice(t('batch.allPaid', source.name));
  printSummary(op.kind, tally, { already_at_gateway: [], refused: [], unknown: [], needs_attention: [], not_sent: [], not_started: [] }, Boolean(opts.json), results.path);
  process.exitCode = ExitCode.OK;
  return true;
}
