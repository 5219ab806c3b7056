/**
 * Reads a batch file as a stream of rows, never whole: CSV through `csv-parse` (a header row; `,`
 * or `;` separated, told apart on the header line; UTF-8 with or without a BOM; quoted cells may
 * hold separators and line breaks) or JSON Lines (one `--input` document a line; blank lines
 * skipped). The file is read once to fingerprint it and once to check it (the send reads the
 * checked rows back: src/batch/spool.ts); stdin (`-`) is first copied to a private temporary
 * file so that it can be read twice.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, createReadStream, createWriteStream, fstatSync, mkdtempSync, open, openSync, read, readSync, rmSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { toUtf8, type Encoding } from '../core/text-encoding.js';
import { processContext } from '../core/terminal.js';

/**
 * Bytes read at a time: a chunk's records wait in the parser's buffer until their turn, so a small
 * chunk keeps few of them alive while rows are checked and sent (fewer survive into V8's old
 * generation: docs/speed.md, batch memory).
 */
const READ_CHUNK = 8 * 1024;

/**
 * Longest record of a batch file, in bytes (64 KiB): a CSV record (its quoted line breaks
 * included) or a JSON Lines line. A row is a few hundred bytes; a longer one is refused with its
 * line named, and the reader never holds more than this of one record (docs/batch-runs.md).
 */
export const MAX_RECORD_BYTES = 64 * 1024;

/** Most columns of a CSV record (header or row): the interface has far fewer fields (docs/batch-runs.md). */
export const MAX_COLUMNS = 256;

/** Formats of a batch file. */
export type BatchFormat = 'csv' | 'jsonl';

/** One record of the file. */
export type BatchRecord =
  | { kind: 'header'; line: number; cells: string[] }
  | { kind: 'cells'; line: number; row: number; cells: string[] }
  | { kind: 'json'; line: number; row: number; text: string };

/**
 * The format of a batch file: `--batch-format`, else the extension (`.csv`, `.jsonl`, `.ndjson`).
 * @throws UsageError when neither says (stdin needs `--batch-format`)
 */
export function batchFormat(file: string, flag?: string): BatchFormat {
  const f = (flag ?? '').toLowerCase();
  if (f === 'csv') return 'csv';
  if (f === 'jsonl' || f === 'ndjson' || f === 'json-lines') return 'jsonl';
  if (flag !== undefined) throw new UsageError(t('batchFile.formatInvalid', JSON.stringify(flag)), { field: '--batch-format' });
  if (/\.(csv|txt)$/i.test(file)) return 'csv';
  if (/\.(jsonl|ndjson)$/i.test(file)) return 'jsonl';
  throw new UsageError(t('batchFile.formatUnknown', file === '-' ? 'stdin' : file), { field: '--batch-format', hint: t('batchFile.formatUnknownHint') });
}

/** A batch file ready to be read (twice): its path and, for stdin, the copy to remove. */
export interface BatchSource {
  /** File to read (a private copy for stdin). */
  path: string;
  /** How messages name it: the path given, or `stdin`. */
  name: string;
  /** Removes the stdin copy (no-op for a file). */
  dispose(): void;
  /** How its bytes are read (`--encoding`; src/core/text-encoding.ts): UTF-8 unless told. */
  encoding?: Encoding;
}

/**
 * Opens `--batch <file|->`: a file as it is; stdin (the run's, src/core/terminal.ts `RunContext`) copied
 * to a 0600 file in a private temporary folder.
 * @throws UsageError when stdin cannot be read
 */
export async function openSource(file: string, encoding: Encoding = 'utf-8', stdin?: NodeJS.ReadableStream): Promise<BatchSource> {
  if (file !== '-') return { path: file, name: file, dispose: () => undefined, encoding };
  // process.stdin is made only when read: making it loads a stream (a file's, a pipe's or a terminal's) no other run needs
  stdin ??= processContext().stdin;
  const dir = mkdtempSync(join(tmpdir(), 'paycli-batch-'));
  const path = join(dir, 'stdin');
  try {
    const { pipeline } = await import('node:stream/promises');
    await pipeline(stdin, createWriteStream(path, { mode: 0o600 }));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new UsageError(t('batchFile.cannotRead', 'stdin', (err as Error).message), { field: '--batch' });
  }
  return { path, name: 'stdin', dispose: () => rmSync(dir, { recursive: true, force: true }), encoding };
}

