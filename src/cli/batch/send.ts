/**
 * Steps 1 to 4 of a batch run (docs/batch-runs.md; the entry is src/cli/batch/run.ts): checks every
 * row of the file with the schemas of a single payment and asks once (src/cli/batch/check.ts), sends
 * with `--concurrency` and `--rate`, each row through the payment pipeline's steps
 * (src/cli/batch/row.ts: recorded in the ledger before it is sent; a 429 sends that row again after
 * `Retry-After`, nothing else is retried), writes the results and the summary, sets the exit code.
 * This module is the send loop: the run's moving state (rows waiting and in flight, the rate and
 * 429 pauses, the groups recorded ahead, the rows' start-by times, Ctrl-C, the tally).
 *
 * Longer than 500 lines: the formatter's line breaks; the scheduler and the row state machine move to
 * their own files when the batch engine leaves the CLI layer (docs/architecture.md).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { setMaxListeners } from 'node:events';
import { accessSync, constants as fsConstants, mkdirSync } from 'node:fs';
import { setImmediate as yieldToIo, setTimeout as sleep } from 'node:timers/promises';
import { ExitCode, InterruptedError, NeedsAttentionError, PaycliError, UsageError } from '../../core/errors.js';
import { callGateway } from '../../gateway/client.js';
import { endpointHost, isSandbox } from '../../gateway/endpoint.js';
import { formatReais } from '../../pix/money.js';
import { logger, runStreams } from '../../core/logger.js';
import { settingsFor, type Settings } from '../../config/settings.js';
import type { BatchSource } from './read.js';
import { RowSpool, type SpooledRow } from './spool.js';
import type { BatchLedger, PreviousRow } from './ledger.js';
import { whenText } from '../../ledger/settle-rule.js';
import { whyNoLookup } from '../../gateway/lookup.js';
import { boundBatchMemory } from './memory.js';
import { startProgress, type BatchCounters } from './progress.js';
import { emptyTally, openResults, printSummary, resultsPath, type ResultsWriter, type RowResult } from './results.js';
import { processContext } from '../../core/terminal.js';
import { confirm, NO_LEDGER, planFor, reportProblems, scanFile, SCHEMAS, summaryText, type Operation, type ValidRow } from './check.js';
import { earlierRunResult, recordRows, resumeBatchRow, sendBatchRow, START_WITHIN_MS, type RowRun } from './row.js';
import type { BatchOptions, PreparedBatch } from './run.js';
import { t } from '../../core/i18n/index.js';
import { csvDialect } from '../csv-dialect.js';

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
  const scan = await scanFile(op, source, format, sha256, ledger ?? NO_LEDGER, opts, tick, spool);
  if (scan.problems.length) return reportProblems(source, scan.problems, json);
  if (!settings) {
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
    if (json) runStreams().stdout.write(`${JSON.stringify(doc)}\n`);
    else
      runStreams().stdout.write(
        `${t('batchRun.dryRun', source.name, t('batch.rows', scan.rows), t('batch.count', scan.toSend.count, op.kind), formatReais(scan.toSend.cents), formatReais(scan.toSend.largest), scan.toSend.largestRow)}\n`,
      );
    logger.notice(t('pay.dryRun', false));
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
      throw new UsageError(t('batchRun.qrDir', opts.qrDir, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--qr-dir', hint: t('batchRun.qrDirHint') });
    }
  }
  if (scan.toSend.count > 0) {
    if (json)
      runStreams().stderr.write(
        `${JSON.stringify({ batch: { file: source.name, sha256, batchId, rows: scan.rows, toSend: scan.toSend.count, totalCents: scan.toSend.cents, largestCents: scan.toSend.largest, largestRow: scan.toSend.largestRow, alreadyOk: scan.alreadyOk, alreadyRefused: scan.alreadyRefused, unknown: scan.unknown, profile: settings.profile, gateway: endpointHost(settings.endpoint, 'SANDBOX') } })}\n`,
      );
    else runStreams().stderr.write(`\n${summary}\n\n`);
    await confirm(op, summary, scan.toSend.count, opts);
  }
  await prepared.beforeSend?.(scan.postbackUrls);
  const writer = await openResults(results, source, format, json, csvDialect(opts.csvDialect), isSandbox(settings.endpoint));
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

/** Listeners a request in flight may add to the run's abort signal at once (client, transport, lookup), with room to spare. */
const LISTENERS_PER_SLOT = 4;
/** Steps 3 and 4: sends what needs sending, writes results, prints the summary, sets the exit code. */
async function sendAll(op: Operation, ctx: SendContext): Promise<void> {
  const { settings, ledger, writer, opts } = ctx;
  const sandbox = isSandbox(settings.endpoint);
  let baseUrl: string;
  let closeSandbox: (() => Promise<void>) | undefined;
  if (!isSandbox(settings.endpoint)) baseUrl = settings.endpoint.url;
  else {
    logger.notice(t('pay.sandboxNotice'));
    const { startSandbox } = await import('../../sandbox/server.js');
    const s = await startSandbox({ host: '127.0.0.1', port: 0 });
    baseUrl = s.url;
    closeSandbox = () => s.close();
  }
  const { target } = ctx;
  const agentOpts = { keepAlive: true, maxSockets: ctx.concurrency, maxFreeSockets: ctx.concurrency };
  const agent = baseUrl.startsWith('https:') ? new HttpsAgent(agentOpts) : new HttpAgent(agentOpts);
  const counters: BatchCounters = { total: ctx.rows, done: 0, skipped: 0, ok: 0, refused: 0, unknown: 0, sentCents: 0 };
  const tally = emptyTally();
  const listed: Record<'already_at_gateway' | 'refused' | 'unknown' | 'needs_attention' | 'not_sent' | 'not_started', number[]> = {
    already_at_gateway: [],
    refused: [],
    unknown: [],
    needs_attention: [],
    not_sent: [],
    not_started: [],
  };
  let unknownExit: number = ExitCode.NETWORK;
  let fatal: PaycliError | undefined;
  let sentAny = false;
  const progress = await startProgress(counters, { json: Boolean(opts.json), tty: processContext().isTTY.stderr });

  // Ctrl-C / SIGTERM: stop starting rows and let the ones in flight finish; a second one aborts them.
  let stopping = false;
  const abort = new AbortController();
  // Each request in flight listens to it: Node's warning past 10 listeners would reach stderr outside the output's contract.
  setMaxListeners(LISTENERS_PER_SLOT * ctx.concurrency + 10, abort.signal);
  let onStop = (): void => undefined; // wakes the reader waiting for rows to start (set below)
  const onSignal = () => {
    if (!stopping) {
      stopping = true;
      wake();
      onStop();
      logger.notice(t('batch.interrupted', inflight.size));
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
      logger.warn(outcomesNotRecorded(err, t('batchRun.theseRows')));
    }
  };

  /** A row's end; `skipped`: this run sent no request for it (an earlier run of the file finished it). */
  const finish = (r: RowResult, skipped = r.outcome === 'already_ok') => {
    if (skipped) counters.skipped++;
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
  const needsWitness = (row: ValidRow) => op.kind === 'cashout' && row.ownOrderId && !sandbox && whyNoLookup(lookupProfile()) === null;

  /** Rows recorded (ledger id) and the latest moment each may start without its deadline being moved on. */
  const startBy = new Map<string | number, number>();
  /**
   * Before a recorded row's request starts: when it is past its start-by, the deadlines of every
   * row still waiting are moved on in the ledger first (one transaction).
   * @throws the ledger's errors (the row is then not sent)
   */
  const ensureStartable = (id: string | number): void => {
    ledger.usable(); // a team ledger whose connection was lost starts no more rows
    const by = startBy.get(id);
    const now = Date.now();
    if (by === undefined || now < by - 1000) return;
    const late = [...startBy].filter(([, b]) => b < now + START_WITHIN_MS / 2).map(([i]) => i);
    ledger.extendDeadlines(late, now + START_WITHIN_MS + settings.timeoutMs);
    for (const i of late) startBy.set(i, now + START_WITHIN_MS);
  };
  /** The latest moment (epoch ms) from which a lookup can decide the rows left unknown, if known. */
  let decidableAt: number | undefined;

  /** The row's view of this run: its rows go through the payment pipeline's steps (src/cli/batch/row.ts). */
  const run: RowRun = {
    op,
    settings,
    batchId: ctx.batchId,
    target,
    sandbox,
    allowDuplicate: Boolean(opts.allowDuplicate),
    ...(opts.qrDir !== undefined ? { qrDir: opts.qrDir } : {}),
    ledger,
    deps: {
      send: async (s, path, body, schema, unknownAdvice, signal, onSent) => ({
        ...(await callGateway({ path, body, schema, settings: s, baseUrl, signal, direct: sandbox, agent, unknownAdvice, onSent })),
        sandbox,
      }),
    },
    signal: abort.signal,
    stopping: () => stopping,
    stop(err) {
      fatal ??= err;
      stopping = true;
    },
    sending: () => void (sentAny = true),
    unknownExit: (code) => void (unknownExit = code),
    decidableAt: (ms) => void (decidableAt = Math.max(decidableAt ?? 0, ms)),
    recorded: (id, fromMs) => void startBy.set(id, fromMs + START_WITHIN_MS),
    ensureStartable,
    started: (id) => void startBy.delete(id),
    endLater: (id, outcome, details) => endLater(id, outcome, details),
    async pause(ms, row) {
      pauseUntil = Math.max(pauseUntil, Date.now() + ms);
      logger.debug(`row ${row}: HTTP 429, sending it again in ${Math.ceil((pauseUntil - Date.now()) / 1000)} s`);
      await waitUntil(pauseUntil);
    },
    lookup: lookupProfile,
    finish,
  };

  const inflight = new Set<Promise<void>>();
  /** A row the run did not send because it stopped first (not recorded, or recorded and ended `not_sent`). */
  const notStarted = (row: ValidRow | SpooledRow) => finish({ row: row.row, line: row.line, orderId: row.orderId, outcome: 'not_started', valueCents: row.body.value });
  /** The last row taken from the spool: after a stop, the rows after it are reported not started. */
  let lastRead = 0;

  /**
   * Rows are read and planned in steps of {@link READ_AHEAD}, and recorded in the ledger just before
   * they can leave, a wave at a time (one transaction for the wave, with the outcomes of the rows that
   * ended since): a wave fills the rows waiting to start up to `--concurrency`, once at most half of
   * that waits. So at most 2 x concurrency rows are ever recorded without an outcome on disk (in
   * flight, or about to start): after a crash every other row is provably unsent (no ledger entry)
   * and the next run sends it at once; only those few wait for the settle rule. Rows of a wave that
   * Ctrl-C keeps from starting are recorded `not_sent`.
   */
  let queue: Array<{ row: ValidRow; plan: 'send' | 'resolve'; prev?: PreviousRow }> = [];
  const ready: Array<{ row: ValidRow; plan: 'send' | 'resolve'; prev?: PreviousRow; id?: string | number; witness: boolean }> = [];
  let next = 0; // index in `ready` of the next row to start
  // Rows planned ahead of the waves (read, asked about in the ledger, not recorded).
  const READ_AHEAD = Math.max(64, ctx.concurrency * 8);
  // The next wave is recorded when this few rows are left waiting to start.
  const lowWater = Math.floor(ctx.concurrency / 2);
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
  /** Records the next wave when few rows wait; a ledger that cannot write stops the run (none of the wave is sent). */
  const refill = (): void => {
    if (stopping || !queue.length || ready.length - next > lowWater) return;
    try {
      record(ctx.concurrency - (ready.length - next));
    } catch (err) {
      stopping = true;
      fatal ??= err instanceof PaycliError ? err : new UsageError(String(err));
    }
  };
  /** Starts waiting rows while slots are free, `--rate` and a 429 pause allow, and nobody pressed Ctrl-C. */
  const pump = (): void => {
    refill();
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
      const tracked: Promise<void> = (g.plan === 'resolve' ? resumeBatchRow(run, g.row, g.prev!) : sendBatchRow(run, g.row, g.id, g.witness))
        .catch((err) => {
          fatal ??= err instanceof PaycliError ? err : new UsageError(String(err));
        })
        .finally(() => {
          inflight.delete(tracked);
          pump();
        });
      inflight.add(tracked);
      refill();
    }
    if (next > 1024 && next * 2 > ready.length) {
      ready.splice(0, next);
      next = 0;
    }
    poke();
  };
  onStop = poke;
  /**
   * Records the next `size` rows of the queue (one transaction, with the outcomes held back) and
   * makes them ready to start.
   * @throws the ledger's errors: then none of the wave is recorded or sent
   */
  const record = (size: number): void => {
    const group = queue.splice(0, Math.max(1, size));
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
          const begun = recordRows(
            run,
            toBegin.map((g) => g.row),
          );
          toBegin.forEach((g, i) => {
            const b = begun[i]!;
            ids.set(g.row.row, b instanceof Error ? b : b.id);
          });
        });
      } catch (err) {
        // The transaction is rolled back: none of the wave is recorded, none is sent.
        for (const g of group) notStarted(g.row);
        if (unrecorded) logger.warn(outcomesNotRecorded(err, t('batch.rows', unrecorded)));
        throw err;
      }
    }
    for (const g of group) {
      const id = ids.get(g.row.row);
      if (id !== undefined && !(id instanceof Error)) startBy.set(id, recordedFrom + START_WITHIN_MS);
      if (id instanceof Error) finish({ row: g.row.row, line: g.row.line, orderId: g.row.orderId, outcome: 'not_sent', valueCents: g.row.body.value, error: id.message });
      else ready.push({ ...g, ...(id !== undefined ? { id } : {}), witness: witnessed.has(g.row.row) });
    }
  };
  /** Waits until at most `left` rows are planned but not recorded (0: until every row has ended), or the run stops. */
  const drain = async (left: number) => {
    const done = () => (left > 0 ? queue.length <= left : !queue.length && ready.length <= next && !inflight.size);
    while (!stopping && !done()) {
      pump();
      if (stopping || done()) break;
      await change();
    }
  };
  /**
   * Plans the rows read since the last call: what the ledger holds of their references is asked in
   * one call (one round trip on the team ledger), then they join the queue the waves are recorded from.
   */
  const take = async (rows: ValidRow[]): Promise<void> => {
    let prevs: Array<PreviousRow | undefined>;
    try {
      prevs = stopping ? [] : ledger.previousMany(rows.map((r) => r.orderId));
    } catch (err) {
      for (const row of rows) notStarted(row);
      throw err;
    }
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (stopping) {
        notStarted(row);
        continue;
      }
      const prev = prevs[i];
      const plan = planFor(prev, Boolean(opts.retryRefused));
      if (plan !== 'send' && plan !== 'resolve') {
        finish(earlierRunResult(row, plan, prev!), true);
        continue;
      }
      queue.push({ row, plan, prev });
    }
    pump();
    await drain(READ_AHEAD);
  };
  /** Rows read, not yet planned ({@link take}). */
  let read: ValidRow[] = [];
  try {
    let step = 0;
    for await (const spooled of ctx.spool.rows()) {
      ctx.tick();
      if (++step % READ_STEP === 0) await yieldToIo();
      const row: ValidRow = { ...spooled, ok: true };
      lastRead = row.row;
      if (stopping) {
        notStarted(row);
        continue;
      }
      read.push(row);
      if (read.length >= READ_AHEAD) {
        const rows = read;
        read = [];
        await take(rows);
      }
    }
    const rows = read;
    read = [];
    await take(rows);
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
    for (const row of read) notStarted(row);
    read = [];
    // Rows a fatal error kept from being read at all: each is reported, so that every row of the file is in the results once.
    if (stopping) {
      try {
        for await (const spooled of ctx.spool.rows()) if (spooled.row > lastRead) notStarted(spooled);
      } catch (err) {
        logger.warn(t('batchRun.cannotList', lastRead, (err as NodeJS.ErrnoException).code ?? (err as Error).message));
      }
    }
    try {
      flushEnds();
    } catch (err) {
      logger.warn(outcomesNotRecorded(err, t('batchRun.lastRows')));
    }
    clearTimeout(endTimer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    progress.stop();
    agent.destroy();
    await closeSandbox?.();
  }

  writer.flush();
  printSummary(op.kind, tally, listed, Boolean(opts.json), writer.path, fatal ? t('batchRun.stopped') : t('error.interrupted'));
  if (fatal) {
    // "Nothing was sent" (exit 2) may not be said once something was.
    if (sentAny && fatal.exitCode === ExitCode.USAGE) throw new NeedsAttentionError([t('batchRun.stoppedAfterSending', withoutNothingSent(fatal.message), runStates(tally))]);
    throw fatal;
  }
  const left = tally.not_started.rows;
  if (stopping) throw new InterruptedError(t('batch.notStarted', left));
  if (tally.unknown.rows && decidableAt !== undefined) logger.notice(t('batchRun.leftUnknown', whenText(decidableAt)));
  process.exitCode = tally.unknown.rows
    ? unknownExit
    : tally.needs_attention.rows || tally.not_sent.rows || tally.already_at_gateway.rows
      ? ExitCode.NEEDS_ATTENTION
      : tally.refused.rows || tally.already_refused.rows
        ? ExitCode.REFUSED
        : ExitCode.OK;
}

/** A ledger error's text without the "nothing was sent" that the ledger adds to errors before a send. */
function withoutNothingSent(message: string): string {
  const ending = `; ${t('common.nothingSent')}`;
  return message.endsWith(ending) ? message.slice(0, -ending.length) : message;
}

/**
 * The warning when the outcomes of rows already sent could not be recorded: they were sent; the
 * ledger keeps them unknown, which blocks sending them again until the gateway is asked.
 */
function outcomesNotRecorded(err: unknown, which: string): string {
  return t('batchRun.notRecorded', which, withoutNothingSent((err as Error).message));
}

/** How many rows ended in each state, in words (`112 created, 16 not sent, 472 not started`). */
function runStates(tally: ReturnType<typeof emptyTally>): string {
  return Object.entries(tally)
    .filter(([, v]) => v.rows)
    .map(([k, v]) => `${v.rows} ${t(`batchState.${k as keyof typeof tally}`)}`)
    .join(', ');
}
