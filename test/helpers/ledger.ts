/**
 * Reads a paycli ledger from a test (read-only, closed at once), and writes into it what a test
 * needs to arrange (an entry recorded earlier than now).
 */
import { join } from 'node:path';
import { openConnection } from '../../src/core/sqlite/connect.js';
import type { Connection } from '../../src/core/sqlite/driver.js';

/** A connection to a SQLite file through paycli's own driver seam (the driver this Node uses, as paycli does). */
export function openSqlite(file: string, opts: { readonly?: boolean; mustExist?: boolean } = {}): Connection {
  return openConnection(file, { busyTimeoutMs: 10_000, mustExist: opts.mustExist ?? true, readonly: opts.readonly ?? false });
}

/** Path of the ledger in a data folder. */
export const ledgerFile = (dataDir: string): string => join(dataDir, 'ledger.db');

/** Every row of the payments table, oldest first, with SQLite's column names. */
export function ledgerRows(dataDir: string): Record<string, unknown>[] {
  const db = openSqlite(ledgerFile(dataDir), { readonly: true });
  try {
    return db.prepare('SELECT * FROM payments ORDER BY id').all();
  } finally {
    db.close();
  }
}

/** Runs one SQL statement on the ledger (to arrange a test), with parameters. */
export function ledgerRun(dataDir: string, sql: string, ...params: unknown[]): void {
  const db = openSqlite(ledgerFile(dataDir));
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** Moves the recording time of every entry `minutes` into the past. */
export function ageEntries(dataDir: string, minutes: number): void {
  const t = Date.now() - minutes * 60_000;
  ledgerRun(dataDir, 'UPDATE payments SET time = ?, time_ms = ?, deadline_ms = ? + 30000', new Date(t).toISOString(), t, t);
}
