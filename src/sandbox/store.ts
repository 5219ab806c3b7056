/**
 * What a sandbox remembers: every transaction it created, for as long as the sandbox process runs
 * (a standalone `paycli sandbox` keeps them across requests; transaction ids keep increasing
 * across runs, src/sandbox/counter.ts). It answers the lookups and the balance of
 * docs/sandbox-and-postbacks.md ("What it answers"):
 *
 * - a transaction is found by its id or by its `orderId` (the first one created with that
 *   reference, when several share it);
 * - its document is the postback body of its current state (src/gateway/postback.ts `PostbackBody`);
 * - the balance, integer cents: `balance` = paid cash-ins (including those under an infraction)
 *   − cash-outs not failed, canceled or refunded (their `value`, fee included, is debited when they
 *   are created); `retention` = cash-ins under an infraction; `toAnticipate` = 0;
 *   `finalBalance` = balance − retention − toAnticipate. These are the movements; the server adds the
 *   opening balance and refuses a cash-out over it (src/sandbox/failures.ts).
 *
 * Every transaction lives in SQLite (through the ledger's driver seam, src/core/sqlite/), never in a
 * JavaScript map: `<folder>/transactions.sqlite` with a state folder (written before the answer that
 * created or changed it, so a restart with the same folder finds the earlier ids), an in-memory database
 * without one (as long as the process). Each lookup reads its row, so the sandbox's memory does not grow
 * with its transactions (docs/speed.md, "Sandbox memory"). A transaction read is a fresh object: change
 * it, then {@link TransactionStore.save} it.
 *
 * No request costs more as the transactions grow (docs/speed.md, "The sandbox's speed as its state
 * grows"): a lookup is a search by primary key or by the `order_id` index, and the balance and the
 * dashboard's counts are read from `totals`, how many transactions and how many cents there are per kind
 * and status (at most one row for each), instead of a sum over every transaction (which took 12 ms a
 * cash-out at 50,000 transactions, each cash-out reading the balance). `totals` is a TEMP table of the
 * connection, in memory: filled by one `GROUP BY` when the store opens, then kept by TEMP triggers on
 * every insert, change and removal of `tx`, in the same statement as the write (a write that fails
 * changes neither), so nothing more is written to the disk for it and any file, of any earlier layout,
 * gets it.
 */
import { join } from 'node:path';
import type { PostbackObject, PostbackStatus } from '../gateway/postback.js';
import { openConnection } from '../core/sqlite/connect.js';
import type { Connection, Statement } from '../core/sqlite/driver.js';

/** A transaction the sandbox created. */
export interface SandboxTransaction {
  transactionId: number;
  kind: 'cashin' | 'cashout';
  /** Amount in cents (`value` of the request). */
  value: number;
  status: PostbackStatus;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** The request body as received (already validated, src/sandbox/validate.ts). */
  request: Record<string, unknown>;
  /** The caller's reference, or null. */
  orderId: string | null;
  /** Where this transaction's postbacks go (empty strings count as none). */
  postbackUrl?: string;
  externalId?: string;
  /** PIX end-to-end id, set when it is paid (src/sandbox/lifecycle.ts). */
  endToEndId?: string;
  /** ISO 8601 UTC time of the last state change (creation at first). */
  processedAt: string;
  /** Free text of the last state change (why it failed, was canceled...), or null. */
  observation: string | null;
}

/** The `object` word of a transaction's postbacks and lookups. */
export function objectOf(tx: SandboxTransaction): PostbackObject {
  return tx.kind === 'cashin' ? 'cashin' : 'transfer';
}

/** `cash-in` or `cash-out`, for log lines and messages. */
export function kindWord(tx: SandboxTransaction): string {
  return tx.kind === 'cashin' ? 'cash-in' : 'cash-out';
}

/** The account balance as the lookup `GET /transaction/get/balance` answers it; integer cents. */
export interface SandboxBalance {
  balance: number;
  retention: number;
  toAnticipate: number;
  finalBalance: number;
}

/** The file of a state folder that keeps its transactions. */
export const TRANSACTIONS_FILE = 'transactions.sqlite';

/** The columns kept beside each document: what lookups, paging and the balance read. */
const COLUMNS: ReadonlyArray<[name: string, type: string]> = [
  ['kind', 'TEXT'],
  ['status', 'TEXT'],
  ['value', 'INTEGER'],
  ['order_id', 'TEXT'],
];

/**
 * The running totals (module doc): a TEMP table, filled from `tx` once, then kept by TEMP triggers.
 * `n` transactions of this kind and status, `cents` the sum of their `value`.
 */
