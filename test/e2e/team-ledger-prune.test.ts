/**
 * Housekeeping of the team ledger (src/ledger/keeper.ts `RUNS_KEPT_MS`, docs/ledger-and-safety.md
 * "Housekeeping: runs") on a private PostgreSQL cluster: finished runs older than the limit go from
 * `paycli.runs`; a run with an entry still open stays (the in-flight rule asks for it), and so do a
 * recent run and one that still owns a batch file. Who sent an entry stays on the entry.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LedgerKeeper, RUNS_KEPT_MS } from '../../src/ledger/keeper.js';
import { PgLedger } from '../../src/ledger/pg/ledger.js';
import { PG_MIGRATIONS } from '../../src/ledger/pg/schema.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

let pg: PgCluster;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.destroy();
});

it('deletes finished runs older than the limit that no open entry needs, and keeps the others', async () => {
  const admin = await PgLedger.open(pg.urlWithPassword, { migrating: true });
  await admin.migrate(PG_MIGRATIONS);
  await admin.close();
  const keeper = new LedgerKeeper(await PgLedger.open(pg.urlWithPassword, { beforeSend: true }));
  try {
    const target = 'https://gw.example/transaction/cashout';
    const open = await keeper.begin({ kind: 'cashout', value: 100, target, sandbox: false, profile: 'default', pixKeyType: 1, pixKey: 'a@b.example', timeoutMs: 1000 });
    const done = await keeper.begin({ kind: 'cashout', value: 200, target, sandbox: false, profile: 'default', pixKeyType: 1, pixKey: 'a@b.example', timeoutMs: 1000 });
    await keeper.end(done.id, 'ok', { transactionId: 7 });
    const now = Date.now();
    const old = now - RUNS_KEPT_MS - 60_000;
    const add = (id: string, batch: string | null, ended: number | null, gone: number | null, started = old) =>
      pg.sql(
        `INSERT INTO paycli.runs (id, pid, host, started_ms, batch_id, endpoint, ended_ms, gone_ms) VALUES ('${id}', 1, 'h', ${started}, ${batch ? `'${batch}'` : 'NULL'}, 'e', ${ended ?? 'NULL'}, ${gone ?? 'NULL'})`,
      );
    add('old-ended', 'b', old, null);
    add('old-gone', 'b', null, old);
    add('old-never-claimed', null, null, null);
    add('old-still-claiming', 'b', null, null);
    add('recent-ended', 'b', now - 60_000, null, now - 60_000);
    add('old-with-open-entry', 'b', old, null);
    add('old-with-settled-entry', 'b', old, null);
    pg.sql(`UPDATE paycli.payments SET run_id = 'old-with-open-entry' WHERE id = ${open.id}`);
    pg.sql(`UPDATE paycli.payments SET run_id = 'old-with-settled-entry' WHERE id = ${done.id}`);
    const mine = (await keeper.get(open.id))!;
    expect(await keeper.pruneRuns(now)).toBe(4);
    const left = pg.sql('SELECT id FROM paycli.runs ORDER BY id').split('\n').filter(Boolean);
    expect(left.filter((id) => id.startsWith('old') || id.startsWith('recent'))).toEqual(['old-still-claiming', 'old-with-open-entry', 'recent-ended']);
    expect(left).toHaveLength(4); // and this process's own run
    expect((await keeper.get(done.id))!.host).toBe(mine.host); // who sent it stays on the entry
    expect(await keeper.meta('runs_pruned_ms')).toBe(String(now));
  } finally {
    await keeper.close();
  }
}, 120_000);
