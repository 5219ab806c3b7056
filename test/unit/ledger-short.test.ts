/**
 * A batch row's end time and the gateway's answer kept in a shorter form where they can be given back exactly (schema
 * version 11, src/ledger/derived.ts; docs/ledger-and-safety.md "How the ledger lies on disk"): every reader gets the
 * same end time and the same answer as a single payment's row, which keeps both in full; a ledger of version 10 is
 * brought up to date with its rows read as before; a run's id is 20 hexadecimal characters.
 */
import { describe, expect, it } from 'vitest';
import { LedgerKeeper } from '../../src/ledger/keeper.js';
import { Ledger, type PaymentFacts } from '../../src/ledger/ledger.js';
import { endMs, shortFacts, storedEndTime, storedFacts } from '../../src/ledger/derived.js';
import { SCHEMA_VERSION } from '../../src/ledger/schema.js';
import { olderLedger, openSqlite, samplePayment as payment, useDataDir } from '../helpers/ledger.js';

const BATCH = 'cashout-0123456789abcdef';

/** Answers of every shape: short ones, and those that stay JSON (other facts, a `;` in the time, none). */
const ANSWERS: (PaymentFacts | undefined)[] = [
  { createdAt: 'NOW', gross: 5100, tax: 0, liquid: 5100 },
  { createdAt: '2026-11-27T14:59:40.0401234Z', gross: 5100, tax: 51, liquid: 5049 },
  { createdAt: '2026-11-27T14:59:40.0401234Z', gross: -1, tax: 1, liquid: -1 }, // gross: the row's value (as the sandbox answers)
  { createdAt: '2020-01-01T00:00:00.000Z', gross: 5100, tax: 51, liquid: 5000 },
  { gross: 7 },
  { createdAt: 'yesterday;noon' },
  { createdAt: '', tax: 3, liquid: 9 },
  { externalId: 'e-1', createdAt: 'NOW', gross: 1, tax: 0, liquid: 1 },
  { createdAt: 'NOW', gross: 5100, tax: 0, liquid: 5100, attention: ['the gross amount is not the value sent'] },
  undefined,
];

