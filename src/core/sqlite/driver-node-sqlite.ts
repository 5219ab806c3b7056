/**
 * The ledger's driver on Node's built-in `node:sqlite` (Node ≥ 22.13; docs/node-versions.md): the
 * seam of src/core/sqlite/driver.ts over `DatabaseSync`. Nothing to compile at install.
 *
 * - Opened as a `file:` URI with `mode=rw` (or `ro`), so a missing file is `SQLITE_CANTOPEN`, never
 *   created (better-sqlite3's `fileMustExist`).
 * - Errors (`code: 'ERR_SQLITE_ERROR'`, `errcode`: the extended result code) become
 *   {@link SqliteError} with SQLite's code name.
 * - Node 24 prints "ExperimentalWarning: SQLite is an experimental feature" when the module is first
 *   used; that one warning is dropped (paycli prints nothing it was not asked for), every other one
 *   still reaches stderr.
 */
import { pathToFileURL } from 'node:url';
import { runImmediate, sqliteCodeName, SqliteError, type Connection, type OpenOptions, type RunResult, type SqlParams, type SqlRow, type Statement } from './driver.js';
import { countOpen } from '../at-end.js';

/** The parts of `node:sqlite` used here (typed here: the project's @types/node is Node 20's, which has no `node:sqlite`). */
interface NodeStatement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): SqlRow | undefined;
  all(...params: unknown[]): SqlRow[];
  iterate?(...params: unknown[]): IterableIterator<SqlRow>;
  setReturnArrays?(enabled: boolean): void;
}
interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  close(): void;
  readonly isOpen?: boolean;
  readonly isTransaction?: boolean;
}
interface NodeSqlite {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => NodeDatabase;
}

let loaded: NodeSqlite | undefined;

/** True for Node's "SQLite is an experimental feature" warning, and only for it. */
function isSqliteExperimentalWarning(warning: unknown, rest: unknown[]): boolean {
  const text = warning instanceof Error ? warning.message : String(warning);
  const type = warning instanceof Error ? warning.name : typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
  return type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(text);
}

/**
 * Runs `fn` with Node's SQLite ExperimentalWarning dropped; any other warning is emitted as usual.
 * Node emits it once per process, when `node:sqlite` is first loaded or used.
 */
function withoutSqliteWarning<T>(fn: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function emitOtherWarnings(this: unknown, warning: string | Error, ...rest: unknown[]) {
    if (isSqliteExperimentalWarning(warning, rest)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return fn();
  } finally {
    process.emitWarning = emit;
  }
}

function sqlite(): NodeSqlite {
  return (loaded ??= withoutSqliteWarning(() => require('node:sqlite') as NodeSqlite));
}

/** `err` as {@link SqliteError} when it is an error of SQLite (`ERR_SQLITE_ERROR`), else as it is. */
function normalise(err: unknown): unknown {
  const e = err as { code?: unknown; errcode?: unknown; message?: string } | null;
  if (e && e.code === 'ERR_SQLITE_ERROR') return new SqliteError(e.message ?? 'SQLite error', sqliteCodeName(typeof e.errcode === 'number' ? e.errcode : 1), { cause: err });
  return err;
}

function call<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw normalise(err);
  }
}

const num = (v: number | bigint): number => (typeof v === 'bigint' ? Number(v) : v);

class NodeSqliteStatement implements Statement {
  private arrays: NodeStatement | undefined;
  constructor(
    private readonly db: NodeDatabase,
    private readonly sql: string,
    private readonly stmt: NodeStatement,
  ) {}

  run(...params: SqlParams): RunResult {
    const r = call(() => this.stmt.run(...params));
    return { changes: num(r.changes), lastInsertRowid: num(r.lastInsertRowid) };
  }

  get(...params: SqlParams): SqlRow | undefined {
    return call(() => this.stmt.get(...params));
  }

  all(...params: SqlParams): SqlRow[] {
    return call(() => this.stmt.all(...params));
  }

  iterate(...params: SqlParams): IterableIterator<SqlRow> {
    const stmt = this.stmt;
    if (typeof stmt.iterate !== 'function') return this.all(...params)[Symbol.iterator]();
    const it = call(() => stmt.iterate!(...params));
    const wrapped: IterableIterator<SqlRow> = {
      next: () => call(() => it.next()),
      return: (value?: unknown) => (typeof it.return === 'function' ? call(() => it.return!(value)) : { done: true, value: undefined }),
      [Symbol.iterator]: () => wrapped,
    };
    return wrapped;
  }

  allArrays(...params: SqlParams): unknown[][] {
    if (!this.arrays) {
      // A second statement of the same SQL returns arrays (setReturnArrays: Node ≥ 22.16); older ones give objects, whose values keep the column order.
      const s = call(() => this.db.prepare(this.sql));
      if (typeof s.setReturnArrays === 'function') s.setReturnArrays(true);
      this.arrays = s;
    }
    const rows = call(() => this.arrays!.all(...params)) as unknown[];
    return rows.map((r) => (Array.isArray(r) ? r : Object.values(r as SqlRow)));
  }

  value(...params: SqlParams): unknown {
    const row = this.get(...params);
    return row === undefined ? undefined : Object.values(row)[0];
  }
}

class NodeSqliteConnection implements Connection {
  private info: Connection['driver'] | undefined;
  private open = true;
  private depth = 0;

  constructor(private readonly db: NodeDatabase) {
    countOpen(1);
  }

  // read on first use (`paycli --version --verbose`): a ledger's open does not ask for it
  get driver(): Connection['driver'] {
    this.info ??= { name: 'node:sqlite', version: process.versions.node, sqliteVersion: String(call(() => this.db.prepare('SELECT sqlite_version() AS v').get())?.v) };
    return this.info;
  }

  exec(sql: string): void {
    call(() => this.db.exec(sql));
  }

  pragma(text: string): unknown {
    const row = call(() => this.db.prepare(`PRAGMA ${text}`).get());
    return row === undefined ? undefined : Object.values(row)[0];
  }

  prepare(sql: string): Statement {
    return new NodeSqliteStatement(
      this.db,
      sql,
      call(() => this.db.prepare(sql)),
    );
  }

  get inTransaction(): boolean {
    return typeof this.db.isTransaction === 'boolean' ? this.db.isTransaction : this.depth > 0;
  }

  immediate<T>(fn: () => T): T {
    const nested = this.inTransaction;
    this.depth++;
    try {
      return runImmediate(this, fn, nested);
    } finally {
      this.depth--;
    }
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    call(() => this.db.close());
    countOpen(-1);
  }
}

/**
 * Opens `file` (or `:memory:`) with `node:sqlite`, then sets `PRAGMA busy_timeout`.
 * @throws SqliteError (`SQLITE_CANTOPEN` for a missing file when `mustExist`)
 */
export function openNodeSqlite(file: string, opts: OpenOptions): Connection {
  const mode = opts.readonly ? 'ro' : (opts.mustExist ?? true) ? 'rw' : 'rwc';
  const uri = file === ':memory:' ? file : `${pathToFileURL(file).href}?mode=${mode}`;
  const db = withoutSqliteWarning(() => call(() => new (sqlite().DatabaseSync)(uri)));
  try {
    call(() => db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs))}`));
    return new NodeSqliteConnection(db);
  } catch (err) {
    try {
      db.close();
    } catch {
      /* already failing */
    }
    throw err;
  }
}
