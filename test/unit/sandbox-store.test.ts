/**
 * The sandbox's transactions live in SQLite, not in a map (src/sandbox/store.ts): lookups by id and
 * order reference, the balance as one SQL sum in integer cents, pages newest first with filters, and a
 * file written by the earlier layout (`id, doc` only) read with its columns filled from the documents.
 * No request reads every transaction: the balance and the counts come from running totals (checked
 * against a sum of the transactions after every change, and across a reopen), and no statement a
 * request runs scans the transactions (SQLite's query plans), whatever their number.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openConnection } from '../../src/core/sqlite/connect.js';
import { TRANSACTIONS_FILE, TransactionStore, type SandboxBalance, type SandboxTransaction } from '../../src/sandbox/store.js';
import { POSTBACK_STATUSES } from '../../src/gateway/postback.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tx(id: number, kind: SandboxTransaction['kind'], value: number, status: SandboxTransaction['status'], orderId: string | null = null): SandboxTransaction {
  const at = '2026-11-27T01:00:00.000Z';
  return { transactionId: id, kind, value, status, createdAt: at, processedAt: at, request: { value }, orderId, observation: null };
}

it('answers ids, order references, pages and the balance from SQLite, in memory without a folder', () => {
  const store = new TransactionStore();
  store.add(tx(1, 'cashin', 1000, 'paid', 'pedido-1'));
  store.add(tx(2, 'cashin', 2500, 'infraction', 'pedido-1'));
  store.add(tx(3, 'cashout', 1550, 'created'));
  store.add(tx(4, 'cashout', 700, 'failed'));
  store.add(tx(5, 'cashin', 990, 'created'));
  expect(store.size).toBe(5);
  expect(store.get(3)).toEqual(tx(3, 'cashout', 1550, 'created'));
  expect(store.get(99)).toBeUndefined();
  expect(store.byOrderId('pedido-1')?.transactionId).toBe(1);
  // paid and infraction cash-ins in, live cash-outs out; the infraction retained
  expect(store.balance()).toEqual({ balance: 1000 + 2500 - 1550, retention: 2500, toAnticipate: 0, finalBalance: 1000 - 1550 });
  const changed = store.get(5)!;
  changed.status = 'paid';
  expect(store.get(5)!.status).toBe('created'); // a read is a copy until saved
  store.save(changed);
  expect(store.get(5)!.status).toBe('paid');
  expect(store.newestFirst().map((t) => t.transactionId)).toEqual([5, 4, 3, 2, 1]);
  expect(store.page({ limit: 2 })).toMatchObject({ total: 5, rows: [{ transactionId: 5 }, { transactionId: 4 }] });
  expect(store.page({ limit: 2, before: 4 }).rows.map((t) => t.transactionId)).toEqual([3, 2]);
  expect(store.page({ limit: 2, offset: 1 }).rows.map((t) => t.transactionId)).toEqual([4, 3]);
  expect(store.page({ limit: 10, kind: 'cashin', status: 'paid' })).toMatchObject({ total: 2, rows: [{ transactionId: 5 }, { transactionId: 1 }] });
  store.close();
});

it('reads a state file of the earlier layout (id, doc) and keeps writing it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paycli-store-'));
  dirs.push(dir);
  const old = openConnection(join(dir, TRANSACTIONS_FILE), { busyTimeoutMs: 1000, mustExist: false });
  old.exec('CREATE TABLE tx (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)');
  const put = old.prepare('INSERT INTO tx (id, doc) VALUES (?, ?)');
  put.run(7, JSON.stringify(tx(7, 'cashin', 4200, 'paid', 'antigo')));
  put.run(8, JSON.stringify(tx(8, 'cashout', 200, 'created')));
  old.close();

  const store = new TransactionStore(dir);
  expect(store.byOrderId('antigo')?.transactionId).toBe(7);
  expect(store.balance()).toMatchObject({ balance: 4000 });
  expect(store.page({ limit: 5, kind: 'cashout' }).total).toBe(1);
  store.add(tx(9, 'cashin', 100, 'paid'));
  store.close();
  const again = new TransactionStore(dir);
  expect(again.size).toBe(3);
  expect(again.balance()).toMatchObject({ balance: 4100 });
  again.close();
});

/** The balance of docs/sandbox-and-postbacks.md summed over every transaction, the long way. */
function summed(all: SandboxTransaction[]): SandboxBalance {
  let balance = 0;
  let retention = 0;
  for (const t of all) {
    if (t.kind === 'cashin' && (t.status === 'paid' || t.status === 'infraction')) balance += t.value;
    if (t.kind === 'cashout' && (t.status === 'created' || t.status === 'paid' || t.status === 'infraction')) balance -= t.value;
    if (t.kind === 'cashin' && t.status === 'infraction') retention += t.value;
  }
  return { balance, retention, toAnticipate: 0, finalBalance: balance - retention };
}

it('keeps the balance and the counts in running totals that match a sum over every transaction, after each change and a reopen', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paycli-store-'));
  dirs.push(dir);
  let store = new TransactionStore(dir);
  const model = new Map<number, SandboxTransaction>();
  const check = () => {
    const all = [...model.values()];
    expect(store.balance()).toEqual(summed(all));
    expect(store.size).toBe(all.length);
    for (const kind of ['cashin', 'cashout'] as const)
      for (const status of POSTBACK_STATUSES) expect(store.page({ kind, status, limit: 1 }).total).toBe(all.filter((t) => t.kind === kind && t.status === status).length);
  };
  for (let i = 1; i <= 300; i++) {
    const created = tx(i, i % 3 === 0 ? 'cashout' : 'cashin', 100 + ((i * 37) % 900), 'created', `pedido-${i % 50}`);
    store.add(created);
    model.set(i, created);
    const changed = store.get(1 + ((i * 7) % i))!;
    changed.status = POSTBACK_STATUSES[i % POSTBACK_STATUSES.length]!;
    store.save(changed);
    model.set(changed.transactionId, changed);
    if (i % 50 === 0) {
      check();
      store.close();
      store = new TransactionStore(dir);
    }
  }
  check();
  store.close();
});

it('runs no request statement over every transaction: searches by key or index, and the totals (one row per kind and status)', () => {
  const store = new TransactionStore();
  for (let i = 1; i <= 2000; i++) store.add(tx(i, i % 2 ? 'cashin' : 'cashout', 100, POSTBACK_STATUSES[i % POSTBACK_STATUSES.length]!, `pedido-${i}`));
  const plans = store.queryPlans();
  const scansTx = /\bSCAN (TABLE )?tx\b/;
  for (const name of ['upsert', 'byId', 'byOrder'] as const) for (const line of plans[name]) expect(line).not.toMatch(scansTx);
  expect(plans.byId.join('\n')).toMatch(/SEARCH (TABLE )?tx USING INTEGER PRIMARY KEY/);
  expect(plans.byOrder.join('\n')).toMatch(/SEARCH (TABLE )?tx USING (COVERING )?INDEX tx_order/);
  for (const name of ['count', 'balance'] as const) expect(plans[name]).toEqual([expect.stringMatching(/^SCAN (TABLE )?totals\b/)]);
  expect(store.page({ limit: 1 }).total).toBe(2000);
  store.close();
});
