/**
 * The ledger's file on disk (docs/ledger-and-safety.md): the checks before SQLite opens it (a regular
 * file of this user, not a link, a private folder), its creation (made whole under a temporary name,
 * read back and synced, then linked into place; a half-created one found later is rebuilt only when it
 * holds no entry), the identity of its write-ahead log, and how SQLite's errors become paycli's.
 */
import { chmodSync, closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { PaycliError } from '../core/errors.js';
import { logger } from '../core/logger.js';
import { randomHex } from '../core/random.js';
import { t } from '../core/i18n/index.js';
import { dataDir } from '../core/paths.js';
import { openConnection } from '../core/sqlite/connect.js';
import { BUSY_TIMEOUT_MS, LedgerBusyError, LedgerUnavailableError } from './errors.js';
import { DriverUnavailableError, type Connection } from '../core/sqlite/driver.js';

/** Name of the ledger inside the data folder. */
/** Path of the ledger: `<data dir>/ledger.db` (`PAYCLI_DATA_DIR` moves it). */
export function ledgerPath(): string {
  return join(dataDir(), LEDGER_NAME);
}

/** Path of the old journal, imported once. */
export function journalPath(): string {
  return join(dataDir(), JOURNAL_NAME);
}

export const LEDGER_NAME = 'ledger.db';

/** Name of the journal of paycli before the ledger, imported once into a new ledger (src/ledger/journal.ts; docs/ledger-and-safety.md "An old journal"). */
export const JOURNAL_NAME = 'journal.jsonl';

export const connect = (file: string): Connection => openConnection(file, { busyTimeoutMs: BUSY_TIMEOUT_MS, mustExist: true });

export const myUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Why a SQLite error code makes the ledger unusable, in words. */
export function sqliteReason(code: string, message: string): string {
  if (code.startsWith('SQLITE_CORRUPT')) return t('ledgerFile.damaged', `${code}: ${message}`);
  if (code === 'SQLITE_NOTADB') return t('ledgerFile.notADatabase', code);
  if (code === 'SQLITE_FULL') return t('ledgerFile.diskFull', code);
  if (code.startsWith('SQLITE_READONLY')) return t('ledgerFile.cannotWrite', `${code}: ${message}`);
  if (code.startsWith('SQLITE_CANTOPEN')) return t('ledgerFile.cannotOpen', code);
  if (code.startsWith('SQLITE_IOERR')) return t('ledgerFile.ioError', `${code}: ${message}`);
  return `${code}: ${message}`;
}

export const UNUSABLE_HINT = (file: string): string => t('ledgerFile.unusableHint', file);

/**
 * Checks a file of the ledger before SQLite opens it: a regular file (not a symbolic link),
 * owned by this user, writable by its owner; a mode looser than 0600 is tightened.
 * @returns its stats, or undefined when it does not exist
 * @throws LedgerUnavailableError
 */
export function inspectFile(file: string, note: string): Stats | undefined {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LedgerUnavailableError(t('ledgerFile.cannotRead', file, (err as NodeJS.ErrnoException).code ?? (err as Error).message, note), {
      cause: err,
      hint: UNUSABLE_HINT(file),
    });
  }
  const fail = (why: string, hint = UNUSABLE_HINT(file)) => new LedgerUnavailableError(t('ledgerFile.problem', file, why, note), { hint });
  if (st.isSymbolicLink()) throw fail(t('ledgerFile.symlink'), t('ledgerFile.symlinkHint'));
  if (!st.isFile()) throw fail(t('ledgerFile.notRegular'));
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) throw fail(t('ledgerFile.otherUser', st.uid, uid), t('ledgerFile.otherUserHint'));
  if ((st.mode & 0o200) === 0) throw fail(t('ledgerFile.readOnly'), t('ledgerFile.readOnlyHint', file));
  if ((st.mode & 0o077) !== 0) {
    try {
      chmodSync(file, 0o600);
    } catch {
      /* ours, so this works; if not, SQLite still opens it */
    }
  }
  return st;
}

