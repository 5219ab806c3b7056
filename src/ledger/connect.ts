/**
 * Chooses the ledger's SQLite driver for this Node and opens a connection through it
 * (src/ledger/driver.ts; docs/node-versions.md): `node:sqlite` whenever this Node has it, better-sqlite3
 * only on Node 20; `PAYCLI_SQLITE_DRIVER` names one explicitly.
 */
import { openBetterSqlite3 } from './driver-better-sqlite3.js';
import { openNodeSqlite } from './driver-node-sqlite.js';
import { SqliteError, type Connection, type DriverName, type OpenOptions } from './driver.js';

/** The name `PAYCLI_SQLITE_DRIVER` gives, or undefined (unset); other values are a usage error. */
function requestedDriver(): DriverName | undefined {
  const v = process.env.PAYCLI_SQLITE_DRIVER;
  if (v === undefined || v === '') return undefined;
  if (v === 'node:sqlite' || v === 'better-sqlite3') return v;
  throw new SqliteError(`PAYCLI_SQLITE_DRIVER must be node:sqlite or better-sqlite3, not ${JSON.stringify(v)}`, 'SQLITE_MISUSE');
}

/**
 * The driver this process uses: `PAYCLI_SQLITE_DRIVER` when set, else `node:sqlite` when this Node has
 * it unflagged (22.13 and later), else `better-sqlite3` (Node 20).
 */
export function chooseDriver(): DriverName {
  return requestedDriver() ?? (hasNodeSqlite() ? 'node:sqlite' : 'better-sqlite3');
}

/** True when `require('node:sqlite')` works without a flag (Node ≥ 22.13; 22.5 to 22.12 need `--experimental-sqlite`). */
export function hasNodeSqlite(): boolean {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 13);
}

/**
 * Opens `file` with the driver of {@link chooseDriver}, busy timeout set before anything else.
 * @throws SqliteError (e.g. `SQLITE_CANTOPEN` when it does not exist and `mustExist`); Error
 *   (MODULE_NOT_FOUND) when better-sqlite3's addon is not installed
 */
export function openConnection(file: string, opts: OpenOptions): Connection {
  // Each driver file loads its library only here, when a ledger is opened.
  return chooseDriver() === 'node:sqlite' ? openNodeSqlite(file, opts) : openBetterSqlite3(file, opts);
}
