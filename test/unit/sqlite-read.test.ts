/**
 * src/core/sqlite/driver.ts `runRead`: many reads in one read transaction (src/ledger/ledger.ts
 * `findByOrderIds`): one snapshot, nothing left open, a failure rolled back, and inside a write
 * transaction the reads are that transaction's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openConnection } from '../../src/core/sqlite/connect.js';
import { runRead, type Connection } from '../../src/core/sqlite/driver.js';

let dir: string;
let a: Connection;
let b: Connection;
const count = (c: Connection) => c.prepare('SELECT count(*) FROM t').value();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-read-'));
  const file = join(dir, 'db.sqlite');
  a = openConnection(file, { busyTimeoutMs: 1000, mustExist: false });
  a.pragma('journal_mode = WAL');
  a.exec('CREATE TABLE t (x INTEGER)');
  b = openConnection(file, { busyTimeoutMs: 1000, mustExist: true });
});

afterEach(() => {
  a.close();
  b.close();
  rmSync(dir, { recursive: true, force: true });
});

it('reads one snapshot: a row another connection commits meanwhile is seen only after', () => {
  const seen = runRead(a, () => {
    const before = count(a);
    b.exec('INSERT INTO t VALUES (1)');
    return [before, count(a), a.inTransaction];
  });
  expect(seen).toEqual([0, 0, true]);
  expect(a.inTransaction).toBe(false);
  expect(count(a)).toBe(1);
});

it('leaves nothing open when its reads fail, and the error is the reads', () => {
  expect(() =>
    runRead(a, () => {
      count(a);
      throw new Error('boom');
    }),
  ).toThrow('boom');
  expect(a.inTransaction).toBe(false);
  b.exec('INSERT INTO t VALUES (2)'); // no read lock of `a` is left to stop a checkpoint or a writer
  expect(count(a)).toBe(1);
});

it('inside a write transaction, reads what that transaction wrote', () => {
  const seen = a.immediate(() => {
    a.exec('INSERT INTO t VALUES (3)');
    return runRead(a, () => count(a));
  });
  expect(seen).toBe(1);
  expect(count(b)).toBe(1);
});