const TOTALS_SQL = `
  CREATE TEMP TABLE totals (kind TEXT, status TEXT, n INTEGER NOT NULL, cents INTEGER NOT NULL, PRIMARY KEY (kind, status));
  INSERT INTO totals (kind, status, n, cents) SELECT kind, status, COUNT(*), COALESCE(SUM(value), 0) FROM main.tx GROUP BY kind, status;
  CREATE TEMP TRIGGER tx_added AFTER INSERT ON main.tx BEGIN ${addTo('NEW')} END;
  CREATE TEMP TRIGGER tx_changed AFTER UPDATE OF kind, status, value ON main.tx BEGIN ${takeFrom('OLD')} ${addTo('NEW')} END;
  CREATE TEMP TRIGGER tx_removed AFTER DELETE ON main.tx BEGIN ${takeFrom('OLD')} END;`;

/** The trigger statement counting row `row` (NEW) into its kind and status. */
function addTo(row: 'NEW'): string {
  return `INSERT INTO totals (kind, status, n, cents) VALUES (${row}.kind, ${row}.status, 1, COALESCE(${row}.value, 0))
    ON CONFLICT (kind, status) DO UPDATE SET n = n + 1, cents = cents + excluded.cents;`;
}

/** The trigger statement taking row `row` (OLD) out of its kind and status. */
function takeFrom(row: 'OLD'): string {
  return `UPDATE totals SET n = n - 1, cents = cents - COALESCE(${row}.value, 0) WHERE kind IS ${row}.kind AND status IS ${row}.status;`;
}

/** Movements in cents (module doc), summed by SQLite over the integer totals (one row per kind and status): no float. */
const BALANCE_SQL = `SELECT
  COALESCE(SUM(CASE WHEN kind = 'cashin' AND status IN ('paid', 'infraction') THEN cents
    WHEN kind = 'cashout' AND status IN ('created', 'paid', 'infraction') THEN -cents ELSE 0 END), 0),
  COALESCE(SUM(CASE WHEN kind = 'cashin' AND status = 'infraction' THEN cents ELSE 0 END), 0)
  FROM totals`;

/**
 * The statements a gateway request runs (a create writes with `upsert`, a lookup reads `byId` or
 * `byOrder`, a cash-out and the balance lookup read `balance`), and `count`, the dashboard list's total
 * without a filter: none reads every transaction (module doc; {@link TransactionStore.queryPlans}).
 */
const STATEMENTS = {
  upsert: `INSERT INTO tx (id, doc, kind, status, value, order_id) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT(id) DO UPDATE SET doc = excluded.doc, kind = excluded.kind, status = excluded.status, value = excluded.value, order_id = excluded.order_id`,
  byId: 'SELECT doc FROM tx WHERE id = ?',
  byOrder: 'SELECT doc FROM tx WHERE order_id = ? ORDER BY id LIMIT 1',
  count: 'SELECT COALESCE(SUM(n), 0) FROM totals',
  balance: BALANCE_SQL,
} as const;

/** The transactions of one sandbox. */
export class TransactionStore {
  private readonly db: Connection;
  private readonly upsert: Statement;
  private readonly byIdSql: Statement;
  private readonly byOrderSql: Statement;
  private readonly countSql: Statement;
  private readonly balanceSql: Statement;

  /**
   * @param dir the state folder, or undefined to keep transactions in an in-memory database
   * @throws SqliteError / DriverUnavailableError when `<dir>/transactions.sqlite` cannot be opened or read
   */
  constructor(dir?: string) {
    this.db = openConnection(dir === undefined ? ':memory:' : join(dir, TRANSACTIONS_FILE), { busyTimeoutMs: 5000, mustExist: false });
    if (dir !== undefined) this.db.pragma('journal_mode = WAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS tx (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)');
    this.addColumns();
    this.db.exec('CREATE INDEX IF NOT EXISTS tx_order ON tx (order_id, id)');
    this.db.pragma('temp_store = MEMORY');
    this.db.immediate(() => this.db.exec(TOTALS_SQL));
    this.upsert = this.db.prepare(STATEMENTS.upsert);
    this.byIdSql = this.db.prepare(STATEMENTS.byId);
    this.byOrderSql = this.db.prepare(STATEMENTS.byOrder);
    this.countSql = this.db.prepare(STATEMENTS.count);
    this.balanceSql = this.db.prepare(STATEMENTS.balance);
  }

