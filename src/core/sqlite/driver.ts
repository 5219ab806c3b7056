/**
 * The SQLite driver seam of the ledger (docs/node-versions.md): the few operations src/ledger/ledger.ts
 * needs, the same on every driver, so the ledger module is one and its tests are the same on each.
 *
 * Drivers (one file each):
 * - `node:sqlite` (driver-node-sqlite.ts): built into Node from 22.13, nothing to compile at install.
 * - `better-sqlite3` (driver-better-sqlite3.ts): the compiled addon, for Node 20, the one supported
 *   line without `node:sqlite`.
 * src/core/sqlite/connect.ts chooses one and opens the connection.
 *
 * Errors: every driver's SQLite errors are rethrown as {@link SqliteError}, whose `code` is SQLite's own
 * name of the (extended) result code: `SQLITE_BUSY`, `SQLITE_CORRUPT`, `SQLITE_FULL`,
 * `SQLITE_READONLY_DBMOVED`, `SQLITE_CONSTRAINT_UNIQUE`... (https://sqlite.org/rescode.html), whatever the driver.
 */

/** A row as an object keyed by column name. */
export type SqlRow = Record<string, unknown>;

/**
 * Parameters of a statement: positional values (`?`), or one object of named values (`@name` in the
 * SQL, `name` as the key; every key must be used by the SQL). Integers are JavaScript numbers.
 */
export type SqlParams = unknown[];

/** What a write reports. */
export interface RunResult {
  /** Rows changed. */
  changes: number;
  /** Rowid of the last row inserted on this connection. */
  lastInsertRowid: number;
}

/** A prepared statement (kept and reused by the ledger). Integers come back as numbers. */
export interface Statement {
  run(...params: SqlParams): RunResult;
  /** The first row, or undefined. */
  get(...params: SqlParams): SqlRow | undefined;
  all(...params: SqlParams): SqlRow[];
  /** The rows one at a time; the connection runs nothing else until the iteration ends. */
  iterate(...params: SqlParams): IterableIterator<SqlRow>;
  /** Every row as an array of its column values, in the order of the SELECT (better-sqlite3's `raw`). */
  allArrays(...params: SqlParams): unknown[][];
  /** The first column of the first row, or undefined when there is no row (better-sqlite3's `pluck().get`). */
  value(...params: SqlParams): unknown;
}

/** Which driver a connection uses, and the SQLite inside it (for `paycli --version --verbose`). */
export interface DriverInfo {
  name: DriverName;
  /** The driver's version: better-sqlite3's package version, or the Node version for `node:sqlite`. */
  version: string;
  /** `sqlite_version()` of the library the driver runs. */
  sqliteVersion: string;
}

/** An open connection. Every method throws {@link SqliteError} for SQLite's errors. */
export interface Connection {
  readonly driver: DriverInfo;
  /** Runs one or more statements, no parameters, no result. */
  exec(sql: string): void;
  /**
   * Runs `PRAGMA <text>` (`journal_mode = WAL`, `user_version`...).
   * @returns the first column of its first row, or undefined when it returns none
   */
  pragma(text: string): unknown;
  prepare(sql: string): Statement;
  /** True inside a transaction (then {@link immediate} nests as a savepoint). */
  readonly inTransaction: boolean;
  /**
   * Runs `fn` in one `BEGIN IMMEDIATE` transaction (committed when it returns, rolled back when it
   * throws); inside a transaction already, in a savepoint. Keep `fn` synchronous.
   */
  immediate<T>(fn: () => T): T;
  /** Closes the connection; closing a closed one does nothing. */
  close(): void;
}

/** How a connection is opened. */
export interface OpenOptions {
  /** How long to wait for another connection's lock before `SQLITE_BUSY` (ms); `PRAGMA busy_timeout`. */
  busyTimeoutMs: number;
  /** Open only a file that exists (never create one); default true. */
  mustExist?: boolean;
  readonly?: boolean;
}

/** The drivers paycli can use. */
export type DriverName = 'node:sqlite' | 'better-sqlite3';

/** An error of SQLite, with SQLite's name of its result code (`SQLITE_BUSY`...) whatever the driver. */
export class SqliteError extends Error {
  /** SQLite's name of the extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE`. */
  readonly code: string;
  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SqliteError';
    this.code = code;
  }
}

/**
 * The driver this Node needs is not installed: better-sqlite3 (Node 20, and 22 before 22.16) is an
 * optional dependency whose addon is built at install only when its install script may run.
 */
export class DriverUnavailableError extends Error {
  /** What to do about it, in words. */
  readonly hint: string;
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DriverUnavailableError';
    this.hint = hint;
  }
}

