/**
 * Steps 1 to 4 of a batch run (docs/batch-runs.md; the entry is src/cli/batch/run.ts): checks every
 * row of the file with the schemas of a single payment, asks once, sends with `--concurrency` and
 * `--rate` (each row recorded in the ledger before it is sent; a 429 sends that row again after
 * `Retry-After`, nothing else is retried), writes the results and the summary, sets the exit code.
 *
 * Longer than 500 lines: the send loop is one closure over the run's moving state (rows waiting and
 * in flight, the rate and 429 pauses, the groups recorded ahead, the rows' start-by times, Ctrl-C,
 * the tally); split across files, every piece would take and return all of it. The check (step 1)
 * and the row's own helpers already live beside it (rows.ts, read.ts, spool.ts, results.ts).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { accessSync, constants as fsConstants, mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { setImmediate as yieldToIo, setTimeout as sleep } from 'node:timers/promises';
import type * as z from 'zod/mini';
import { AuthError, ExitCode, GatewayError, GatewayRefusedError, InterruptedError, NeedsAttentionError, PaycliError, UsageError } from '../../core/errors.js';
import { callGateway } from '../../gateway/client.js';
import { endpointHost, isSandbox } from '../../gateway/endpoint.js';
import { formatReais } from '../../pix/money.js';
import { logger } from '../../core/logger.js';
import { redact } from '../../core/sanitize.js';
import { cashInRequestSchema, cashInResponseSchema, cashOutRequestSchema, cashOutResponseSchema } from '../../gateway/schemas.js';
import { settingsFor, type Settings } from '../../config/settings.js';
import { readRecords, type BatchFormat, type BatchRecord, type BatchSource } from './read.js';
import { RowSpool, type SpooledRow } from './spool.js';
import { outcomeOfError, type BatchLedger, type PreviousRow } from './ledger.js';
import type { Settled } from '../../payment/settle.js';
import { whenText } from '../../ledger/settle-rule.js';
import { describeFound, whyNoLookup, witnessOrder } from '../../gateway/lookup.js';
import { boundBatchMemory } from './memory.js';
import { startProgress, type BatchCounters } from './progress.js';
import { emptyTally, openResults, printSummary, resultsPath, type ResultsWriter, type RowResult } from './results.js';
import { bodyFromCells, bodyFromJsonLine, derivedOrderId, IdentitySet, judgeRow, mapHeader, rowIdentity, textIdentity, type ColumnTarget, type GatheredRow, type RowProblem } from './rows.js';
import { canPrompt, processContext } from '../../core/terminal.js';
import type { BatchKind, BatchOperation, BatchOptions, PreparedBatch } from './run.js';

/** How many times one row is sent again after 429 answers before it is given up as refused. */
export const MAX_429_RETRIES = 20;
/** Wait after a 429 without a usable `Retry-After`, and the longest wait honoured, in ms. */
const DEFAULT_RETRY_MS = 1000;
const MAX_RETRY_MS = 5 * 60_000;

/** A kind of batch with the schemas its rows and answers are checked by. */
interface Operation extends BatchOperation {
  /** The request body's schema (src/gateway/schemas.ts). */
  schema(): z.ZodMiniType;
  /** The answer's schema. */
  response(): z.ZodMiniType;
}

const SCHEMAS: Record<BatchKind, Pick<Operation, 'schema' | 'response'>> = {
  cashout: { schema: () => cashOutRequestSchema, response: () => cashOutResponseSchema },
  cashin: { schema: cashInRequestSchema, response: cashInResponseSchema },
};

/** A row read from the file, mapped and judged. */
type Row = { line: number; row: number } & ({ ok: true; body: Record<string, unknown> & { value: number }; orderId: string; ownOrderId: boolean } | { ok: false; problems: Array<{ column: string; message: string }> });

/** Turns records into rows (CSV needs its header first). */
function rowMapper(op: Operation, format: BatchFormat, sha256: string) {
  let header: string[] = [];
  let targets: Array<ColumnTarget | undefined> = [];
  return {
    /** The header's problems (CSV), once. */
    header(rec: Extract<BatchRecord, { kind: 'header' }>): RowProblem[] {
      header = rec.cells;
      const mapped = mapHeader(op.fields, header);
      targets = mapped.targets;
      return mapped.problems.map((p) => ({ line: rec.line, row: 0, ...p }));
    },
    row(rec: Exclude<BatchRecord, { kind: 'header' }>): Row {
      const gathered: GatheredRow = rec.kind === 'json' ? bodyFromJsonLine(op.fields, rec.text) : bodyFromCells(header, targets, rec.cells);
      if (rec.kind === 'cells' && rec.cells.length > header.length && rec.cells.slice(header.length).some((c) => c.trim() !== '')) {
        gathered.problems.push({ column: '', message: `has ${rec.cells.length} cells, more than the ${header.length} columns of the header` });
      }
      const judged = judgeRow(op.fields, op.schema(), gathered);
      if (!judged.ok) return { line: rec.line, row: rec.row, ok: false, problems: judged.problems };
      const body = judged.row.body as Record<string, unknown> & { value: number; orderId?: string };
      const own = body.orderId;
      return { line: rec.line, row: rec.row, ok: true, body, orderId: own ?? derivedOrderId(sha256, op.kind, rec.row), ownOrderId: own !== undefined };
    },
  };
}

