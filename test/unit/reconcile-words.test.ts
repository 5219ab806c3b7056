/**
 * reconcile's table and the reasons an outcome stays unknown, in both languages (docs/portugues.md):
 * words for people follow the language; kinds, results and amounts as scripts read them do not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/core/i18n/index.js';
import { formatReconcile, type ReconcileRow } from '../../src/cli/run/reconcile.js';
import { verdictWords } from '../../src/ledger/settle-rule.js';

const rows: ReconcileRow[] = [
  { id: 7, time: '2026-11-25T01:30:05.000Z', kind: 'cashout', value: 123456, profile: 'default', orderId: 'pedido-7', result: 'ok', transactionId: 100, status: 'paid' },
  { id: 8, time: '2026-11-25T01:31:00.000Z', kind: 'cashin', value: 1000, profile: 'default', result: 'unknown', reason: 'x' },
];

describe('reconcile in both languages', () => {
  afterEach(async () => setLanguage('en'));

  it('English: the table and a reason', async () => {
    await setLanguage('en');
    const table = formatReconcile(rows, { portuguese: false, timeZone: 'America/Sao_Paulo' });
    expect(table.split('\n')[0]).toMatch(/^TIME \(UTC-03:00\)\s+KIND\s+AMOUNT\s+ORDER ID\s+RESULT\s+DETAIL$/);
    expect(table).toContain('cash-out');
    expect(table).toContain('created');
    expect(table).toContain('transaction 100 (paid)');
    expect(verdictWords({ settle: false, why: 'owner_alive' })).toBe('the paycli run that sent it is still running (or stopped), so it may still be in flight');
  });

  it('Portuguese: the same table in Portuguese, amounts as R$', async () => {
    await setLanguage('pt-BR');
    const table = formatReconcile(rows, { portuguese: true, timeZone: 'America/Sao_Paulo' });
    const [head, first, second] = table.split('\n');
    expect(head).toMatch(/^HORA \(UTC-03:00\)\s+TIPO\s+VALOR\s+REFERÊNCIA\s+RESULTADO\s+DETALHE$/);
    expect(first).toContain('24/11/2026 22:30:05');
    expect(first).toContain('saque');
    expect(first).toContain('R$ 1.234,56');
    expect(first).toContain('criado');
    expect(first).toContain('transação 100 (paid)');
    expect(second).toContain('cobrança');
    expect(second).toContain('desconhecido');
    expect(verdictWords({ settle: false, why: 'owner_alive' })).toBe('a execução do paycli que o enviou ainda está rodando (ou parada), então ele ainda pode estar a caminho');
  });
});
