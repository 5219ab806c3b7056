/**
 * Housekeeping of the local ledger (src/ledger/keeper.ts `RUNS_KEPT_MS`): finished runs older than
 * the limit go from `runs`; a run an entry names stays (history shows who sent it), and so does a
 * recent one or one that still owns a batch file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerKeeper, RUNS_KEPT_MS } from '../../src/ledger/keeper.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { openSqlite } from '../helpers/ledger.js';

describe('pruning runs', () => {
  let dir: string;
  let saved: string | undefined;
  let keeper: LedgerKeeper;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'paycli-prune-'));
    saved = process.env.PAYCLI_DATA_DIR;
    process.env.PAYCLI_DATA_DIR = join(dir, 'data');
    const local = Ledger.open({ create: true, beforeSend: true })!;
    file = local.file;
    keeper = new LedgerKeeper(local);
  });
  afterAll(async () => {
    await keeper.close();
    if (saved === undefined) delete process.env.PAYCLI_DATA_DIR;
    else process.env.PAYCLI_DATA_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes finished runs older than the limit that no entry names, and keeps the others', async () => {
    const { id } = await keeper.begin({
      kind: 'cashout',
      value: 100,
      target: 'https://gw.example/transaction/cashout',
      sandbox: false,
      profile: 'default',
      pixKeyType: 1,
      pixKey: 'a@b.example',
      timeoutMs: 1000,
    });
    const named = (await keeper.get(id))!.runId!;
    const now = Date.now();
    const old = now - RUNS_KEPT_MS - 60_000;
    const db = openSqlite(file);
    const add = db.prepare('INSERT INTO runs (id, pid, host, started_ms, batch_id, endpoint, ended_ms, gone_ms) VALUES (?, 1, ?, ?, ?, ?, ?, ?)');
    add.run('old-ended', 'h', old, 'b', 'e', old, null);
    add.run('old-gone', 'h', old, 'b', 'e', null, old);
    add.run('old-never-claimed', 'h', old, null, null, null, null);
    add.run('old-still-claiming', 'h', old, 'b', 'e', null, null);
    add.run('recent-ended', 'h', now - 60_000, 'b', 'e', now - 60_000, null);
    db.prepare('UPDATE runs SET started_ms = ?, ended_ms = ? WHERE id = ?').run(old, old, named);
    db.close();
    expect(await keeper.pruneRuns(now)).toBe(3);
    const left = (await keeper.runs()).map((r) => r.id).sort();
    expect(left).toEqual([named, 'old-still-claiming', 'recent-ended'].sort());
    expect((await keeper.get(id))!.user).toBeDefined();
    expect(await keeper.meta('runs_pruned_ms')).toBe(String(now));
  });
});
