/**
 * The rows a batch run checked, kept for its send (docs/batch-runs.md): the check writes each
 * valid row's request body, as the schema gave it, to a private file (0600, in a 0700 temporary
 * folder), and the send reads them back from there, not from the input file. What was checked,
 * summed up and confirmed is what is sent, even if the input file changes meanwhile; and the
 * send parses one JSON line a row instead of the CSV and the schemas again. Streamed both ways:
 * memory does not grow with the file.
 *
 * The lines are kept in blocks of about {@link BLOCK_CHARS} characters, each compressed on its own
 * (raw deflate, level {@link LEVEL}) and written after its length (4 bytes, big-endian): about a
 * sixth of the bytes of the lines themselves, which a batch run writes to the disk once a row
 * (docs/speed.md "Disk written per batch row"). A block holds whole lines only.
 */
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';

/** Characters of JSON lines gathered before they are compressed and written as one block. */
const BLOCK_CHARS = 64 * 1024;
/** zlib's compression level for a block: its fastest, which already keeps the repeated keys and texts of the lines once. */
const LEVEL = 1;
/** Bytes of a block's length, written before it. */
const HEADER_BYTES = 4;

/** A checked row: where it stands in the file, its body (interface field names; `value` in cents), its order reference. */
export interface SpooledRow {
  /** Line of the file where the row starts. */
  line: number;
  /** Data row number, from 1. */
  row: number;
  body: Record<string, unknown> & { value: number };
  orderId: string;
  /** True when `orderId` came from the row itself (its column), not derived from the file. */
  ownOrderId: boolean;
}

/** A spool: {@link add} while checking, {@link finish}, then {@link rows} while sending; {@link dispose} at the end. */
export class RowSpool {
  private readonly dir: string;
  private readonly path: string;
  private readonly out: WriteStream;
  private failure: Error | undefined;
  /** Lines not yet written: each JSON text followed by `\n`. */
  private pending = '';

  /** @throws UsageError (exit 2, nothing sent) when the temporary folder cannot be made */
  constructor() {
    try {
      this.dir = mkdtempSync(join(tmpdir(), 'paycli-rows-'));
    } catch (err) {
      throw new UsageError(t('batchFile.noTempFolder', tmpdir(), (err as NodeJS.ErrnoException).code ?? (err as Error).message), {
        field: '--batch',
        hint: t('batchFile.noTempFolderHint'),
      });
    }
    this.path = join(this.dir, 'rows.jsonl.blocks');
    this.out = createWriteStream(this.path, { mode: 0o600 });
    this.out.on('error', (err) => (this.failure ??= err));
  }

  /**
   * Keeps one checked row; waits when the disk is behind.
   * @throws UsageError (exit 2: the check comes before anything is sent) when the file cannot be written (a full disk…)
   */
  async add(row: SpooledRow): Promise<void> {
    this.throwIfFailed();
    this.pending += `${JSON.stringify(row)}\n`;
    if (this.pending.length >= BLOCK_CHARS) await this.flush();
    this.throwIfFailed();
  }

  /** Writes the pending lines as one block; waits when the disk is behind. */
  private async flush(): Promise<void> {
    if (!this.pending) return;
    // node:zlib loaded here, as node:fs/promises below: a re-run of a finished file keeps no rows
    const data = process.getBuiltinModule('node:zlib').deflateRawSync(Buffer.from(this.pending, 'utf8'), { level: LEVEL });
    this.pending = '';
    const header = Buffer.allocUnsafe(HEADER_BYTES);
    header.writeUInt32BE(data.length, 0);
    this.out.write(header);
    if (!this.out.write(data)) await this.settle(once(this.out, 'drain'));
  }

  /** Ends the writing. @throws UsageError as {@link add} */
  async finish(): Promise<void> {
    this.throwIfFailed();
    await this.flush();
    this.out.end();
    if (!this.out.closed) await this.settle(once(this.out, 'close'));
    this.throwIfFailed();
  }

  /** Waits for a stream event; an 'error' instead is kept as the spool's failure. */
  private async settle(event: Promise<unknown>): Promise<void> {
    try {
      await event;
    } catch (err) {
      this.failure ??= err as Error;
    }
  }

  private throwIfFailed(): void {
    if (!this.failure) return;
    const code = (this.failure as NodeJS.ErrnoException).code ?? this.failure.message;
    throw new UsageError(t('batchFile.cannotKeep', this.dir, code), { field: '--batch', hint: t('batchFile.cannotKeepHint') });
  }

  /**
   * The rows kept, in order: block after block, each read whole, inflated and split at the line
   * ends the spool itself wrote (one JSON text a line, no CR: `JSON.stringify` escapes line ends).
   * A line reader's events and promises would cost a batch run more than the rows' JSON (docs/speed.md).
   * @throws Error when the file is shorter than its blocks say (cut by another program)
   */
  async *rows(): AsyncGenerator<SpooledRow> {
    // node:fs/promises loaded here: a re-run of a finished file reads no rows (docs/speed.md)
    const file = await process.getBuiltinModule('node:fs/promises').open(this.path, 'r');
    try {
      const inflate = process.getBuiltinModule('node:zlib').inflateRawSync;
      const header = Buffer.allocUnsafe(HEADER_BYTES);
      let block = Buffer.allocUnsafe(BLOCK_CHARS);
      for (;;) {
        const got = (await file.read(header, 0, HEADER_BYTES, null)).bytesRead;
        if (got === 0) break;
        const size = got === HEADER_BYTES ? header.readUInt32BE(0) : -1;
        if (size > block.length) block = Buffer.allocUnsafe(size);
        if (size < 0 || (await readFully(file, block, size)) < size) throw new Error(`${this.path}: cut short`);
        const text = inflate(block.subarray(0, size)).toString('utf8');
        for (let from = 0; from < text.length; ) {
          let to = text.indexOf('\n', from);
          if (to < 0) to = text.length;
          if (to > from) yield JSON.parse(text.slice(from, to)) as SpooledRow;
          from = to + 1;
        }
      }
    } finally {
      await file.close();
    }
  }

  /** Removes the file and its folder. */
  dispose(): void {
    this.out.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Reads `size` bytes into `buf` from the file's position; fewer only at the file's end. */
async function readFully(file: import('node:fs/promises').FileHandle, buf: Buffer, size: number): Promise<number> {
  let done = 0;
  while (done < size) {
    const { bytesRead } = await file.read(buf, done, size - done, null);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}
