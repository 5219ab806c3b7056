/**
 * The old journal the history tests import (`journal.jsonl`, the ledger's first format, read once by
 * src/ledger/ when a data folder has no ledger yet): 6 payments over 40 days before now, two profiles,
 * order references, every outcome, a recipient that a spreadsheet would take for a formula.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the old journal into the data folder `dir` (created when missing). */
export function seedOldJournal(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const day = 86_400_000;
  const now = Date.now();
  const lines: unknown[] = [];
  const add = (id: string, daysAgo: number, kind: 'cashout' | 'cashin', value: number, extra: Record<string, unknown>, outcome?: string, end: Record<string, unknown> = {}) => {
    lines.push({
      event: 'begin',
      v: 1,
      id,
      time: new Date(now - daysAgo * day).toISOString(),
      kind,
      fingerprint: 'x',
      value,
      target: 'https://gw.example/transaction/cashout',
      sandbox: false,
      profile: 'default',
      pid: 1,
      ...extra,
    });
    if (outcome) lines.push({ event: 'end', id, time: new Date(now - daysAgo * day).toISOString(), outcome, ...end });
  };
  add('p1', 40, 'cashout', 123456, { pixKeyType: 2, pixKey: 'old@example.com', recipient: 'Old', orderId: 'order-1' }, 'ok', { transactionId: 11 });
  add('p2', 20, 'cashin', 1000, { payer: 'Fulano de Tal', product: 'Camiseta', profile: 'prod', orderId: 'order-2' }, 'ok', { transactionId: 12 });
  add('p3', 10, 'cashout', 2000, { pixKeyType: 3, pixKey: '+5511987654321', recipient: '=cmd()', profile: 'prod' }, 'refused', { httpStatus: 400, message: 'pixKey, "inválida"' });
  add('p4', 5, 'cashout', 3000, { pixKeyType: 2, pixKey: 'b@example.com', orderId: 'order-4' });
  add('p5', 2, 'cashout', 4000, { pixKeyType: 2, pixKey: 'c@example.com' }, 'not_sent');
  add('p6', 1, 'cashin', 5000, { payer: 'Beltrana', product: 'Boné', sandbox: true, target: 'sandbox' }, 'ok', { transactionId: 16 });
  writeFileSync(join(dir, 'journal.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}
