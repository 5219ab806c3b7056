/**
 * The batch files a wave's identical-payment checks look in, listed once a wave instead of once a row
 * (src/ledger/ledger.ts `checkAndInsert`; docs/speed.md "The batch send's CPU"). The check of one payment
 * (src/ledger/schema.ts `BLOCKING`) lists the files that may hold a blocking row (src/ledger/batch-fingerprints.ts
 * `FILES_THAT_MAY_BLOCK`: a row recorded within the window, or a row still without an outcome), reading every
 * unresolved row for its file; the list is the same for every row of a wave but for the wave's own rows.
 *
 * Why the wave's list finds every row the check of each row would find (and no other). A file can yield a
 * blocking row only if that row is unresolved (its file is then in the list) or `ok` within the window (its
 * time, or a time that cannot be read, is never after its file's `last_ms`, so the file is in the list). The
 * list is taken after the wave's outcomes are written, inside the same `BEGIN IMMEDIATE` (no other writer),
 * with the widest window of the wave's checks (the window on if any check has it, its earliest start); until the
 * wave commits, only its own inserts change the table, and the file of each inserted row is added to the list
 * as it is recorded. Each row's check keeps its own conditions on the rows it finds: a file listed that holds
 * no blocking row adds nothing.
 */
import { FILES_THAT_MAY_BLOCK, fileRowsWith } from './batch-fingerprints.js';
import { blockingOver } from './schema.js';
import type { NewPayment } from './statements.js';

/** The identical-payment check of `BLOCKING`, over the files listed in `@files` (a JSON array of `batch_files.id`). */
export const BLOCKING_IN_FILES = blockingOver(fileRowsWith('SELECT id, batch_id, endpoint FROM batch_files WHERE id IN (SELECT value FROM json_each(@files))'));

const FILE_IDS = `SELECT id FROM (${FILES_THAT_MAY_BLOCK})`;
const FILE_ID = 'SELECT id FROM batch_files WHERE batch_id = @batch AND endpoint = @endpoint';

/** Runs a statement of this module in the caller's transaction and returns its rows. */
export type Query = (sql: string, params: Record<string, unknown>) => Array<{ id: number }>;

/** A wave's list of files ({@link BLOCKING_IN_FILES}'s `@files`), and the files of the rows it records. */
export class WaveFiles {
  private readonly ids: number[] = [];
  private files = '[]';
  private readonly seen = new Set<string>();

  /** Lists the files for `rows` (none when no row is checked); call after the wave's outcomes are written. */
  constructor(
    private readonly query: Query,
    rows: readonly NewPayment[],
  ) {
    let windowOn = false;
    let since = Number.POSITIVE_INFINITY;
    for (const r of rows) {
      if (!r.check) continue;
      windowOn ||= r.check.windowOn;
      since = Math.min(since, r.check.sinceMs);
    }
    if (since === Number.POSITIVE_INFINITY) return;
    for (const f of query(FILE_IDS, { windowOn: windowOn ? 1 : 0, since })) this.ids.push(f.id);
    this.files = JSON.stringify(this.ids);
  }

  /** The parameters of {@link BLOCKING_IN_FILES} for one payment's check. */
  params(fingerprint: Uint8Array | string, check: NonNullable<NewPayment['check']>): Record<string, unknown> {
    return { fingerprint, windowOn: check.windowOn ? 1 : 0, since: check.sinceMs, files: this.files };
  }

  /** After `r` is recorded: its file (listed by the trigger as the row was inserted) is looked in from now on. */
  recorded(r: NewPayment): void {
    if (r.batchId === null || r.batchRow === null) return;
    const key = `${r.endpoint}\n${r.batchId}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const id = this.query(FILE_ID, { batch: r.batchId, endpoint: r.endpoint })[0]?.id;
    if (id === undefined || this.ids.includes(id)) return;
    this.ids.push(id);
    this.files = JSON.stringify(this.ids);
  }
}
