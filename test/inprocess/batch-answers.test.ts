/**
 * One outcome per answer (docs/batch-runs.md, "Which outcome each answer gives"): for every answer
 * of the test gateway, a one-row batch and a single payment give the same outcome and exit code;
 * a row created but wrong stays `needs_attention` (exit 6) on every later run of the file until
 * `paycli history resolve` settles it, never `already_ok`. paycli runs in process against a test gateway
 * on 127.0.0.1; every test asserts what reached it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStaticBrCode } from '../../src/pix/brcode.js';
import { CASHIN_ARGS, CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { cashInAnswer, cashOutAnswer, json, startGateway, type TestGateway } from '../helpers/gateway.js';

let home: Home;
let gw: TestGateway;
beforeEach(async () => {
  home = makeHome();
  gw = await startGateway();
});
afterEach(async () => {
  await gw.close();
  home.cleanup();
});

const env = () => ({ ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: 'sk_test_answers' });
const KEY = '123e4567-e12b-12d1-a456-426655440000';
/** The single cash-out of CASHOUT_ARGS as a one-row CSV batch. */
const CASHOUT_CSV = 'value,pix-key-type,pix-key,person-name,person-email,person-phone\n1550,email,Fulano@Example.com,Fulano de Tal,fulano@example.com,11987654321\n';
/** The single cash-in of CASHIN_ARGS as a one-row CSV batch. */
const CASHIN_CSV =
  'value,payer-name,payer-document,payer-email,payer-phone,product-name,product-description\n1000,Fulano de Tal,123.456.789-09,fulano@example.com,(11) 98765-4321,Camiseta,Camiseta azul M\n';

