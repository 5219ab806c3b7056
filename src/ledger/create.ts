/**
 * A new ledger (docs/ledger-and-safety.md): made whole under a temporary name, its schema and the
 * old journal's payments written, read back and synced, then linked into place; a half-created one found
 * later is moved aside and rebuilt only when it holds no entry. Apart from
 * src/ledger/files.ts (the file's checks, which every open runs) because only the whole store
 * creates a ledger: `history`'s listing never loads the schema's statements or the journal's import
 * (docs/speed.md "History's start-up").
 */
import { closeSync, constants, existsSync, fsyncSync, linkSync, lstatSync, openSync, readSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { logger } from '../core/logger.js';
import { randomHex } from '../core/random.js';
import { t } from '../core/i18n/index.js';
import { openConnection } from '../core/sqlite/connect.js';
import { FORMAT, SCHEMA, SCHEMA_VERSION } from './schema.js';
import { importJournal, type ImportResult } from './journal.js';
import { BUSY_TIMEOUT_MS, LedgerUnavailableError } from './errors.js';
import { connect, fsyncDir, JOURNAL_NAME, LEDGER_NAME, ledgerFailure } from './files.js';

/** The page size of a new ledger, in bytes (see {@link createLedger}). */
export const LEDGER_PAGE_SIZE = 1024;

/**
 * Creates the ledger: a new database under a temporary name (0600), schema, the old journal's
 * payments, then hard-linked into place, so that the ledger's path never holds a half-made
 * database and the journal is imported exactly once (when two paycli race, one link wins and the
 * other's database is dropped).
 */
export function createLedger(dir: string, file: string, note: string): void {
  const tmp = join(dir, `.${LEDGER_NAME}.${process.pid}.${randomHex(4)}.tmp`);
  let imported: ImportResult | undefined;
  try {
    closeSync(openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600));
    const db = connect(tmp);
    try {
      // 1 KiB pages (SQLite's default is 4 KiB): a transaction writes every page it touches, whole, to the
      // write-ahead log, and a batch's wave touches one page per row in each index with random keys
      // (docs/speed.md "Disk written per batch row"). Set before the first table; older ledgers keep theirs.
      db.pragma(`page_size = ${LEDGER_PAGE_SIZE}`);
      // A rollback journal while it is made: the commit writes the database file itself and fails
      // loudly (SQLITE_FULL) when it cannot, where a write-ahead log would leave the schema to a
      // checkpoint at close whose failure SQLite does not report. The log is turned on after that commit.
      if (db.pragma('journal_mode = DELETE') !== 'delete') throw new LedgerUnavailableError(t('ledgerFile.notCreated', file, t('ledgerFile.journalMode'), note));
      // No sync while it is made (its writes still fail loudly): the file is synced once, whole, after it is read back
      // ({@link verifyCreated}), before its name can be seen; a crash before then leaves only the temporary file.
      db.pragma('synchronous = OFF');
      db.immediate(() => {
        db.exec(SCHEMA);
        imported = importJournal(db, join(dir, JOURNAL_NAME), note);
        if (imported) db.prepare(`INSERT INTO meta (key, value) VALUES ('imported', ?)`).run(JSON.stringify({ from: JOURNAL_NAME, time: new Date().toISOString(), ...imported }));
      });
      // The write-ahead log turned on here, after the commit (it changes two bytes of the file's header, through the
      // rollback journal), so that Ledger.open need not do it with four syncs on the ledger in place.
      if (db.pragma('journal_mode = WAL') !== 'wal') throw new LedgerUnavailableError(t('ledgerFile.notCreated', file, t('ledgerFile.journalMode'), note));
    } finally {
      db.close();
    }
    verifyCreated(tmp, file, note);
    try {
      linkSync(tmp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST')
        imported = undefined; // another paycli made it first: use theirs
      else if ((code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') && !existsSync(file))
        renameSync(tmp, file); // no hard links here
      else throw err;
    }
    fsyncDir(dir);
  } catch (err) {
    throw ledgerFailure(err, file, note);
  } finally {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  }
  if (imported) {
    logger.notice(t('ledgerFile.imported', imported.entries, join(dir, JOURNAL_NAME), file));
    if (imported.skipped) logger.warn(t('ledgerFile.importSkipped', imported.skipped, join(dir, JOURNAL_NAME)));
  }
}

/**
 * Reads a just-made ledger back before it is put in place: a new connection, read-only, finds it
 * whole (`PRAGMA integrity_check`), a paycli ledger (`meta.format`) of this schema, with its file
 * synced to the disk. The ledger's path never receives a half-written database.
 * @throws LedgerUnavailableError when it is not
 */
export function verifyCreated(tmp: string, file: string, note: string): void {
  // Looked at before the read-back: a read-only connection to a database in WAL mode makes an empty log of its own
  // (removed with the temporary file), where a log the creation left would hold part of the schema.
  if (existsSync(`${tmp}-wal`) || existsSync(`${tmp}-journal`))
    throw new LedgerUnavailableError(t('ledgerFile.notCreated', file, t('ledgerFile.journalLeft'), note), { hint: t('ledgerFile.notCreatedHint') });
  const db = openConnection(tmp, { busyTimeoutMs: BUSY_TIMEOUT_MS, mustExist: true, readonly: true });
  let problem: string | undefined;
  try {
    const check = db.pragma('integrity_check');
    if (check !== 'ok') problem = t('ledgerFile.readBackDamaged', String(check));
    else if (db.prepare(`SELECT value FROM meta WHERE key = 'format'`).value() !== FORMAT) problem = t('ledgerFile.readBackNoFormat');
    else if (db.pragma('user_version') !== SCHEMA_VERSION) problem = t('ledgerFile.readBackNoVersion');
  } finally {
    db.close();
  }
  if (problem) throw new LedgerUnavailableError(t('ledgerFile.notCreated', file, problem, note), { hint: t('ledgerFile.notCreatedHint') });
  const fd = openSync(tmp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The SQLite file header's page size and page count, and the file's whole pages. */
export function pagesOf(head: Buffer, size: number): { pageSize: number; claimed: number; actual: number } | undefined {
  if (head.length < 100 || head.toString('latin1', 0, 16) !== 'SQLite format 3\0') return undefined;
  const raw = head.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  return { pageSize, claimed: head.readUInt32BE(28), actual: Math.floor(size / pageSize) };
}

/**
 * Whether an unreadable ledger file is one whose creation stopped half-way (an older paycli on a
 * full disk linked it into place before its schema reached it) and holds no entry, so that making
 * it again from nothing loses nothing (docs/ledger-and-safety.md "A half-created ledger"). All of:
 * no write-ahead log with content beside it; a SQLite file shorter than its header says (the
 * writing stopped); and, read from a copy with the pages it lacks as zeros, the payments table is
 * in the file, readable and empty. A file cut short before that table cannot be told from a whole
 * ledger cut short, so it is not rebuilt (the error says to check recent payments, then move it aside). Anything else (entries, or a table that cannot be read) is not.
 */
export function isHalfCreated(file: string): boolean {
  try {
    const wal = statSync(`${file}-wal`, { throwIfNoEntry: false });
    if (wal && wal.size > 0) return false;
    const st = statSync(file);
    if (st.size > 64 * 1024 * 1024) return false;
    const fd = openSync(file, 'r');
    let bytes: Buffer;
    try {
      bytes = Buffer.alloc(st.size);
      let at = 0;
      while (at < bytes.length) {
        const n = readSync(fd, bytes, at, bytes.length - at, at);
        if (n === 0) break;
        at += n;
      }
      bytes = bytes.subarray(0, at);
    } finally {
      closeSync(fd);
    }
    const pages = pagesOf(bytes, bytes.length);
    if (!pages || pages.actual < 1 || pages.actual >= pages.claimed) return false;
    if (pages.claimed * pages.pageSize > 64 * 1024 * 1024) return false;
    const copy = join(dirname(file), `.${LEDGER_NAME}.${process.pid}.${randomHex(4)}.check`);
    // The pages it lacks as zeros, so that SQLite reads the schema (it checks each root page is
    // inside the file); a table page among them reads as damaged, never as empty.
    const fixed = Buffer.alloc(pages.claimed * pages.pageSize);
    bytes.copy(fixed, 0, 0, pages.actual * pages.pageSize);
    try {
      const out = openSync(copy, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600);
      try {
        let at = 0;
        while (at < fixed.length) at += writeSync(out, fixed, at);
      } finally {
        closeSync(out);
      }
      const db = openConnection(copy, { busyTimeoutMs: BUSY_TIMEOUT_MS, mustExist: true, readonly: true });
      try {
        const root = db.prepare(`SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'payments'`).value() as number | undefined;
        // The table's own pages (not an index, which may be among the missing): a root page past the
        // end proves nothing (a whole ledger cut short looks the same), so it is not rebuilt.
        if (typeof root !== 'number' || root < 2 || root > pages.actual) return false;
        return db.prepare('SELECT count(*) FROM payments NOT INDEXED').value() === 0;
      } finally {
        db.close();
      }
    } finally {
      rmSync(copy, { force: true });
    }
  } catch {
    return false;
  }
}

/**
 * Moves a half-created ledger ({@link isHalfCreated}) aside, as `ledger.db.half-created-<time>`
 * (kept, never deleted), so that a new one can be made in its place.
 * @returns false when the file at `file` is no longer the one examined (another paycli moved it)
 */
export function moveAsideHalfCreated(file: string, examined: Stats): boolean {
  const now = lstatSync(file, { throwIfNoEntry: false });
  if (!now || now.ino !== examined.ino || now.dev !== examined.dev) return false;
  const aside = `${file}.half-created-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
  fsyncDir(dirname(file));
  logger.warn(t('ledgerFile.halfCreated', file, aside));
  return true;
}