function openFailure(source: BatchSource, err: unknown): UsageError {
  return new UsageError(t('batchFile.cannotRead', source.name, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--batch' });
}

/**
 * The separator of a CSV file, from its header line: the one of `;` and `,` found more often
 * outside quotes (`;` on a tie: Brazilian spreadsheets use it because `,` is their decimal mark).
 */
export function detectDelimiter(headerLine: string): ';' | ',' {
  let semi = 0;
  let comma = 0;
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ';') semi++;
    else if (!quoted && ch === ',') comma++;
  }
  return comma > semi ? ',' : ';';
}

/**
 * Reads a file from its start through a buffer of its own, `each` called with each part read (a view
 * of the buffer, valid until it returns) until it returns false or the file ends: fewer steps than a
 * stream for a run that only fingerprints the file (docs/speed.md, "re-run of a finished file"). A
 * regular file is read synchronously: a re-run of a finished file then starts no thread of libuv's
 * pool (docs/speed.md "A batch re-run without the command tree"); anything else (a FIFO, a device,
 * whose open or read may wait for a writer) through that pool, so that Ctrl-C is heard meanwhile.
 */
async function readParts(source: BatchSource, size: number, each: (part: Buffer) => boolean): Promise<void> {
  const buf = Buffer.allocUnsafe(size);
  const regular = statSync(source.path, { throwIfNoEntry: false })?.isFile();
  // node:fs's callbacks, not node:fs/promises: that module (and the line reader it loads) is not on the path of a re-run
  const fd = regular ? openRegular(source) : await promisify(open)(source.path, 'r');
  try {
    for (;;) {
      const bytesRead = regular ? readSync(fd, buf, 0, size, null) : (await promisify(read)(fd, buf, 0, size, null)).bytesRead;
      if (!bytesRead || !each(buf.subarray(0, bytesRead))) return;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a file that was a regular file a moment ago, without waiting for a writer (O_NONBLOCK: a FIFO put
 * in its place opens at once instead of blocking the event loop), and checks through the descriptor that it
 * still is one.
 * @throws UsageError (`batchFile.changed`) when the path is no longer a regular file; nothing is read from it
 */
export function openRegular(source: BatchSource): number {
  const fd = openSync(source.path, constants.O_RDONLY | constants.O_NONBLOCK);
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  throw new UsageError(t('batchFile.changed', source.name), { field: '--batch' });
}

/** Reads the first line of a file (at most 64 KiB), without its BOM. */
async function firstLine(source: BatchSource): Promise<string> {
  let text = '';
  await readParts(source, 65_536, (part) => {
    text = part.toString('utf8');
    return false;
  });
  const nl = text.search(/\r?\n/);
  return (nl >= 0 ? text.slice(0, nl) : text).replace(/^\uFEFF/, '');
}

/**
 * Streams the records of a batch file, in order.
 * @param digest when given, every byte read is also fed to it (the check of a file proves that
 *   what it read is what was fingerprinted)
 * @throws UsageError when the file cannot be read, or the CSV is malformed (an unclosed quote…)
 */
export async function* readRecords(source: BatchSource, format: BatchFormat, digest?: Hash): AsyncGenerator<BatchRecord> {
  // The decoding step is made before the file is opened: nothing waits between the open and the reader.
  const utf8 = await toUtf8(source.encoding ?? 'utf-8', '--batch', source.name);
  const delimiter = format === 'csv' ? detectDelimiter(await firstLine(source)) : ',';
  const csv = format === 'csv' ? await import('csv-parse') : undefined;
  let stream;
  try {
    stream = createReadStream(source.path, { highWaterMark: READ_CHUNK });
    await new Promise<void>((resolve, reject) => {
      stream!.once('open', () => resolve());
      stream!.once('error', reject);
    });
  } catch (err) {
    throw openFailure(source, err);
  }
  if (format === 'jsonl') {
    let line = 0;
    let row = 0;
    // Fed in the same turn as its consumer is attached: a 'data' listener starts the flow.
    if (digest) stream.on('data', (chunk) => digest.update(chunk as Buffer));
    const decoded = stream.pipe(utf8);
    // A stream error (bytes that are not UTF-8) reaches the reader through lineLimit.
    decoded.once('error', (err) => limited.destroy(err));
    const limited = decoded.pipe(lineLimit(source));
    const { createInterface } = await import('node:readline'); // loaded here: a re-run of a finished file reads no lines (docs/speed.md)
    const rl = createInterface({ input: limited, crlfDelay: Infinity });
    try {
      for await (const text of rl) {
        line++;
        const t = line === 1 ? text.replace(/^\uFEFF/, '') : text;
        if (t.trim() === '') continue;
        yield { kind: 'json', line, row: ++row, text: t };
      }
    } finally {
      stream.destroy();
    }
    return;
  }
  const { parse, CsvError } = csv!;
  if (digest) stream.on('data', (chunk) => digest.update(chunk as Buffer));
  const parser = stream
    .pipe(utf8)
    .pipe(crlfToLf())
    .pipe(parse({ bom: true, delimiter, info: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true, max_record_size: MAX_RECORD_BYTES }));
  // Bytes that are not UTF-8 (a stream error of the decoding step) end the parse with that error.
  utf8.once('error', (err) => parser.destroy(err));
  let row = 0;
  let header = true;
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const breaks = r.record.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
      const line = r.info.lines - breaks;
      if (r.record.length > MAX_COLUMNS) {
        throw new UsageError(t('batchFile.tooManyColumns', source.name, line, r.record.length, MAX_COLUMNS), { field: '--batch' }, 'validation');
      }
      if (header) {
        header = false;
        yield { kind: 'header', line, cells: r.record };
      } else yield { kind: 'cells', line, row: ++row, cells: r.record };
    }
  } catch (err) {
    parser.destroy();
    stream.destroy();
    const e = err as { code?: string; lines?: number; message?: string };
    if (err instanceof CsvError || (typeof e.code === 'string' && e.code.startsWith('CSV_'))) throw csvFailure(source, e);
    throw err;
  }
}

/** The exit-2 error for a CSV the parser refused, naming the line and what to do. */
function csvFailure(source: BatchSource, e: { code?: string; lines?: number; message?: string }): UsageError {
  let why: string;
  if (e.code === 'INVALID_OPENING_QUOTE') why = t('batchFile.openingQuote');
  else if (e.code === 'CSV_MAX_RECORD_SIZE') why = t('batchFile.recordTooLong', MAX_RECORD_BYTES);
  else if (e.code === 'CSV_QUOTE_NOT_CLOSED') why = t('batchFile.quoteNotClosed');
  else why = e.message ?? String(e.code);
  return new UsageError(t('batchFile.notCsv', source.name, e.lines ?? 0, why), { field: '--batch' }, 'validation');
}

/**
 * Passes bytes through unchanged, refusing a line (bytes between two LF) longer than
 * {@link MAX_RECORD_BYTES} as soon as it passes the limit, so that the line reader never holds one.
 * @throws UsageError (as a stream error) naming the line that is too long
 */
function lineLimit(source: BatchSource): Transform {
  let size = 0;
  let line = 1;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      let from = 0;
      for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
        if (size + nl - from > MAX_RECORD_BYTES) return done(tooLong(source, line));
        size = 0;
        line++;
        from = nl + 1;
      }
      size += chunk.length - from;
      if (size > MAX_RECORD_BYTES) return done(tooLong(source, line));
      done(null, chunk);
    },
  });
}

