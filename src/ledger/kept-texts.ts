/**
 * The results lines of finished batches, kept for their re-runs (docs/speed.md "Re-running a finished
 * file"): the run that finishes a file keeps the lines src/ledger/batch-text.ts renders, and a re-run
 * reads them back instead of rendering them, while no row of the batch changed since.
 */
import type { Connection } from '../core/sqlite/driver.js';
import type { BatchTextSpec, BatchTextStatement } from './batch-text.js';

/**
 * The kept lines of finished batches ({@link keptTextKey}), one per batch and gateway, and the triggers
 * that drop a batch's lines when any of its rows is recorded, changed (an outcome, `history resolve`,
 * a settle, a status) or removed, by any paycli, in the transaction that changes it: a kept text is
 * always the one the statement would render from the rows as they are. Each trigger compares one
 * value (an `IN (OLD.batch_id, NEW.batch_id)` list cost an updated row about 30,000 instructions, these
 * about 4,000: docs/speed.md).
 */
export const BATCH_TEXTS = `CREATE TABLE IF NOT EXISTS batch_texts (
  batch_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  key TEXT NOT NULL,                   -- what the lines were rendered for (keptTextKey)
  rows INTEGER NOT NULL,
  cents INTEGER NOT NULL,
  text TEXT NOT NULL,                  -- the lines, each ending in a line break
  PRIMARY KEY (batch_id, endpoint)
);
CREATE TRIGGER IF NOT EXISTS batch_texts_on_insert AFTER INSERT ON payments WHEN NEW.batch_id IS NOT NULL
  BEGIN DELETE FROM batch_texts WHERE batch_id = NEW.batch_id; END;
CREATE TRIGGER IF NOT EXISTS batch_texts_on_update AFTER UPDATE ON payments WHEN OLD.batch_id IS NOT NULL
  BEGIN DELETE FROM batch_texts WHERE batch_id = OLD.batch_id; END;
CREATE TRIGGER IF NOT EXISTS batch_texts_on_move AFTER UPDATE OF batch_id ON payments WHEN NEW.batch_id IS NOT NULL
  BEGIN DELETE FROM batch_texts WHERE batch_id = NEW.batch_id; END;
CREATE TRIGGER IF NOT EXISTS batch_texts_on_delete AFTER DELETE ON payments WHEN OLD.batch_id IS NOT NULL
  BEGIN DELETE FROM batch_texts WHERE batch_id = OLD.batch_id; END;`;

/** The kept lines of a batch at a gateway, rendered for `@key`: `text` as `column` gives it. */
const keptText = (column: string): string => `SELECT rows, cents, ${column} AS text FROM batch_texts WHERE batch_id = @batch AND endpoint = @endpoint AND key = @key`;

/** The kept lines of a batch at a gateway, rendered for `@key`. */
export const KEPT_TEXT = keptText('text');

/**
 * {@link KEPT_TEXT} with the lines as their UTF-8 bytes (a BLOB: the bytes stored, which a write of the
 * text as a string would encode again), for a re-run that writes them to its results file as they are.
 */
export const KEPT_BYTES = keptText('CAST(text AS BLOB)');

/** Keeps (replaces) the lines of a batch at a gateway. */
export const KEEP_TEXT = 'INSERT OR REPLACE INTO batch_texts (batch_id, endpoint, key, rows, cents, text) VALUES (@batch, @endpoint, @key, @rows, @cents, @text)';

/**
 * What kept lines were rendered for: the statement (its SQL and parameters: a paycli that renders
 * otherwise renders again), the texts left to the writer, and the file's row count.
 */
export const keptTextKey = (spec: BatchTextSpec, statement: BatchTextStatement, rows: number): string => JSON.stringify([statement.sql, statement.params, spec.yours, rows]);

/**
 * The most bytes of the ledger file mapped while kept lines are read ({@link readMapped}): they are
 * written last, near the end of the file, so the whole file is mapped (SQLite maps at most its size,
 * and past 1 GiB reads the rest page by page as always). Address space, not memory: only the pages
 * read are loaded.
 */
const MAPPED_READ_BYTES = 1024 * 1024 * 1024;

/**
 * `read` (reads only) with the ledger file mapped into memory (SQLite's `mmap_size`), then unmapped:
 * a re-run of a finished file reads its kept lines, hundreds of 1 KiB pages, without a system call
 * a page (docs/speed.md "A batch re-run without the command tree"). Nothing is written while the
 * file is mapped, and SQLite maps it read-only and writes only through the file, so what reaches the
 * disk, and when, is as without it (docs/ledger-and-safety.md). What changes is how a read fails: an
 * I/O error, or the file cut shorter by something other than SQLite during the read, ends the process
 * by a signal instead of an error of the ledger; nothing is sent either way.
 */
export function readMapped<T>(db: Pick<Connection, 'pragma'>, read: () => T): T {
  db.pragma(`mmap_size = ${MAPPED_READ_BYTES}`);
  try {
    return read();
  } finally {
    db.pragma('mmap_size = 0');
  }
}