  /**
   * How SQLite runs each statement a request runs (`EXPLAIN QUERY PLAN`, one `detail` line per step),
   * by name (`upsert`, `byId`, `byOrder`, `count`, `balance`): test/unit/sandbox-store.test.ts checks
   * that none scans the transactions (module doc).
   */
  queryPlans(): Record<keyof typeof STATEMENTS, string[]> {
    const plans = {} as Record<keyof typeof STATEMENTS, string[]>;
    for (const [name, sql] of Object.entries(STATEMENTS) as Array<[keyof typeof STATEMENTS, string]>) {
      const params = Array.from(sql.matchAll(/\?/g), () => null);
      plans[name] = this.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((r) => String(r.detail));
    }
    return plans;
  }

  /** A file written by an earlier version holds only `id, doc`: the columns are added and filled from the documents. */
  private addColumns(): void {
    const have = new Set(
      this.db
        .prepare('PRAGMA table_info(tx)')
        .all()
        .map((r) => String(r.name)),
    );
    const missing = COLUMNS.filter(([name]) => !have.has(name));
    if (missing.length === 0) return;
    this.db.immediate(() => {
      for (const [name, type] of missing) this.db.exec(`ALTER TABLE tx ADD COLUMN ${name} ${type}`);
      this.db.exec(
        "UPDATE tx SET kind = json_extract(doc, '$.kind'), status = json_extract(doc, '$.status'), value = json_extract(doc, '$.value'), order_id = json_extract(doc, '$.orderId')",
      );
    });
  }

  /** Remembers a newly created transaction. @throws SqliteError */
  add(tx: SandboxTransaction): void {
    this.save(tx);
  }

  /** Writes a transaction's current state after a change. @throws SqliteError */
  save(tx: SandboxTransaction): void {
    this.upsert.run(tx.transactionId, JSON.stringify(tx), tx.kind, tx.status, tx.value, tx.orderId);
  }

  /** Every transaction, newest (highest id) first (read whole: prefer {@link page}). */
  newestFirst(): SandboxTransaction[] {
    return this.page({ limit: -1 }).rows;
  }

  /**
   * One page of transactions, newest (highest id) first, of those matching `kind` and `status` (any when
   * absent): server-side paging for the dashboard (src/sandbox/dashboard.ts), read by SQLite.
   * @param q `offset` ≥ 0 (default 0) and `limit` (-1: all) count matching rows; `before`: only ids below it
   * @returns the rows of the page and how many match in all
   */
  page(q: { kind?: SandboxTransaction['kind']; status?: PostbackStatus; offset?: number; limit: number; before?: number }): { rows: SandboxTransaction[]; total: number } {
    const where: string[] = [];
    const params: Array<string | number> = [];
    if (q.kind !== undefined) {
      where.push('kind = ?');
      params.push(q.kind);
    }
    if (q.status !== undefined) {
      where.push('status = ?');
      params.push(q.status);
    }
    const filter = where.length ? ` WHERE ${where.join(' AND ')}` : '';
    const total = Number(this.db.prepare(`SELECT COALESCE(SUM(n), 0) FROM totals${filter}`).value(...params));
    const below = q.before !== undefined ? `${filter ? ' AND' : ' WHERE'} id < ?` : '';
    const rows = this.db
      .prepare(`SELECT doc FROM tx${filter}${below} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...params, ...(q.before !== undefined ? [q.before] : []), q.limit, q.offset ?? 0);
    return { rows: rows.map((r) => JSON.parse(String(r.doc)) as SandboxTransaction), total };
  }

  /** Closes the database (an in-memory one is gone). */
  close(): void {
    this.db.close();
  }

  /** The transaction with this id, read now (a fresh object). */
  get(id: number): SandboxTransaction | undefined {
    const row = this.byIdSql.get(id);
    return row ? (JSON.parse(String(row.doc)) as SandboxTransaction) : undefined;
  }

  /** The first transaction created with this `orderId`. */
  byOrderId(orderId: string): SandboxTransaction | undefined {
    const row = this.byOrderSql.get(orderId);
    return row ? (JSON.parse(String(row.doc)) as SandboxTransaction) : undefined;
  }

  get size(): number {
    return Number(this.countSql.value());
  }

  /** The balance (module doc). */
  balance(): SandboxBalance {
    const [balance, retention] = this.balanceSql.allArrays()[0]!.map(Number) as [number, number];
    const toAnticipate = 0;
    return { balance, retention, toAnticipate, finalBalance: balance - retention - toAnticipate };
  }
}