/** What the check of the whole file found. */
interface Scan {
  rows: number;
  problems: RowProblem[];
  toSend: { count: number; cents: number; largest: number; largestRow: number };
  alreadyOk: number;
  alreadyRefused: number;
  unknown: number;
  /** The line of row 1, when every row stands on one line after it (row n on line firstLine + n - 1); else undefined. */
  firstLine?: number;
}

/** What to do with a valid row, given what the ledger knows of its `orderId`. */
type Plan = 'send' | 'already_ok' | 'already_refused' | 'resolve';

function planFor(prev: PreviousRow | undefined, retryRefused: boolean): Plan {
  if (!prev) return 'send';
  if (!prev.completed || prev.outcome === 'unknown') return 'resolve';
  if (prev.outcome === 'ok') return 'already_ok';
  if (prev.outcome === 'refused') return retryRefused ? 'send' : 'already_refused';
  return 'send'; // not_sent: nothing reached the gateway
}

/**
 * Step 1: reads the whole file once, judging every row; with a spool, keeps each valid row there
 * for the send. The bytes read are fingerprinted again: a file that changed since it was first
 * fingerprinted is refused (nothing sent), so what is checked and confirmed is that file.
 * @throws UsageError when the file changed, or cannot be read; the spool's write errors
 */
async function scanFile(op: Operation, source: BatchSource, format: BatchFormat, sha256: string, ledger: BatchLedger, opts: BatchOptions, tick: () => void, spool?: RowSpool): Promise<Scan> {
  const map = rowMapper(op, format, sha256);
  const scan: Scan = { rows: 0, problems: [], toSend: { count: 0, cents: 0, largest: 0, largestRow: 0 }, alreadyOk: 0, alreadyRefused: 0, unknown: 0 };
  const identities = new IdentitySet();
  const ownIds = new IdentitySet();
  let sawHeader = format === 'jsonl';
  const digest = createHash('sha256');
  for await (const rec of readRecords(source, format, digest)) {
    tick();
    if (rec.kind === 'header') {
      sawHeader = true;
      scan.problems.push(...map.header(rec));
      continue;
    }
    scan.rows++;
    if (scan.rows === 1) scan.firstLine = rec.line;
    else if (scan.firstLine !== undefined && rec.line !== scan.firstLine + scan.rows - 1) scan.firstLine = undefined;
    const r = map.row(rec);
    if (!r.ok) {
      for (const p of r.problems) scan.problems.push({ line: r.line, row: r.row, ...p });
      continue;
    }
    if (r.ownOrderId) {
      const first = ownIds.claim(textIdentity(r.orderId), r.row);
      if (first !== undefined) scan.problems.push({ line: r.line, row: r.row, column: 'order-id', message: `${r.orderId} is also the reference of row ${first}; each payment needs its own` });
    }
    if (!opts.allowDuplicate) {
      const first = identities.claim(rowIdentity(op.kind, r.body), r.row);
      if (first !== undefined) scan.problems.push({ line: r.line, row: r.row, column: '', message: `is the same ${op.noun} as row ${first} (${op.kind === 'cashout' ? 'amount, key type and PIX key' : 'amount, payer document and product'}); pass --allow-duplicate if both are meant` });
    }
    if (scan.problems.length) continue; // the file will not be sent: no need to ask the ledger
    await spool?.add({ line: r.line, row: r.row, body: r.body, orderId: r.orderId, ownOrderId: r.ownOrderId });
    const plan = planFor(ledger.previous(r.orderId), Boolean(opts.retryRefused));
    if (plan === 'already_ok') scan.alreadyOk++;
    else if (plan === 'already_refused') scan.alreadyRefused++;
    else {
      if (plan === 'resolve') scan.unknown++;
      scan.toSend.count++;
      scan.toSend.cents += r.body.value;
      if (r.body.value > scan.toSend.largest) scan.toSend = { ...scan.toSend, largest: r.body.value, largestRow: r.row };
    }
  }
  if (!sawHeader || (format === 'csv' && scan.rows === 0 && !scan.problems.length)) {
    scan.problems.push({ line: 1, row: 0, column: '', message: format === 'csv' ? 'the file has no rows under its header (a CSV batch starts with a header row of column names)' : 'the file has no rows' });
  } else if (scan.rows === 0) scan.problems.push({ line: 1, row: 0, column: '', message: 'the file has no rows' });
  if (digest.digest('hex') !== sha256) throw new UsageError(`--batch: ${source.name} changed while it was being checked; nothing was sent: run the command again once the file is complete`, { field: '--batch' });
  await spool?.finish();
  return scan;
}

/** Exit 2 with every bad row listed (text, or one JSON document with `--json`). */
function reportProblems(source: BatchSource, problems: RowProblem[], json: boolean): void {
  const rows = new Set(problems.map((p) => p.row)).size;
  const message = `${source.name}: ${problems.length} problem${problems.length > 1 ? 's' : ''} in ${rows} row${rows > 1 ? 's' : ''}; nothing was sent`;
  if (json) {
    process.stderr.write(`${redact(JSON.stringify({ error: { code: 'validation', message, problems } }))}\n`);
  } else {
    const lines = problems.map((p) => `  line ${p.line}${p.row ? ` (row ${p.row})` : ''}${p.column ? `, ${p.column}` : ''}: ${p.message}`);
    logger.error(`${message}:\n${lines.join('\n')}`);
  }
  process.exitCode = ExitCode.USAGE;
}

