/**
 * Portuguese read by a Brazilian (docs/portugues.md): agreement with the number (`1 linha`,
 * `1 ainda desconhecido`), no "faltam uns 0 s", the decimal comma in a rate, labels that read with
 * their values, paycli's status and key-type words translated, and "Pix" as the Banco Central
 * writes it, in both catalogs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/core/i18n/en.js';
import { ptBR } from '../../src/core/i18n/pt-BR.js';
import { setLanguage, t } from '../../src/core/i18n/index.js';
import { formatCashOut, lookupStatus } from '../../src/payment/format.js';

beforeAll(() => setLanguage('pt-BR'));
afterAll(() => setLanguage('en'));

/** Every text of a catalog, functions called with sample values. */
function texts(catalog: Record<string, unknown>): string[] {
  const call = (f: (...a: unknown[]) => string): string => {
    for (const args of [
      ['1', 'x', 'y', 'z', '2', '3', '4', '5'],
      [1, 'x', 'y', 'z', 2, 3, 4, 5],
      [2, 2, 2, 2, 2, 2, 2, 2],
    ]) {
      try {
        return String(f(...args));
      } catch {
        /* another kind of sample values */
      }
    }
    return '';
  };
  return Object.values(catalog).map((v) => (typeof v === 'function' ? call(v as (...a: unknown[]) => string) : String(v)));
}

describe('Portuguese grammar and words', () => {
  it('numbers agree: 1 linha, 1 ainda desconhecido; no "faltam uns 0 s"; 12,8/s', () => {
    expect(t('batchRun.dryRun', 'a.csv', t('batch.rows', 1), t('batch.count', 1, 'cashout'), 'R$ 1,00', 'R$ 1,00', 2)).toBe(
      'a.csv: 1 linha sem nenhum problema: 1 saque, R$ 1,00 no total, a maior de R$ 1,00 (linha 2)',
    );
    expect(t('reconcile.settled', 0, 1, 1)).toBe('0 de 1 resolvido; 1 ainda desconhecido');
    expect(t('reconcile.settled', 1, 3, 2)).toBe('1 de 3 resolvidos; 2 ainda desconhecidos');
    expect(t('batch.progress', 5, 5, 5, 0, 0, 'R$ 5,00', '12.8', 0)).toBe('lote: 5/5 linhas (ok 5, recusadas 0, desconhecidas 0), R$ 5,00 enviados, 12,8/s');
    expect(t('batch.progress', 1, 5, 1, 0, 0, 'R$ 1,00', '2.0', 1)).toMatch(/, falta cerca de 1 s$/);
    expect(t('batch.progress', 1, 5, 1, 0, 0, 'R$ 1,00', '2.0', 7)).toMatch(/, faltam cerca de 7 s$/);
  });
  it('auth status labels read with their values; reconcile names its own column DETALHE', () => {
    expect(`${t('auth.status.keptIn')} ${t('auth.store.none')}`).toBe('Local nenhum: não há chave guardada');
    expect(`${t('auth.status.accepted')} ${t('auth.says.noKey')}`).toBe('Aceitação não consultada (sem chave)');
    expect(t('reconcile.unresolved', 1, false)).toContain(`veja a coluna ${t('reconcile.head.detail')}`);
  });
  it('a status and a key type in words: Situação criado, Saque (transferência), pago', () => {
    const text = formatCashOut({ transactionId: 1, status: '0', gross: 1000, tax: '0', liquid: '1000', createdAt: '2026-11-26T12:00:00Z' } as never, false);
    expect(text).toMatch(/^Situação +criado$/m);
    expect(lookupStatus('1')).toBe('pago');
    expect(lookupStatus('paid')).toBe('pago');
    expect(lookupStatus('PENDING')).toBe('PENDING'); // a gateway's own word, as it came
    expect(t('pixkey.shown.phone')).toBe('telefone');
  });
  it('no "avulso", "completação", "precisam de uma pessoa", "lugar nenhum" left', () => {
    const all = texts(ptBR).join('\n');
    for (const word of [/avuls[oa]/, /completação/, /precisam de uma pessoa/, /em lugar nenhum/, /não perguntado/, /faltam uns/]) expect(all).not.toMatch(word);
  });
  it('"Pix" as the Banco Central writes it, in both catalogs; "Pix Copia e Cola"', () => {
    for (const catalog of [en, ptBR]) expect(texts(catalog).filter((s) => /\bPIX\b/.test(s))).toEqual([]);
    expect(ptBR['result.brcode']).toBe('Pix Copia e Cola (BR Code):');
  });
});
