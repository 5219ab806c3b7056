/**
 * A batch row's display target and text time are left empty in the row where they are its endpoint and its `time_ms`
 * as text (schema version 10, src/ledger/derived.ts; docs/ledger-and-safety.md "How the ledger lies on disk"), and every
 * reader gets them back as recorded: the entry, `history`'s listing; a target that differs is kept; a single payment keeps both.
 */
import { describe, expect, it } from 'vitest';
import { LedgerKeeper } from '../../src/ledger/keeper.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { storedTarget, storedTime, targetColumn, timeColumn } from '../../src/ledger/derived.js';
import { openSqlite, samplePayment as payment, useDataDir } from '../helpers/ledger.js';

describe('columns derived from others', () => {
  useDataDir('paycli-derived-');

  it("a batch row's target and time are stored empty when derivable and read back as recorded; a target with capitals in its path, the sandbox, a single payment's kept", async () => {
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    const db = openSqlite(local.file, { mustExist: true });
    try {
      const before = Date.now();
      const single = await keeper.begin(payment(1));
      const [row] = (await keeper.recordMany([payment(2, { batchId: 'cashout-0123456789abcdef', batchRow: 1 })])) as Array<{ id: number }>;
      const [withCapitals, sandbox] = (await keeper.recordMany([
        payment(3, { target: 'https://gw.example/Transaction/Cashout?x=1', batchId: 'cashout-0123456789abcdef', batchRow: 2 }),
        payment(4, { target: 'sandbox', sandbox: true, batchId: 'cashout-0123456789abcdef', batchRow: 3 }),
      ])) as Array<{ id: number }>;
      const raw = db.prepare('SELECT id, time, target, endpoint FROM payments ORDER BY id').all() as Array<{ id: number; time: string; target: string; endpoint: string }>;
      expect(Date.parse(raw[0]!.time)).toBeGreaterThanOrEqual(before);
      expect(raw.map((r) => [r.id, r.time, r.target])).toEqual([
        [single.id, raw[0]!.time, 'https://gw.example/transaction/cashout'],
        [row!.id, '', ''],
        [withCapitals!.id, '', 'https://gw.example/Transaction/Cashout'],
        [sandbox!.id, '', raw[3]!.endpoint === 'sandbox' ? '' : 'sandbox'],
      ]);
      for (const e of [await keeper.get(single.id), (await keeper.query({ limit: 10 })).find((x) => x.id === row!.id)]) {
        expect(e?.target).toBe('https://gw.example/transaction/cashout');
        expect(e?.time).toBe(new Date(e!.timeMs!).toISOString());
        expect(e!.timeMs!).toBeGreaterThanOrEqual(before);
      }
      expect((await keeper.get(withCapitals!.id))?.target).toBe('https://gw.example/Transaction/Cashout');
      expect((await keeper.get(sandbox!.id))?.target).toBe('sandbox');
    } finally {
      db.close();
      await keeper.close();
    }
  });

  it('what cannot be derived is stored as it is', () => {
    expect(targetColumn('https://gw.example/x', 'https://gw.example/x', true)).toBe('');
    expect(targetColumn('https://gw.example/x', 'https://gw.example/x', false)).toBe('https://gw.example/x');
    expect(targetColumn('https://gw.example/X', 'https://gw.example/x', true)).toBe('https://gw.example/X');
    expect(timeColumn('2026-01-02T03:04:05.678Z', Date.parse('2026-01-02T03:04:05.678Z'), true)).toBe('');
    expect(timeColumn('2026-01-02T03:04:05.678Z', Date.parse('2026-01-02T03:04:05.678Z'), false)).toBe('2026-01-02T03:04:05.678Z');
    expect(timeColumn('2026-01-02T03:04:05Z', Date.parse('2026-01-02T03:04:05Z'), true)).toBe('2026-01-02T03:04:05Z');
    expect(timeColumn('not a time', null, true)).toBe('not a time');
    expect(storedTarget('', 'https://gw.example/x')).toBe('https://gw.example/x');
    expect(storedTime('', Date.parse('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678Z');
    expect(storedTime('2026-01-02T03:04:05Z', 1)).toBe('2026-01-02T03:04:05Z');
  });
});