describe('short forms of a batch row (schema 11)', () => {
  const tmp = useDataDir('paycli-short-');

  it("a batch row's end time and answer are stored short where they can be, and read back as a single payment's", async () => {
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    const db = openSqlite(local.file, { mustExist: true });
    try {
      const answers = ANSWERS.map((a, i) =>
        a?.createdAt === 'NOW' ? { ...a, createdAt: new Date(Date.now() + 3).toISOString() } : a?.gross === -1 ? { ...a, gross: 100 + i, liquid: 99 + i } : a,
      );
      const singles: number[] = [];
      for (let i = 0; i < answers.length; i++) singles.push((await keeper.begin(payment(100 + i))).id);
      const batch = (await keeper.recordMany(answers.map((_, i) => payment(i, { batchId: BATCH, batchRow: i + 1 })))) as Array<{ id: number }>;
      await keeper.endMany(
        answers.flatMap((a, i) => [
          [singles[i]!, 'ok', { answer: a, transactionId: i, status: '0' }] as const,
          [batch[i]!.id, 'ok', { answer: a, transactionId: i, status: '0' }] as const,
        ]),
      );
      const raw = (id: number) => db.prepare('SELECT end_time, answer FROM payments WHERE id = ?').get(id) as { end_time: string; answer: string | null };
      for (let i = 0; i < answers.length; i++) {
        const [single, row] = [await keeper.get(singles[i]!), await keeper.get(batch[i]!.id)];
        expect(row!.answer).toEqual(single!.answer);
        expect(row!.answer).toEqual(answers[i]);
        expect(row!.endTime).toBe(single!.endTime);
        expect(raw(singles[i]!).end_time).toBe(single!.endTime);
        expect(raw(batch[i]!.id).end_time).toMatch(/^~\d+$/);
        expect(raw(singles[i]!).answer?.startsWith('{') ?? true).toBe(true);
      }
      expect(answers.map((_, i) => raw(batch[i]!.id).answer?.[0] ?? null).join('')).toBe('~~~~~{~{{');
      expect(raw(batch[0]!.id).answer).toMatch(/^~-?\d+;5100;0;=$/);
      expect(raw(batch[2]!.id).answer).toMatch(/^~-?\d+\.1234;=;1;=$/);
      const listed = await keeper.query({ limit: 100 });
      expect(listed.find((e) => e.id === batch[1]!.id)!.answer).toEqual(answers[1]);
      expect(listed.find((e) => e.id === batch[0]!.id)!.endTime).toBe(listed.find((e) => e.id === singles[0])!.endTime);
      expect(listed[0]!.runId).toMatch(/^[0-9a-f]{20}$/);
    } finally {
      db.close();
      await keeper.close();
    }
  });

  it('what cannot be given back exactly stays as it is', () => {
    expect(endMs('2026-01-02T03:04:05.678Z')).toBe(Date.parse('2026-01-02T03:04:05.678Z'));
    expect(endMs('2026-01-02T03:04:05Z')).toBeNull();
    expect(endMs('')).toBeNull();
    expect(storedEndTime('2026-01-02T03:04:05Z', 1)).toBe('2026-01-02T03:04:05Z');
    expect(storedEndTime(`~-5`, Date.parse('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.673Z');
    expect(storedEndTime(null, 1)).toBeNull();
    expect(shortFacts(null).tail).toBeNull();
    expect(shortFacts('{"qrCode":"000201"}').tail).toBeNull();
    expect(shortFacts('{"gross":1,"createdAt":"2026-01-02T03:04:05.678Z"}').tail).toBeNull(); // not factsJson's order
    expect(storedFacts('{"gross":1}', 1, 1)).toBe('{"gross":1}');
    expect(JSON.parse(storedFacts('~"x;;;', 0, 1) as string)).toEqual({ createdAt: 'x' });
    expect(JSON.parse(storedFacts('~5.25;=;;', 0, 7) as string)).toEqual({ createdAt: '1970-01-01T00:00:00.00525Z', gross: 7 });
    expect(JSON.parse(storedFacts('~;1;2;=', 0, 5) as string)).toEqual({ gross: 1, tax: 2, liquid: -1 });
    expect(shortFacts('{"createdAt":"2026-01-02T03:04:05.6Z"}').head).toBe('"2026-01-02T03:04:05.6Z');
    expect(shortFacts('{"createdAt":"2026-01-02T03:04:05.678+00:00"}').head).toBe('"2026-01-02T03:04:05.678+00:00');
  });

  it('a ledger of schema version 10 is brought up to date: its rows read as before, new outcomes of its batch rows short', async () => {
    const { old, file } = olderLedger(tmp.dir, 10, []);
    old.close();
    const local = Ledger.open({ create: true })!;
    const keeper = new LedgerKeeper(local);
    try {
      const [a, b] = (await keeper.recordMany([payment(1, { batchId: BATCH, batchRow: 1 }), payment(2, { batchId: BATCH, batchRow: 2 })])) as Array<{ id: number }>;
      const facts = { createdAt: '2026-01-02T03:04:05.678Z', gross: 101, tax: 1, liquid: 100 };
      await keeper.end(a!.id, 'ok', { answer: facts });
      const db = openSqlite(file, { mustExist: true });
      try {
        expect(db.pragma('user_version')).toBe(SCHEMA_VERSION);
        expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(11);
        // a row as schema 10 wrote it: both in full
        db.prepare(`UPDATE payments SET outcome = 'ok', end_time = '2026-01-02T03:04:06.000Z', answer = ? WHERE id = ?`).run(JSON.stringify(facts), b!.id);
        expect((db.prepare('SELECT answer FROM payments WHERE id = ?').get(a!.id) as { answer: string }).answer).toMatch(/^~/);
      } finally {
        db.close();
      }
      expect((await keeper.get(a!.id))!.answer).toEqual(facts);
      expect((await keeper.get(b!.id))!).toMatchObject({ answer: facts, endTime: '2026-01-02T03:04:06.000Z' });
    } finally {
      await keeper.close();
    }
  });
});
