/**
 * The rules behind receipts and statements: masking under the LGPD (src/pix/mask.ts), which entries
 * get a receipt and what it says (src/payment/receipt.ts), OFX dates, amounts and the entries a
 * statement lists (src/cli/run/history-ofx.ts).
 */
import { describe, expect, it } from 'vitest';
import { maskCpf, maskDocument, maskEmail, maskPhone, maskPixKey, maskRandomKey } from '../../src/pix/mask.js';
import { buildReceipt, gatewayInstant, ledgerRefusal } from '../../src/payment/receipt.js';
import { isSettled, ofxAmount, ofxDate } from '../../src/cli/run/history-ofx.js';
import type { LedgerEntry } from '../../src/ledger/ledger.js';

const entry = (over: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: 7,
  uuid: '0190f5a2-0000-7000-8000-000000000007',
  time: '2026-11-25T15:00:00.000Z',
  kind: 'cashout',
  value: 1550,
  target: 'https://gw.example/transaction/cashout',
  endpoint: 'https://gw.example/transaction/cashout',
  sandbox: false,
  profile: 'default',
  allowDuplicate: false,
  outcome: 'ok',
  completed: true,
  fingerprint: 'x',
  transactionId: 77,
  status: '0',
  pixKeyType: 0,
  pixKey: '12345678909',
  recipient: 'Fulano de Tal',
  orderId: 'pedido-1',
  answer: { gross: 1550, tax: 65, liquid: 1485, createdAt: '2026-11-25T15:00:01.1234567Z' },
  ...over,
});

describe('masking (LGPD)', () => {
  it('a CPF shows digits 4 to 9 only; a CNPJ is shown whole, punctuated', () => {
    expect(maskCpf('123.456.789-09')).toBe('***.456.789-**');
    expect(maskDocument('12345678909')).toBe('***.456.789-**');
    expect(maskDocument('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskDocument('12.ABC.345/01DE-35')).toBe('12.ABC.345/01DE-35');
  });
  it('phone, e-mail and random keys keep only what identifies them to their owner', () => {
    expect(maskPhone('+5511987654321')).toBe('+55 (**) *****-4321');
    expect(maskEmail('fulano@example.com')).toBe('fu***@example.com');
    expect(maskEmail('ab@example.com')).toBe('a***@example.com');
    expect(maskRandomKey('123e4567-e12b-12d1-a456-426655440000')).toBe('123e****-****-****-****-********0000');
    expect(maskPixKey('+5511987654321')).toBe('+55 (**) *****-4321'); // guessed from its shape
    expect(maskPixKey('fulano@example.com', 2)).toBe('fu***@example.com');
    expect(maskPixKey('12345678909', 0)).toBe('***.456.789-**');
  });
});

describe('receipt rules', () => {
  it('no receipt for a refused, unknown or never sent payment', () => {
    expect(ledgerRefusal(entry())).toBeUndefined();
    expect(ledgerRefusal(entry({ outcome: 'refused', message: 'pixKey invalid' }))).toMatch(/refused ledger entry 7 \(pixKey invalid\)/);
    expect(ledgerRefusal(entry({ outcome: 'unknown', completed: false }))).toMatch(/unknown/);
    expect(ledgerRefusal(entry({ outcome: 'not_sent' }))).toMatch(/never sent/);
  });
  it('a zone-less gateway time is UTC; nonsense is no time', () => {
    expect(gatewayInstant('2025-09-03T10:14:18.768543')).toBe('2025-09-03T10:14:18.768Z');
    expect(gatewayInstant('2025-04-02T13:26:52.0365664Z')).toBe('2025-04-02T13:26:52.036Z');
    expect(gatewayInstant('yesterday')).toBeUndefined();
  });
  it('a cash-out from the ledger alone: fee and net from the create answer, the key masked', () => {
    const r = buildReceipt(entry(), undefined, { gateway: 'gw.example' });
    expect(r).toMatchObject({
      value: 1550,
      fee: 65,
      net: 1485,
      status: 'created',
      time: '2026-11-25T15:00:01.123Z',
      recipient: { name: 'Fulano de Tal', pixKey: '***.456.789-**', pixKeyType: 'cpf' },
    });
    expect(JSON.stringify(r)).not.toContain('12345678909');
  });
  it('a cash-in needs the gateway to say paid; a failed cash-out gets none', () => {
    const cashin = entry({ kind: 'cashin', status: undefined, pixKey: undefined, pixKeyType: undefined, payer: 'Fulano', answer: {} });
    expect(() => buildReceipt(cashin, undefined, { gateway: 'gw.example' })).toThrow(/cannot be confirmed/);
    expect(() => buildReceipt(cashin, { transactionId: 77, status: 'created', value: 1550 }, { gateway: 'gw.example' })).toThrow(/not paid \(status created\)/);
    expect(
      buildReceipt(
        cashin,
        { transactionId: 77, status: 'paid', value: 1550, payer: { name: 'Beltrana', documentId: '98765432100', bankIspb: '99999999' } },
        { gateway: 'gw.example' },
      ),
    ).toMatchObject({ status: 'paid', sandbox: true, payer: { name: 'Beltrana', document: '***.654.321-**' } });
    expect(() => buildReceipt(entry(), { transactionId: 77, status: '2', value: 1550 }, { gateway: 'gw.example' })).toThrow(/did not happen \(status failed\)/);
  });
});

describe('OFX', () => {
  it('dates in the zone with its offset; amounts signed with a dot', () => {
    expect(ofxDate(Date.parse('2026-11-25T15:04:15Z'), 'America/Sao_Paulo')).toBe('20261125120415[-3:BRT]');
    expect(ofxDate(Date.parse('2026-11-25T15:04:15Z'), 'UTC')).toBe('20261125150415[0:UTC]');
    expect(ofxDate(Date.parse('2026-11-25T15:04:15Z'), 'Asia/Kolkata')).toBe('20261125203415[5.5]');
    expect(ofxAmount(-1550)).toBe('-15.50');
    expect(ofxAmount(5)).toBe('0.05');
    expect(ofxAmount(123456789)).toBe('1234567.89');
  });
  it('lists created cash-outs not undone and cash-ins seen paid; never the sandbox', () => {
    expect(isSettled(entry())).toBe(true);
    expect(isSettled(entry({ status: 'paid' }))).toBe(true);
    expect(isSettled(entry({ status: '3' }))).toBe(false);
    expect(isSettled(entry({ outcome: 'refused' }))).toBe(false);
    expect(isSettled(entry({ sandbox: true }))).toBe(false);
    expect(isSettled(entry({ kind: 'cashin', status: undefined }))).toBe(false);
    expect(isSettled(entry({ kind: 'cashin', status: 'paid' }))).toBe(true);
  });
});
