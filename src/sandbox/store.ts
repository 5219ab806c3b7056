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
 * With a state folder, every transaction is also kept in `<folder>/transactions.sqlite` (SQLite through
 * the ledger's driver seam, src/core/sqlite/): written before the answer that created or changed it, and
 * read back whole at start, so a restart with the same folder finds the earlier ids (the balance is
 * computed from them). Without one, they live as long as the process.
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

/** The transactions of one sandbox. */
export class TransactionStore {
  private readonly byId = new Map<number, SandboxTransaction>();
  private readonly byOrder = new Map<string, SandboxTransaction>();
  private readonly db?: Connection;
  private readonly upsert?: Statement;

  /**
   * @param dir the state folder, or undefined to keep transactions in memory only
   * @throws SqliteError / DriverUnavailableError when `<dir>/transactions.sqlite` cannot be opened or read
   */
  constructor(dir?: string) {
    if (dir === undefined) return;
    this.db = openConnection(join(dir, TRANSACTIONS_FILE), { busyTimeoutMs: 5000, mustExist: false });
    this.db.pragma('journal_mode = WAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS tx (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)');
    this.upsert = this.db.prepare('INSERT INTO tx (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc');
    for (const row of this.db.prepare('SELECT doc FROM tx ORDER BY id').iterate()) this.index(JSON.parse(String(row.doc)) as SandboxTransaction);
  }

  private index(tx: SandboxTransaction): void {
    this.byId.set(tx.transactionId, tx);
    if (tx.orderId !== null && !this.byOrder.has(tx.orderId)) this.byOrder.set(tx.orderId, tx);
  }

  /** Remembers a newly created transaction (written to the state folder, when there is one). @throws SqliteError */
  add(tx: SandboxTransaction): void {
    this.index(tx);
    this.save(tx);
  }

  /** Writes a transaction's current state to the state folder after a change (nothing without one). @throws SqliteError */
  save(tx: SandboxTransaction): void {
    this.upsert?.run(tx.transactionId, JSON.stringify(tx));
  }

  /** Every transaction, newest (highest id) first. */
  newestFirst(): SandboxTransaction[] {
    return [...this.byId.values()].sort((a, b) => b.transactionId - a.transactionId);
  }

  /**
   * One page of transactions, newest (highest id) first, of those matching `filter` (server-side
   * paging for the dashboard, src/sandbox/dashboard.ts): one pass over the kept transactions, no sort.
   * @param filter `kind` and `status` to keep (any when absent); `offset` ≥ 0 and `limit` ≥ 1 count matching rows
   * @returns the rows of the page and how many match in all
   */
  page(filter: { kind?: SandboxTransaction['kind']; status?: PostbackStatus; offset: number; limit: number }): { rows: SandboxTransaction[]; total: number } {
    const ids = [...this.byId.keys()];
    if (!this.sorted(ids)) ids.sort((a, b) => a - b);
    const rows: SandboxTransaction[] = [];
    let total = 0;
    for (let i = ids.length - 1; i >= 0; i--) {
      const tx = this.byId.get(ids[i]!)!;
      if ((filter.kind !== undefined && tx.kind !== filter.kind) || (filter.status !== undefined && tx.status !== filter.status)) continue;
      if (total >= filter.offset && rows.length < filter.limit) rows.push(tx);
      total++;
    }
    return { rows, total };
  }

  private sorted(ids: number[]): boolean {
    for (let i = 1; i < ids.length; i++) if (ids[i]! < ids[i - 1]!) return false;
    return true;
  }

  /** Closes the state file (the store stays readable in memory). */
  close(): void {
    this.db?.close();
  }

  get(id: number): SandboxTransaction | undefined {
    return this.byId.get(id);
  }

  /** The first transaction created with this `orderId`. */
  byOrderId(orderId: string): SandboxTransaction | undefined {
    return this.byOrder.get(orderId);
  }

  get size(): number {
    return this.byId.size;
  }

  /** The balance (module doc). */
  balance(): SandboxBalance {
    let balance = 0;
    let retention = 0;
    for (const tx of this.byId.values()) {
      if (tx.kind === 'cashin') {
        if (tx.status === 'paid' || tx.status === 'infraction') balance += tx.value;
        if (tx.status === 'infraction') retention += tx.value;
      } else if (tx.status === 'created' || tx.status === 'paid' || tx.status === 'infraction') balance -= tx.value;
    }
    const toAnticipate = 0;
    return { balance, retention, toAnticipate, finalBalance: balance - retention - toAnticipate };
  }
}
