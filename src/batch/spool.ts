/**
 * The rows a batch run checked, kept for its send (docs/batch-runs.md): the check writes each
 * valid row's request body, as the schema gave it, to a private file (0600, in a 0700 temporary
 * folder), and the send reads them back from there, not from the input file. What was checked,
 * summed up and confirmed is what is sent, even if the input file changes meanwhile; and the
 * send parses one JSON line a row instead of the CSV and the schemas again. Streamed both ways:
 * memory does not grow with the file.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';

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

  /** The rows kept, in order. */
  async *rows(): AsyncGenerator<SpooledRow> {
    const { createInterface } = await import('node:readline'); // loaded here: a re-run of a finished file reads no rows (docs/speed.md)
    const lines = createInterface({ input: createReadStream(this.path), crlfDelay: Infinity });
    for await (const text of lines) yield JSON.parse(text) as SpooledRow;
  }

  /** Removes the file and its folder. */
  dispose(): void {
    this.out.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
