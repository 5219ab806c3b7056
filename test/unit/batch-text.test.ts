/**
 * A re-run of a finished file (src/cli/batch/run.ts `reportFinished`): the results lines the local
 * ledger renders in one statement (src/ledger/batch-text.ts) are byte for byte what the results
 * writer writes row by row (src/cli/batch/results.ts); a text the writer would quote or guard, a
 * transaction id JavaScript would write otherwise, a row not finished or needing attention leave the
 * rows to the writer (the ledger answers nothing). The run that finishes a file keeps its lines
 * (table `batch_texts`): a re-run reads them back, byte for byte the same, and any change to a row of
 * the batch (a status noted, `history resolve`, a settle, a new entry, another paycli's write) drops
 * them in the same transaction.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { asContract } from '../../src/ledger/async-store.js';
import type { LedgerContract } from '../../src/ledger/contract.js';
import { Ledger, type BeginInfo } from '../../src/ledger/ledger.js';
import { batchLedgerOf, KEEP_LINES_MAX_ROWS, type BatchLedger } from '../../src/batch/ledger.js';
import { finishedCells, ResultsWriter, type ResultsShape } from '../../src/cli/batch/results.js';
import { batchTextSql } from '../../src/ledger/batch-text.js';
import { keptTextKey } from '../../src/ledger/kept-texts.js';
import { ledgerFile, openSqlite } from '../helpers/ledger.js';

const TARGET = 'https://gw.example/transaction/cashout';
type Row = { orderId: string; transactionId?: number | string; status?: string; outcome?: 'ok' | 'refused'; attention?: boolean };

describe('the lines of a finished batch rendered by the ledger', () => {
  let dir: string;
  let saved: string | undefined;
  let contract: LedgerContract;
  let ledger: BatchLedger;
  let n = 0;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'paycli-batch-text-'));
    saved = process.env.PAYCLI_DATA_DIR;
    process.env.PAYCLI_DATA_DIR = join(dir, 'data');
    contract = asContract(Ledger.open({ create: true, beforeSend: true })!);
    ledger = batchLedgerOf(contract, TARGET);
  });
  afterAll(async () => {
    await contract.close();
    if (saved === undefined) delete process.env.PAYCLI_DATA_DIR;
    else process.env.PAYCLI_DATA_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  /** Records a finished batch of `rows` (row 1 on line 2) and returns its id. */
  async function batch(rows: Row[]): Promise<string> {
    const batchId = `cashout-${++n}`;
    const infos = rows.map((r, i): BeginInfo & { orderId: string; batchId: string; batchRow: number } => ({
      kind: 'cashout',
      value: 1000 * n + i + 1,
      target: TARGET,
      sandbox: false,
      profile: 'default',
      pixKeyType: 2,
      pixKey: `r${n}-${i}@example.com`,
      timeoutMs: 30_000,
      orderId: `${r.orderId}x${n}_${i}`, // each reference once at a gateway
      batchId,
      batchRow: i + 1,
    }));
    const ids = (await ledger.recordMany(infos, { windowMin: 10, allowDuplicate: false })).map((r) => {
      if (r instanceof UsageError) throw r;
      return r.id;
    });
    await ledger.endMany(
      rows.map((r, i) => [
        ids[i]!,
        r.outcome ?? 'ok',
        {
          ...(r.transactionId !== undefined ? { transactionId: r.transactionId } : {}),
          ...(r.status !== undefined ? { status: r.status } : {}),
          ...(r.attention ? { answer: { attention: ['gross'] } } : {}),
        },
      ]),
    );
    await ledger.recordBatch(batchId, { rows: rows.length, firstLine: 2 });
    return batchId;
  }

  /** The lines the writer writes row by row for a finished batch (as reportFinished does without the ledger's text). */
  async function written(batchId: string, shape: ResultsShape): Promise<string> {
    const finished = await ledger.finishedBatch(batchId);
    if (!finished) throw new Error('not finished');
    const path = join(dir, `${batchId}-${shape.sep === ';' ? 'semi' : 'comma'}.csv`);
    const w = new ResultsWriter(path, false, shape.sep, 'intl', shape.sandbox);
    for (const r of finished.rows) {
      w.write({ row: r.row, line: r.row + 1, orderId: r.orderId, outcome: 'already_ok', valueCents: r.valueCents, transactionId: r.transactionId, status: r.status });
    }
    w.close();
    return readFileSync(path, 'utf8').split('\n').slice(1).join('\n');
  }

  const shapes: ResultsShape[] = [
    { file: undefined, json: false, dialect: 'intl', sep: ';', sandbox: false },
    { file: 'out.csv', json: false, dialect: 'intl', sep: ',', sandbox: true },
  ];
  const rendered = (batchId: string, shape: ResultsShape) => ledger.finishedBatchText!(batchId, (facts) => finishedCells(shape, facts.firstLine)!);

  it('renders plain texts, ids given as numbers or texts, and a missing status exactly as the writer writes them', async () => {
    const id = await batch([
      { orderId: 'paycli-8VSB2F58TPFP7J4BZBPBS26ZFZ', transactionId: 41, status: '0' },
      { orderId: 'pedido_1.x:y/z-ção', transactionId: 'tx-abc', status: '1' },
      { orderId: 'o-3', transactionId: 9_007_199_254_740_991 },
      { orderId: '', transactionId: 0, status: '' },
    ]);
    for (const shape of shapes) {
      const text = await rendered(id, shape);
      expect(text).toMatchObject({ rows: 4, facts: { rows: 4, firstLine: 2 } });
      expect(text!.cents).toBe(4 * 1000 * n + 1 + 2 + 3 + 4);
      expect(text!.text).toBe(await written(id, shape));
    }
  });

  it('leaves to the writer every batch with a text it would quote or guard, or an id JavaScript writes otherwise', async () => {
    const tricky: Row[] = [
      { orderId: 'a;b' },
      { orderId: 'a,b' },
      { orderId: 'say "hi"' },
      { orderId: 'two\nlines' },
      { orderId: 'cr\r' },
      { orderId: '=1+1' },
      { orderId: '-1' },
      { orderId: '+55' },
      { orderId: '@sum' },
      { orderId: '\tx' },
      { orderId: 'o', status: '-2' },
      { orderId: 'o', status: 'a;b' },
      { orderId: 'o', transactionId: '=x' },
      { orderId: 'o', transactionId: 'x;y' },
      { orderId: 'o', transactionId: 1.5 },
    ];
    // what the writer changes (docs/output-for-scripts.md "CSV"), stated here on its own
    const changed = (s: string | undefined, sep: string) => s !== undefined && (s.includes(sep) || /["\r\n]/.test(s) || /^[=+\-@\t\r]/.test(s));
    for (const row of tricky) {
      const id = await batch([{ orderId: 'paycli-plain', transactionId: 1, status: '0' }, row]);
      for (const shape of shapes) {
        const text = await rendered(id, shape);
        const byWriter = [row.orderId, row.status, typeof row.transactionId === 'string' ? row.transactionId : undefined].some((s) => changed(s, shape.sep));
        expect(text === undefined, `${JSON.stringify(row)} with ${shape.sep}`).toBe(byWriter || row.transactionId === 1.5);
        if (text) expect(text.text).toBe(await written(id, shape));
      }
    }
  });

  it('answers nothing for a batch with a row not ok, one needing attention, or rows missing', async () => {
    expect(await rendered(await batch([{ orderId: 'r-1' }, { orderId: 'r-2', outcome: 'refused' }]), shapes[0]!)).toBeUndefined();
    expect(await rendered(await batch([{ orderId: 'r-3', attention: true }]), shapes[0]!)).toBeUndefined();
    const id = await batch([{ orderId: 'r-4' }]);
    await ledger.recordBatch(id, { rows: 2, firstLine: 2 });
    expect(await rendered(id, shapes[0]!)).toBeUndefined();
    expect(await ledger.finishedBatch(id)).toBeUndefined();
  });
  /** Runs SQL on the ledger through a connection of its own, as another paycli (or a person) would. */
  function other<T>(fn: (db: ReturnType<typeof openSqlite>) => T): T {
    const db = openSqlite(ledgerFile(join(dir, 'data')));
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }
  /** {@link written}, again for the same batch (its file made anew). */
  const writtenNow = (batchId: string, shape: ResultsShape) => {
    rmSync(join(dir, `${batchId}-${shape.sep === ';' ? 'semi' : 'comma'}.csv`), { force: true });
    return written(batchId, shape);
  };
  const keptOf = (batchId: string) =>
    other((db) => db.prepare('SELECT key, rows, cents, text FROM batch_texts WHERE batch_id = ?').all(batchId)) as Array<{
      key: string;
      rows: number;
      cents: number;
      text: string;
    }>;
  const keep = (batchId: string, shape: ResultsShape) => ledger.finishedBatchText!(batchId, (facts) => finishedCells(shape, facts.firstLine)!, true);
  const plain = (tag: string): Row[] => [
    { orderId: `k-${tag}-1`, transactionId: 7, status: '0' },
    { orderId: `k-${tag}-2`, transactionId: 'tx-8', status: '1' },
    { orderId: `k-${tag}-3`, transactionId: 9 },
  ];

  it('keeps the lines of a finished batch; a re-run reads them back, byte for byte what the writer writes', async () => {
    const id = await batch(plain('a'));
    const kept = await keep(id, shapes[0]!);
    expect(kept!.text).toBe(await writtenNow(id, shapes[0]!));
    expect(keptOf(id)).toMatchObject([{ rows: 3, cents: kept!.cents, text: kept!.text }]);
    expect(await rendered(id, shapes[0]!)).toEqual(kept);
    // the re-run reads the kept row (not the statement): changed behind the ledger's back, it is what comes back
    other((db) => db.prepare(`UPDATE batch_texts SET text = 'kept\n' WHERE batch_id = ?`).run(id));
    expect((await rendered(id, shapes[0]!))!.text).toBe('kept\n');
    other((db) => db.prepare('DELETE FROM batch_texts WHERE batch_id = ?').run(id));
    expect(await rendered(id, shapes[0]!)).toEqual(kept);
    expect(keptOf(id)).toEqual([]); // a re-run keeps nothing: it writes nothing
  });

  it("keeps nothing for a finished file of more rows than the limit (its one text would raise the run's peak memory); its lines are rendered as before", async () => {
    const id = await batch(plain('cap'));
    const capped = batchLedgerOf(contract, TARGET, 2);
    expect(await capped.finishedBatchText!(id, (facts) => finishedCells(shapes[0]!, facts.firstLine)!, true)).toBeUndefined();
    expect(keptOf(id)).toEqual([]);
    expect((await capped.finishedBatchText!(id, (facts) => finishedCells(shapes[0]!, facts.firstLine)!))!.text).toBe(await writtenNow(id, shapes[0]!));
    expect(KEEP_LINES_MAX_ROWS).toBe(20_000);
  });

  it('keeps nothing for a batch that is not finished, and renders other shapes of lines anew', async () => {
    const unfinished = await batch([{ orderId: 'k-b-1' }, { orderId: 'k-b-2', outcome: 'refused' }]);
    expect(await keep(unfinished, shapes[0]!)).toBeUndefined();
    expect(keptOf(unfinished)).toEqual([]);
    const id = await batch(plain('c'));
    const kept = await keep(id, shapes[0]!);
    const comma = await rendered(id, shapes[1]!);
    expect(comma!.text).toBe(await writtenNow(id, shapes[1]!));
    expect(comma!.text).not.toBe(kept!.text);
    expect(keptOf(id)).toMatchObject([{ text: kept!.text }]);
    await ledger.recordBatch(id, { rows: 3, firstLine: 5 }); // another first line: other line numbers
    const moved = await rendered(id, shapes[0]!);
    expect(moved!.text).not.toBe(kept!.text);
    expect(moved!.text).toBe((await writtenNow(id, shapes[0]!)).replace(/^(\d+);(\d+);/gm, (_, row: string) => `${row};${Number(row) + 4};`));
  });

  it('drops the kept lines when a row of the batch changes: a status noted, another paycli, a new entry, a removed one', async () => {
    const id = await batch(plain('d'));
    const before = await keep(id, shapes[0]!);
    await ledger.noteStatus(`k-d-1x${n}_0`, '2'); // --watch keeps the status the gateway now gives
    expect(keptOf(id)).toEqual([]);
    const noted = await rendered(id, shapes[0]!);
    expect(noted!.text).toBe(await writtenNow(id, shapes[0]!));
    expect(noted!.text).not.toBe(before!.text);
    expect(noted!.text.split('\n')[0]).toMatch(/;2;;;;;;false$/);

    await keep(id, shapes[0]!);
    other((db) => db.prepare(`UPDATE payments SET status = '3' WHERE batch_id = ? AND batch_row = 2`).run(id));
    expect(keptOf(id)).toEqual([]);
    expect((await rendered(id, shapes[0]!))!.text).toBe(await writtenNow(id, shapes[0]!));

    await keep(id, shapes[0]!);
    other((db) => db.prepare('UPDATE payments SET batch_id = NULL WHERE batch_id = ? AND batch_row = 3').run(id)); // a row leaves the batch
    expect(keptOf(id)).toEqual([]);
    expect(await rendered(id, shapes[0]!)).toBeUndefined();
    other((db) => db.prepare('UPDATE payments SET batch_id = ? WHERE batch_row = 3 AND batch_id IS NULL AND order_id = ?').run(id, `k-d-3x${n}_2`));

    await keep(id, shapes[0]!);
    other((db) => db.prepare('DELETE FROM payments WHERE batch_id = ? AND batch_row = 3').run(id));
    expect(keptOf(id)).toEqual([]);
    expect(await rendered(id, shapes[0]!)).toBeUndefined();

    const into = await batch(plain('h'));
    await keep(into, shapes[0]!);
    other((db) => db.prepare('UPDATE payments SET batch_id = ?, batch_row = 4 WHERE batch_id = ? AND batch_row = 1').run(into, id)); // a row of another batch moves in
    expect(keptOf(into)).toEqual([]);

    const again = await batch(plain('e'));
    await keep(again, shapes[0]!);
    const recorded = await ledger.recordMany(
      [
        {
          kind: 'cashout',
          value: 5,
          target: TARGET,
          sandbox: false,
          profile: 'default',
          pixKeyType: 2,
          pixKey: 'k-e@example.com',
          timeoutMs: 30_000,
          orderId: `k-e-new${n}`,
          batchId: again,
          batchRow: 2,
        },
      ],
      { windowMin: 10, allowDuplicate: false },
    );
    expect(recorded[0]).not.toBeInstanceOf(UsageError);
    expect(keptOf(again)).toEqual([]);
    expect(await rendered(again, shapes[0]!)).toBeUndefined(); // row 2's latest entry has no outcome yet
  });

  it('drops the kept lines when history resolve or a settle changes a row of the batch', async () => {
    const id = await batch([
      { orderId: 'k-f-1', transactionId: 3, status: '0' },
      { orderId: 'k-f-2', transactionId: 4, status: '0', attention: true },
    ]);
    expect(await keep(id, shapes[0]!)).toBeUndefined(); // row 2 needs attention
    // kept lines for the batch as it will be (as if kept by a run): history resolve must drop them
    const spec = finishedCells(shapes[0]!, 2)!;
    const key = keptTextKey(spec, batchTextSql(spec), 2);
    const entries = await contract.batchRows(id);
    other((db) => db.prepare(`INSERT INTO batch_texts (batch_id, endpoint, key, rows, cents, text) VALUES (?, ?, ?, 2, 1, 'stale\n')`).run(id, entries[0]!.endpoint, key));
    expect((await rendered(id, shapes[0]!))!.text).toBe('stale\n'); // the arranged row is what a re-run would read
    await contract.resolve(entries[1]!.id, 'ok', { by: 'hand', note: 'checked with the bank' });
    expect(keptOf(id)).toEqual([]);
    const resolved = await rendered(id, shapes[0]!);
    expect(resolved!.text).toBe(await writtenNow(id, shapes[0]!));

    const unknown = await batch([{ orderId: 'k-g-1', transactionId: 5, status: '0' }]);
    const [entry] = await contract.batchRows(unknown);
    other((db) => db.prepare('UPDATE payments SET outcome = NULL WHERE id = ?').run(entry!.id)); // left unknown by a stopped run
    const spec1 = finishedCells(shapes[0]!, 2)!;
    other((db) =>
      db
        .prepare(`INSERT INTO batch_texts (batch_id, endpoint, key, rows, cents, text) VALUES (?, ?, ?, 1, 1, 'stale\n')`)
        .run(unknown, entry!.endpoint, keptTextKey(spec1, batchTextSql(spec1), 1)),
    );
    await contract.resolve(entry!.id, 'ok', { by: 'gateway', transactionId: 5, status: '0' }); // the settle step's answer
    expect(keptOf(unknown)).toEqual([]);
    expect((await rendered(unknown, shapes[0]!))!.text).toBe(await writtenNow(unknown, shapes[0]!));
  });
});
