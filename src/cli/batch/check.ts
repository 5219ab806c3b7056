/**
 * Steps 1 and 2 of a batch run (docs/batch-runs.md; the run is src/cli/batch/send.ts): every row of
 * the file mapped and judged with the schemas of a single payment (gather, validate), what the
 * ledger knows of each row's order reference (guard), the summary and the one confirmation.
 */
import { createHash } from 'node:crypto';
import type * as z from 'zod/mini';
import { ExitCode, UsageError } from '../../core/errors.js';
import { endpointHost } from '../../gateway/endpoint.js';
import { formatReais } from '../../pix/money.js';
import { logger, runStreams } from '../../core/logger.js';
import { redact } from '../../core/sanitize.js';
import { cashInRequestSchema, cashInResponseSchema, cashOutRequestSchema, cashOutResponseSchema } from '../../gateway/schemas.js';
import type { Settings } from '../../config/settings.js';
import { canPrompt } from '../../core/terminal.js';
import { readRecords, type BatchFormat, type BatchRecord, type BatchSource } from './read.js';
import type { RowSpool } from './spool.js';
import type { BatchLedger, PreviousRow } from './ledger.js';
import {
  bodyFromCells,
  bodyFromJsonLine,
  derivedOrderId,
  IdentitySet,
  judgeRow,
  mapHeader,
  rowIdentity,
  textIdentity,
  type ColumnTarget,
  type GatheredRow,
  type RowProblem,
} from './rows.js';
import type { BatchKind, BatchOperation, BatchOptions } from './run.js';
import { t } from '../../core/i18n/index.js';

/** A kind of batch with the schemas its rows and answers are checked by. */
export interface Operation extends BatchOperation {
  /** The request body's schema (src/gateway/schemas.ts). */
  schema(): z.ZodMiniType;
  /** The answer's schema. */
  response(): z.ZodMiniType;
}

export const SCHEMAS: Record<BatchKind, Pick<Operation, 'schema' | 'response'>> = {
  cashout: { schema: () => cashOutRequestSchema, response: () => cashOutResponseSchema },
  cashin: { schema: cashInRequestSchema, response: cashInResponseSchema },
};

/** A row read from the file, mapped and judged. */
export type Row = { line: number; row: number } & (
  | { ok: true; body: Record<string, unknown> & { value: number }; orderId: string; ownOrderId: boolean }
  | { ok: false; problems: Array<{ column: string; message: string }> }
);

/** A valid row: its body, and its order reference (its own, or derived from the file and row). */
export type ValidRow = Extract<Row, { ok: true }>;

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
        gathered.problems.push({ column: '', message: t('batchRow.tooManyCells', rec.cells.length, header.length) });
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
export interface Scan {
  rows: number;
  problems: RowProblem[];
  toSend: { count: number; cents: number; largest: number; largestRow: number };
  alreadyOk: number;
  alreadyRefused: number;
  unknown: number;
  /** The line of row 1, when every row stands on one line after it (row n on line firstLine + n - 1); else undefined. */
  firstLine?: number;
  /** The distinct postback URLs of the rows checked (at most {@link POSTBACK_URLS_KEPT}): where `--watch` may listen. */
  postbackUrls: Set<string>;
}

/** Most distinct postback URLs a scan keeps. */
export const POSTBACK_URLS_KEPT = 16;

/** What to do with a valid row, given what the ledger knows of its `orderId`. */
export type Plan = 'send' | 'already_ok' | 'already_refused' | 'resolve' | 'needs_attention';

export function planFor(prev: PreviousRow | undefined, retryRefused: boolean): Plan {
  if (!prev) return 'send';
  if (!prev.completed || prev.outcome === 'unknown') return 'resolve';
  // created with a wrong answer: it needs a person on every run until `history resolve` settles it
  if (prev.outcome === 'ok') return prev.attention?.length ? 'needs_attention' : 'already_ok';
  if (prev.outcome === 'refused') return retryRefused ? 'send' : 'already_refused';
  return 'send'; // not_sent: nothing reached the gateway
}

/** Rows whose earlier entries the check asks the ledger for in one call. */
const PLAN_STEP = 256;

/** What a dry run without a ledger knows of earlier runs: nothing. */
export const NO_LEDGER: Pick<BatchLedger, 'previousMany'> = { previousMany: (orderIds) => orderIds.map(() => undefined) };

/**
 * Step 1: reads the whole file once, judging every row; with a spool, keeps each valid row there
 * for the send. The bytes read are fingerprinted again: a file that changed since it was first
 * fingerprinted is refused (nothing sent), so what is checked and confirmed is that file.
 * @throws UsageError when the file changed, or cannot be read; the spool's write errors
 */
