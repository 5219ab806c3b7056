/**
 * The results of a batch run, one line per input row, streamed as rows finish, a chunk at a time (docs/batch-runs.md): a CSV (header row) or JSON Lines file chosen by extension, and with `--json` the same
 * JSON Lines on stdout. A results file is never overwritten: an explicit `--results` that exists
 * stops the run before anything is sent; the default name (`<input>.results.csv`) moves on to
 * `<input>.results-2.csv`, `-3`… and says so.
 */
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import type { RowOutcome, RowResult, Tally } from '../../batch/outcome.js';
import { t } from '../../core/i18n/index.js';
import { csvDelimiter, type BatchFormat, type BatchSource } from '../../batch/read.js';
import { formatReais } from '../../pix/money.js';
import { amountBr, brValue, guardFormula, type CsvDialect } from '../csv-dialect.js';
import { logger, runStreams } from '../../core/logger.js';
import { redact, sanitizeText } from '../../core/sanitize.js';
import { FORMULA_STARTS, QUOTED, QUOTED_BY } from '../../core/csv-cell.js';
import type { BatchTextCell, BatchTextSpec } from '../../ledger/batch-text.js';

export type { RowOutcome, RowResult } from '../../batch/outcome.js';

const COLUMNS: Array<keyof RowResult> = ['row', 'line', 'orderId', 'outcome', 'valueCents', 'transactionId', 'status', 'feeCents', 'netCents', 'brCode', 'png', 'error', 'sandbox'];

/**
 * The columns of the `br` dialect (src/cli/csv-dialect.ts): Portuguese names, amounts in reais as
 * `1.234,56` (from the cents) and the amount in cents too.
 */
const BR_COLUMNS: Array<[string, (r: RowResult) => unknown]> = [
  ['registro', (r) => r.row],
  ['linha', (r) => r.line],
  ['id_pedido', (r) => r.orderId],
  ['resultado', (r) => r.outcome],
  ['valor', (r) => amountBr(r.valueCents)],
  ['valor_centavos', (r) => r.valueCents],
  ['id_transacao', (r) => r.transactionId],
  ['status', (r) => r.status],
  ['taxa', (r) => (r.feeCents === undefined ? undefined : amountBr(r.feeCents))],
  ['liquido', (r) => (r.netCents === undefined ? undefined : amountBr(r.netCents))],
  ['br_code', (r) => r.brCode],
  ['png', (r) => r.png],
  ['erro', (r) => r.error],
  ['sandbox', (r) => brValue(Boolean(r.sandbox))],
];

