/** Batch rows: header mapping, cell and JSON Lines conversion, row references, CSV reading, Retry-After. */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_FIELDS, CASHOUT_FIELDS } from '../../src/gateway/fields.js';
import { cashInRequestSchema, cashOutRequestSchema } from '../../src/gateway/schemas.js';
import { PAYMENT_SCHEMAS } from '../../src/gateway/payment-schemas.js';
import { batchFormat, detectDelimiter, openRegular, readRecords, type BatchRecord } from '../../src/batch/read.js';
import { csvCell, ResultsWriter } from '../../src/cli/batch/results.js';
import { bodyFromCells, bodyFromJsonLine, derivedOrderId, IdentitySet, judgeRow, legacyDerivedOrderId, mapHeader, rowIdentity, textIdentity } from '../../src/batch/rows.js';
import { retryAfterMs } from '../../src/batch/row.js';

function cashOutRow(header: string[], cells: string[]) {
  const { targets, problems } = mapHeader(CASHOUT_FIELDS, header);
  expect(problems).toEqual([]);
  return judgeRow(CASHOUT_FIELDS, PAYMENT_SCHEMAS.cashout.request, cashOutRequestSchema, bodyFromCells(header, targets, cells));
}

describe('header', () => {
  it('takes flag names without dashes and JSON names, in any letter case', () => {
    const { targets, problems } = mapHeader(CASHOUT_FIELDS, ['Amount', 'pix-key-type', 'pixKey', 'PERSON.NAME', 'person-email', 'person.phone', 'order-id', 'cpfCnpj']);
    expect(problems).toEqual([]);
    expect(targets.map((t) => (t && 'field' in t ? t.field.path : t && 'amount' in t ? 'amount' : 'orderId'))).toEqual([
      'amount',
      'pixKeyType',
      'pixKey',
      'person.name',
      'person.email',
      'person.phone',
      'orderId',
      'cpfCnpj',
    ]);
  });
  it('names an unknown column and a field given twice', () => {
    const { problems } = mapHeader(CASHOUT_FIELDS, ['value', 'amount', 'pix_key']);
    expect(problems.map((p) => p.column)).toEqual(['amount', 'pix_key']);
  });
  it('knows the cash-in columns, split and splits', () => {
    expect(mapHeader(CASHIN_FIELDS, ['payer-name', 'product-description', 'postback-url', 'split']).problems).toEqual([]);
    expect(mapHeader(CASHIN_FIELDS, ['splits']).problems).toEqual([]);
  });
});

describe('rows', () => {
  const header = ['amount', 'pix-key-type', 'pix-key', 'person-name', 'person-email', 'person-phone'];
  it('converts cells as the flags do: reais, key type names, phones', () => {
    const r = cashOutRow(header, ['1.234,56', 'TELEFONE', '+55 11 98765-4321', ' Ana ', 'ana@example.com', '(11) 98765-4321']);
    expect(r.ok && r.row.body).toEqual({ value: 123456, pixKeyType: 3, pixKey: '+5511987654321', person: { name: 'Ana', email: 'ana@example.com', phone: '11987654321' } });
  });
  it('names every bad cell by its column; an empty cell is a missing value', () => {
    const r = cashOutRow(header, ['1.234', 'email', 'x@', '', 'ana@example.com', '11987654321']);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.column)).toEqual(['amount', 'pix-key', 'person-name']);
    expect(r.problems[0]!.message).toMatch(/ambiguous/);
    expect(r.problems[2]!.message).toMatch(/is required/);
  });
  it('value in cents must be a whole number', () => {
    const r = cashOutRow(['value', ...header.slice(1)], ['10,50', 'email', 'a@example.com', 'Ana', 'a@example.com', '11987654321']);
    expect(!r.ok && r.problems[0]).toMatchObject({ column: 'value' });
  });
  it('reads splits as clientId:cents separated by |', () => {
    const h = ['value', 'payer-name', 'payer-document', 'payer-email', 'payer-phone', 'product-name', 'product-description', 'splits'];
    const { targets } = mapHeader(CASHIN_FIELDS, h);
    const g = bodyFromCells(h, targets, [
      '1000',
      'F',
      '123.456.789-09',
      'f@example.com',
      '11987654321',
      'P',
      'D',
      '123e4567-e12b-12d1-a456-426655440000:300|223e4567-e12b-12d1-a456-426655440000:200',
    ]);
    const r = judgeRow(CASHIN_FIELDS, PAYMENT_SCHEMAS.cashin.request, cashInRequestSchema(), g);
    expect(r.ok && r.row.body.splits).toEqual([
      { clientId: '123e4567-e12b-12d1-a456-426655440000', value: 300 },
      { clientId: '223e4567-e12b-12d1-a456-426655440000', value: 200 },
    ]);
  });
  it('a JSON Lines row follows --input: integers as written, orderId taken out, unknown keys refused', () => {
    const g = bodyFromJsonLine(
      CASHOUT_FIELDS,
      '{"value": 10.0, "pixKeyType": "EVP", "pixKey": "123e4567-e89b-12d3-a456-426614174000", "person": {"name": "A", "email": "a@example.com", "phone": "11987654321", "age": 3}, "orderId": "x-1"}',
    );
    expect(g.body.orderId).toBe('x-1');
    expect(g.body.pixKeyType).toBe(4);
    expect(g.problems.map((p) => p.column).sort()).toEqual(['person.age', 'value']);
    expect(bodyFromJsonLine(CASHOUT_FIELDS, '{"value": 1, "value": 2}').problems[0]!.message).toMatch(/not valid JSON/);
  });
  it('refuses an order id with characters unsafe in a URL path (the single payment rule)', () => {
    const h = ['amount', 'pix-key-type', 'pix-key', 'person-name', 'person-email', 'person-phone', 'order-id'];
    const r = cashOutRow(h, ['10', 'email', 'a@example.com', 'Ana', 'a@example.com', '11987654321', 'a/b']);
    expect(!r.ok && r.problems.map((p) => p.column)).toEqual(['order-id']);
  });
});

