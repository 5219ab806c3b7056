/**
 * Reads a paycli ledger from a test (read-only, closed at once), and writes into it what a test
 * needs to arrange (an entry recorded earlier than now).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openConnection } from '../../src/core/sqlite/connect.js';
import type { Connection } from '../../src/core/sqlite/driver.js';
import { SCHEMA, SCHEMA_VERSION, type BeginInfo } from '../../src/ledger/schema.js';

/** A connection to a SQLite file through paycli's own driver seam (the driver this Node uses, as paycli does). */
export function openSqlite(file: string, opts: { readonly?: boolean; mustExist?: boolean } = {}): Connection {
  return openConnection(file, { busyTimeoutMs: 10_000, mustExist: opts.mustExist ?? true, readonly: opts.readonly ?? false });
}

/** Path of the ledger in a data folder. */
export const ledgerFile = (dataDir: string): string => join(dataDir, 'ledger.db');

/**
 * Makes `<dir>/data/ledger.db` as an older paycli left it: today's schema (src/ledger/schema.ts `SCHEMA`) at
 * `user_version` = `version`, with `edits` ([today's text, the older text], in order) undoing what changed since.
 * @returns the open connection (the caller adds rows, then closes it) and the file
 */
export function olderLedger(dir: string, version: number, edits: readonly (readonly [string, string])[]): { old: Connection; file: string } {
  mkdirSync(join(dir, 'data'), { mode: 0o700 });
  const file = ledgerFile(join(dir, 'data'));
  const old = openSqlite(file, { mustExist: false });
  old.exec(edits.reduce((sql, [from, to]) => sql.replace(from, to), SCHEMA.replace(`PRAGMA user_version = ${SCHEMA_VERSION};`, `PRAGMA user_version = ${version};`)));
  return { old, file };
}

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

/**
 * A cash-out as a ledger test records it: `n` makes it distinct (100 + n cents, a PIX key of its own);
 * `extra` adds or overrides fields (a batch row's `batchId` and `batchRow`, an order reference).
 */
export const samplePayment = (n: number, extra: Partial<BeginInfo> = {}): BeginInfo => ({
  kind: 'cashout',
  value: 100 + n,
  target: 'https://gw.example/transaction/cashout',
  sandbox: false,
  profile: 'default',
  pixKeyType: 2,
  pixKey: `payee${n}@example.com`,
  timeoutMs: 1000,
  ...extra,
});

/**
 * Gives each test of the calling `describe` a temporary folder of its own, with `PAYCLI_DATA_DIR` set to its
 * `data` subfolder (not created); after the test the variable is restored and the folder removed.
 * @param prefix the temporary folder's name prefix
 * @returns the current test's folder as `.dir`
 */
export function useDataDir(prefix: string): { readonly dir: string } {
  let dir = '';
  let saved: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    saved = process.env.PAYCLI_DATA_DIR;
    process.env.PAYCLI_DATA_DIR = join(dir, 'data');
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.PAYCLI_DATA_DIR;
    else process.env.PAYCLI_DATA_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
  };
}
