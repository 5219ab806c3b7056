/**
 * `history`'s listing of the local ledger (src/ledger/read.ts `openListing`): it reads what the
 * whole store reads, the payments still in another connection's write-ahead log included, and a
 * ledger it cannot take as it is (damaged, not paycli's, of a newer schema, empty) is refused with
 * the whole store's error, message for message (src/ledger/async-store.ts `openContractToRead`).
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { closeAll, openCount } from '../../src/core/at-end.js';
import { openContractToRead } from '../../src/ledger/async-store.js';
import { LedgerKeeper } from '../../src/ledger/keeper.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { openListing } from '../../src/ledger/read.js';
import { openSqlite, samplePayment as payment, useDataDir } from '../helpers/ledger.js';

/** The error `fn` throws (its class and message), or 'no error'. */
async function failure(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
    return 'no error';
  } catch (err) {
    return `${(err as Error).constructor.name}: ${(err as Error).message}`;
  }
}

describe("history's listing of the local ledger", () => {
  const tmp = useDataDir('paycli-listing-');
  let file: string;
  beforeEach(async () => {
    file = join(tmp.dir, 'data', 'ledger.db');
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    for (let n = 1; n <= 3; n++) await keeper.begin(payment(n));
    local.close();
  });

  it("reads every committed payment, those still in another connection's write-ahead log too, as the whole store reads them", async () => {
    const writer = openSqlite(file);
    try {
      writer.pragma('wal_autocheckpoint = 0');
      writer.prepare('UPDATE payments SET value = 777 WHERE id = 3').run();
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
      const listing = (await openListing())!;
      expect(listing).not.toBeInstanceOf(LedgerKeeper); // read without the whole store
      const whole = (await openContractToRead())!;
      const listed = await listing.query({ limit: -1 });
      expect(listed.map((e) => [e.id, e.value])).toEqual([
        [3, 777],
        [2, 102],
        [1, 101],
      ]);
      expect(listed).toEqual(await whole.query({ limit: -1 }));
      const firstTwo: number[] = [];
      for await (const e of listing.iterate({ limit: 2, kind: 'cashout' })) firstTwo.push(e.id);
      expect(firstTwo).toEqual([3, 2]);
    } finally {
      writer.close();
    }
  });

  it("gives the table's fields of the same rows as the whole entries (tableRows), with or without a run, a payer, an outcome", async () => {
    const writer = openSqlite(file);
    try {
      writer.prepare("UPDATE payments SET outcome = NULL, run_id = NULL, time = '' WHERE id = 2").run();
      writer.prepare("UPDATE payments SET kind = 'cashin', payer = 'Fulano', pix_key = NULL, sandbox = 0 WHERE id = 1").run();
    } finally {
      writer.close();
    }
    const listing = (await openListing())!;
    const fields = ['id', 'time', 'kind', 'value', 'sandbox', 'outcome', 'pixKey', 'payer', 'user', 'host'] as const;
    for (const q of [{ limit: -1 }, { limit: 2, kind: 'cashout' as const }, { limit: 5, outcome: 'unknown' as const }]) {
      const whole = await listing.query(q);
      const table = await listing.tableRows!(q);
      expect(table).toEqual(whole.map((e) => Object.fromEntries(fields.filter((k) => e[k] !== undefined).map((k) => [k, e[k]]))));
    }
    expect((await listing.tableRows!({ limit: -1 })).length).toBe(3);
  });

  it("is closed with the command (src/core/at-end.ts closeAll), and counted open until then: the ledger's log and index files are gone", async () => {
    await closeAll(); // the listings of the tests before
    const before = openCount();
    const listing = (await openListing())!;
    expect(await listing.query({ limit: 1 })).toHaveLength(1);
    expect(openCount()).toBe(before + 1);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await closeAll();
    expect(openCount()).toBe(before);
    expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]); // the last connection folded its log in
    await closeAll(); // nothing left to close
    expect(openCount()).toBe(before);
  });

  it('nothing to list where no ledger exists yet', async () => {
    process.env.PAYCLI_DATA_DIR = join(tmp.dir, 'nothing-here');
    expect(await openListing()).toBeUndefined();
    mkdirSync(join(tmp.dir, 'nothing-here'), { mode: 0o700 });
    expect(await openListing()).toBeUndefined();
  });

  const damages: Array<[string, () => void]> = [
    ['a newer schema', () => sql('PRAGMA user_version = 99')],
    ['not a paycli ledger', () => sql(`UPDATE meta SET value = 'something-else' WHERE key = 'format'`)],
    ['an empty file', () => writeFileSync(file, '')],
    ['not a database', () => writeFileSync(file, 'x'.repeat(4096))],
    ["a database without the ledger's tables", () => sql('DROP TABLE meta')],
  ];
  for (const [what, damage] of damages) {
    it(`${what}: refused with the whole store's error`, async () => {
      damage();
      const listed = await failure(() => openListing());
      expect(listed).toMatch(/^LedgerUnavailableError: the payment ledger /);
      expect(listed).toBe(await failure(() => openContractToRead()));
    });
  }

  /** Runs `text` on the ledger with a connection of its own. */
  function sql(text: string): void {
    const db = openSqlite(file);
    try {
      db.exec(text);
    } finally {
      db.close();
    }
  }
});
