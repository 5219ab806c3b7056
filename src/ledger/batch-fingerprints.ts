/**
 * How the identical-payment check finds the rows of batch files (schema version 9; docs/ledger-and-safety.md
 * "How the ledger lies on disk", docs/speed.md "Disk written per batch row"). A fingerprint is a hash: in one
 * index of every payment, each row of a batch's wave lands on a leaf of its own, and each commit writes those
 * leaves whole. So `payments_by_fingerprint8` holds the payments outside batch files only, and a batch file's
 * rows are listed per file and gateway in `batch_fingerprints`, by the first 8 bytes of the fingerprint: the run
 * lists every row of its file in one write before its first wave (sorted, so the file's part of the table is
 * written once, page after page), and a trigger lists any batch row recorded without it (another writer, an
 * older run's file), so the list never misses a recorded row whoever recorded it. A check looks a fingerprint up
 * in the files that can still hold a blocking row (`batch_files.last_ms` in the window, or a row of the file still
 * without an outcome), then reads the row itself and compares its whole fingerprint, as for any payment. The run of an
 * entry likewise: `payments_by_run8` indexes the payments outside batch files, `batch_runs` the runs of each file.
 */
import { mappedUint32Array, mappedUint8Array } from '../core/memory.js';
import { MIGRATE_TO_11 } from './derived.js';
import { MIGRATE_TO_12 } from './order-key.js';
import { OUTSIDE_FILES } from './entries.js';

// Which payments the indexes below hold, and history's condition on a time range, are src/ledger/entries.ts'.
export { IN_TIME_RANGE, OUTSIDE_FILES } from './entries.js';

/** `last_ms` of a file with a row whose time cannot be read: it counts as recent (it blocks, never lets through). */
const UNREADABLE_TIME = 9007199254740991;

/**
 * `last_ms` is kept rounded up to the next minute: written once a minute, not with every wave, and never earlier
 * than a row's time (a file is looked at a little longer, never less).
 */
const LAST_MS_STEP = 60_000;

/**
 * A trigger that lists a batch row as it is recorded (or changed: a row moved into a file is listed there): its file
 * (and the file's latest time), its fingerprint's first 8 bytes, its run. A row listed ahead costs a look-up, no write.
 */
function listed(name: string, when: string): string {
  return `CREATE TRIGGER IF NOT EXISTS batch_lists_on_${name.toLowerCase()} ${when} WHEN NEW.batch_id IS NOT NULL AND NEW.batch_row IS NOT NULL
BEGIN
  INSERT INTO batch_files (batch_id, endpoint, last_ms) VALUES (NEW.batch_id, NEW.endpoint, coalesce((NEW.time_ms / ${LAST_MS_STEP} + 1) * ${LAST_MS_STEP}, ${UNREADABLE_TIME}))
    ON CONFLICT (batch_id, endpoint) DO UPDATE SET last_ms = excluded.last_ms WHERE excluded.last_ms > coalesce(last_ms, 0);
  INSERT OR IGNORE INTO batch_fingerprints (file, fp8, row)
    SELECT id, substr(NEW.fingerprint, 1, 8), NEW.batch_row FROM batch_files WHERE batch_id = NEW.batch_id AND endpoint = NEW.endpoint;
  INSERT OR IGNORE INTO batch_runs (run_id, file)
    SELECT NEW.run_id, id FROM batch_files WHERE NEW.run_id IS NOT NULL AND batch_id = NEW.batch_id AND endpoint = NEW.endpoint;
END;`;
}

/**
 * The tables and the triggers (schema version 9). `batch_files`: one per batch file and gateway, with the latest
 * time any of its rows was recorded (`last_ms`) and whether its rows were listed ahead (`listed`).
 * `batch_fingerprints`: its rows by the fingerprint's first 8 bytes. `batch_runs`: the runs that recorded its rows (the
 * pruning of runs keeps a run an entry names: src/ledger/ledger.ts `pruneRuns`).
 */
