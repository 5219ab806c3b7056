/**
 * The results of a batch run, one line per input row, streamed as rows finish, a chunk at a time (README "Batch
 * runs"): a CSV (header row) or JSON Lines file chosen by extension, and with `--json` the same
 * JSON Lines on stdout. A results file is never overwritten: an explicit `--results` that exists
 * stops the run before anything is sent; the default name (`<input>.results.csv`) moves on to
 * `<input>.results-2.csv`, `-3`… and says so.
 */
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { redact, sanitizeText } from '../output/sanitize.js';

/**
 * How a row ended. `already_ok`, `already_refused`: done by an earlier run of the same file, not
 * sent again. `already_at_gateway`: a cash-out whose own `order-id` the gateway already holds
 * though this ledger has no payment of it (another machine or home sent it): not sent, so that it
 * is not paid twice (README "Batch runs").
 */
export type RowOutcome = 'ok' | 'already_ok' | 'already_at_gateway' | 'refused' | 'already_refused' | 'unknown' | 'not_sent' | 'needs_attention';

/** One line of the results. Amounts in integer cents. */
export interface RowResult {
  row: number;
  line: number;
  orderId: string;
  outcome: RowOutcome;
  /** Amount of the row, in cents. */
  valueCents: number;
  transactionId?: number | string;
  /** Cash-out status digit (interface §3). */
  status?: string;
  /** Cash-out fee and net, in cents (interface §2.4 `tax`, `liquid`). */
  feeCents?: number;
  netCents?: number;
  /** Cash-in BR Code and the PNG written under `--qr-dir`. */
  brCode?: string;
  png?: string;
  error?: string;
}

const COLUMNS: Array<keyof RowResult> = ['row', 'line', 'orderId', 'outcome', 'valueCents', 'transactionId', 'status', 'feeCents', 'netCents', 'brCode', 'png', 'error'];

/** One CSV cell: quoted when needed; text a spreadsheet would run as a formula gets a leading `'`. */
export function csvCell(v: unknown, sep: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return String(v); // digits, a sign, a dot: nothing to quote
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return s.includes(sep) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Picks the results file: `--results`, or `<input>.results.csv` beside the input
 * (`paycli-batch-<id>.results.csv` in the current folder for stdin).
 * @throws UsageError when an explicit `--results` already exists (nothing sent)
 */
export function resultsPath(input: string, explicit: string | undefined, batchId: string): { path: string; moved: boolean } {
  if (explicit !== undefined) {
    if (existsSync(explicit)) throw new UsageError(`--results: ${explicit} already exists; paycli never overwrites results; nothing was sent`, { field: '--results', hint: 'give another file name, or move the old one away' });
    return { path: explicit, moved: false };
  }
  const base = input === '-' ? `paycli-batch-${batchId}` : join(dirname(input), basename(input));
  let path = `${base}.results.csv`;
  for (let n = 2; existsSync(path); n++) path = `${base}.results-${n}.csv`;
  return { path, moved: path !== `${base}.results.csv` };
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
  ) {
    this.jsonl = /\.(jsonl|ndjson)$/i.test(path);
    this.sep = sep;
    try {
      this.fd = openSync(path, 'wx', 0o600);
    } catch (err) {
      throw new UsageError(`--results: cannot create ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was sent`, { field: '--results' });
    }
    if (!this.jsonl) writeSync(this.fd, `${COLUMNS.join(this.sep)}\n`);
  }

  /** Writes one row's result (file, then stdout with `--json`); texts are redacted and sanitised. */
  write(r: RowResult): void {
    this.writeMany([r]);
  }

  /** Adds the results of many rows at once (a re-run of a finished file gives them all). */
  writeMany(rows: Iterable<RowResult>): void {
    let file = '';
    let out = '';
    for (const r of rows) {
      const clean: RowResult = r.error !== undefined ? { ...r, error: redact(sanitizeText(r.error, true)) } : r;
      const json = this.jsonl || this.stdoutJson ? JSON.stringify(clean) : '';
      if (this.jsonl) file += `${json}\n`;
      else {
        let line = csvCell(clean[COLUMNS[0]!], this.sep);
        for (let i = 1; i < COLUMNS.length; i++) line += this.sep + csvCell(clean[COLUMNS[i]!], this.sep);
        file += `${line}\n`;
      }
      if (this.stdoutJson) out += `${json}\n`;
    }
    this.pendingFile += file;
    this.pendingOut += out;
    if (this.pendingFile.length + this.pendingOut.length >= FLUSH_AT) this.flush();
  }

  /** Writes what {@link writeMany} kept (the batch calls it with each group of outcomes recorded). */
  flush(): void {
    if (this.pendingFile) writeSync(this.fd, this.pendingFile);
    if (this.pendingOut) process.stdout.write(this.pendingOut);
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