const tooLong = (source: BatchSource, line: number) => new UsageError(t('batchFile.lineTooLong', source.name, line, MAX_RECORD_BYTES), { field: '--batch' }, 'validation');

/**
 * Turns CRLF line ends into LF before the CSV parser (which counts the CR of a CRLF inside a
 * quoted cell as a line of its own, and would give wrong line numbers). A CR at the end of a
 * chunk waits for the next one. Bytes pass through as latin1, so UTF-8 is kept as it is.
 */
function crlfToLf(): Transform {
  let pending = false;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      let text = (pending ? '\r' : '') + chunk.toString('latin1');
      pending = text.endsWith('\r');
      if (pending) text = text.slice(0, -1);
      done(null, Buffer.from(text.replace(/\r\n/g, '\n'), 'latin1'));
    },
    flush(done) {
      done(null, pending ? Buffer.from('\r', 'latin1') : null);
    },
  });
}

/**
 * The file's fingerprint: sha256 of its bytes, hex.
 * @throws UsageError when it cannot be read
 */
export async function fileSha256(source: BatchSource): Promise<string> {
  const h = createHash('sha256');
  try {
    await readParts(source, 256 * 1024, (part) => {
      h.update(part);
      return true;
    });
  } catch (err) {
    throw err instanceof UsageError ? err : openFailure(source, err);
  }
  return h.digest('hex');
}

/** The separator of a CSV batch file ({@link detectDelimiter} on its first line). */
export async function csvDelimiter(source: BatchSource): Promise<';' | ','> {
  return detectDelimiter(await firstLine(source));
}