export const BATCH_FINGERPRINTS = `CREATE TABLE IF NOT EXISTS batch_files (
  id INTEGER PRIMARY KEY,
  batch_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  last_ms INTEGER,                     -- the latest time_ms of its recorded rows (epoch ms) or up to a minute after, NULL before the first
  listed INTEGER NOT NULL DEFAULT 0,   -- 1 once every row of the file was listed ahead of its first wave
  UNIQUE (batch_id, endpoint)
);
CREATE TABLE IF NOT EXISTS batch_fingerprints (
  file INTEGER NOT NULL,               -- batch_files.id
  fp8 BLOB NOT NULL,                   -- substr(fingerprint, 1, 8) of the row's payment
  row INTEGER NOT NULL,                -- its batch_row
  PRIMARY KEY (file, fp8, row)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS batch_runs (
  run_id TEXT NOT NULL,                -- a run (table runs) that recorded rows of the file
  file INTEGER NOT NULL,               -- batch_files.id
  PRIMARY KEY (run_id, file)
) WITHOUT ROWID;
${listed('INSERT', 'AFTER INSERT ON payments')}
${listed('UPDATE', 'AFTER UPDATE OF batch_id, batch_row, endpoint, fingerprint, run_id, time_ms ON payments')}`;

/** The index of those payments' fingerprints (schema version 9; version 8 indexed every payment). */
export const FINGERPRINT_INDEX = `CREATE INDEX IF NOT EXISTS payments_by_fingerprint8 ON payments (substr(fingerprint, 1, 8)) WHERE ${OUTSIDE_FILES};`;

/**
 * The index of those payments' times (schema version 10; earlier versions indexed every payment): a batch row is found
 * by time through its file ({@link IN_TIME_RANGE}), whose `last_ms` is never earlier than any of its rows' `time_ms`.
 */
export const TIME_INDEX = `CREATE INDEX payments_by_time_ms ON payments (time_ms) WHERE ${OUTSIDE_FILES};`;

/** From schema version 9: the index of the times holds the payments outside batch files only. */
const MIGRATE_TO_10 = `DROP INDEX IF EXISTS payments_by_time_ms;
${TIME_INDEX}`;

/** The index of those payments' runs (schema version 9); a batch row's run is in `batch_runs`. */
export const RUN_INDEX = `CREATE INDEX IF NOT EXISTS payments_by_run8 ON payments (substr(run_id, 1, 8)) WHERE ${OUTSIDE_FILES};`;

/** From schema version 8: the lists of the batch rows already recorded, the indexes of the others, the triggers. */
export const MIGRATE_TO_9 = `${BATCH_FINGERPRINTS}
INSERT OR IGNORE INTO batch_files (batch_id, endpoint, last_ms)
  SELECT batch_id, endpoint, max(coalesce(time_ms, ${UNREADABLE_TIME})) FROM payments WHERE batch_id IS NOT NULL AND batch_row IS NOT NULL GROUP BY batch_id, endpoint;
INSERT OR IGNORE INTO batch_fingerprints (file, fp8, row)
  SELECT f.id, substr(p.fingerprint, 1, 8), p.batch_row FROM payments AS p JOIN batch_files AS f ON f.batch_id = p.batch_id AND f.endpoint = p.endpoint ORDER BY 1, 2, 3;
INSERT OR IGNORE INTO batch_runs (run_id, file)
  SELECT DISTINCT p.run_id, f.id FROM payments AS p JOIN batch_files AS f ON f.batch_id = p.batch_id AND f.endpoint = p.endpoint WHERE p.run_id IS NOT NULL AND p.batch_row IS NOT NULL;
DROP INDEX IF EXISTS payments_by_fingerprint8;
${FINGERPRINT_INDEX}
DROP INDEX IF EXISTS payments_by_run8;
${RUN_INDEX}
CREATE INDEX IF NOT EXISTS payments_unresolved ON payments (id) WHERE outcome IS NULL OR outcome = 'unknown';`;

/**
 * SQL: the batch files that may hold a row blocking a payment now: one recorded within the window
 * (`@windowOn`, `@since`; a time after now, or one that cannot be read, counts), or one with a row still
 * without an outcome or unknown (at any age: the index `payments_unresolved`).
 */
export const FILES_THAT_MAY_BLOCK = `SELECT id, batch_id, endpoint FROM batch_files WHERE @windowOn = 1 AND last_ms >= @since
  UNION SELECT f.id, f.batch_id, f.endpoint FROM (SELECT DISTINCT batch_id, endpoint FROM payments WHERE (outcome IS NULL OR outcome = 'unknown') AND +batch_id IS NOT NULL) AS u
  CROSS JOIN batch_files AS f ON f.batch_id = u.batch_id AND f.endpoint = u.endpoint`;

/**
 * SQL: the rows of batch files among `files` (a query of `id, batch_id, endpoint`) whose payment has the fingerprint
 * `@fingerprint`, as rows of `payments` (`p.*`), for a caller's further conditions on `p`.
 */
