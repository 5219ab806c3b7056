/**
 * The ledger's driver on better-sqlite3 (docs/node-versions.md): the seam of src/core/sqlite/driver.ts
 * for Node 20, the one supported line without `node:sqlite`.
 *
 * better-sqlite3's JavaScript is bundled with the ledger's chunk (tsup.config.ts) and loaded on the
 * first ledger opened: its addon costs several milliseconds, which `--dry-run`, a validation error
 * or `--help` never pay (docs/speed.md). The addon is found by {@link nativeBinding}. Its errors
 * already carry SQLite's code names (`SqliteError.code`); they become {@link SqliteError}.
 */
import type Database from 'better-sqlite3';
import { DriverUnavailableError, runImmediate, SqliteError, type Connection, type OpenOptions, type RunResult, type SqlParams, type SqlRow, type Statement } from './driver.js';
import { countOpen } from '../at-end.js';
import { t } from '../i18n/index.js';

let sqlite: typeof Database | undefined;
function sqliteDatabase(): typeof Database {
  return (sqlite ??= require('better-sqlite3') as typeof Database);
}

/**
 * Where better-sqlite3's compiled addon is: `build/Release/better_sqlite3.node` in the installed
 * better-sqlite3 package, where its install script (a prebuilt binary or a local build) puts it.
 * better-sqlite3's JavaScript is bundled into paycli (tsup.config.ts), so its own search for the
 * addon would start from paycli's folder; naming the file also skips that search.
 * @throws DriverUnavailableError when the package or its addon is missing: the ledger cannot be
 *   opened, so nothing is sent (exit 2)
 */
function nativeBinding(): string {
  try {
    return require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
  } catch (err) {
    throw new DriverUnavailableError(t('driver.noAddon', process.versions.node), t('driver.noAddonHint'), { cause: err });
  }
}

/** better-sqlite3's errors (a `SqliteError` with a string `code` `SQLITE_…`) as {@link SqliteError}. */
function call<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (err instanceof Error && err.name === 'SqliteError' && typeof code === 'string' && code.startsWith('SQLITE_') && !(err instanceof SqliteError)) {
      throw new SqliteError(err.message, code, { cause: err });
    }
    throw err;
  }
}

class BetterStatement implements Statement {
  private raw: Database.Statement | undefined;
  private pluck: Database.Statement | undefined;
  constructor(
    private readonly db: Database.Database,
    private readonly sql: string,
    private readonly stmt: Database.Statement,
  ) {}

  run(...params: SqlParams): RunResult {
    const r = call(() => this.stmt.run(...params));
    return { changes: r.changes, lastInsertRowid: Number(r.lastInsertRowid) };
  }

  get(...params: SqlParams): SqlRow | undefined {
    return call(() => this.stmt.get(...params) as SqlRow | undefined);
  }

  all(...params: SqlParams): SqlRow[] {
    return call(() => this.stmt.all(...params) as SqlRow[]);
  }

  iterate(...params: SqlParams): IterableIterator<SqlRow> {
    const it = call(() => this.stmt.iterate(...params) as IterableIterator<SqlRow>);
    const wrapped: IterableIterator<SqlRow> = {
      next: () => call(() => it.next()),
      return: (value?: unknown) => call(() => it.return!(value)),
      [Symbol.iterator]: () => wrapped,
    };
    return wrapped;
  }

  allArrays(...params: SqlParams): unknown[][] {
    this.raw ??= call(() => this.db.prepare(this.sql).raw(true));
    return call(() => this.raw!.all(...params) as unknown[][]);
  }

  value(...params: SqlParams): unknown {
    this.pluck ??= call(() => this.db.prepare(this.sql).pluck());
    return call(() => this.pluck!.get(...params));
  }
}

class BetterConnection implements Connection {
  private info: Connection['driver'] | undefined;
  constructor(private readonly db: Database.Database) {
    countOpen(1);
  }

  // read on first use (`paycli --version --verbose`): a ledger's open does not ask for it
  get driver(): Connection['driver'] {
    this.info ??= { name: 'better-sqlite3', version: packageVersion(), sqliteVersion: String(call(() => this.db.prepare('SELECT sqlite_version()').pluck().get())) };
    return this.info;
  }

  exec(sql: string): void {
    call(() => this.db.exec(sql));
  }

  pragma(text: string): unknown {
    return call(() => this.db.pragma(text, { simple: true }));
  }

  prepare(sql: string): Statement {
    return new BetterStatement(
      this.db,
      sql,
      call(() => this.db.prepare(sql)),
    );
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  immediate<T>(fn: () => T): T {
    return runImmediate(this, fn);
  }

  close(): void {
    if (!this.db.open) return;
    call(() => this.db.close());
    countOpen(-1);
  }
}

/** better-sqlite3's package version (read from its package.json beside the addon), or `unknown`. */
function packageVersion(): string {
  try {
    return (require('better-sqlite3/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * Opens `file` with better-sqlite3, then sets `PRAGMA busy_timeout`.
 * @throws SqliteError; DriverUnavailableError when the addon is not installed
 */
export function openBetterSqlite3(file: string, opts: OpenOptions): Connection {
  const db = call(
    () => new (sqliteDatabase())(file, { fileMustExist: opts.mustExist ?? true, readonly: opts.readonly ?? false, timeout: opts.busyTimeoutMs, nativeBinding: nativeBinding() }),
  );
  try {
    call(() => db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs))}`));
    return new BetterConnection(db);
  } catch (err) {
    try {
      db.close();
    } catch {
      /* already failing */
    }
    throw err;
  }
}