/** The primary result codes of SQLite (sqlite3.h), by number. */
const PRIMARY: Record<number, string> = {
  0: 'OK',
  1: 'ERROR',
  2: 'INTERNAL',
  3: 'PERM',
  4: 'ABORT',
  5: 'BUSY',
  6: 'LOCKED',
  7: 'NOMEM',
  8: 'READONLY',
  9: 'INTERRUPT',
  10: 'IOERR',
  11: 'CORRUPT',
  12: 'NOTFOUND',
  13: 'FULL',
  14: 'CANTOPEN',
  15: 'PROTOCOL',
  16: 'EMPTY',
  17: 'SCHEMA',
  18: 'TOOBIG',
  19: 'CONSTRAINT',
  20: 'MISMATCH',
  21: 'MISUSE',
  22: 'NOLFS',
  23: 'AUTH',
  24: 'FORMAT',
  25: 'RANGE',
  26: 'NOTADB',
  27: 'NOTICE',
  28: 'WARNING',
  100: 'ROW',
  101: 'DONE',
};

/** The extended result codes of SQLite (sqlite3.h): primary code → names of `primary | (n << 8)`, n from 1. */
const EXTENDED: Record<number, string[]> = {
  0: ['LOAD_PERMANENTLY', 'SYMLINK'],
  1: ['MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT', 'RESERVESIZE', 'KEY', 'UNABLE'],
  4: ['', 'ROLLBACK'],
  5: ['RECOVERY', 'SNAPSHOT', 'TIMEOUT'],
  6: ['SHAREDCACHE', 'VTAB'],
  8: ['RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY'],
  10: [
    'READ',
    'SHORT_READ',
    'WRITE',
    'FSYNC',
    'DIR_FSYNC',
    'TRUNCATE',
    'FSTAT',
    'UNLOCK',
    'RDLOCK',
    'DELETE',
    'BLOCKED',
    'NOMEM',
    'ACCESS',
    'CHECKRESERVEDLOCK',
    'LOCK',
    'CLOSE',
    'DIR_CLOSE',
    'SHMOPEN',
    'SHMSIZE',
    'SHMLOCK',
    'SHMMAP',
    'SEEK',
    'DELETE_NOENT',
    'MMAP',
    'GETTEMPPATH',
    'CONVPATH',
    'VNODE',
    'AUTH',
    'BEGIN_ATOMIC',
    'COMMIT_ATOMIC',
    'ROLLBACK_ATOMIC',
    'DATA',
    'CORRUPTFS',
    'IN_PAGE',
  ],
  11: ['VTAB', 'SEQUENCE', 'INDEX'],
  14: ['NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK'],
  19: ['CHECK', 'COMMITHOOK', 'FOREIGNKEY', 'FUNCTION', 'NOTNULL', 'PRIMARYKEY', 'TRIGGER', 'UNIQUE', 'VTAB', 'ROWID', 'PINNED', 'DATATYPE'],
  23: ['USER'],
  27: ['RECOVER_WAL', 'RECOVER_ROLLBACK', 'RBU'],
  28: ['AUTOINDEX'],
};

/**
 * SQLite's name of a (possibly extended) result code: 5 → `SQLITE_BUSY`, 1555 → `SQLITE_CONSTRAINT_UNIQUE`.
 * An extended code this table does not know gets its primary code's name.
 */
export function sqliteCodeName(errcode: number): string {
  const primary = errcode & 0xff;
  const base = PRIMARY[primary] ?? 'ERROR';
  const ext = EXTENDED[primary]?.[(errcode >> 8) - 1];
  return `SQLITE_${base}${ext ? `_${ext}` : ''}`;
}

/**
 * Runs the reads of `fn` in one read transaction (`BEGIN`, deferred: no write lock; one snapshot, and a write-ahead
 * log's read lock taken once for all of them), or in the transaction already open.
 */
export function runRead<T>(conn: Pick<Connection, 'exec' | 'inTransaction'>, fn: () => T): T {
  if (conn.inTransaction) return fn();
  conn.exec('BEGIN');
  let result: T;
  try {
    result = fn();
  } catch (err) {
    try {
      conn.exec('ROLLBACK');
    } catch {
      /* the first error is the one to report */
    }
    throw err;
  }
  conn.exec('COMMIT');
  return result;
}

/**
 * The shared part of {@link Connection.immediate}: `BEGIN IMMEDIATE` … `COMMIT`, or a savepoint when a
 * transaction is open; rolled back when `fn` throws (unless SQLite already rolled it back).
 */
export function runImmediate<T>(conn: Pick<Connection, 'exec' | 'inTransaction'>, fn: () => T, nested = conn.inTransaction): T {
  conn.exec(nested ? 'SAVEPOINT paycli' : 'BEGIN IMMEDIATE');
  try {
    const result = fn();
    conn.exec(nested ? 'RELEASE paycli' : 'COMMIT');
    return result;
  } catch (err) {
    if (conn.inTransaction) {
      try {
        conn.exec(nested ? 'ROLLBACK TO paycli; RELEASE paycli' : 'ROLLBACK');
      } catch {
        /* the first error is the one to report */
      }
    }
    throw err;
  }
}
