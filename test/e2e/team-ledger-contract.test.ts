/**
 * The ledger contract over the team ledger's store (src/ledger/keeper.ts over src/ledger/pg/ledger.ts)
 * on a private PostgreSQL cluster, in process: the group operations refuse an identical cash-out and a
 * held order reference inside one group as one `begin` at a time would (the rows that could refuse each
 * other are checked one after the other), record the rest, and `--allow-duplicate` overrides.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import type { BeginInfo } from '../../src/ledger/schema.js';
import { LedgerKeeper } from '../../src/ledger/keeper.js';
import { cashOutFingerprint } from '../../src/ledger/rules.js';
import { PgLedger } from '../../src/ledger/pg/ledger.js';
import { PG_MIGRATIONS } from '../../src/ledger/pg/schema.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

let pg: PgCluster;
beforeAll(async () => {
  pg = await startPostgres();
  const admin = await PgLedger.open(pg.urlWithPassword, { migrating: true });
  await admin.migrate(PG_MIGRATIONS);
  await admin.close();
});
afterAll(async () => {
  await pg?.destroy();
});

const payout = (cents: number, extra: Partial<BeginInfo> = {}): BeginInfo => ({
  kind: 'cashout',
  value: cents,
  target: 'https://gw.example/transaction/cashout',
  sandbox: false,
  profile: 'default',
  pixKeyType: 1,
  pixKey: 'a@b.example',
  timeoutMs: 30_000,
  ...extra,
});
const codes = (out: ReadonlyArray<{ id: number } | UsageError>) => out.map((r) => (r instanceof UsageError ? r.code : 'recorded'));

it('recordMany refuses an identical cash-out and a held order reference in one group, records the others; --allow-duplicate overrides', async () => {
  const keeper = new LedgerKeeper(await PgLedger.open(pg.urlWithPassword, { beforeSend: true }));
  try {
    const first = await keeper.recordMany([payout(100, { orderId: 'o-1' }), payout(100, { orderId: 'o-2' }), payout(200, { orderId: 'o-1' }), payout(300, { orderId: 'o-3' })], {
      windowMin: 10,
    });
    expect(codes(first)).toEqual(['recorded', 'duplicate_cashout', 'duplicate_order', 'recorded']);
    // rows that cannot refuse each other go in one statement; each still checked against what was recorded before
    const second = await keeper.recordMany([payout(300, { orderId: 'o-4' }), payout(400, { orderId: 'o-5' })], { windowMin: 10 });
    expect(codes(second)).toEqual(['duplicate_cashout', 'recorded']);
    const forced = await keeper.begin(payout(100, { orderId: 'o-6' }), { windowMin: 10, allowDuplicate: true });
    expect(forced.earlier?.id).toBe((first[0] as { id: number }).id);
    await keeper.endMany([[forced.id, 'ok', { transactionId: 9, status: '1' }]]);
    const e = (await keeper.get(forced.id))!;
    expect([e.outcome, e.transactionId, e.status, e.overrides]).toEqual(['ok', 9, '1', (first[0] as { id: number }).id]);
    expect(pg.sql('SELECT count(*) FROM paycli.payments')).toBe('4');
  } finally {
    await keeper.close();
  }
}, 120_000);

it('the order reference a payment may reuse: read ahead with the identical-payment check, the same answers as asked alone', async () => {
  const keeper = new LedgerKeeper(await PgLedger.open(pg.urlWithPassword, { beforeSend: true }));
  try {
    const p = payout(700, { orderId: 'o-r1' });
    const fingerprint = cashOutFingerprint(p.target, { value: 700, pixKeyType: 1, pixKey: 'a@b.example' });
    const attempt = await keeper.begin(p, { windowMin: 10 });
    await keeper.end(attempt.id, 'unknown');
    await keeper.resolve(attempt.id, 'not_sent', { by: 'gateway' });
    const now = Date.now();
    // after the check (read in the same round trip), then alone: the same answers
    expect(await keeper.blockingCashOut(fingerprint, 10, now)).toBeUndefined();
    expect(await keeper.reusableOrderId(fingerprint, now - 600_000)).toBe('o-r1');
    expect(await keeper.reusableOrderId(fingerprint, now - 600_000)).toBe('o-r1');
    expect(await keeper.blockingCashOut(fingerprint, 10, now)).toBeUndefined();
    expect(await keeper.reusableOrderId(fingerprint, now + 60_000)).toBeUndefined(); // the attempt is older than that
    // another fingerprint's read ahead answers nothing for this one
    expect(await keeper.blockingCashOut('0'.repeat(64), 10, now)).toBeUndefined();
    expect(await keeper.reusableOrderId(fingerprint, now - 600_000)).toBe('o-r1');
    // a later entry took the reference: nothing to reuse, read ahead or not
    await keeper.begin(payout(800, { orderId: 'o-r1' }), { windowMin: 10 });
    expect(await keeper.blockingCashOut(fingerprint, 10, now)).toBeUndefined();
    expect(await keeper.reusableOrderId(fingerprint, now - 600_000)).toBeUndefined();
    expect(await keeper.reusableOrderId(fingerprint, now - 600_000)).toBeUndefined();
  } finally {
    await keeper.close();
  }
}, 120_000);