/** The summary shown before sending (stderr), and asked about. */
function summaryText(op: Operation, source: BatchSource, sha256: string, scan: Scan, settings: Settings): string {
  const gateway = endpointHost(settings.endpoint, 'SANDBOX (built-in; no money moves)');
  const lines = [
    `File         ${source.name} (${scan.rows} row${scan.rows === 1 ? '' : 's'}, sha256 ${sha256.slice(0, 16)}…)`,
    `To send      ${scan.toSend.count} ${scan.toSend.count === 1 ? op.noun : op.plural}, ${formatReais(scan.toSend.cents)} in total`,
  ];
  if (scan.toSend.count) lines.push(`Largest      ${formatReais(scan.toSend.largest)} (row ${scan.toSend.largestRow})`);
  if (scan.alreadyOk) lines.push(`Already paid ${scan.alreadyOk} row${scan.alreadyOk === 1 ? '' : 's'} (an earlier run; skipped)`);
  if (scan.alreadyRefused) lines.push(`Refused      ${scan.alreadyRefused} row${scan.alreadyRefused === 1 ? '' : 's'} by an earlier run (skipped; --retry-refused sends them again)`);
  if (scan.unknown) lines.push(`Unknown      ${scan.unknown} row${scan.unknown === 1 ? '' : 's'} of an earlier run: asked at the gateway first, sent only if it never got them`);
  lines.push(`Profile      ${settings.profile}`, `Gateway      ${gateway}`);
  return lines.join('\n');
}

/** Asks once (default No). @throws UsageError when it cannot ask and `--yes` is missing */
async function confirm(op: Operation, summary: string, count: number, opts: BatchOptions): Promise<void> {
  if (opts.yes) return;
  if (!canPrompt(opts)) {
    throw new UsageError(`a batch run sends ${count} ${count === 1 ? op.noun : op.plural}: pass --yes to confirm when not running interactively; nothing was sent`, { field: '--yes', hint: 'add --yes (or check the file first with --dry-run)' }, 'confirmation_required');
  }
  const [{ confirm: ask }, { promptContext }] = await Promise.all([import('@inquirer/prompts'), import('../../payment/prompts.js')]);
  if (!(await ask({ message: `Send these ${count} ${count === 1 ? op.noun : op.plural}?`, default: false }, promptContext()))) {
    throw new UsageError('batch not confirmed; nothing was sent', {}, 'confirmation_required');
  }
}

/** Parses `Retry-After` (seconds, or an HTTP date) into milliseconds to wait. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number {
  if (header === undefined) return DEFAULT_RETRY_MS;
  const t = header.trim();
  if (/^[0-9]+$/.test(t)) return Math.min(Number(t) * 1000, MAX_RETRY_MS);
  const date = Date.parse(t);
  if (Number.isNaN(date)) return DEFAULT_RETRY_MS;
  return Math.min(Math.max(0, date - now), MAX_RETRY_MS);
}

/**
 * Steps 1 to 4 for a batch prepared by src/cli/batch/run.ts (which keeps the ledger and the file open
 * around it): checks every row, prints the summary and asks (or `--dry-run` ends there), sends,
 * reports. Sets `process.exitCode`; throws on 130 and usage errors.
 */
export async function checkAndSend(prepared: PreparedBatch): Promise<void> {
  const op: Operation = { ...prepared.op, ...SCHEMAS[prepared.op.kind] };
  const tick = boundBatchMemory();
  // The rows checked are the rows sent (src/cli/batch/spool.ts); a dry run sends nothing.
  const spool = prepared.settings ? new RowSpool() : undefined;
  try {
    await checkThenSend(op, prepared, tick, spool);
  } finally {
    spool?.dispose();
  }
}

/** {@link checkAndSend} with its spool (undefined for a dry run). */
async function checkThenSend(op: Operation, prepared: PreparedBatch, tick: () => void, spool: RowSpool | undefined): Promise<void> {
  const { opts, source, format, sha256, batchId, settings, target, ledger, concurrency, rate } = prepared;
  const json = Boolean(opts.json);
  const scan = await scanFile(op, source, format, sha256, ledger ?? { previous: () => undefined } as unknown as BatchLedger, opts, tick, spool);
  if (scan.problems.length) return reportProblems(source, scan.problems, json);
  if (!settings) {
    const doc = { dryRun: true, file: source.name, sha256, batchId, rows: scan.rows, toSend: scan.toSend.count, totalCents: scan.toSend.cents, largestCents: scan.toSend.largest, largestRow: scan.toSend.largestRow };
    if (json) process.stdout.write(`${JSON.stringify(doc)}\n`);
    else process.stdout.write(`${source.name}: ${scan.rows} row${scan.rows === 1 ? '' : 's'} checked, all valid: ${scan.toSend.count} ${op.plural}, ${formatReais(scan.toSend.cents)} in total, largest ${formatReais(scan.toSend.largest)} (row ${scan.toSend.largestRow})\n`);
    logger.notice('dry run: nothing was sent');
    return;
  }
  if (scan.firstLine !== undefined) ledger!.recordBatch(batchId, { rows: scan.rows, firstLine: scan.firstLine });
  const summary = summaryText(op, source, sha256, scan, settings);
  const results = resultsPath(opts.batch, opts.results, batchId);
  if (opts.qrDir !== undefined) {
    // A folder the PNGs can be written into, checked before anything is sent.
    try {
      mkdirSync(opts.qrDir, { recursive: true });
      accessSync(opts.qrDir, fsConstants.W_OK | fsConstants.X_OK);
    } catch (err) {
      throw new UsageError(`--qr-dir: cannot write into ${opts.qrDir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was sent`, { field: '--qr-dir', hint: 'give a folder that can be written, or one paycli may create' });
    }
  }
  if (scan.toSend.count > 0) {
    if (json) process.stderr.write(`${JSON.stringify({ batch: { file: source.name, sha256, batchId, rows: scan.rows, toSend: scan.toSend.count, totalCents: scan.toSend.cents, largestCents: scan.toSend.largest, largestRow: scan.toSend.largestRow, alreadyOk: scan.alreadyOk, alreadyRefused: scan.alreadyRefused, unknown: scan.unknown, profile: settings.profile, gateway: endpointHost(settings.endpoint, 'SANDBOX') } })}\n`);
    else process.stderr.write(`\n${summary}\n\n`);
    await confirm(op, summary, scan.toSend.count, opts);
  }
  const writer = await openResults(results, source, format, json);
  try {
    await sendAll(op, { source, spool: spool!, batchId, settings, target: target!, ledger: ledger!, writer, concurrency, rate, rows: scan.rows, opts, tick });
  } finally {
    writer.close();
  }
}

