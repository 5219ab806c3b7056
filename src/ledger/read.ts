/**
 * The listing of `paycli history`, and the open of src/ledger/read-kept.ts (the kept lines of a finished
 * batch file's re-run) (docs/architecture.md "The direct route"): a local ledger that is ready to read,
 * opened with only what a read needs (the file checks of src/ledger/files.ts, the driver, history's query
 * and rows of src/ledger/schema.ts), not the rules, runs and
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
import { closeAtEnd } from '../core/at-end.js';
import { join } from 'node:path';
import type { Connection } from '../core/sqlite/driver.js';
import type { LedgerContract } from './contract.js';
import { ensureDataDir, inspectFile, JOURNAL_NAME, journalPath, LEDGER_NAME, ledgerFailure, plainConnection } from './files.js';
import { historyQuery, TABLE_ROWS, toEntry, toTableEntry, type TableEntry } from './entries.js';
import type { LedgerEntry, LedgerQuery } from './schema.js';
import { ledgerUrlSetting } from '../config/config-file.js';

/**
 * What `history`'s listing reads of a ledger: its entries, newest first (src/ledger/contract.ts); a local ledger's
 * listing also gives the table's fields alone (`tableRows`, the same rows as `query`).
 */
export type LedgerListing = Pick<LedgerContract, 'query' | 'iterate'> & { tableRows?(q: LedgerQuery): Promise<TableEntry[]> };

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
      if (db) {
        closeAtEnd(async () => db.close()); // with the command, not at Node's teardown (src/cli/direct.ts)
        return listing(db, file);
      }
    }
  }
  return (await import('./async-store.js')).openContractToRead(profile);
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
    // the table's columns only: the same rows and order, 11 columns a row instead of 38
    async tableRows(q) {
      const [sql, params] = historyQuery(q, TABLE_ROWS);
      return guard(() => db.prepare(sql).all(params)).map(toTableEntry);
    },
  };
}
