/**
 * One row of a batch run, through the payment pipeline's steps (src/payment/pipeline.ts `steps`:
 * record → send → classify → record end), as a single cash-in or cash-out goes through them; what
 * differs is in {@link RowRun}: the row may be recorded ahead (in a group), it is sent over the
 * run's connection pool, a 429 sends it again after `Retry-After`, and its outcome is written with
 * the next group. A row an earlier run left unknown is first settled (src/payment/settle.ts).
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { AuthError, ExitCode, GatewayError, GatewayRefusedError, PaycliError, UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { redact } from '../core/sanitize.js';
import { cashOutAnswerProblems } from '../gateway/answers.js';
import type { CashOutResponse } from '../gateway/schemas.js';
import { describeFound, witnessOrder } from '../gateway/lookup.js';
import type { Settings } from '../config/settings.js';
import type { EndRecord } from '../ledger/contract.js';
import type { BeginInfo, EndDetails } from '../ledger/schema.js';
import type { Outcome } from '../ledger/rules.js';
import { steps, type PipelineDeps } from '../payment/pipeline.js';
import type { Settled } from '../payment/settle.js';
import type { BatchLedger, PreviousRow } from './ledger.js';
import type { RowResult } from './outcome.js';
import type { Operation, Plan, ValidRow } from './check.js';

/** How many times one row is sent again after 429 answers before it is given up (recorded not_sent: the gateway did not process it). */
export const MAX_429_RETRIES = 20;
/** Parses `Retry-After` (src/gateway/net.ts). */
export { retryAfterMs } from '../gateway/net.js';
import { retryAfterMs } from '../gateway/net.js';

/** What the ledger records of a row before it is sent (with its batch id, row number and start-by). */
export function beginInfo(
  op: Operation,
  row: ValidRow,
  target: string,
  sandbox: boolean,
  settings: Settings,
  batchId: string,
): BeginInfo & Required<Pick<BeginInfo, 'orderId' | 'batchId' | 'batchRow'>> {
  const b = row.body as Record<string, unknown>;
  const person = b.person as { name?: string } | undefined;
  return {
    kind: op.kind,
    value: row.body.value,
    target,
    sandbox,
    profile: settings.profile,
    ...(op.kind === 'cashout'
      ? { pixKeyType: b.pixKeyType as number, pixKey: b.pixKey as string, recipient: person?.name }
      : { payer: b.payerName as string, product: b.productName as string }),
    orderId: row.orderId,
    batchId,
    batchRow: row.row,
    timeoutMs: settings.timeoutMs,
    startWithinMs: START_WITHIN_MS,
  };
}

/**
 * How long after a row is recorded it may still be started, in milliseconds: rows are recorded a
 * wave ahead of being sent (`--rate` and 429 pauses may hold a wave back), and each one's deadline (src/ledger/settle-rule.ts) counts from
 * this. A row about to start later moves the deadlines of the rows still waiting on first
 * (`ensureStartable`), so a lookup after a crash never takes a row that may still leave for not sent.
 */
export const START_WITHIN_MS = 10_000;

/** The result of a created payment; checks what a single payment checks (status, amounts, BR Code), writes the PNG. */
function onCreated(op: Operation, row: ValidRow, res: Record<string, unknown>, base: RowResult, qrDir?: string): Created | Promise<Created> {
  if (op.kind !== 'cashout') return onCashInCreated(row, res, base, qrDir);
  // the checks of a single cash-out (src/cli/run/cashout.ts): status, gross, fee and net
  const attention = cashOutAnswerProblems(row.body.value, res as unknown as CashOutResponse);
  const result: RowResult = {
    row: base.row,
    line: base.line,
    orderId: base.orderId,
    outcome: attention.length ? 'needs_attention' : 'ok',
    valueCents: base.valueCents,
    transactionId: res.transactionId as number,
    status: res.status as string,
    feeCents: Number(res.tax),
    netCents: Number(res.liquid),
  };
  if (attention.length) result.error = attention.join('; ');
  return { result, attention };
}