export const fileRowsWith = (files: string): string =>
  `SELECT p.* FROM (${files}) AS f CROSS JOIN batch_fingerprints AS x ON x.file = f.id AND x.fp8 = substr(@fingerprint, 1, 8)
  CROSS JOIN payments AS p ON p.batch_id = f.batch_id AND p.batch_row = x.row WHERE p.batch_id IS NOT NULL AND p.endpoint = f.endpoint AND p.fingerprint = @fingerprint`;

/** The identical-payment window's parameters in the statements (src/ledger/blocking.ts `blockingSql`). */
export const WINDOW = { windowOn: '@windowOn = 1', since: '@since' };

/** {@link fileRowsWith} over the files that may block a payment now ({@link FILES_THAT_MAY_BLOCK}). */
export const BLOCKING_FILE_ROWS = fileRowsWith(FILES_THAT_MAY_BLOCK);

/** {@link fileRowsWith} over the files with a row recorded since `@since`. */
export const RECENT_FILE_ROWS = fileRowsWith('SELECT id, batch_id, endpoint FROM batch_files WHERE last_ms >= @since');

/** Lists a file of a gateway (the first of its rows recorded is then listed by the trigger as well). */
export const LIST_FILE = `INSERT INTO batch_files (batch_id, endpoint) VALUES (@batch, @endpoint) ON CONFLICT (batch_id, endpoint) DO NOTHING`;

/** The file's id and whether its rows were listed ahead. */
export const FILE_OF = 'SELECT id, listed FROM batch_files WHERE batch_id = @batch AND endpoint = @endpoint';

/** Lists one row of a file. */
export const LIST_ROW = 'INSERT OR IGNORE INTO batch_fingerprints (file, fp8, row) VALUES (?, ?, ?)';

/** Marks a file's rows listed. */
export const LISTED = 'UPDATE batch_files SET listed = 1 WHERE id = ?';

/**
 * A file's rows as {@link BatchFingerprintList} collects them: the first 8 bytes of each row's fingerprint (`fp8`, 8 bytes a
 * row) and its row number (`rows`), and `order`, the positions sorted by those bytes (as the table's key), so that the
 * file's part of `batch_fingerprints` is written in one pass, page after page.
 */
export interface ListedRows {
  fp8: Uint8Array;
  rows: Uint32Array;
  order: Uint32Array;
  count: number;
}

/**
 * The rows of a file as the check reads them (src/batch/check.ts), kept outside V8's heap (12 bytes a row, 16 once
 * sorted) until they are listed before the first wave, in memory V8 maps itself, not malloc's (src/core/memory.ts
 * `mappedUint32Array`).
 */
export class BatchFingerprintList {
  private fp8 = new Uint8Array(0);
  private rows = new Uint32Array(0);
  private count = 0;

  /** Adds row `row`, whose fingerprint (sha256 hex, src/ledger/rules.ts) is `fingerprint`. */
  add(row: number, fingerprint: string): void {
    if (this.count === this.rows.length) {
      const size = Math.max(1024, this.rows.length * 2);
      const fp8 = mappedUint8Array(8 * size);
      fp8.set(this.fp8);
      this.fp8 = fp8;
      const rows = mappedUint32Array(size);
      rows.set(this.rows);
      this.rows = rows;
    }
    for (let i = 0; i < 8; i++) this.fp8[this.count * 8 + i] = Number.parseInt(fingerprint.slice(2 * i, 2 * i + 2), 16);
    this.rows[this.count++] = row;
  }

  get size(): number {
    return this.count;
  }

  /** The rows with their order by the 8 bytes (then by row); the list is empty afterwards. */
  take(): ListedRows {
    const { fp8, rows, count } = this;
    const order = mappedUint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort((a, b) => {
      for (let i = 0; i < 8; i++) {
        const d = fp8[a * 8 + i]! - fp8[b * 8 + i]!;
        if (d) return d;
      }
      return rows[a]! - rows[b]!;
    });
    this.fp8 = new Uint8Array(0);
    this.rows = new Uint32Array(0);
    this.count = 0;
    return { fp8, rows, order, count };
  }
}

/**
 * The steps from schema version 8 to 9, 9 to 10, 10 to 11 and 11 to 12 (src/ledger/schema.ts `MIGRATIONS`; the last two in
 * src/ledger/derived.ts and src/ledger/order-key.ts).
 */
export const MIGRATIONS_FROM_8: readonly string[] = [MIGRATE_TO_9, MIGRATE_TO_10, MIGRATE_TO_11, MIGRATE_TO_12];