/** One CSV cell: quoted when needed; text a spreadsheet would run as a formula gets a leading `'`. */
export function csvCell(v: unknown, sep: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return String(v); // digits and a sign: nothing to quote
  let s = String(v);
  if (typeof v === 'string') s = guardFormula(s);
  return s.includes(sep) || QUOTED.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Picks the results file: `--results`, or `<input>.results.csv` beside the input
 * (`paycli-batch-<id>.results.csv` in the current folder for stdin).
 * @throws UsageError when an explicit `--results` already exists (nothing sent)
 */
export function resultsPath(input: string, explicit: string | undefined, batchId: string): { path: string; moved: boolean } {
  if (explicit !== undefined) {
    if (existsSync(explicit)) throw new UsageError(t('batchResults.exists', explicit), { field: '--results', hint: t('batchResults.existsHint') });
    return { path: explicit, moved: false };
  }
  const base = input === '-' ? `paycli-batch-${batchId}` : join(dirname(input), basename(input));
  let path = `${base}.results.csv`;
  for (let n = 2; existsSync(path); n++) path = `${base}.results-${n}.csv`;
  return { path, moved: path !== `${base}.results.csv` };
}

/**
 * Opens the run's results file (src/cli/batch/results.ts `resultsPath`), saying so when the
 * default name was taken by an earlier run. CSV results in the `intl` dialect are separated like
 * a CSV input; in `br` by `;`, with Portuguese column names and amounts in reais (src/cli/csv-dialect.ts).
 * @throws UsageError when the file cannot be created (nothing sent)
 */
export async function openResults(
  results: { path: string; moved: boolean },
  source: BatchSource,
  format: BatchFormat,
  json: boolean,
  dialect: CsvDialect = 'intl',
  sandbox = false,
): Promise<ResultsWriter> {
  if (results.moved) logger.notice(t('batchResults.moved', results.path.replace(/-[0-9]+\.csv$/, '.csv'), results.path));
  return new ResultsWriter(results.path, json, await resultsSep(source, format, dialect), dialect, sandbox);
}

/** The separator of a CSV results file: `;` in the `br` dialect, else a CSV input's own, else `,`. */
export async function resultsSep(source: BatchSource, format: BatchFormat, dialect: CsvDialect): Promise<string> {
  return dialect === 'br' ? ';' : format === 'csv' ? await csvDelimiter(source) : ',';
}

/** Whether a results file is JSON Lines (by its extension), else CSV. */
export const isJsonlResults = (path: string): boolean => /\.(jsonl|ndjson)$/i.test(path);

/** How a run's results are written, as {@link finishedCells} needs it. */
export interface ResultsShape {
  /** `--results`, or undefined for the default (a CSV file). */
  file: string | undefined;
  /** `--json`: the lines also go to stdout, as JSON. */
  json: boolean;
  dialect: CsvDialect;
  /** {@link resultsSep}. */
  sep: string;
  sandbox: boolean;
}

/**
 * The cells of the line of a row an earlier run finished (`already_ok`: its entry's row, order
 * reference, cents, transaction id and status), for the ledger to render every such line in one
 * statement (src/ledger/batch-text.ts); a text the writer would write differently leaves the rows to
 * {@link ResultsWriter.write}. Undefined when the lines are not CSV in the `intl` dialect.
 * @param firstLine the file line of row 1
 */
export function finishedCells(shape: ResultsShape, firstLine: number): BatchTextSpec | undefined {
  if (isJsonlResults(shape.file ?? '') || shape.json || shape.dialect !== 'intl') return undefined;
  const cell = (v: unknown) => ({ text: csvCell(v, shape.sep) });
  const cells: Record<keyof RowResult, BatchTextCell> = {
    row: { entry: 'row' },
    line: { rowPlus: firstLine - 1 },
    orderId: { entry: 'orderId' },
    outcome: cell('already_ok' satisfies RowOutcome),
    valueCents: { entry: 'value' },
    transactionId: { entry: 'transactionId' },
    status: { entry: 'status' },
    feeCents: cell(undefined),
    netCents: cell(undefined),
    brCode: cell(undefined),
    png: cell(undefined),
    error: cell(undefined),
    sandbox: cell(shape.sandbox),
  };
  return { cells: COLUMNS.map((c) => cells[c]), sep: shape.sep, yours: { contains: [shape.sep, ...QUOTED_BY], starts: FORMULA_STARTS } };
}

/** Characters kept before they are written: results reach the file and stdout in chunks, not a write per row. */
const FLUSH_AT = 64 * 1024;

/**
 * Writes results as rows finish; `--json` also to stdout. Lines are kept until {@link flush}
 * (called as each group of outcomes reaches the ledger), {@link close}, or 64 KiB.
 */
export class ResultsWriter {
  private readonly fd: number;
  private pendingFile = '';
  private pendingOut = '';
  private readonly jsonl: boolean;
  private readonly sep: string;
  constructor(
    readonly path: string,
    private readonly stdoutJson: boolean,
    sep = ',',
    private readonly dialect: CsvDialect = 'intl',
    /** The run goes to the built-in sandbox: every row says so (`sandbox` true / the CSV column). */
    private readonly sandbox = false,
  ) {
    this.jsonl = isJsonlResults(path);
    this.sep = sep;
    try {
      this.fd = openSync(path, 'wx', 0o600);
    } catch (err) {
      throw new UsageError(t('batchResults.cannotCreate', path, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--results' });
    }
    // br starts with a byte order mark: Excel reads a CSV as UTF-8 only with one
    if (!this.jsonl) writeSync(this.fd, `${dialect === 'br' ? '\uFEFF' : ''}${(dialect === 'br' ? BR_COLUMNS.map(([name]) => name) : COLUMNS).join(this.sep)}\n`);
  }

  /** Writes one row's result (file, then stdout with `--json`); texts are redacted and sanitised; a sandbox run's rows say `sandbox`. */
  write(r: RowResult): void {
    const error = r.error !== undefined ? redact(sanitizeText(r.error, true)) : undefined;
    if (this.jsonl || this.stdoutJson || this.dialect === 'br') this.writeCopy({ ...r, ...(error !== undefined ? { error } : {}), sandbox: this.sandbox });
    else {
      // the usual case (a CSV file): the cells straight from the result, no copy of it a row
      const sep = this.sep;
      let line = csvCell(r.row, sep);
      for (let i = 1; i < COLUMNS.length - 2; i++) line += sep + csvCell(r[COLUMNS[i]!], sep);
      this.pendingFile += `${line}${sep}${csvCell(error, sep)}${sep}${csvCell(this.sandbox, sep)}\n`;
    }
    if (this.pendingFile.length + this.pendingOut.length >= FLUSH_AT) this.flush();
  }

  /** {@link write} of a result with its texts cleaned and `sandbox` set: JSON Lines, the `br` dialect, `--json`. */
  private writeCopy(clean: RowResult): void {
    const json = this.jsonl || this.stdoutJson ? JSON.stringify(clean) : '';
    if (this.jsonl) this.pendingFile += `${json}\n`;
    else if (this.dialect === 'br') this.pendingFile += `${BR_COLUMNS.map(([, f]) => csvCell(f(clean), this.sep)).join(this.sep)}\n`;
    else {
      let line = csvCell(clean[COLUMNS[0]!], this.sep);
      for (let i = 1; i < COLUMNS.length; i++) line += this.sep + csvCell(clean[COLUMNS[i]!], this.sep);
      this.pendingFile += `${line}\n`;
    }
    if (this.stdoutJson) this.pendingOut += `${json}\n`;
    if (this.pendingFile.length + this.pendingOut.length >= FLUSH_AT) this.flush();
  }

  /** Writes lines rendered elsewhere as they are (each ending in `\n`, as a text or its UTF-8 bytes): those of {@link finishedCells}. */
  writeLines(text: string | Uint8Array): void {
    if (typeof text === 'string') this.pendingFile += text;
    else {
      this.flush();
      for (let at = 0; at < text.length; ) at += writeSync(this.fd, text, at, text.length - at);
    }
    this.flush();
  }

  /** Writes what {@link write} kept (the batch calls it with each group of outcomes recorded). */
  flush(): void {
    if (this.pendingFile) writeSync(this.fd, this.pendingFile);
    if (this.pendingOut) runStreams().stdout.write(this.pendingOut);
    this.pendingFile = '';
    this.pendingOut = '';
  }

  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}

export { emptyTally, type Tally } from '../../batch/outcome.js';

/**
 * The end of a run, on stderr: counts and reais per outcome (every row of the file exactly once),
 * and which rows need a look or were not started (with `--json`, one JSON document).
 * @param kind the payments' kind (`cashout`: "cash-outs created")
 * @param stopped why rows were not started (`interrupted`, `the run stopped: ...`)
 */
export function printSummary(
  kind: 'cashin' | 'cashout',
  tally: Tally,
  listed: Record<string, number[]>,
  json: boolean,
  resultsFile: string,
  stopped = t('error.interrupted'),
): void {
  if (json) {
    runStreams().stderr.write(
      `${JSON.stringify({ summary: { ...Object.fromEntries(Object.entries(tally).map(([k, v]) => [k, { rows: v.rows, cents: v.cents }])), notStarted: tally.not_started.rows, rows: listed, results: resultsFile } })}\n`,
    );
    return;
  }
  const words: Record<RowOutcome, string> = {
    ok: t('batchEnd.created', kind),
    already_ok: t('batchEnd.alreadyOk'),
    already_at_gateway: t('batchEnd.alreadyAtGateway'),
    refused: t('batchEnd.refused'),
    already_refused: t('batchEnd.alreadyRefused'),
    unknown: t('batchEnd.unknown'),
    not_sent: t('batchEnd.notSent'),
    needs_attention: t('batchEnd.needsAttention'),
    not_started: t('batchEnd.notStarted', stopped),
  };
  const lines = (Object.keys(tally) as RowOutcome[])
    .filter((o) => tally[o].rows)
    .map((o) => `  ${String(tally[o].rows).padStart(6)}  ${words[o].padEnd(38)} ${formatReais(tally[o].cents)}`);
  const rowsOf = (state: Exclude<RowOutcome, 'ok' | 'already_ok' | 'already_refused'>, rows: number[] | undefined) =>
    rows?.length ? [`  ${t('batchEnd.rowsOf', t(`batchState.${state}`), rows.length, listRows(rows))}`] : [];
  lines.push(
    ...rowsOf('already_at_gateway', listed.already_at_gateway),
    ...rowsOf('refused', listed.refused),
    ...rowsOf('unknown', listed.unknown),
    ...rowsOf('needs_attention', listed.needs_attention),
    ...rowsOf('not_sent', listed.not_sent),
    ...rowsOf('not_started', listed.not_started),
  );
  runStreams().stderr.write(`\n${t('batchEnd.title')}\n${lines.join('\n')}\n${t('batchEnd.results', resultsFile)}\n`);
}

/** Row numbers, sorted, runs of four or more consecutive rows as `a-b`; at most 20 items shown. */
export function listRows(rows: number[]): string {
  const sorted = [...rows].sort((a, b) => a - b);
  const items: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 3) {
      items.push(`${sorted[i]}-${sorted[j]}`);
      i = j + 1;
    } else items.push(String(sorted[i++]));
  }
  return items.length > 20 ? t('batchEnd.andMore', items.slice(0, 20).join(', '), items.length - 20) : items.join(', ');
}