/** What {@link onCreated} gives: the row's result, and what was wrong in the answer (recorded with it). */
interface Created {
  result: RowResult;
  attention: string[];
}

/** {@link onCreated} for a cash-in: the BR Code's checks, and the PNG under `--qr-dir`. */
async function onCashInCreated(row: ValidRow, res: Record<string, unknown>, base: RowResult, qrDir?: string): Promise<Created> {
  const out: RowResult = { ...base, outcome: 'ok', transactionId: res.transactionId as number };
  const attention: string[] = [];
  out.brCode = res.qrCode as string;
  const { checkCashInBrCode } = await import('../pix/brcode-check.js');
  attention.push(...checkCashInBrCode(res.qrCode as string, row.body.value).attention);
  if (qrDir !== undefined) {
    const { decodeQrImage } = await import('../pix/qr-image.js');
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
  if (attention.length) return { result: { ...out, outcome: 'needs_attention', error: attention.join('; ') }, attention };
  return { result: out, attention };
}

/**
 * What a row needs of its batch run (src/batch/engine.ts): the run's settings and
 * dependencies, and the state its rows share (stopping, start-by times, the 429 pause, the
 * outcomes written in groups, the tally), as functions.
 */
export interface RowRun {
  op: Operation;
  settings: Settings;
  batchId: string;
  /** The full endpoint URL the rows go to, or `sandbox` (recorded with each row). */
  target: string;
  sandbox: boolean;
  allowDuplicate: boolean;
  qrDir?: string;
  ledger: BatchLedger;
  /** The batch's send: its connection pool, and the one sandbox of the run (src/payment/pipeline.ts `PipelineDeps`). */
  deps: Pick<PipelineDeps, 'send'>;
  /** Aborted by a second Ctrl-C: the requests in flight stop waiting. */
  signal: AbortSignal;
  /** True once the run starts no more rows (Ctrl-C, or a fatal error). */
  stopping(): boolean;
  /** Stops the run with `err` (the first one is the run's). */
  stop(err: PaycliError): void;
  /** A request is about to leave: "nothing was sent" may no longer be said. */
  sending(): void;
  /** The exit code of rows left unknown (4, or 5 when the gateway answered outside the interface). */
  unknownExit(code: number): void;
  /** A row left unknown can be decided by a lookup from this moment (epoch ms). */
  decidableAt(ms: number): void;
  /** Row `id` was recorded at `fromMs`: it may start until `fromMs` + {@link START_WITHIN_MS}. */
  recorded(id: number | string, fromMs: number): void;
  /** Before row `id` starts: moves the deadlines on when it is past its start-by. @throws the ledger's errors */
  ensureStartable(id: number | string): Promise<void>;
  /** Row `id` has left (or will not): it no longer counts for start-by. */
  started(id: number | string): void;
  /** Records a row's outcome with the next group (never throws: a failed write only warns). */
  endLater(id: number | string, outcome: Outcome, details: EndDetails): void;
  /** After a 429: waits `ms` (the pause every row of the run keeps), or until the run stops. */
  pause(ms: number, row: number): Promise<void>;
  /** The lookup settings of the run's profile. @throws UsageError when there are none */
  lookup(): Settings;
  /** A row's result: tally, progress, results file. */
  finish(r: RowResult): void;
}

/**
 * Asks the gateway for the row's own `orderId` before it is recorded (the second witness).
 * @returns the row's result when that ends it (held at the gateway: `already_at_gateway`; cannot
 *   be asked: `not_sent`, fail closed; the run stopped meanwhile: `not_started`), else undefined
 */
async function witnessRow(run: RowRun, row: ValidRow, base: RowResult): Promise<RowResult | undefined> {
  try {
    const w = await witnessOrder(run.lookup(), row.orderId, run.signal);
    if (w.kind === 'held') {
      return {
        ...base,
        outcome: 'already_at_gateway',
        transactionId: w.data.transactionId,
        status: String(w.data.status),
        error: t('batchRow.alreadyAtGateway', row.orderId, describeFound(w.data)),
      };
    }
  } catch (err) {
    if (err instanceof AuthError) run.stop(err);
    if (!(err instanceof PaycliError)) throw err;
    return { ...base, error: redact(err.message) };
  }
  return run.stopping() ? { ...base, outcome: 'not_started' } : undefined;
}

/** Records a row on its own (a wave of one), just before it is sent. @returns its entry, or the row's result when it is refused or the ledger fails (that stops the run) */
async function recordAlone(run: RowRun, row: ValidRow, base: RowResult): Promise<number | RowResult> {
  const from = Date.now();
  try {
    const [out] = await recordRows(run, [row]);
    if (out instanceof UsageError) return { ...base, outcome: 'not_sent', error: out.message };
    run.recorded(out!.id, from);
    return out!.id;
  } catch (err) {
    run.stop(err instanceof PaycliError ? err : new UsageError(String(err)));
    return { ...base, outcome: 'not_sent', error: (err as Error).message };
  }
}

/**
 * Sends one row through the pipeline's steps: record (unless recorded in its wave: `ledgerId`) → send →
 * classify → record end; 429 answers send it again after `Retry-After`. With `witness`, the
 * gateway is asked for the row's `orderId` first (before it is recorded): a row it holds is
 * `already_at_gateway`; a row it cannot be asked about is `not_sent` (fail closed).
 */
export async function sendBatchRow(run: RowRun, row: ValidRow, ledgerId?: number | string, witness = false): Promise<void> {
  const base: RowResult = { row: row.row, line: row.line, orderId: row.orderId, outcome: 'not_sent', valueCents: row.body.value };
  if (witness) {
    const ended = await witnessRow(run, row, base);
    if (ended) return run.finish(ended);
  }
  const id = ledgerId ?? (await recordAlone(run, row, base));
  if (typeof id === 'object') return run.finish(id);
  return sendRecorded(run, row, id, base);
}

/** A recorded row's send, until it ends (429 answers: sent again after `Retry-After`, at most {@link MAX_429_RETRIES} times). */
async function sendRecorded(run: RowRun, row: ValidRow, id: number | string, base: RowResult): Promise<void> {
  const { op, settings } = run;
  // The profile's `order-id off` (a gateway that refuses unknown fields): a derived reference is
  // kept in the ledger only; a row's own is always sent.
  const body = !row.ownOrderId && settings.orderId === 'off' ? row.body : { ...row.body, orderId: row.orderId };
  const ends = { end: (entry: number, outcome: Outcome, details?: EndDetails) => run.endLater(entry, outcome, details ?? {}) };
  const request = { path: op.path, body, schema: op.response, advice: `look order ${row.orderId} up at the gateway before sending it again` };
  for (let attempt = 0; ; attempt++) {
    try {
      await run.ensureStartable(id);
    } catch (err) {
      // The row's deadline could not be moved on: it is not sent (a lookup could take it for not sent too early).
      run.started(id);
      run.stop(err instanceof PaycliError ? err : new UsageError(String(err)));
      run.endLater(id, 'not_sent', { message: `not sent: ${(err as Error).message}` });
      return run.finish({ ...base, outcome: 'not_sent', error: (err as Error).message });
    }
    run.sending();
    const sent = await steps.send(run.deps, settings, request, run.signal, undefined, { tooManyRequests: 'not_sent' });
    if (!sent.created && sent.err instanceof GatewayRefusedError && sent.err.details.status === 429 && attempt < MAX_429_RETRIES && !run.stopping()) {
      await run.pause(retryAfterMs(sent.err.details.retryAfter), row.row);
      if (!run.stopping()) continue;
    }
    run.started(id);
    if (sent.created) {
      // the answer's problems are recorded with it: later runs report the row needs_attention until `history resolve`
      const created = onCreated(op, row, sent.result.data as Record<string, unknown>, base, run.qrDir);
      const { result, attention } = created instanceof Promise ? await created : created;
      await steps.recordEnd(op.kind, ends, Number(id), sent, attention);
      return run.finish(result);
    }
    await steps.recordEnd(op.kind, ends, Number(id), sent);
    const { err, outcome, details } = sent;
    if (err instanceof AuthError) run.stop(err);
    if (outcome === 'unknown' && err instanceof GatewayError) run.unknownExit(ExitCode.GATEWAY);
    if (!(err instanceof PaycliError)) throw err;
    return run.finish({ ...base, outcome: outcome === 'ok' ? 'unknown' : outcome, error: details.message });
  }
}

/**
 * The result of a row an earlier run of the file finished (src/batch/check.ts `planFor`): paid
 * (`already_ok`), refused (`already_refused`), or created but wrong and not settled by
 * `history resolve` (`needs_attention` again, naming its ledger entry).
 */
export function earlierRunResult(row: ValidRow, plan: Exclude<Plan, 'send' | 'resolve'>, prev: PreviousRow): RowResult {
  const base = { row: row.row, line: row.line, orderId: row.orderId, valueCents: row.body.value };
  if (plan === 'already_ok') return { ...base, outcome: 'already_ok', transactionId: prev.transactionId, status: prev.status };
  if (plan === 'already_refused') return { ...base, outcome: 'already_refused', error: prev.message };
  return {
    ...base,
    outcome: 'needs_attention',
    transactionId: prev.transactionId,
    status: prev.status,
    error: t('batchRow.stillNeedsAttention', String(prev.id), (prev.attention ?? []).join('; ')),
  };
}

/**
 * The record step for a wave of rows (src/payment/pipeline.ts `steps.recordMany`): the outcomes
 * held back (`ends`) written, then each row checked and recorded, in one transaction, just before the
 * wave can leave: one round trip on the team ledger, one disk sync on the local one.
 * @returns per row, in order: its entry, or the UsageError (`duplicate_cashout` / `duplicate_order`) that refused it
 * @throws the ledger's other errors (then nothing of the call is recorded)
 */
export function recordRows(
  run: Pick<RowRun, 'op' | 'settings' | 'batchId' | 'target' | 'sandbox' | 'allowDuplicate' | 'ledger'>,
  rows: readonly ValidRow[],
  ends: readonly EndRecord[] = [],
): Promise<Array<{ id: number } | UsageError>> {
  return steps.recordMany(
    run.ledger,
    rows.map((row) => beginInfo(run.op, row, run.target, run.sandbox, run.settings, run.batchId)),
    { windowMin: run.settings.duplicateWindowMin, allowDuplicate: run.allowDuplicate },
    ends,
  );
}

/**
 * A row an earlier run left unknown: settled first (src/payment/settle.ts, the settle step of every
 * payment): found at the gateway → `already_ok`; the gateway never got it (asked after the row's
 * deadline, once that run has ended) → sent now, under the same order reference; otherwise it
 * stays unknown and is not sent (the summary says when a lookup can decide).
 */
export async function resumeBatchRow(run: RowRun, row: ValidRow, prev: PreviousRow): Promise<void> {
  const base: RowResult = { row: row.row, line: row.line, orderId: row.orderId, outcome: 'unknown', valueCents: row.body.value };
  let settled: Settled;
  if (!row.ownOrderId && run.settings.orderId === 'off')
    settled = { state: 'unknown', why: 'its derived reference was not sent (order-id off for this profile), so the gateway cannot be asked' };
  else {
    let lookup: Settings | { problem: string };
    try {
      lookup = run.lookup();
    } catch (err) {
      lookup = { problem: (err as Error).message };
    }
    settled = await run.ledger.settle(prev.id, lookup, { signal: run.signal, note: `batch ${run.batchId}` });
  }
  if (settled.state === 'ok')
    return run.finish({
      ...base,
      outcome: 'already_ok',
      transactionId: typeof settled.found.transactionId === 'number' ? settled.found.transactionId : undefined,
      status: String(settled.found.status),
    });
  if (settled.state === 'not_sent') return sendBatchRow(run, row);
  run.unknownExit(ExitCode.NETWORK);
  if (settled.decidableAt !== undefined) run.decidableAt(settled.decidableAt);
  return run.finish({ ...base, error: t('batchRow.earlierRun', settled.why) });
}
