/**
 * Step 1 of a batch run (docs/batch-runs.md; the run is src/batch/engine.ts): every row of the file
 * mapped and judged with the schemas of a single payment (gather, validate), and what the ledger
 * knows of each row's order reference (guard). The summary and the one confirmation are the CLI's
 * (src/cli/batch/confirm.ts).
 */
import { createHash } from 'node:crypto';
import type * as z from 'zod/mini';
import { UsageError } from '../core/errors.js';
import { PAYMENT_SCHEMAS, type LazySchema } from '../gateway/payment-schemas.js';
import { readRecords, type BatchFormat, type BatchRecord, type BatchSource } from './read.js';
import type { RowSpool } from './spool.js';
import type { BatchLedger, PreviousRow } from './ledger.js';
import {
  bodyFromCells,
  bodyFromJsonLine,
  derivedOrderId,
  IdentitySet,
  legacyDerivedOrderId,
  judgeRow,
  mapHeader,
  rowIdentity,
  textIdentity,
  type ColumnTarget,
  type GatheredRow,
  type RowProblem,
} from './rows.js';
import type { BatchKind, BatchOperation } from './outcome.js';
import { t } from '../core/i18n/index.js';

/** A kind of batch with the schemas its rows and answers are checked by (src/gateway/payment-schemas.ts). */
export interface Operation extends BatchOperation {
  /** The request body's schema: loaded once for the check of the file ({@link scanFile}), which judges every row with it. */
  request: LazySchema;
  /** The answer's schema, checked by the client (src/gateway/client.ts). */
  response: LazySchema;
}

/** Each batch kind's schemas: those of a single payment of that kind. */
export const SCHEMAS: Record<BatchKind, Pick<Operation, 'request' | 'response'>> = PAYMENT_SCHEMAS;

/** A row read from the file, mapped and judged. */
export type Row = { line: number; row: number } & (
  | { ok: true; body: Record<string, unknown> & { value: number }; orderId: string; ownOrderId: boolean }
  | { ok: false; problems: Array<{ column: string; message: string }> }
);

/** A valid row: its body, and its order reference (its own, or derived from the file and row). */
export type ValidRow = Extract<Row, { ok: true }>;

/** Turns records into rows (CSV needs its header first), judged by `schema` (`op.request`'s, loaded). */
function rowMapper(op: Operation, schema: z.ZodMiniType, sha256: string, legacyOrderIds = false) {
  const derive = legacyOrderIds ? legacyDerivedOrderId : derivedOrderId;
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
      const judged = judgeRow(op.fields, op.request, schema, gathered);
      if (!judged.ok) return { line: rec.line, row: rec.row, ok: false, problems: judged.problems };
      const body = judged.row.body as Record<string, unknown> & { value: number; orderId?: string };
      const own = body.orderId;
      return { line: rec.line, row: rec.row, ok: true, body, orderId: own ?? derive(sha256, op.kind, rec.row), ownOrderId: own !== undefined };
    },
  };
}