export async function scanFile(
  op: Operation,
  source: BatchSource,
  format: BatchFormat,
  sha256: string,
  ledger: Pick<BatchLedger, 'previousMany'>,
  opts: BatchOptions,
  tick: () => void,
  spool?: RowSpool,
): Promise<Scan> {
  const map = rowMapper(op, format, sha256);
  const scan: Scan = { rows: 0, problems: [], toSend: { count: 0, cents: 0, largest: 0, largestRow: 0 }, alreadyOk: 0, alreadyRefused: 0, unknown: 0, postbackUrls: new Set() };
  const identities = new IdentitySet();
  const ownIds = new IdentitySet();
  let sawHeader = format === 'jsonl';
  const digest = createHash('sha256');
  // The ledger is asked about PLAN_STEP rows at once (one round trip on the team ledger).
  let unplanned: Array<{ row: number; orderId: string; value: number }> = [];
  const plan = (): void => {
    const rows = unplanned;
    unplanned = [];
    if (!rows.length) return;
    const prevs = ledger.previousMany(rows.map((u) => u.orderId));
    rows.forEach((u, i) => {
      const plan = planFor(prevs[i], Boolean(opts.retryRefused));
      if (plan === 'already_ok' || plan === 'needs_attention') scan.alreadyOk++;
      else if (plan === 'already_refused') scan.alreadyRefused++;
      else {
        if (plan === 'resolve') scan.unknown++;
        scan.toSend.count++;
        scan.toSend.cents += u.value;
        if (u.value > scan.toSend.largest) scan.toSend = { ...scan.toSend, largest: u.value, largestRow: u.row };
      }
    });
  };
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
      if (first !== undefined) scan.problems.push({ line: r.line, row: r.row, column: 'order-id', message: t('batchRow.sameOrderId', r.orderId, first) });
    }
    if (!opts.allowDuplicate) {
      const first = identities.claim(rowIdentity(op.kind, r.body), r.row);
      if (first !== undefined) scan.problems.push({ line: r.line, row: r.row, column: '', message: t('batch.sameRow', op.kind, first) });
    }
    if (scan.problems.length) continue; // the file will not be sent: no need to ask the ledger
    await spool?.add({ line: r.line, row: r.row, body: r.body, orderId: r.orderId, ownOrderId: r.ownOrderId });
    const postbackUrl = (r.body as { postbackUrl?: unknown }).postbackUrl;
    if (typeof postbackUrl === 'string' && scan.postbackUrls.size < POSTBACK_URLS_KEPT) scan.postbackUrls.add(postbackUrl);
    unplanned.push({ row: r.row, orderId: r.orderId, value: r.body.value });
    if (unplanned.length >= PLAN_STEP) plan();
  }
  plan();
  if (!sawHeader || (format === 'csv' && scan.rows === 0 && !scan.problems.length)) {
    scan.problems.push({ line: 1, row: 0, column: '', message: format === 'csv' ? t('batchRow.noRowsUnderHeader') : t('batchRow.noRows') });
  } else if (scan.rows === 0) scan.problems.push({ line: 1, row: 0, column: '', message: t('batchRow.noRows') });
  if (digest.digest('hex') !== sha256) throw new UsageError(t('batchFile.changed', source.name), { field: '--batch' });
  await spool?.finish();
  return scan;
}

/** Exit 2 with every bad row listed (text, or one JSON document with `--json`). */
export function reportProblems(source: BatchSource, problems: RowProblem[], json: boolean): void {
  const rows = new Set(problems.map((p) => p.row)).size;
  const message = t('batchRow.problems', source.name, problems.length, rows);
  if (json) {
    runStreams().stderr.write(`${redact(JSON.stringify({ error: { code: 'validation', message, problems } }))}\n`);
  } else {
    const lines = problems.map((p) => `  ${t('batchRow.where', p.line, p.row)}${p.column ? `, ${p.column}` : ''}: ${p.message}`);
    logger.error(`${message}:\n${lines.join('\n')}`);
  }
  process.exitCode = ExitCode.USAGE;
}

/** The summary shown before sending (stderr), and asked about. */
export function summaryText(op: Operation, source: BatchSource, sha256: string, scan: Scan, settings: Settings): string {
  const gateway = endpointHost(settings.endpoint, t('batch.sandboxGateway'));
  const lines = [
    t('batch.summary.file', source.name, t('batch.rows', scan.rows), sha256.slice(0, 16)),
    t('batch.summary.toSend', t('batch.count', scan.toSend.count, op.kind), formatReais(scan.toSend.cents)),
  ];
  if (scan.toSend.count) lines.push(t('batch.summary.largest', formatReais(scan.toSend.largest), scan.toSend.largestRow));
  if (scan.alreadyOk) lines.push(t('batch.summary.alreadyOk', t('batch.rows', scan.alreadyOk)));
  if (scan.alreadyRefused) lines.push(t('batch.summary.refused', t('batch.rows', scan.alreadyRefused)));
  if (scan.unknown) lines.push(t('batch.summary.unknown', t('batch.rows', scan.unknown)));
  lines.push(t('batch.summary.profile', settings.profile), t('batch.summary.gateway', gateway));
  return lines.join('\n');
}

/** Asks once (default No). @throws UsageError when it cannot ask and `--yes` is missing */
export async function confirm(op: Operation, summary: string, count: number, opts: BatchOptions): Promise<void> {
  if (opts.yes) return;
  if (!canPrompt(opts)) {
    throw new UsageError(t('batch.needsYes', t('batch.count', count, op.kind)), { field: '--yes', hint: t('batch.needsYesHint') }, 'confirmation_required');
  }
  const [{ confirm: ask }, { promptContext, yesNoTheme }] = await Promise.all([import('@inquirer/prompts'), import('../../payment/prompts.js')]);
  if (!(await ask({ message: t('batch.confirm', t('batch.count', count, op.kind)), default: false, theme: yesNoTheme() }, promptContext()))) {
    throw new UsageError(t('batch.notConfirmed'), {}, 'confirmation_required');
  }
}
