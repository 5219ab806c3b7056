/**
 * A re-run of a finished file (src/cli/batch/run.ts `reportFinished`): the results lines the local
 * ledger renders in one statement (src/ledger/batch-text.ts) are byte for byte what the results
 * writer writes row by row (src/cli/batch/results.ts); a text the writer would quote or guard, a
 * transaction id JavaScript would write otherwise, a row not finished or needing attention leave the
 * rows to the writer (the ledger answers nothing).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { asContract } from '../../src/ledger/async-store.js';
import type { LedgerContract } from '../../src/ledger/contract.js';
import { Ledger, type BeginInfo } from '../../src/ledger/ledger.js';
import { batchLedgerOf, type BatchLedger } from '../../src/batch/ledger.js';
import { finishedCells, ResultsWriter, type ResultsShape } from '../../src/cli/batch/results.js';

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
});
