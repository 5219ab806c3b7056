/**
 * Step 3 of a batch run (docs/batch-runs.md): sends the rows the check kept (src/batch/check.ts),
 * `--concurrency` at a time within `--rate`, each through the payment pipeline's steps
 * (src/batch/row.ts). The parts:
 * - the scheduler ({@link BatchEngine}): rows read from the spool and planned a step ahead, waiting
 *   rows started as slots free up, `--rate` and 429 pauses, Ctrl-C (stop starting) and a second one
 *   (abort what is in flight);
 * - the group recorder (src/batch/recorder.ts): rows recorded in the ledger just before they can
 *   leave, a wave at a time, with the outcomes held back since the last wave, so at most
 *   2 x concurrency rows are ever recorded without an outcome;
 * - the row state machine (src/batch/row.ts) and the results (src/batch/outcome.ts).
 * It writes nothing to stdout or stderr: rows, notices and the end go to a {@link BatchReporter}
 * (the CLI's progress, results file and summary: src/cli/batch/send.ts).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { setMaxListeners } from 'node:events';
import { setImmediate as yieldToIo, setTimeout as sleep } from 'node:timers/promises';
import { ExitCode, PaycliError, UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { callGateway } from '../gateway/client.js';
import { isSandbox } from '../gateway/endpoint.js';
import { proxyConfigured } from '../gateway/transport.js';
import { whyNoLookup } from '../gateway/lookup.js';
import type { Settings } from '../config/settings.js';
import { planFor, type Operation, type ValidRow } from './check.js';
import type { BatchLedger, PreviousRow } from './ledger.js';
import { emptyListed, emptyTally, type ListedOutcome, type RowResult, type Tally } from './outcome.js';
import { GroupRecorder } from './recorder.js';
import { earlierRunResult, resumeBatchRow, sendBatchRow, type RowRun } from './row.js';
import type { RowSpool, SpooledRow } from './spool.js';

/** What the engine reports as it runs; the CLI implements it (progress, results file, notices on stderr). */
export interface BatchReporter {
  /** A row ended; `skipped`: this run sent no request for it (an earlier run of the file finished it). */
  row(result: RowResult, skipped: boolean): void;
  /** The outcomes of the rows reported so far are in the ledger: their results lines may follow them out. */
  durable(): void;
  /** A notice for the person running the batch. */
  notice(text: string): void;
  /** A warning (an outcome the ledger could not take, a spool that cannot be listed). */
  warn(text: string): void;
  /** A line for `--verbose`. */
  debug(text: string): void;
}

/** What a send needs: the rows, where they go, the ledger and the flags that shape the run. */
export interface SendPlan {
  op: Operation;
  /** The rows the check kept, read back in order. */
  spool: RowSpool;
  batchId: string;
  settings: Settings;
  /** The full endpoint URL the rows go to, or `sandbox` (recorded with each row). */
  target: string;
  ledger: BatchLedger;
  concurrency: number;
  /** `--rate`, requests started per second. */
  rate?: number;
  retryRefused: boolean;
  allowDuplicate: boolean;
  qrDir?: string;
  /** The lookup settings of the run's profile. @throws UsageError when there are none */
  lookup(): Settings;
  /** Called once per row read (src/core/memory.ts). */
  tick(): void;
  /** The gateway's send in place of the run's own connection pool (tests: a gateway in memory). */
  send?: RowRun['deps']['send'];
}

/** How a send ended: every row of the file in {@link tally} once, and what the exit code depends on. */
export interface BatchEnd {
  tally: Tally;
  /** Row numbers of the outcomes the summary lists. */
  listed: Record<ListedOutcome, number[]>;
  /** The error that stopped the run, if one did. */
  fatal?: PaycliError;
  /** True when the run stopped before every row was started (Ctrl-C, or {@link fatal}). */
  stopped: boolean;
  /** A request may have left: "nothing was sent" may no longer be said. */
  sentAny: boolean;
  /** The exit code of the rows left unknown (4, or 5 when the gateway answered outside the interface). */
  unknownExit: number;
  /** From when (epoch ms) a lookup can decide the rows left unknown, if known. */
  decidableAt?: number;
}

/** A row planned to start: sent, or settled first (an earlier run left it unknown). */
interface Planned {
  row: ValidRow;
  plan: 'send' | 'resolve';
  prev?: PreviousRow;
}

/** A planned row made ready by its wave: its ledger entry (none: not recorded yet), asked about first or not. */
interface Ready extends Planned {
  id?: number;
  witness: boolean;
}

/** Listeners a request in flight may add to the run's abort signal at once (client, transport, lookup), with room to spare. */
const LISTENERS_PER_SLOT = 4;
/** Rows read between two turns of the event loop (answers are taken in, slots refilled). */
const READ_STEP = 8;