describe('row references', () => {
  it('are deterministic, per file, operation and row, and look like paycli references (the form before the file-and-row one)', () => {
    const a = legacyDerivedOrderId('ab'.repeat(32), 'cashout', 1);
    expect(a).toMatch(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(legacyDerivedOrderId('ab'.repeat(32), 'cashout', 1)).toBe(a);
    expect(legacyDerivedOrderId('ab'.repeat(32), 'cashout', 2)).not.toBe(a);
    expect(legacyDerivedOrderId('cd'.repeat(32), 'cashout', 1)).not.toBe(a);
    expect(legacyDerivedOrderId('ab'.repeat(32), 'cashin', 1)).not.toBe(a);
  });
  it('are the file and operation, then the row number: deterministic, distinct, in row order, and never a legacy or ULID reference', () => {
    const a = derivedOrderId('ab'.repeat(32), 'cashout', 1);
    expect(a).toMatch(/^paycli-[0-9A-HJKMNP-TV-Z]{16}-000000001$/);
    expect(a).toHaveLength(33);
    expect(derivedOrderId('ab'.repeat(32), 'cashout', 1)).toBe(a);
    expect(derivedOrderId('ab'.repeat(32), 'cashout', 42)).toBe(`${a.slice(0, 24)}000000042`);
    expect(derivedOrderId('cd'.repeat(32), 'cashout', 1).slice(0, 24)).not.toBe(a.slice(0, 24));
    expect(derivedOrderId('ab'.repeat(32), 'cashin', 1).slice(0, 24)).not.toBe(a.slice(0, 24));
    const refs = [1, 2, 9, 10, 99, 100, 12_345, 999_999_999].map((row) => derivedOrderId('ab'.repeat(32), 'cashout', row));
    expect([...refs].sort()).toEqual(refs);
    expect(derivedOrderId('ab'.repeat(32), 'cashout', 1_000_000_000)).toBe(`${a.slice(0, 24)}1000000000`);
    expect(a).not.toMatch(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/);
  });
  it('identical payouts have one identity', () => {
    expect(rowIdentity('cashout', { value: 1, pixKeyType: 2, pixKey: 'a@example.com', person: { name: 'A' } })).toEqual(
      rowIdentity('cashout', { value: 1, pixKeyType: 2, pixKey: 'a@example.com', person: { name: 'B' } }),
    );
    expect(rowIdentity('cashout', { value: 1, pixKeyType: 2, pixKey: 'a@example.com' })).not.toEqual(rowIdentity('cashout', { value: 2, pixKeyType: 2, pixKey: 'a@example.com' }));
  });
  it('an identity set answers the first row of an identity, across its growth', () => {
    const set = new IdentitySet();
    for (let row = 1; row <= 5000; row++) expect(set.claim(textIdentity(`order-${row}`), row)).toBeUndefined();
    for (let row = 1; row <= 5000; row += 499) expect(set.claim(textIdentity(`order-${row}`), 9000 + row)).toBe(row);
    expect(set.claim(textIdentity('order-5001'), 5001)).toBeUndefined();
    expect(set.claim(textIdentity('order-5001'), 5002)).toBe(5001);
    // Identities that share their first word (the slot they start from) are still told apart.
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 1);
    b[11] = 2;
    const small = new IdentitySet();
    expect(small.claim(a, 1)).toBeUndefined();
    expect(small.claim(b, 2)).toBeUndefined();
    expect(small.claim(b, 3)).toBe(2);
    expect(small.claim(a, 4)).toBe(1);
  });
});

