/**
 * The listing of `paycli history` and the kept lines of a finished batch file's re-run
 * (docs/architecture.md "The direct route"): a local ledger that is ready to read, opened with only
 * what a read needs (the file checks of src/ledger/files.ts, the driver, history's query and rows of
 * src/ledger/schema.ts, the kept lines' row of src/ledger/kept-texts.ts), not the rules, runs and
 * statements of the whole store (src/ledger/keeper.ts, src/ledger/ledger.ts), which neither uses
 * (docs/speed.md "History's start-up", "A batch re-run without the command tree").
 *
 * Every check of src/ledger/ledger.ts `Ledger.open` either runs here the same way (the data
 * folder's and each file's checks, the same connection's pragmas) or sends the open to it: a team
 * ledger, a `journal.jsonl` waiting to be imported, an empty file, a file that is not a paycli
 * ledger, a schema other than this paycli's (older: migrated there; newer: refused there) or a log
 * that is not write-ahead is opened again by the whole store, which gives its own message and exit
 * code; SQLite's errors while opening (a damaged file, a busy ledger) are its errors, mapped by the
 * same src/ledger/files.ts `ledgerFailure`. The connection is an ordinary one in write-ahead mode: it
 * reads every committed payment, those still in another process's log included.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from '../core/sqlite/driver.js';
import type { LedgerContract } from './contract.js';
import { connect, ensureDataDir, inspectFile, JOURNAL_NAME, journalPath, LEDGER_NAME, ledgerFailure } from './files.js';
import { FORMAT, historyQuery, SCHEMA_VERSION, toEntry } from './entries.js';
import type { LedgerEntry, LedgerQuery } from './schema.js';
import { ledgerUrlSetting } from '../config/config-file.js';
import { batchTextSql, type BatchTextSpec } from './batch-text.js';
import { KEPT_BYTES, keptTextKey, readMapped } from './kept-texts.js';

/** What `history`'s listing reads of a ledger: its entries, newest first (src/ledger/contract.ts). */
export type LedgerListing = Pick<LedgerContract, 'query' | 'iterate'>;

/**
 * The ledger to list for `profile`, or undefined when nothing was recorded on this machine yet
 * (as src/ledger/async-store.ts `openContractToRead`, which it calls for every case it does not
 * take itself).
 * @throws LedgerUnavailableError (exit 2), InterruptedError (Ctrl-C while a team ledger connects)
 */
export async function openListing(profile?: string): Promise<LedgerListing | undefined> {
  if (!ledgerUrlSetting(profile) && !existsSync(journalPath())) {
    const dir = ensureDataDir(false, '');
    if (!dir) return undefined;
    const file = join(dir, LEDGER_NAME);
    const st = inspectFile(file, '');
    if (!st && !existsSync(join(dir, JOURNAL_NAME))) return undefined;
    if (st && st.size > 0) {
      inspectFile(`${file}-wal`, '');
      inspectFile(`${file}-shm`, '');
      const db = plainConnection(file);
      if (db) return listing(db, file);
    }
  }
  return (await import('./async-store.js')).openContractToRead(profile);
}

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
 * local ledger as {@link openListing} reads it, without the whole store (docs/speed.md "A batch re-run
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

/**
 * `file` opened as `Ledger.open` opens it, when it is this paycli's ledger at this schema in
 * write-ahead mode; else undefined (closed), for the whole store to open.
 * @throws LedgerUnavailableError, LedgerBusyError: SQLite's error while opening, as `Ledger.open` gives it
 */
function plainConnection(file: string): Connection | undefined {
  let db: Connection | undefined;
  try {
    db = connect(file);
    db.pragma('cell_size_check = ON');
    db.pragma('trusted_schema = OFF');
    db.pragma('cache_size = -2000');
    if (db.pragma('journal_mode') === 'wal' && db.prepare(`SELECT value FROM meta WHERE key = 'format'`).value() === FORMAT && db.pragma('user_version') === SCHEMA_VERSION)
      return db;
    db.close();
    return undefined;
  } catch (err) {
    try {
      db?.close();
    } catch {
      /* already failing */
    }
    throw ledgerFailure(err, file, '');
  }
}

/** The entries of the ledger open on `db`, as src/ledger/ledger.ts `Ledger.iterate` reads them (its errors as its). */
function listing(db: Connection, file: string): LedgerListing {
  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      throw ledgerFailure(err, file, '');
    }
  };
  async function* iterate(q: LedgerQuery): AsyncGenerator<LedgerEntry> {
    const [sql, params] = historyQuery(q);
    const rows = guard(() => db.prepare(sql).iterate(params));
    try {
      for (;;) {
        const next = guard(() => rows.next());
        if (next.done) return;
        yield toEntry(next.value);
      }
    } finally {
      rows.return?.();
    }
  }
  return {
    iterate,
    // the rows at once (`history`'s table, at most --limit of them): no generator's step and promise a row
    async query(q) {
      const [sql, params] = historyQuery(q);
      return guard(() => db.prepare(sql).all(params)).map(toEntry);
    },
  };
}