/** The flags the check reads: `--retry-refused` (refused rows are sent again), `--allow-duplicate` (identical rows allowed). */
export interface ScanOptions {
  retryRefused?: boolean;
  allowDuplicate?: boolean;
  /** Derive the rows' references as an older paycli did (src/batch/order-refs.ts `legacyDerivedOrderId`): it started this file at this gateway. */
  legacyOrderIds?: boolean;
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
export const NO_LEDGER: Pick<BatchLedger, 'previousMany'> = { previousMany: async (orderIds) => orderIds.map(() => undefined) };

/** Counts what is to be sent of `rows`, given what the ledger knows of each (`prevs`, in their order). */
function countPlans(scan: Scan, rows: ReadonlyArray<{ row: number; value: number }>, prevs: ReadonlyArray<PreviousRow | undefined>, retryRefused: boolean): void {
  rows.forEach((u, i) => {
    const plan = planFor(prevs[i], retryRefused);
    if (plan === 'already_ok' || plan === 'needs_attention') scan.alreadyOk++;
    else if (plan === 'already_refused') scan.alreadyRefused++;
    else {
      if (plan === 'resolve') scan.unknown++;
      scan.toSend.count++;
      scan.toSend.cents += u.value;
      if (u.value > scan.toSend.largest) scan.toSend = { ...scan.toSend, largest: u.value, largestRow: u.row };
    }
  });
}

/** A valid row's problems as part of the file: an `order-id` or (without `--allow-duplicate`) a whole row already seen. */
function repeatProblems(op: Operation, r: ValidRow, seen: { ownIds: IdentitySet; identities?: IdentitySet }): RowProblem[] {
  const problems: RowProblem[] = [];
  if (r.ownOrderId) {
    const first = seen.ownIds.claim(textIdentity(r.orderId), r.row);
    if (first !== undefined) problems.push({ line: r.line, row: r.row, column: 'order-id', message: t('batchRow.sameOrderId', r.orderId, first) });
  }
  const first = seen.identities?.claim(rowIdentity(op.kind, r.body), r.row);
  if (first !== undefined) problems.push({ line: r.line, row: r.row, column: '', message: t('batch.sameRow', op.kind, first) });
  return problems;
}

/** The problem of a file without rows (CSV: none under its header), if it is one. */
function emptyFileProblem(format: BatchFormat, sawHeader: boolean, scan: Scan): RowProblem | undefined {
  if (!sawHeader || (format === 'csv' && scan.rows === 0 && !scan.problems.length)) {
    return { line: 1, row: 0, column: '', message: format === 'csv' ? t('batchRow.noRowsUnderHeader') : t('batchRow.noRows') };
  }
  return scan.rows === 0 ? { line: 1, row: 0, column: '', message: t('batchRow.noRows') } : undefined;
}

/** Where the rows stand: row 1's line while every row stands on the line after the one before (src/batch/check.ts `Scan.firstLine`). */
function noteLine(scan: Scan, line: number): void {
  scan.rows++;
  if (scan.rows === 1) scan.firstLine = line;
  else if (scan.firstLine !== undefined && line !== scan.firstLine + scan.rows - 1) scan.firstLine = undefined;
}

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
  ledger: Pick<BatchLedger, 'previousMany'> & Partial<Pick<BatchLedger, 'noteRow'>>,
  opts: ScanOptions,
  tick: () => void,
  spool?: RowSpool,
): Promise<Scan> {
  // The schema is loaded once: every row is then judged synchronously.
  const map = rowMapper(op, await op.request.load(), sha256, opts.legacyOrderIds);
  const scan: Scan = { rows: 0, problems: [], toSend: { count: 0, cents: 0, largest: 0, largestRow: 0 }, alreadyOk: 0, alreadyRefused: 0, unknown: 0, postbackUrls: new Set() };
  const seen = { ownIds: new IdentitySet(), ...(opts.allowDuplicate ? {} : { identities: new IdentitySet() }) };
  let sawHeader = format === 'jsonl';
  const digest = createHash('sha256');
  // The ledger is asked about PLAN_STEP rows at once (one round trip on the team ledger).
  let unplanned: Array<{ row: number; orderId: string; value: number }> = [];
  const plan = async (): Promise<void> => {
    const rows = unplanned;
    unplanned = [];
    if (rows.length) countPlans(scan, rows, await ledger.previousMany(rows.map((u) => u.orderId)), Boolean(opts.retryRefused));
  };
  for await (const rec of readRecords(source, format, digest)) {
    tick();
    if (rec.kind === 'header') {
      sawHeader = true;
      scan.problems.push(...map.header(rec));
      continue;
    }
    noteLine(scan, rec.line);
    const r = map.row(rec);
    if (!r.ok) {
      for (const p of r.problems) scan.problems.push({ line: r.line, row: r.row, ...p });
      continue;
    }
    scan.problems.push(...repeatProblems(op, r, seen));
    if (scan.problems.length) continue; // the file will not be sent: no need to ask the ledger
    await spool?.add({ line: r.line, row: r.row, body: r.body, orderId: r.orderId, ownOrderId: r.ownOrderId });
    ledger.noteRow?.(op.kind, r.row, r.body);
    const postbackUrl = (r.body as { postbackUrl?: unknown }).postbackUrl;
    if (typeof postbackUrl === 'string' && scan.postbackUrls.size < POSTBACK_URLS_KEPT) scan.postbackUrls.add(postbackUrl);
    unplanned.push({ row: r.row, orderId: r.orderId, value: r.body.value });
    if (unplanned.length >= PLAN_STEP) await plan();
  }
  await plan();
  const empty = emptyFileProblem(format, sawHeader, scan);
  if (empty) scan.problems.push(empty);
  if (digest.digest('hex') !== sha256) throw new UsageError(t('batchFile.changed', source.name), { field: '--batch' });
  await spool?.finish();
  return scan;
}