/** One send of a batch (see the file's comment): {@link run} once; {@link interrupt} on Ctrl-C. */
export class BatchEngine {
  private readonly end: BatchEnd = { tally: emptyTally(), listed: emptyListed(), stopped: false, sentAny: false, unknownExit: ExitCode.NETWORK };
  private readonly abort = new AbortController();
  private readonly inflight = new Set<Promise<void>>();
  /** Waves being recorded: their rows join `ready` when the ledger answers. */
  private readonly waves = new Set<Promise<void>>();
  private queue: Planned[] = [];
  private ready: Ready[] = [];
  private next = 0;
  private read: ValidRow[] = [];
  private lastRead = 0;
  private nextStart = 0;
  private pauseUntil = 0;
  private pumpTimer: NodeJS.Timeout | undefined;
  private changed: (() => void) | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly recorder: GroupRecorder;
  private readonly readAhead: number;
  private rowRun!: RowRun;

  constructor(
    private readonly plan: SendPlan,
    private readonly report: BatchReporter,
  ) {
    // Each request in flight listens to the abort signal: Node's warning past 10 listeners would reach stderr outside the output's contract.
    setMaxListeners(LISTENERS_PER_SLOT * plan.concurrency + 10, this.abort.signal);
    this.recorder = new GroupRecorder(plan.ledger, report, plan.settings.timeoutMs);
    this.readAhead = Math.max(64, plan.concurrency * 8);
  }

  /** Rows in flight now. */
  get inFlight(): number {
    return this.inflight.size;
  }

  /** Ctrl-C / SIGTERM: the first stops starting rows (those in flight finish), a second aborts them. */
  interrupt(): void {
    if (this.end.stopped) return this.abort.abort();
    this.end.stopped = true;
    this.wakeUp?.();
    this.poke();
    this.report.notice(t('batch.interrupted', this.inflight.size));
  }

  /** Sends every row (see the file's comment). Never throws: how it ended is the {@link BatchEnd}. */
  async run(): Promise<BatchEnd> {
    const http = await this.connect();
    try {
      await this.readAll();
    } catch (err) {
      this.fail(err);
    } finally {
      await this.wind(http.agent);
      await http.close?.();
    }
    return this.end;
  }

  /** The run's connection pool and the sandbox it starts for a sandbox profile (the sandbox is never a silent stand-in: it says so). */
  private async connect(): Promise<{ agent?: HttpAgent; close?: () => Promise<void> }> {
    const { settings, concurrency } = this.plan;
    const sandbox = isSandbox(settings.endpoint);
    if (this.plan.send) {
      this.rowRun = this.rowView(sandbox, this.plan.send);
      return {};
    }
    let baseUrl: string;
    let close: (() => Promise<void>) | undefined;
    if (!isSandbox(settings.endpoint)) baseUrl = settings.endpoint.url;
    else {
      this.report.notice(t('pay.sandboxNotice'));
      const { startSandbox } = await import('../sandbox/server.js');
      const s = await startSandbox({ host: '127.0.0.1', port: 0 });
      baseUrl = s.url;
      close = () => s.close();
    }
    const agentOpts = { keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency };
    // the proxy variables read once for the run, not once a request (src/gateway/transport.ts)
    const direct = sandbox || !proxyConfigured();
    const agent = baseUrl.startsWith('https:') ? new HttpsAgent(agentOpts) : new HttpAgent(agentOpts);
    this.rowRun = this.rowView(sandbox, async (s, path, body, schema, unknownAdvice, signal, onSent) => {
      const r = await callGateway({ path, body, schema, settings: s, baseUrl, signal, direct, agent, unknownAdvice, onSent });
      return { status: r.status, data: r.data, raw: r.raw, sandbox };
    });
    return { agent, ...(close ? { close } : {}) };
  }

  /** The row's view of this run (src/batch/row.ts `RowRun`). */
  private rowView(sandbox: boolean, send: RowRun['deps']['send']): RowRun {
    const { op, settings, batchId, target, ledger, allowDuplicate, qrDir } = this.plan;
    const rec = this.recorder;
    return {
      ...{ op, settings, batchId, target, sandbox, allowDuplicate, ledger },
      ...(qrDir !== undefined ? { qrDir } : {}),
      deps: { send },
      signal: this.abort.signal,
      stopping: () => this.end.stopped,
      stop: (err) => this.fail(err),
      sending: () => void (this.end.sentAny = true),
      unknownExit: (code) => void (this.end.unknownExit = code),
      decidableAt: (ms) => void (this.end.decidableAt = Math.max(this.end.decidableAt ?? 0, ms)),
      recorded: (id, fromMs) => rec.recorded(id, fromMs),
      ensureStartable: (id) => rec.ensureStartable(id),
      started: (id) => rec.started(id),
      endLater: (id, outcome, details) => rec.endLater(Number(id), outcome, details),
      pause: (ms, row) => this.pause(ms, row),
      lookup: () => this.plan.lookup(),
      finish: (r) => this.finish(r),
    };
  }

