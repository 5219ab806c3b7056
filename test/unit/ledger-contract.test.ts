/**
 * The ledger contract (src/ledger/contract.ts) over the local ledger (src/ledger/async-store.ts): the
 * group operations record, refuse and end payments as one `begin` / `end` at a time would, in one
 * transaction, and a failed group records nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { asContract } from '../../src/ledger/async-store.js';
import type { LedgerContract, Recorded } from '../../src/ledger/contract.js';
import { Ledger, type BeginInfo } from '../../src/ledger/ledger.js';

const TARGET = 'https://gw.example/transaction/cashout';
/** The entry numbers of a group that recorded every payment (fails the test otherwise). */
function recorded(out: ReadonlyArray<Recorded | UsageError>): number[] {
  return out.map((r) => {
    if (r instanceof UsageError) throw r;
    return r.id;
  });
}
const payout = (cents: number, extra: Partial<BeginInfo> = {}): BeginInfo => ({
  kind: 'cashout',
  value: cents,
  target: TARGET,
  sandbox: false,
  profile: 'default',
  pixKeyType: 1,
  pixKey: 'a@b.example',
  timeoutMs: 30_000,
  ...extra,
});

describe('the ledger contract over the local ledger', () => {
  let dir: string;
  let saved: string | undefined;
  let ledger: LedgerContract;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'paycli-contract-'));
    saved = process.env.PAYCLI_DATA_DIR;
    process.env.PAYCLI_DATA_DIR = join(dir, 'data');
    ledger = asContract(Ledger.open({ create: true, beforeSend: true })!);
  });
  afterAll(async () => {
    await ledger.close();
    if (saved === undefined) delete process.env.PAYCLI_DATA_DIR;
    else process.env.PAYCLI_DATA_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('recordMany records each payment, refuses an identical one and a taken order reference, in order', async () => {
    const out = await ledger.recordMany([payout(100, { orderId: 'o-1' }), payout(100, { orderId: 'o-2' }), payout(200, { orderId: 'o-1' }), payout(300, { orderId: 'o-3' })], {
      windowMin: 10,
    });
    expect(out.map((r) => (r instanceof UsageError ? r.code : 'recorded'))).toEqual(['recorded', 'duplicate_cashout', 'duplicate_order', 'recorded']);
    const [first, last] = recorded([out[0]!, out[3]!]);
    expect((await ledger.get(first!))?.orderId).toBe('o-1');
    expect((await ledger.get(last!))?.value).toBe(300);
  });

  it('endMany and the ends of recordMany are written; findManyByOrderId answers each reference', async () => {
    const [a, b] = recorded(await ledger.recordMany([payout(400, { orderId: 'o-4' }), payout(500, { orderId: 'o-5' })])) as [number, number];
    await ledger.endMany([[a, 'ok', { transactionId: 41, status: '1' }]]);
    const [c] = recorded(await ledger.recordMany([payout(600, { orderId: 'o-6' })], {}, [[b, 'refused', { httpStatus: 422, message: 'no' }]])) as [number];
    expect((await ledger.get(a))?.outcome).toBe('ok');
    expect((await ledger.get(b))?.outcome).toBe('refused');
    expect((await ledger.get(c))?.completed).toBe(false);
    const found = await ledger.findManyByOrderId(['o-4', 'o-5', 'o-missing', 'o-4']);
    expect([...found.keys()].sort()).toEqual(['o-4', 'o-5']);
    expect(found.get('o-4')![0]!.transactionId).toBe(41);
  });

  it('a group that fails records nothing of it (its ends neither)', async () => {
    const [d] = recorded(await ledger.recordMany([payout(700, { orderId: 'o-7' })])) as [number];
    const bad = { ...payout(800, { orderId: 'o-8' }), pixKey: undefined };
    await expect(ledger.recordMany([payout(900, { orderId: 'o-9' }), bad], {}, [[d, 'ok', {}]])).rejects.toThrow(TypeError);
    expect((await ledger.get(d))?.completed).toBe(false);
    expect(await ledger.findByOrderId('o-9')).toEqual([]);
  });

  it('iterate yields what query returns, newest first', async () => {
    const listed = await ledger.query({ limit: 3 });
    const iterated = [];
    for await (const e of ledger.iterate({ limit: 3 })) iterated.push(e);
    expect(iterated).toEqual(listed);
    expect(listed.map((e) => e.id)).toEqual([...listed.map((e) => e.id)].sort((x, y) => y - x));
  });

  it('an iteration ended early lets the connection go: it closes, where it threw "busy" before (`ledger push` failing part-way)', () => {
    const store = Ledger.open({ create: false })!;
    const entries = store.iterate({ limit: -1 });
    expect(entries.next().done).toBe(false);
    entries.return(undefined);
    expect(store.meta('format')).toBeDefined(); // another statement runs: the iteration's statement was reset
    expect(() => store.close()).not.toThrow();
  });
});