interface SendContext {
  source: BatchSource;
  /** The rows the check kept, read back in order. */
  spool: RowSpool;
  batchId: string;
  settings: Settings;
  /** The full endpoint URL the rows go to, or `sandbox` (recorded with each row). */
  target: string;
  ledger: BatchLedger;
  writer: ResultsWriter;
  concurrency: number;
  rate?: number;
  rows: number;
  opts: BatchOptions;
  /** Called once per row read (src/cli/batch/memory.ts). */
  tick: () => void;
}

/** Steps 3 and 4: sends what needs sending, writes results, prints the summary, sets the exit code. */
async function sendAll(op: Operation, ctx: SendContext): Promise<void> {
  const { settings, ledger, writer, opts } = ctx;
  const sandbox = isSandbox(settings.endpoint);
  let baseUrl: string;
  let closeSandbox: (() => Promise<void>) | undefined;
  if (!isSandbox(settings.endpoint)) baseUrl = settings.endpoint.url;
  else {
    logger.notice('sandbox: this runs against the built-in sandbox; no money moves. Configure a gateway with `paycli config set base-url <url>` and `paycli auth login`.');
    const { startSandbox } = await import('../../sandbox/server.js');
    const s = await startSandbox({ host: '127.0.0.1', port: 0 });
    baseUrl = s.url;
    closeSandbox = () => s.close();
  }
  const { target } = ctx;
  const agentOpts = { keepAlive: true, maxSockets: ctx.concurrency, maxFreeSockets: ctx.concurrency };
  const agent = baseUrl.startsWith('https:') ? new HttpsAgent(agentOpts) : new HttpAgent(agentOpts);
  const counters: BatchCounters = { total: ctx.rows, done: 0, ok: 0, refused: 0, unknown: 0, sentCents: 0 };
  const tally = emptyTally();
  const listed: Record<'already_at_gateway' | 'refused' | 'unknown' | 'needs_attention' | 'not_sent' | 'not_started', number[]> = { already_at_gateway: [], refused: [], unknown: [], needs_attention: [], not_sent: [], not_started: [] };
  let unknownExit: number = ExitCode.NETWORK;
  let fatal: PaycliError | undefined;
  let sentAny = false;
  const progress = await startProgress(counters, { json: Boolean(opts.json), tty: processContext().isTTY.stderr });

  // Ctrl-C / SIGTERM: stop starting rows and let the ones in flight finish; a second one aborts them.
  let stopping = false;
  const abort = new AbortController();
  let onStop = (): void => undefined; // wakes the reader waiting for rows to start (set below)
  const onSignal = () => {
    if (!stopping) {
      stopping = true;
      wake();
      onStop();
      logger.notice(`interrupted: starting no more rows; waiting for the ${inflight.size} in flight (Ctrl-C again to abort them: their outcome may then be unknown)`);
    } else abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  // Rate and 429 pauses: the next start may not happen before `nextStart`.
  let nextStart = 0;
  let pauseUntil = 0;
  let wakeUp: (() => void) | undefined;
  const wake = () => wakeUp?.();
  const waitUntil = async (t: number) => {
    while (!stopping && Date.now() < t) {
      await Promise.race([sleep(Math.min(t - Date.now(), 1000)), new Promise<void>((r) => (wakeUp = r))]);
    }
  };

  // Outcomes are written in groups (every 250 ms, or 256 rows, or with the next group of begins):
  // one disk sync for many rows. One lost to a crash leaves its row unknown in the ledger, which
  // the next run of the file settles by asking the gateway.
  let ends: Array<Parameters<BatchLedger['end']>> = [];
  let endTimer: NodeJS.Timeout | undefined;
  const flushEnds = () => {
    clearTimeout(endTimer);
    endTimer = undefined;
    if (ends.length) {
      const batch = ends;
      ends = [];
      ledger.group(() => {
        for (const e of batch) ledger.end(...e);
      });
    }
    // The results written so far follow the outcomes into their file (and stdout with --json).
    writer.flush();
  };
  const endLater = (...e: Parameters<BatchLedger['end']>) => {
    ends.push(e);
    if (ends.length >= 256) safeFlush();
    else endTimer ??= setTimeout(safeFlush, 250);
  };
  const safeFlush = () => {
    try {
      flushEnds();
    } catch (err) {
      logger.warn(outcomesNotRecorded(err, 'these rows'));
    }
  };

  const finish = (r: RowResult) => {
    tally[r.outcome].rows++;
    tally[r.outcome].cents += r.valueCents;
    if (r.outcome === 'ok') {
      counters.ok++;
      counters.sentCents += r.valueCents;
    } else if (r.outcome === 'refused') counters.refused++;
    else if (r.outcome === 'unknown') counters.unknown++;
    if (r.outcome in listed) listed[r.outcome as keyof typeof listed].push(r.row);
    counters.done++;
    writer.write(r);
    progress.update();
  };

  let lookupSettings: Settings | undefined;
  const lookupProfile = () => (lookupSettings ??= settingsFor(opts, 'lookup', op.kind, { quiet: true }));
  /**
   * Whether a row is asked about at the gateway before it is sent (the second witness): a
   * cash-out whose `orderId` is its own (a derived one is new to every gateway), when lookups are on.
   */
  const needsWitness = (row: Extract<Row, { ok: true }>) => op.kind === 'cashout' && row.ownOrderId && !sandbox && whyNoLookup(lookupProfile()) === null;

  /**
   * Sends one row (recorded first); 429 answers send it again after `Retry-After`. With `witness`,
   * the gateway is asked for the row's `orderId` first (before it is recorded): a row it holds is
   * `already_at_gateway`; a row it cannot be asked about is `not_sent` (fail closed).
   */
  const sendRow = async (row: Extract<Row, { ok: true }>, ledgerId?: string | number, witness = false): Promise<void> => {
    const base: RowResult = { row: row.row, line: row.line, orderId: row.orderId, outcome: 'not_sent', valueCents: row.body.value };
    if (witness) {
      try {
        const w = await witnessOrder(lookupProfile(), row.orderId, abort.signal);
        if (w.kind === 'held') {
          return finish({ ...base, outcome: 'already_at_gateway', transactionId: w.data.transactionId, status: String(w.data.status), error: `the gateway already holds order ${row.orderId}: ${describeFound(w.data)}; not sent, so that it is not paid twice` });
        }
      } catch (err) {
        if (err instanceof AuthError) {
          fatal ??= err;
          stopping = true;
        }
        if (!(err instanceof PaycliError)) throw err;
        return finish({ ...base, error: redact(err.message) });
      }
      if (stopping) return finish({ ...base, outcome: 'not_started' });
    }
    // The profile's `order-id off` (a gateway that refuses unknown fields): a derived reference is
    // kept in the ledger only; a row's own is always sent.
    const body = !row.ownOrderId && settings.orderId === 'off' ? row.body : { ...row.body, orderId: row.orderId };
    let id: string | number;
    const from = Date.now();
    try {
      id = ledgerId ?? ledger.group(() => ledger.begin(beginInfo(op, row, target, sandbox, settings, ctx.batchId), { windowMin: settings.duplicateWindowMin, allowDuplicate: Boolean(opts.allowDuplicate) }));
    } catch (err) {
      if (err instanceof UsageError && (err.code === 'duplicate_cashout' || err.code === 'duplicate_order')) return finish({ ...base, outcome: 'not_sent', error: err.message });
      fatal ??= err instanceof PaycliError ? err : new UsageError(String(err));
      stopping = true;
      return finish({ ...base, outcome: 'not_sent', error: (err as Error).message });
    }
    if (ledgerId === undefined) startBy.set(id, from + START_WITHIN_MS);
    for (let attempt = 0; ; attempt++) {
      try {
        ensureStartable(id);
      } catch (err) {
        // The row's deadline could not be moved on: it is not sent (a lookup could take it for not sent too early).
        startBy.delete(id);
        fatal ??= err instanceof PaycliError ? err : new UsageError(String(err));
        stopping = true;
        endLater(id, 'not_sent', { message: `not sent: ${(err as Error).message}` });
        return finish({ ...base, outcome: 'not_sent', error: (err as Error).message });
      }
      try {
        sentAny = true;
        const res = await callGateway({ path: op.path, body, schema: op.response(), settings, baseUrl, signal: abort.signal, direct: sandbox, agent, unknownAdvice: `look order ${row.orderId} up at the gateway before sending it again` });
        startBy.delete(id);
        const data = res.data as Record<string, unknown>;
        const result = await onCreated(op, row, data, base, opts.qrDir);
        endLater(id, 'ok', { transactionId: data.transactionId as number, status: data.status as string | undefined });
        return finish(result);
      } catch (err) {
        if (err instanceof GatewayRefusedError && err.details.status === 429 && attempt < MAX_429_RETRIES && !stopping) {
          pauseUntil = Math.max(pauseUntil, Date.now() + retryAfterMs(err.details.retryAfter));
          logger.debug(`row ${row.row}: HTTP 429, sending it again in ${Math.ceil((pauseUntil - Date.now()) / 1000)} s`);
          await waitUntil(pauseUntil);
          if (!stopping) continue;
        }
        startBy.delete(id);
        const outcome = err instanceof GatewayRefusedError && err.details.status === 429 ? 'not_sent' : outcomeOfError(err);
        const message = redact(err instanceof Error ? err.message : String(err));
        endLater(id, outcome, { httpStatus: err instanceof PaycliError ? err.details.status : undefined, message });
        if (err instanceof AuthError) {
          fatal ??= err;
          stopping = true;
        }
        if (outcome === 'unknown' && err instanceof GatewayError) unknownExit = ExitCode.GATEWAY;
        if (!(err instanceof PaycliError)) throw err;
        return finish({ ...base, outcome: outcome === 'ok' ? 'unknown' : outcome, error: message });
      }
    }
  };

  /**
   * A row an earlier run left unknown: settled first (src/payment/settle.ts, the settle step of every
   * payment): found at the gateway → `already_ok`; the gateway never got it (asked after the row's
   * deadline, once that run has ended) → sent now, under the same order reference; otherwise it
   * stays unknown and is not sent (the summary says when a lookup can decide).
   */
  const resumeUnknown = async (row: Extract<Row, { ok: true }>, prev: PreviousRow): Promise<void> => {
    const base: RowResult = { row: row.row, line: row.line, orderId: row.orderId, outcome: 'unknown', valueCents: row.body.value };
    let settled: Settled;
    if (!row.ownOrderId && settings.orderId === 'off') settled = { state: 'unknown', why: 'its derived reference was not sent (order-id off for this profile), so the gateway cannot be asked' };
    else {
      let lookup: Settings | { problem: string };
      try {
        lookup = lookupProfile();
      } catch (err) {
        lookup = { problem: (err as Error).message };
      }
      settled = await ledger.settle(prev.id, lookup, { signal: abort.signal, note: `batch ${ctx.batchId}` });
    }
    if (settled.state === 'ok') return finish({ ...base, outcome: 'already_ok', transactionId: typeof settled.found.transactionId === 'number' ? settled.found.transactionId : undefined, status: String(settled.found.status) });
    if (settled.state === 'not_sent') return sendRow(row);
    unknownExit = ExitCode.NETWORK;
    if (settled.decidableAt !== undefined) decidableAt = Math.max(decidableAt ?? 0, settled.decidableAt);
    return finish({ ...base, error: `an earlier run may have sent it; not sent again: ${settled.why}` });
  };

  /** Rows recorded (ledger id) and the latest moment each may start without its deadline being moved on. */
  const startBy = new Map<string | number, number>();
  /**
   * Before a recorded row's request starts: when it is past its start-by, the deadlines of every
   * row still waiting are moved on in the ledger first (one transaction).
   * @throws the ledger's errors (the row is then not sent)
   */
  const ensureStartable = (id: string | number): void => {
    const by = startBy.get(id);
    const now = Date.now();
    if (by === undefined || now < by - 1000) return;
    const late = [...startBy].filter(([, b]) => b < now + START_WITHIN_MS / 2).map(([i]) => i);
    ledger.extendDeadlines(late, now + START_WITHIN_MS + settings.timeoutMs);
    for (const i of late) startBy.set(i, now + START_WITHIN_MS);
  };
  /** The latest moment (epoch ms) from which a lookup can decide the rows left unknown, if known. */
  let decidableAt: number | undefined;

  const inflight = new Set<Promise<void>>();
  /** A row the run did not send because it stopped first (not recorded, or recorded and ended `not_sent`). */
  const notStarted = (row: Extract<Row, { ok: true }> | SpooledRow) => finish({ row: row.row, line: row.line, orderId: row.orderId, outcome: 'not_started', valueCents: row.body.value });
  /** The last row taken from the spool: after a stop, the rows after it are reported not started. */
  let lastRead = 0;

  /**
   * Rows are read and checked in small steps, recorded in the ledger a group at a time (one
   * transaction, one disk sync, for many rows), and started from `ready` whenever a request ends
   * (`pump`). The next group is recorded while the current one still has rows waiting, so that a
   * slot that frees up always finds a row: the gateway is never left idle while paycli reads the
   * file or writes the ledger. Rows of a group that Ctrl-C keeps from starting are recorded
   * `not_sent`.
   */
  let queue: Array<{ row: Extract<Row, { ok: true }>; plan: 'send' | 'resolve'; prev?: PreviousRow }> = [];
  const ready: Array<{ row: Extract<Row, { ok: true }>; plan: 'send' | 'resolve'; prev?: PreviousRow; id?: string | number; witness: boolean }> = [];
  let next = 0; // index in `ready` of the next row to start
  // A disk sync costs about as much as several requests to a local gateway: 64 rows a group.
  const groupSize = Math.max(64, ctx.concurrency * 8);
  // The next group is recorded when this few rows are left waiting.
  const lowWater = ctx.concurrency * 2;
  /** Rows read between two turns of the event loop (answers are taken in, slots refilled). */
  const READ_STEP = 8;
  let changed: (() => void) | undefined;
  /** Resolves at the next start, end or interruption. */
  const change = () => new Promise<void>((r) => (changed = r));
  const poke = () => {
    const c = changed;
    changed = undefined;
    c?.();
  };
  let pumpTimer: NodeJS.Timeout | undefined;
  /** Starts waiting rows while slots are free, `--rate` and a 429 pause allow, and nobody pressed Ctrl-C. */
  const pump = (): void => {
    while (!stopping && next < ready.length && inflight.size < ctx.concurrency) {
      const wait = Math.max(nextStart, pauseUntil) - Date.now();
      if (wait > 0) {
        pumpTimer ??= setTimeout(() => {
          pumpTimer = undefined;
          pump();
        }, wait);
        break;
      }
      const g = ready[next++]!;
      if (ctx.rate) nextStart = Math.max(Date.now(), nextStart) + 1000 / ctx.rate;
      const tracked: Promise<void> = (g.plan === 'resolve' ? resumeUnknown(g.row, g.prev!) : sendRow(g.row, g.id, g.witness))
        .catch((err) => {
          fatal ??= err instanceof PaycliError ? err : new UsageError(String(err));
        })
        .finally(() => {
          inflight.delete(tracked);
          pump();
        });
      inflight.add(tracked);
    }
    if (next > 1024 && next * 2 > ready.length) {
      ready.splice(0, next);
      next = 0;
    }
    poke();
  };
  onStop = poke;
  /** Records the rows read so far (one transaction) and makes them ready to start. */
  const record = (): void => {
    const group = queue;
    queue = [];
    const ids = new Map<number, number | string | Error>();
    // A row asked about at the gateway first is recorded after the answer, by sendRow.
    const witnessed = new Set(group.filter((g) => g.plan === 'send' && needsWitness(g.row)).map((g) => g.row.row));
    const toBegin = group.filter((g) => g.plan === 'send' && !witnessed.has(g.row.row));
    const recordedFrom = Date.now(); // the ledger's clock reads this or later: a safe start-by
    if (toBegin.length) {
      const unrecorded = ends.length; // outcomes of rows already sent, written in the same transaction
      try {
        ledger.group(() => {
          flushEnds();
          for (const g of toBegin) {
            try {
              ids.set(g.row.row, ledger.begin(beginInfo(op, g.row, target, sandbox, settings, ctx.batchId), { windowMin: settings.duplicateWindowMin, allowDuplicate: Boolean(opts.allowDuplicate) }));
            } catch (err) {
              if (err instanceof UsageError && (err.code === 'duplicate_cashout' || err.code === 'duplicate_order')) ids.set(g.row.row, err);
              else throw err;
            }
          }
        });
      } catch (err) {
        // The transaction is rolled back: none of the group is recorded, none is sent.
        for (const g of group) notStarted(g.row);
        if (unrecorded) logger.warn(outcomesNotRecorded(err, `${unrecorded} row${unrecorded === 1 ? '' : 's'}`));
        throw err;
      }
    }
    for (const g of group) {
      const id = ids.get(g.row.row);
      if (id !== undefined && !(id instanceof Error)) startBy.set(id, recordedFrom + START_WITHIN_MS);
      if (id instanceof Error) finish({ row: g.row.row, line: g.row.line, orderId: g.row.orderId, outcome: 'not_sent', valueCents: g.row.body.value, error: id.message });
      else ready.push({ ...g, ...(id !== undefined ? { id } : {}), witness: witnessed.has(g.row.row) });
    }
    pump();
  };
  /** Waits until at most `left` rows wait to start (or Ctrl-C was pressed). */
  const drain = async (left: number) => {
    while (!stopping && ready.length - next > left) await change();
  };
  try {
    let step = 0;
    for await (const spooled of ctx.spool.rows()) {
      ctx.tick();
      if (++step % READ_STEP === 0) await yieldToIo();
      const row: Extract<Row, { ok: true }> = { ...spooled, ok: true };
      lastRead = row.row;
      if (stopping) {
        notStarted(row);
        continue;
      }
      let prev: PreviousRow | undefined;
      try {
        prev = ledger.previous(row.orderId);
      } catch (err) {
        notStarted(row);
        throw err;
      }
      const plan = planFor(prev, Boolean(opts.retryRefused));
      if (plan === 'already_ok') {
        finish({ row: row.row, line: row.line, orderId: row.orderId, outcome: 'already_ok', valueCents: row.body.value, transactionId: prev!.transactionId, status: prev!.status });
        continue;
      }
      if (plan === 'already_refused') {
        finish({ row: row.row, line: row.line, orderId: row.orderId, outcome: 'already_refused', valueCents: row.body.value, error: prev!.message });
        continue;
      }
      queue.push({ row, plan, prev });
      if (queue.length >= groupSize) {
        await drain(lowWater);
        if (!stopping) record();
      }
    }
    if (queue.length && !stopping) record();
    await drain(0);
    await Promise.all(inflight);
  } catch (err) {
    stopping = true;
    fatal ??= err instanceof PaycliError ? err : new UsageError(String(err));
  } finally {
    await Promise.all(inflight);
    clearTimeout(pumpTimer);
    // Rows read but not started (Ctrl-C, or a fatal error): the recorded ones are not_sent.
    for (const g of ready.slice(next)) {
      if (g.id !== undefined) endLater(g.id, 'not_sent', { message: 'interrupted before it was sent' });
      notStarted(g.row);
    }
    for (const g of queue) notStarted(g.row);
    queue = [];
    // Rows a fatal error kept from being read at all: each is reported, so that every row of the file is in the results once.
    if (stopping) {
      try {
        for await (const spooled of ctx.spool.rows()) if (spooled.row > lastRead) notStarted(spooled);
      } catch (err) {
        logger.warn(`the rows after row ${lastRead} were not started, but cannot be listed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
    }
    try {
      flushEnds();
    } catch (err) {
      logger.warn(outcomesNotRecorded(err, 'the last rows'));
    }
    clearTimeout(endTimer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    progress.stop();
    agent.destroy();
    await closeSandbox?.();
  }

  writer.flush();
  printSummary(op.plural, tally, listed, Boolean(opts.json), writer.path, fatal ? 'the run stopped; see below' : 'interrupted');
  if (fatal) {
    // "Nothing was sent" (exit 2) may not be said once something was.
    if (sentAny && fatal.exitCode === ExitCode.USAGE) throw new NeedsAttentionError([`${withoutNothingSent(fatal.message)}; the run stopped after sending some rows: ${runStates(tally)} (rows by state in the summary and the results file); the same command resumes it`]);
    throw fatal;
  }
  const left = tally.not_started.rows;
  if (stopping) throw new InterruptedError(`interrupted: ${left} row${left === 1 ? ' was' : 's were'} not started; run the same command again to resume`);
  if (tally.unknown.rows && decidableAt !== undefined) logger.notice(`rows an earlier run may still have in flight are left unknown and not sent; run the same command again after ${whenText(decidableAt)}, when the gateway can decide`);
  process.exitCode = tally.unknown.rows ? unknownExit : tally.needs_attention.rows || tally.not_sent.rows || tally.already_at_gateway.rows ? ExitCode.NEEDS_ATTENTION : tally.refused.rows || tally.already_refused.rows ? ExitCode.REFUSED : ExitCode.OK;
}

/** A ledger error's text without the "nothing was sent" that the ledger adds to errors before a send. */
function withoutNothingSent(message: string): string {
  return message.replace(/; nothing was sent$/, '');
}

/**
 * The warning when the outcomes of rows already sent could not be recorded: they were sent; the
 * ledger keeps them unknown, which blocks sending them again until the gateway is asked.
 */
function outcomesNotRecorded(err: unknown, which: string): string {
  return `${which} were sent, but their outcomes could not be recorded in the ledger (${withoutNothingSent((err as Error).message)}): the ledger keeps them with an unknown outcome, so they are not sent again; the next run of this file asks the gateway about them (the results file has what the gateway answered)`;
}

/** How many rows ended in each state, in words (`112 created, 16 not sent, 472 not started`). */
function runStates(tally: ReturnType<typeof emptyTally>): string {
  const words: Record<string, string> = { ok: 'created', already_ok: 'already paid', already_at_gateway: 'already at the gateway', refused: 'refused', already_refused: 'refused before', unknown: 'unknown', not_sent: 'not sent', needs_attention: 'need attention', not_started: 'not started' };
  return Object.entries(tally).filter(([, v]) => v.rows).map(([k, v]) => `${v.rows} ${words[k] ?? k}`).join(', ');
}

function beginInfo(op: Operation, row: Extract<Row, { ok: true }>, target: string, sandbox: boolean, settings: Settings, batchId: string) {
  const b = row.body as Record<string, unknown>;
  const person = b.person as { name?: string } | undefined;
  return {
    kind: op.kind,
    value: row.body.value,
    target,
    sandbox,
    profile: settings.profile,
    ...(op.kind === 'cashout' ? { pixKeyType: b.pixKeyType as number, pixKey: b.pixKey as string, recipient: person?.name } : { payer: b.payerName as string, product: b.productName as string }),
    orderId: row.orderId,
    batchId,
    batchRow: row.row,
    timeoutMs: settings.timeoutMs,
    startWithinMs: START_WITHIN_MS,
  };
}

/**
 * How long after a row is recorded it may still be started, in milliseconds: rows are recorded in
 * groups ahead of being sent, and each one's deadline (src/ledger/settle-rule.ts) counts from
 * this. A row about to start later moves the deadlines of the rows still waiting on first
 * (`ensureStartable`), so a lookup after a crash never takes a row that may still leave for not sent.
 */
const START_WITHIN_MS = 10_000;

/** The result of a created payment; checks what a single payment checks (amounts, BR Code), writes the PNG. */
async function onCreated(op: Operation, row: Extract<Row, { ok: true }>, res: Record<string, unknown>, base: RowResult, qrDir?: string): Promise<RowResult> {
  const out: RowResult = { ...base, outcome: 'ok', transactionId: res.transactionId as number };
  const attention: string[] = [];
  if (op.kind === 'cashout') {
    out.status = res.status as string;
    out.feeCents = Number(res.tax);
    out.netCents = Number(res.liquid);
    if (res.gross !== row.body.value) attention.push(`the gateway's gross amount (${formatReais(res.gross as number)}) differs from the row's ${formatReais(row.body.value)}`);
    if (BigInt(res.gross as number) - BigInt(res.tax as string) !== BigInt(res.liquid as string)) attention.push(`the net amount (${String(res.liquid)}) is not gross minus fee`);
  } else {
    out.brCode = res.qrCode as string;
    const { checkCashInBrCode } = await import('../../pix/brcode-check.js');
    attention.push(...checkCashInBrCode(res.qrCode as string, row.body.value).attention);
    if (qrDir !== undefined) {
      const { decodeQrImage } = await import('../../pix/qr-image.js');
      const png = decodeQrImage(res.qrCodeBase64 as string);
      const file = join(qrDir, `row-${row.row}-${row.orderId}.png`);
      if (!png) attention.push('qrCodeBase64 is not a base64 PNG image; no PNG written');
      else {
        try {
          writeFileSync(file, png);
          out.png = file;
        } catch (err) {
          attention.push(`${file} could not be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
        }
      }
    }
  }
  if (attention.length) return { ...out, outcome: 'needs_attention', error: attention.join('; ') };
  return out;
}

