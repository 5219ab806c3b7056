/**
 * The rows a batch run checked, kept for its send (docs/batch-runs.md): the check writes each
 * valid row's request body, as the schema gave it, to a private file (0600, in a 0700 temporary
 * folder), and the send reads them back from there, not from the input file. What was checked,
 * summed up and confirmed is what is sent, even if the input file changes meanwhile; and the
 * send parses one JSON line a row instead of the CSV and the schemas again. Streamed both ways:
 * memory does not grow with the file.
 */
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';

/** Bytes read from the spool at a time while sending. */
const READ_BYTES = 64 * 1024;

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
    this.path = join(this.dir, 'rows.jsonl');
    this.out = createWriteStream(this.path, { mode: 0o600 });
    this.out.on('error', (err) => (this.failure ??= err));
  }

  /**
   * Keeps one checked row; waits when the disk is behind.
   * @throws UsageError (exit 2: the check comes before anything is sent) when the file cannot be written (a full disk…)
   */
  async add(row: SpooledRow): Promise<void> {
    this.throwIfFailed();
    if (!this.out.write(`${JSON.stringify(row)}\n`)) await this.settle(once(this.out, 'drain'));
    this.throwIfFailed();
  }

  /** Ends the writing. @throws UsageError as {@link add} */
  async finish(): Promise<void> {
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
   * The rows kept, in order. Read {@link READ_BYTES} at a time and split at the line ends the spool
   * itself wrote (one JSON text a line, no CR: `JSON.stringify` escapes line ends): a line reader's
   * events and promises cost a batch run more than the rows' JSON (docs/speed.md).
   */
  async *rows(): AsyncGenerator<SpooledRow> {
    // node:fs/promises loaded here: a re-run of a finished file reads no rows (docs/speed.md)
    const file = await process.getBuiltinModule('node:fs/promises').open(this.path, 'r');
    try {
      const buf = Buffer.allocUnsafe(READ_BYTES);
      // the bytes after the last line end read so far (a line longer than one read spans several)
      let rest = Buffer.alloc(0);
      for (;;) {
        const { bytesRead } = await file.read(buf, 0, READ_BYTES, null);
        if (bytesRead === 0) break;
        const end = buf.lastIndexOf(0x0a, bytesRead - 1);
        if (end < 0) {
          rest = Buffer.concat([rest, buf.subarray(0, bytesRead)]);
          continue;
        }
        const text = rest.length ? Buffer.concat([rest, buf.subarray(0, end)]).toString('utf8') : buf.toString('utf8', 0, end);
        rest = Buffer.from(buf.subarray(end + 1, bytesRead));
        for (let from = 0; from < text.length; ) {
          let to = text.indexOf('\n', from);
          if (to < 0) to = text.length;
          if (to > from) yield JSON.parse(text.slice(from, to)) as SpooledRow;
          from = to + 1;
        }
      }
      if (rest.length) yield JSON.parse(rest.toString('utf8')) as SpooledRow;
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