describe('reading files', () => {
  it('tells ; from , on the header line, quotes aside', () => {
    expect(detectDelimiter('value;pix-key')).toBe(';');
    expect(detectDelimiter('value,pix-key,"a;b;c"')).toBe(',');
    expect(detectDelimiter('value')).toBe(';');
  });
  it('chooses the format by extension or --batch-format', () => {
    expect(batchFormat('a.CSV')).toBe('csv');
    expect(batchFormat('a.ndjson')).toBe('jsonl');
    expect(batchFormat('-', 'jsonl')).toBe('jsonl');
    expect(() => batchFormat('-')).toThrow(/--batch-format/);
    expect(() => batchFormat('a.csv', 'xml')).toThrow(/csv or jsonl/);
  });
  it('streams CSV records with their line numbers (BOM, CRLF, quoted line breaks, blank lines)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paycli-batch-unit-'));
    try {
      const file = join(dir, 'a.csv');
      writeFileSync(file, '\uFEFFa;b\r\n1;"x\r\ny"\r\n\r\n2;"3,5"\r\n');
      const recs: BatchRecord[] = [];
      for await (const r of readRecords({ path: file, name: file, dispose: () => undefined }, 'csv')) recs.push(r);
      expect(recs).toEqual([
        { kind: 'header', line: 1, cells: ['a', 'b'] },
        { kind: 'cells', line: 2, row: 1, cells: ['1', 'x\ny'] },
        { kind: 'cells', line: 5, row: 2, cells: ['2', '3,5'] },
      ]);
      writeFileSync(file, 'a,b\n1,"unclosed\n');
      await expect(async () => {
        for await (const _ of readRecords({ path: file, name: file, dispose: () => undefined }, 'csv')) void _;
      }).rejects.toThrow(/not a valid CSV file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('opens a regular file for a synchronous read, and refuses at once a FIFO put in its place (no wait for a writer)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paycli-batch-unit-'));
    try {
      const file = join(dir, 'a.csv');
      writeFileSync(file, 'a;b\n');
      const fd = openRegular({ path: file, name: 'a.csv', dispose: () => undefined });
      try {
        expect(readFileSync(fd, 'utf8')).toBe('a;b\n');
      } finally {
        closeSync(fd);
      }
      // The path swapped for a FIFO after it was seen as a regular file: a blocking open would wait
      // here for a writer that never comes; this one returns and refuses the file.
      rmSync(file);
      execFileSync('mkfifo', [file]);
      expect(() => openRegular({ path: file, name: 'a.csv', dispose: () => undefined })).toThrow(/a\.csv changed while it was being checked; nothing was sent/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('output helpers', () => {
  it('Retry-After in seconds or as an HTTP date, bounded', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(undefined)).toBe(1000);
    expect(retryAfterMs('soon')).toBe(1000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(10_000);
    expect(retryAfterMs('99999')).toBe(300_000);
  });
  it('CSV cells are quoted when needed and never run as a formula', () => {
    expect(csvCell('a;b', ';')).toBe('"a;b"');
    expect(csvCell('say "hi"', ',')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")', ',')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(12, ',')).toBe('12');
    expect(csvCell(-5, ',')).toBe('-5');
    expect(csvCell('-5', ',')).toBe("'-5");
  });
  it('results are kept until flush or close, then written whole, in row order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paycli-results-'));
    try {
      const path = join(dir, 'r.csv');
      const w = new ResultsWriter(path, false, ';');
      w.write({ row: 1, line: 2, orderId: 'o-1', outcome: 'ok', valueCents: 100, transactionId: 7, status: '1' });
      w.write({ row: 2, line: 3, orderId: 'o-2', outcome: 'refused', valueCents: 250, error: 'no; way' });
      expect(readFileSync(path, 'utf8').split('\n')).toEqual(['row;line;orderId;outcome;valueCents;transactionId;status;feeCents;netCents;brCode;png;error;sandbox', '']);
      w.flush();
      w.write({ row: 3, line: 4, orderId: 'o-3', outcome: 'ok', valueCents: 1 });
      w.close();
      expect(readFileSync(path, 'utf8').split('\n').slice(1)).toEqual([
        '1;2;o-1;ok;100;7;1;;;;;;false',
        '2;3;o-2;refused;250;;;;;;;"no; way";false',
        '3;4;o-3;ok;1;;;;;;;;false',
        '',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
