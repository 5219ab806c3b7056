/**
 * The ledger's file on disk (docs/ledger-and-safety.md): the checks before SQLite opens it (a regular
 * file of this user, not a link, a private folder), the identity of its write-ahead log, and how SQLite's
 * errors become paycli's. Its creation, and a half-created one found later, are src/ledger/create.ts'.
 */
import { chmodSync, closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { PaycliError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { dataDir } from '../core/paths.js';
import { openConnection } from '../core/sqlite/connect.js';
import { BUSY_TIMEOUT_MS, LedgerBusyError, LedgerUnavailableError } from './errors.js';
import { DriverUnavailableError, type Connection } from '../core/sqlite/driver.js';
import { FORMAT, SCHEMA_VERSION } from './entries.js';

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

/** Device and inode of `<file>-wal`, or undefined when there is none. */
export function walIdentity(file: string): { dev: number; ino: number } | undefined {
  const st = statSync(`${file}-wal`, { throwIfNoEntry: false });
  return st ? { dev: st.dev, ino: st.ino } : undefined;
}

/**
 * `file` opened as `Ledger.open` opens it for a read (src/ledger/read.ts, src/ledger/read-kept.ts), when it is this paycli's ledger at this schema in
 * write-ahead mode; else undefined (closed), for the whole store to open.
 * @throws LedgerUnavailableError, LedgerBusyError: SQLite's error while opening, as `Ledger.open` gives it
 */
export function plainConnection(file: string): Connection | undefined {
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