/**
 * The data folder, created 0700 (tightened if looser), owned by this user and writable.
 * @throws LedgerUnavailableError
 */
export function ensureDataDir(create: boolean, note: string): string | undefined {
  const dir = dataDir();
  const fail = (why: string, err?: unknown) =>
    new LedgerUnavailableError(t('ledgerFile.folder', join(dir, LEDGER_NAME), dir, why, note), { cause: err, hint: t('ledgerFile.folderHint') });
  let st: Stats;
  try {
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    st = statSync(dir);
  } catch (err) {
    if (!create && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fail(t('ledgerFile.folderCannotCreate', (err as NodeJS.ErrnoException).code ?? (err as Error).message), err);
  }
  if (!st.isDirectory()) throw fail(t('ledgerFile.notAFolder'));
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) throw fail(t('ledgerFile.folderOtherUser', st.uid));
  if ((st.mode & 0o200) === 0) throw fail(t('ledgerFile.readOnly'));
  if ((st.mode & 0o077) !== 0) {
    try {
      chmodSync(dir, 0o700);
    } catch {
      /* the files themselves are still 0600 */
    }
  }
  return dir;
}

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    /* not supported everywhere; the link itself is done */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The SQLite error (or file error) `err` as a paycli error naming `file`. */
export function ledgerFailure(err: unknown, file: string, note: string): unknown {
  if (err instanceof PaycliError) return err;
  if (err instanceof DriverUnavailableError) return new LedgerUnavailableError(t('ledgerFile.cannotUse', file, err.message, note), { cause: err, hint: err.hint });
  const code = typeof (err as { code?: unknown })?.code === 'string' ? ((err as { code: string }).code as string) : undefined;
  const message = err instanceof Error ? err.message : String(err);
  const busyHint = t('ledgerFile.busyHint');
  if (code?.startsWith('SQLITE_BUSY')) {
    return new LedgerBusyError(t('ledgerFile.busy', file, BUSY_TIMEOUT_MS / 1000, note), { cause: err, hint: busyHint });
  }
  // SQLite's answer when another process keeps a lock of the write-ahead log's index that it
  // should have released at once: in practice a paycli stopped (SIGSTOP) while it reads or writes.
  // The ledger is whole; like SQLITE_BUSY, waiting for the other process is the remedy.
  if (code === 'SQLITE_PROTOCOL') {
    return new LedgerBusyError(t('ledgerFile.busyWal', file, code, note), { cause: err, hint: busyHint });
  }
  if (code === 'SQLITE_FULL') {
    return new LedgerUnavailableError(t('ledgerFile.cannotUse', file, sqliteReason(code, message), note), { cause: err, hint: t('ledgerFile.diskFullHint', dirname(file)) });
  }
  if (code?.startsWith('SQLITE_') || code?.startsWith('E')) {
    return new LedgerUnavailableError(t('ledgerFile.cannotUse', file, code.startsWith('SQLITE_') ? sqliteReason(code, message) : code, note), {
      cause: err,
      hint: UNUSABLE_HINT(file),
    });
  }
  return err;
}

/**
 * The write-ahead log's size at which SQLite copies it into `ledger.db` (`wal_autocheckpoint`, in
 * pages of this size) and to which a longer log is cut back afterwards (`journal_size_limit`), in
 * bytes: 16 MiB (docs/speed.md "Disk written per batch row": fewer, larger copies write each page once for
 * many waves; 100,000 rows wrote 13.8 KiB a row with it, 18.1 KiB with 4 MiB).
 */
export const WAL_CHECKPOINT_BYTES = 16 * 1024 * 1024;

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

/** Device and inode of `<file>-wal`, or undefined when there is none. */
export function walIdentity(file: string): { dev: number; ino: number } | undefined {
  const st = statSync(`${file}-wal`, { throwIfNoEntry: false });
  return st ? { dev: st.dev, ino: st.ino } : undefined;
}