  /** Stops the run with `err` (the first one is the run's). */
  private fail(err: unknown): void {
    this.end.fatal ??= err instanceof PaycliError ? err : new UsageError(String(err));
    this.end.stopped = true;
    this.poke();
  }

  /** A row's end: tally, listed rows, the reporter. */
  private finish(r: RowResult, skipped = r.outcome === 'already_ok'): void {
    const { tally, listed } = this.end;
    tally[r.outcome].rows++;
    tally[r.outcome].cents += r.valueCents;
    if (r.outcome in listed) listed[r.outcome as ListedOutcome].push(r.row);
    this.report.row(r, skipped);
  }

  /** A row the run did not send because it stopped first (not recorded, or recorded and ended `not_sent`). */
  private notStarted(row: ValidRow | SpooledRow): void {
    this.finish({ row: row.row, line: row.line, orderId: row.orderId, outcome: 'not_started', valueCents: row.body.value });
  }

  /** After a 429: every row of the run waits until `ms` from now, or until the run stops. */
  private async pause(ms: number, row: number): Promise<void> {
    this.pauseUntil = Math.max(this.pauseUntil, Date.now() + ms);
    this.report.debug(`row ${row}: HTTP 429, sending it again in ${Math.ceil((this.pauseUntil - Date.now()) / 1000)} s`);
    while (!this.end.stopped && Date.now() < this.pauseUntil) {
      await Promise.race([sleep(Math.min(this.pauseUntil - Date.now(), 1000)), new Promise<void>((r) => (this.wakeUp = r))]);
    }
  }

  /** Wakes whoever waits in {@link change}. */
  private poke(): void {
    const c = this.changed;
    this.changed = undefined;
    c?.();
  }

  /** Resolves at the next start, end, wave or interruption. */
  private change(): Promise<void> {
    return new Promise<void>((r) => (this.changed = r));
  }

  /** Reads the spool a few rows per turn of the event loop, planning {@link readAhead} rows at a time, then waits for every row to end. */
  private async readAll(): Promise<void> {
    let step = 0;
    for await (const spooled of this.plan.spool.rows()) {
      this.plan.tick();
      if (++step % READ_STEP === 0) await yieldToIo();
      const row: ValidRow = { ...spooled, ok: true };
      this.lastRead = row.row;
      if (this.end.stopped) this.notStarted(row);
      else if (this.read.push(row) >= this.readAhead) await this.take();
    }
    await this.take();
    await this.drain(0);
  }

  /**
   * Plans the rows read since the last call: what the ledger holds of their references is asked in
   * one call (one round trip on the team ledger); then waits while too many rows are planned ahead.
   * @throws the ledger's errors (the rows are then reported not started)
   */
  private async take(): Promise<void> {
    const rows = this.read;
    this.read = [];
    if (!rows.length) return;
    let prevs: Array<PreviousRow | undefined>;
    try {
      prevs = this.end.stopped ? [] : await this.plan.ledger.previousMany(rows.map((r) => r.orderId));
    } catch (err) {
      for (const row of rows) this.notStarted(row);
      throw err;
    }
    rows.forEach((row, i) => {
      const plan = this.end.stopped ? undefined : planFor(prevs[i], this.plan.retryRefused);
      if (plan === undefined) this.notStarted(row);
      else if (plan === 'send' || plan === 'resolve') this.queue.push({ row, plan, prev: prevs[i] });
      else this.finish(earlierRunResult(row, plan, prevs[i]!), true);
    });
    await this.drain(this.readAhead);
  }

  /** Waits until at most `left` rows are planned but not recorded (0: until every row has ended), or the run stops. */
  private async drain(left: number): Promise<void> {
    const done = () => (left > 0 ? this.queue.length <= left : !this.queue.length && this.ready.length <= this.next && !this.inflight.size && !this.waves.size);
    while (!this.end.stopped && !done()) {
      this.pump();
      if (this.end.stopped || done()) break;
      await this.change();
    }
  }

  /** Whether a row is asked about at the gateway before it is sent (the second witness): a cash-out whose `orderId` is its own, when lookups are on. */
  private needsWitness(row: ValidRow): boolean {
    if (this.plan.op.kind !== 'cashout' || !row.ownOrderId || this.rowRun.sandbox) return false;
    try {
      return whyNoLookup(this.plan.lookup()) === null;
    } catch {
      return false;
    }
  }

