/** The spool of checked rows (src/batch/spool.ts): what is kept is what is read back, in order, in compressed blocks. */
import { statSync, truncateSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { RowSpool, type SpooledRow } from '../../src/batch/spool.js';

const spools: RowSpool[] = [];
afterEach(() => {
  for (const s of spools.splice(0)) s.dispose();
});

/** Row `row` of a cash-out file; row 7 carries a text longer than a block, with line breaks and non-ASCII letters. */
function rowOf(row: number): SpooledRow {
  const name = row === 7 ? `Fulano\nde Tal, ação ${'ç'.repeat(150_000)}` : `Fornecedor ${row}`;
  const body = { value: 100 + row, pixKeyType: 2, pixKey: `fornecedor${row}@example.com`, person: { name, email: 'f@example.com', phone: '11987654321' } };
  return { line: row + 1, row, body, orderId: `paycli-ABCDEFGHIJKLMNOP-${String(row).padStart(9, '0')}`, ownOrderId: row % 3 === 0 };
}

async function collect(spool: RowSpool): Promise<SpooledRow[]> {
  const out: SpooledRow[] = [];
  for await (const r of spool.rows()) out.push(r);
  return out;
}

describe('row spool', () => {
  it('gives back every row kept, in order, as often as it is read; the file holds far fewer bytes than the rows as JSON lines', async () => {
    const spool = new RowSpool();
    spools.push(spool);
    const rows = Array.from({ length: 5000 }, (_, i) => rowOf(i + 1));
    for (const r of rows) await spool.add(r);
    await spool.finish();
    expect(await collect(spool)).toEqual(rows);
    expect(await collect(spool)).toEqual(rows); // read again after a stop (the rows never read, reported)
    const jsonBytes = rows.reduce((n, r) => n + Buffer.byteLength(`${JSON.stringify(r)}\n`), 0);
    const path = (spool as unknown as { path: string }).path;
    expect(statSync(path).size).toBeLessThan(jsonBytes / 4);
  });

  it('gives back nothing for no rows, and fails on a file cut short rather than giving fewer rows', async () => {
    const empty = new RowSpool();
    spools.push(empty);
    await empty.finish();
    expect(await collect(empty)).toEqual([]);

    const spool = new RowSpool();
    spools.push(spool);
    for (let row = 1; row <= 3000; row++) await spool.add(rowOf(row === 7 ? 8 : row));
    await spool.finish();
    const path = (spool as unknown as { path: string }).path;
    truncateSync(path, statSync(path).size - 10);
    await expect(collect(spool)).rejects.toThrow(/cut short/);
  });
});
