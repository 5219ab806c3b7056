/**
 * Chooses the ledger's SQLite driver for this Node and opens a connection through it
 * (src/core/sqlite/driver.ts; docs/node-versions.md): `node:sqlite` from Node 22.16 on, better-sqlite3 before
 * (Node 20, and 22.0 to 22.15); `PAYCLI_SQLITE_DRIVER` names one explicitly.
 */
import { openBetterSqlite3 } from './driver-better-sqlite3.js';
import { openNodeSqlite } from './driver-node-sqlite.js';
import { t } from '../i18n/index.js';
import { DriverUnavailableError, type Connection, type DriverInfo, type DriverName, type OpenOptions } from './driver.js';

/** The name `PAYCLI_SQLITE_DRIVER` gives, or undefined (unset). @throws DriverUnavailableError for another value, or node:sqlite before 22.16 */
function requestedDriver(): DriverName | undefined {
  const v = process.env.PAYCLI_SQLITE_DRIVER;
  if (v === undefined || v === '') return undefined;
  if (v === 'better-sqlite3' || (v === 'node:sqlite' && nodeSqliteUsable())) return v;
  if (v === 'node:sqlite') throw new DriverUnavailableError(t('driver.nodeSqliteTooOld', process.version), t('driver.nodeSqliteTooOldHint'));
  throw new DriverUnavailableError(t('driver.unknown', JSON.stringify(v)), t('driver.unknownHint'));
}

/**
 * The driver this process uses: `PAYCLI_SQLITE_DRIVER` when set, else `node:sqlite` when
 * {@link nodeSqliteUsable}, else `better-sqlite3`.
 * @throws DriverUnavailableError when `PAYCLI_SQLITE_DRIVER` names no driver usable here
 */
export function chooseDriver(): DriverName {
  return requestedDriver() ?? (nodeSqliteUsable() ? 'node:sqlite' : 'better-sqlite3');
}

/**
 * True from Node 22.16 (and on every later line): `node:sqlite` is unflagged from 22.13, but only
 * 22.16 fixed a use-after-free of statements collected early (nodejs/node#56840), and added what
 * the seam uses (`file:` URIs to never create a missing file, from 22.15; `isTransaction`,
 * `setReturnArrays`). docs/node-versions.md has the measurements.
 */
export function nodeSqliteUsable(version = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 16);
}

/**
 * Opens `file` with the driver of {@link chooseDriver}, busy timeout set before anything else.
 * @throws SqliteError (e.g. `SQLITE_CANTOPEN` when it does not exist and `mustExist`); DriverUnavailableError
 *   when better-sqlite3's addon is not installed
 */
export function openConnection(file: string, opts: OpenOptions): Connection {
  // Each driver file loads its library only here, when a ledger is opened.
  return chooseDriver() === 'node:sqlite' ? openNodeSqlite(file, opts) : openBetterSqlite3(file, opts);
}

/**
 * The driver this process would use for its ledger, and the SQLite inside it, read from an
 * in-memory database (`paycli --version --verbose`).
 * @throws SqliteError; DriverUnavailableError when better-sqlite3's addon is needed and missing
 */
export function sqliteDriverInfo(): DriverInfo {
  const conn = openConnection(':memory:', { busyTimeoutMs: 0, mustExist: false });
  try {
    return conn.driver;
  } finally {
    conn.close();
  }
}