  /**
   * Records the next wave once no recorded row waits to start: `--concurrency` rows, in one transaction
   * (with the outcomes held back). Never more than 2 x concurrency rows are then recorded without an
   * outcome (in flight, and the wave); waves as large as that allows cost the fewest disk syncs and
   * bytes (docs/speed.md).
   */
  private refill(): void {
    const waiting = this.ready.length - this.next;
    if (this.end.stopped || !this.queue.length || this.waves.size || waiting > 0) return;
    const wave = this.queue.splice(0, Math.max(1, this.plan.concurrency - waiting));
    const witnessed = new Set(wave.filter((g) => g.plan === 'send' && this.needsWitness(g.row)).map((g) => g.row.row));
    // A row asked about at the gateway first is recorded after the answer, on its own (src/batch/row.ts).
    const toRecord = wave.filter((g) => g.plan === 'send' && !witnessed.has(g.row.row)).map((g) => g.row);
    const recorded: Promise<void> = this.recorder
      .recordWave(this.rowRun, toRecord)
      .then((ids) => {
        for (const g of wave) {
          const id = ids.get(g.row.row);
          if (id instanceof Error) this.finish({ row: g.row.row, line: g.row.line, orderId: g.row.orderId, outcome: 'not_sent', valueCents: g.row.body.value, error: id.message });
          else this.ready.push({ ...g, ...(id !== undefined ? { id } : {}), witness: witnessed.has(g.row.row) });
        }
      })
      .catch((err) => {
        // The transaction is rolled back: none of the wave is recorded, none is sent.
        for (const g of wave) this.notStarted(g.row);
        this.fail(err);
      })
      .finally(() => {
        this.waves.delete(recorded);
        this.pump();
      });
    this.waves.add(recorded);
  }

  /** Starts waiting rows while slots are free, `--rate` and a 429 pause allow, and nobody pressed Ctrl-C; records the next wave when few wait. */
  private pump(): void {
    this.refill();
    while (!this.end.stopped && this.next < this.ready.length && this.inflight.size < this.plan.concurrency) {
      const wait = Math.max(this.nextStart, this.pauseUntil) - Date.now();
      if (wait > 0) {
        this.pumpTimer ??= setTimeout(() => {
          this.pumpTimer = undefined;
          this.pump();
        }, wait);
        break;
      }
      this.start(this.ready[this.next++]!);
      this.refill();
    }
    if (this.next > 1024 && this.next * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.next);
      this.next = 0;
    }
    this.poke();
  }

  /** Starts one row: settled first when an earlier run left it unknown, else sent. */
  private start(g: Ready): void {
    if (this.plan.rate) this.nextStart = Math.max(Date.now(), this.nextStart) + 1000 / this.plan.rate;
    const work = g.plan === 'resolve' ? resumeBatchRow(this.rowRun, g.row, g.prev!) : sendBatchRow(this.rowRun, g.row, g.id, g.witness);
    const ended = (): void => {
      this.inflight.delete(tracked);
      this.pump();
    };
    // one reaction a row (not a catch and a finally)
    const tracked: Promise<void> = work.then(ended, (err) => {
      this.fail(err);
      ended();
    });
    this.inflight.add(tracked);
  }

  /**
   * The end of the send: waits for the rows in flight and the wave being recorded; reports every row
   * not started (recorded ones are ended `not_sent`; after a stop, the rows never read too, so that
   * every row of the file is in the results once); writes the last outcomes.
   */
  private async wind(agent: HttpAgent | undefined): Promise<void> {
    while (this.inflight.size || this.waves.size) await Promise.all([...this.inflight, ...this.waves]);
    clearTimeout(this.pumpTimer);
    for (const g of this.ready.slice(this.next)) {
      if (g.id !== undefined) this.recorder.endLater(g.id, 'not_sent', { message: 'interrupted before it was sent' });
      this.notStarted(g.row);
    }
    this.ready = [];
    for (const g of this.queue.splice(0)) this.notStarted(g.row);
    for (const row of this.read.splice(0)) this.notStarted(row);
    if (this.end.stopped) await this.reportUnread();
    await this.recorder.close(t('batchRun.lastRows'));
    agent?.destroy();
  }

  /** After a stop: the rows never read from the spool, reported not started. */
  private async reportUnread(): Promise<void> {
    try {
      for await (const spooled of this.plan.spool.rows()) if (spooled.row > this.lastRead) this.notStarted(spooled);
    } catch (err) {
      this.report.warn(t('batchRun.cannotList', this.lastRead, (err as NodeJS.ErrnoException).code ?? (err as Error).message));
    }
  }
}