type Answer = (value: number) => [status: number, body: unknown];
/** The gateway's answers to a cash-out, and the outcome paycli gives each: `ok`, `needs_attention` (exit 6), or a failure. */
const CASHOUT_MODES: Array<[name: string, answer: Answer, exit: number, outcome: string]> = [
  ['status 0 (created), sound amounts', (v) => [200, cashOutAnswer(v)], 0, 'ok'],
  ['status 1 (paid)', (v) => [200, { ...cashOutAnswer(v), status: '1' }], 0, 'ok'],
  ['status 2 (Failed)', (v) => [200, { ...cashOutAnswer(v), status: '2' }], 6, 'needs_attention'],
  ['status 3 (Canceled)', (v) => [200, { ...cashOutAnswer(v), status: '3' }], 6, 'needs_attention'],
  ['status 4 (Refund)', (v) => [200, { ...cashOutAnswer(v), status: '4' }], 6, 'needs_attention'],
  ['wrong gross', (v) => [200, { ...cashOutAnswer(v), gross: v + 1, liquid: String(v + 1 - 65) }], 6, 'needs_attention'],
  ['net not gross minus fee', (v) => [200, { ...cashOutAnswer(v), liquid: String(v) }], 6, 'needs_attention'],
  ['fee greater than gross', (v) => [200, { ...cashOutAnswer(v), tax: String(v + 1), liquid: '-1' }], 6, 'needs_attention'],
  ['refused (400)', () => [400, { message: 'invalid pix key' }], 1, 'refused'],
];
/** The gateway's answers to a cash-in. */
const CASHIN_MODES: Array<[name: string, answer: Answer, exit: number, outcome: string]> = [
  ['BR Code of the amount', (v) => [200, cashInAnswer(v)], 0, 'ok'],
  [
    'BR Code without an amount',
    (v) => [200, { ...cashInAnswer(v), qrCode: buildStaticBrCode({ key: KEY, merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' }) }],
    6,
    'needs_attention',
  ],
  [
    'BR Code of another amount',
    (v) => [200, { ...cashInAnswer(v), qrCode: buildStaticBrCode({ key: KEY, merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', amountCents: v + 100 }) }],
    6,
    'needs_attention',
  ],
  ['refused (400)', () => [400, { message: 'invalid payer' }], 1, 'refused'],
];

function answerWith(answer: Answer): void {
  gw.respond((req, res) => {
    if (req.method === 'GET') return json(res, 404, { message: 'Transaction not found' });
    const [status, body] = answer((req.json as { value: number }).value);
    json(res, status, body);
  });
}

async function compare(kind: 'cashout' | 'cashin', answer: Answer): Promise<{ single: number; batch: number; outcome: string; error?: string; singleJsonCreated: boolean }> {
  answerWith(answer);
  const single = await runPaycli([...(kind === 'cashout' ? CASHOUT_ARGS : CASHIN_ARGS), '--yes', '--allow-duplicate', '--json'], { env: env() });
  const file = join(home.dir, `${kind}-${gw.received.length}.csv`);
  writeFileSync(file, kind === 'cashout' ? CASHOUT_CSV : CASHIN_CSV);
  const batch = await runPaycli([kind, '--batch', file, '--yes', '--allow-duplicate', '--json'], { env: env() });
  const row = JSON.parse(batch.stdout.trim().split('\n')[0]!) as { outcome: string; error?: string };
  return { single: single.code!, batch: batch.code!, outcome: row.outcome, ...(row.error !== undefined ? { error: row.error } : {}), singleJsonCreated: single.stdout.length > 0 };
}

describe('one outcome per answer: a one-row batch and a single payment', () => {
  it.each(CASHOUT_MODES)('cash-out answered %s: the same exit code and outcome', async (_name, answer, exit, outcome) => {
    const r = await compare('cashout', answer);
    expect([r.single, r.batch, r.outcome]).toEqual([exit, exit, outcome]);
    expect(gw.received.filter((q) => q.method === 'POST')).toHaveLength(2);
    if (outcome === 'needs_attention') expect(r.error).toMatch(/status|gross|fee|net/);
  });
  it.each(CASHIN_MODES)('cash-in answered %s: the same exit code and outcome', async (_name, answer, exit, outcome) => {
    const r = await compare('cashin', answer);
    expect([r.single, r.batch, r.outcome]).toEqual([exit, exit, outcome]);
    expect(gw.received.filter((q) => q.method === 'POST')).toHaveLength(2);
    if (outcome === 'needs_attention') expect(r.error).toMatch(/BR Code|amount|R\$/i);
  });
});

describe('a row created but wrong, on later runs of the file', () => {
  it('stays needs_attention with exit 6 (results file, --json, summary) until history resolve settles it, and is never sent again', async () => {
    answerWith((v) => [200, { ...cashOutAnswer(v), status: '2' }]);
    const file = join(home.dir, 'failed.csv');
    writeFileSync(file, CASHOUT_CSV);
    const first = await runPaycli(['cashout', '--batch', file, '--yes'], { env: env() });
    expect(first.code, first.stderr).toBe(6);
    expect(first.stderr).toMatch(/1\s+created, need attention/);
    let entry = '';
    for (const flags of [['--json'], []]) {
      const again = await runPaycli(['cashout', '--batch', file, '--yes', ...flags], { env: env() });
      expect(again.code, again.stderr).toBe(6);
      if (!flags.length) expect(again.stderr).toMatch(/1\s+created, need attention/);
      else {
        const row = JSON.parse(again.stdout.trim()) as { outcome: string; error: string };
        expect(row.outcome).toBe('needs_attention');
        expect(row.error).toMatch(/still needs attention \(ledger entry \d+;.*status 2 \(failed\)/);
        entry = /ledger entry (\d+)/.exec(row.error)![1]!;
      }
    }
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(`${file}.results.csv`, 'utf8')).toMatch(/needs_attention,.*status 2 \(failed\)/);
    expect(gw.received.filter((q) => q.method === 'POST')).toHaveLength(1);
    const resolved = await runPaycli(['history', 'resolve', entry, '--outcome', 'ok', '--note', 'checked at the gateway'], { env: env() });
    expect(resolved.code, resolved.stderr).toBe(0);
    const settled = await runPaycli(['cashout', '--batch', file, '--yes', '--json'], { env: env() });
    expect(settled.code, settled.stderr).toBe(0);
    expect((JSON.parse(settled.stdout.trim()) as { outcome: string }).outcome).toBe('already_ok');
    expect(gw.received.filter((q) => q.method === 'POST')).toHaveLength(1);
  });
});
