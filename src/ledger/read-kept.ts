/**
 * The kept results lines of a finished batch file's re-run (src/ledger/kept-texts.ts), read from a local
 * ledger opened as src/ledger/read.ts opens `history`'s listing, without the whole store (docs/speed.md
 * "A batch re-run without the command tree"). Apart from the listing so that `history` loads neither the
 * kept lines' statements nor the batch lines' SQL (docs/speed.md "History's start-up: the time bounds and
 * better-sqlite3 on demand").
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from '../core/sqlite/driver.js';
import { ensureDataDir, inspectFile, journalPath, LEDGER_NAME, plainConnection } from './files.js';
import { ledgerUrlSetting } from '../config/config-file.js';
import { batchTextSql, type BatchTextSpec } from './batch-text.js';
import { KEPT_BYTES, keptTextKey, readMapped } from './kept-texts.js';

/** The kept lines of a finished batch (src/ledger/batch-text.ts `FinishedBatchText`) as their UTF-8 bytes, with its facts. */
export interface KeptBatchText {
  rows: number;
  /** The rows' amounts added up, in cents. */
  cents: number;
  /** The lines (each ending in a line break), UTF-8. */
  bytes: Uint8Array;
  /** The text of the batch's `batch:<id>` meta row. */
  facts: string;
}

/**
 * The results lines kept for batch `batchId` at `endpoint` (src/ledger/kept-texts.ts), read from the
 * local ledger as src/ledger/read.ts `openListing` reads it, without the whole store (docs/speed.md "A batch re-run
 * without the command tree"): the same row src/ledger/ledger.ts `Ledger.finishedBatchText` reads first,
 * under the same key. Undefined in every other case (a team ledger, a journal to import, no ledger or one
 * the whole store would migrate or refuse, no lines kept for that key, any error), for the whole store to
 * answer as always, with its own messages and exit codes: this only ever finds what it would find.
 * @param specOf what the lines of a run with these options are made of for the batch's facts (the text
 *   of its `batch:<id>` meta row), and its row count; undefined when they are not the ledger's to render
 */
export function keptBatchText(
  profile: string | undefined,
  batchId: string,
  endpoint: string,
  specOf: (facts: string) => { spec: BatchTextSpec; rows: number } | undefined,
): KeptBatchText | undefined {
  if (ledgerUrlSetting(profile) || existsSync(journalPath())) return undefined;
  let db: Connection | undefined;
  try {
    const dir = ensureDataDir(false, '');
    const file = dir && join(dir, LEDGER_NAME);
    if (!file || !((inspectFile(file, '')?.size ?? 0) > 0)) return undefined;
    inspectFile(`${file}-wal`, '');
    inspectFile(`${file}-shm`, '');
    db = plainConnection(file);
    const facts = db?.prepare(`SELECT value FROM meta WHERE key = ?`).value(`batch:${batchId}`);
    const lines = typeof facts === 'string' ? specOf(facts) : undefined;
    if (!db || !lines) return undefined;
    const at = { batch: batchId, endpoint, key: keptTextKey(lines.spec, batchTextSql(lines.spec), lines.rows) };
    const kept = readMapped(db, () => db!.prepare(KEPT_BYTES).get(at)) as { rows: number; cents: number; text: Uint8Array } | undefined;
    return kept && { rows: kept.rows, cents: kept.cents, bytes: kept.text, facts: facts as string };
  } catch {
    return undefined;
  } finally {
    try {
      db?.close();
    } catch {
      /* read only: nothing to lose */
    }
  }
}
