/**
 * The results lines of finished batches, kept for their re-runs (docs/speed.md "Re-running a finished
 * file"): the run that finishes a file keeps the lines src/ledger/batch-text.ts renders, and a re-run
 * reads them back instead of rendering them, while no row of the batch changed since.
 */
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

/** The kept lines of a batch at a gateway, rendered for `@key`. */
export const KEPT_TEXT = 'SELECT rows, cents, text FROM batch_texts WHERE batch_id = @batch AND endpoint = @endpoint AND key = @key';

/** Keeps (replaces) the lines of a batch at a gateway. */
export const KEEP_TEXT = 'INSERT OR REPLACE INTO batch_texts (batch_id, endpoint, key, rows, cents, text) VALUES (@batch, @endpoint, @key, @rows, @cents, @text)';

/**
 * What kept lines were rendered for: the statement (its SQL and parameters: a paycli that renders
 * otherwise renders again), the texts left to the writer, and the file's row count.
 */
export const keptTextKey = (spec: BatchTextSpec, statement: BatchTextStatement, rows: number): string => JSON.stringify([statement.sql, statement.params, spec.yours, rows]);
