/**
 * The sandbox's pure rules: gateway-like validation (src/sandbox/validate.ts), the Authorization
 * check, transitions and postback bodies (src/sandbox/lifecycle.ts), the balance
 * (src/sandbox/store.ts), and `paycli listen`'s human line (src/cli/run/listen.ts).
 */
import { describe, expect, it } from 'vitest';
import { humanLine, isPing, redeliveryNote, redeliveryOf, SEEN_EVENTS_MAX } from '../../src/cli/run/listen.js';
import { applyTransition, postbackBody } from '../../src/sandbox/lifecycle.js';
import { authorizationCarries } from '../../src/sandbox/server.js';
import { TransactionStore, type SandboxTransaction } from '../../src/sandbox/store.js';
import { canonicalBody, validationProblem } from '../../src/sandbox/validate.js';
import { cashoutFate, FailureRules, parseFailureRule, withOpening } from '../../src/sandbox/failures.js';

const CASHOUT = { value: 100, pixKeyType: 2, pixKey: 'a@b.co', person: { name: 'A', email: 'a@b.co', phone: '11987654321' } };

function tx(kind: 'cashin' | 'cashout', value: number, status: SandboxTransaction['status'] = 'created', id = 1): SandboxTransaction {
  const at = '2026-11-23T00:00:00.000Z';
  const request = kind === 'cashin' ? { payerName: 'P', payerDocument: '123.456.789-09' } : CASHOUT;
  return { transactionId: id, kind, value, status, createdAt: at, processedAt: at, request, orderId: `o${id}`, observation: null };
}

describe('validation', () => {
  it('default: presence and JSON types only; null and empty optionals are fine', () => {
    expect(validationProblem('cashout', CASHOUT, false)).toBeNull();
    expect(validationProblem('cashout', { ...CASHOUT, cpfCnpj: '', orderId: null, postbackUrl: null }, false)).toBeNull();
    expect(validationProblem('cashout', { ...CASHOUT, cpfCnpj: '000' }, false)).toBeNull(); // a format rule: strict only
    expect(validationProblem('cashout', { ...CASHOUT, value: null }, false)).toBe('Validation Failed - value is required');
    expect(validationProblem('cashout', { ...CASHOUT, value: 1.5 }, false)).toBe('Validation Failed - value must be an integer');
    expect(validationProblem('cashout', { ...CASHOUT, person: [] }, false)).toBe('Validation Failed - person must be an object');
    expect(validationProblem('cashout', { ...CASHOUT, pixKey: ' ' }, false)).toBe('Validation Failed - pixKey is required');
    expect(validationProblem('cashin', { splits: {} }, false)).toBe('Validation Failed - value is required'); // value first, as documented
    expect(validationProblem('cashin', { value: 100 }, false)).toBe('Validation Failed - payerName is required');
    expect(validationProblem('cashin', 'x', false)).toBe('Validation Failed - the body must be a JSON object');
  });
  it('strict: format rules, orderId on cash-outs, no flag in any message', () => {
    expect(validationProblem('cashout', CASHOUT, true)).toBe('Validation Failed - orderId is required');
    const withOrder = { ...CASHOUT, orderId: 'o-1' };
    expect(validationProblem('cashout', withOrder, true)).toBeNull();
    const wrongType = validationProblem('cashout', { ...withOrder, pixKeyType: 0 }, true)!;
    expect(wrongType).toMatch(/^Validation Failed - pixKey is not a CPF/);
    expect(wrongType).toContain('(pixKeyType 2)');
    expect(wrongType).not.toContain('--');
    expect(validationProblem('cashout', { ...withOrder, cpfCnpj: '12345678901' }, true)).toMatch(/^Validation Failed - cpfCnpj /);
  });
});

describe('Authorization', () => {
  it('Bearer in any letter case, or the raw key; nothing else', () => {
    for (const h of ['Bearer k1', 'bearer k1', 'BeArEr   k1', 'k1', ' k1 ']) expect(authorizationCarries(h, 'k1')).toBe(true);
    for (const h of [undefined, '', 'Bearer k2', 'Basic k1', 'Bearer', 'k']) expect(authorizationCarries(h, 'k1')).toBe(false);
  });
});

describe('transitions and postback bodies', () => {
  it('created → paid → infraction → refund; refund is final; payer and endToEndId only once paid', () => {
    const t = tx('cashin', 500);
    expect(postbackBody(t)).toEqual({
      transactionId: 1,
      object: 'cashin',
      status: 'created',
      method: 'pix',
      value: 500,
      processedAt: t.processedAt,
      orderId: 'o1',
      observation: null,
    });
    expect(applyTransition(t, 'refund')).toEqual({ error: 'cash-in 1 is created: cannot refund it (allowed: pay, fail, cancel)' });
    expect(applyTransition(t, 'pay')).toEqual({ from: 'created' });
    const paid = postbackBody(t);
    expect(paid.payer).toEqual({ transactionId: 1, name: 'P', documentId: '12345678909', bankName: 'PAYCLI SANDBOX BANK', bankCode: '999', bankIspb: '99999999' });
    expect(applyTransition(t, 'infraction')).toEqual({ from: 'paid' });
    const infraction = postbackBody(t);
    expect(infraction).toMatchObject({ status: 'infraction' });
    expect(Object.keys(infraction)).not.toEqual(expect.arrayContaining(['payer'])); // documented without payer and endToEndId
    expect(infraction.endToEndId).toBeUndefined();
    expect(applyTransition(t, 'refund')).toEqual({ from: 'infraction' });
    const refund = postbackBody(t);
    expect(refund).toMatchObject({
      status: 'refund',
      observation: 'refunded in the sandbox',
      destinationBank: { name: 'P', cpfCnpj: '12345678909', pixKey: '12345678909', pixKeyType: '' },
    });
    expect(refund.payer).toBeUndefined();
    expect(refund.endToEndId).toBeUndefined();
    expect(t.processedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    expect(applyTransition(t, 'pay')).toEqual({ error: 'cash-in 1 is refund: cannot pay it (refund is final)' });
  });
  it('a transfer: destinationBank null when created, the recipient after (pixKeyType a string), none on refund; never payer', () => {
    const t = tx('cashout', 100);
    expect(postbackBody(t)).toMatchObject({ object: 'transfer', destinationBank: null });
    applyTransition(t, 'fail');
    expect(postbackBody(t)).toMatchObject({ destinationBank: { name: 'A', email: 'a@b.co', pixKey: 'a@b.co', pixKeyType: '2', cpfCnpj: null } });
    expect(postbackBody(t).payer).toBeUndefined();
    expect(postbackBody(t).endToEndId).toBeUndefined();
    const r = tx('cashout', 100);
    applyTransition(r, 'pay');
    expect(postbackBody(r).endToEndId).toMatch(/^E/);
    applyTransition(r, 'refund');
    const refund = postbackBody(r);
    expect(Object.keys(refund).sort()).toEqual(['method', 'object', 'observation', 'orderId', 'processedAt', 'status', 'transactionId', 'value']);
  });
});

describe('balance', () => {
  it('paid cash-ins add, live cash-outs subtract, infractions are retained', () => {
    const s = new TransactionStore();
    s.add(tx('cashin', 1000, 'paid', 1));
    s.add(tx('cashin', 300, 'infraction', 2));
    s.add(tx('cashin', 50, 'created', 3));
    s.add(tx('cashin', 70, 'refund', 4));
    s.add(tx('cashout', 200, 'created', 5));
    s.add(tx('cashout', 400, 'canceled', 6));
    s.add(tx('cashout', 80, 'refund', 7));
    expect(s.balance()).toEqual({ balance: 1100, retention: 300, toAnticipate: 0, finalBalance: 800 });
    expect(s.byOrderId('o5')?.transactionId).toBe(5);
  });
});

describe('listen human line', () => {
  const at = new Date('2026-11-23T10:00:00.000Z');
  it('a ping, a cash-in with its order, a transfer with its destination', () => {
    expect(isPing({ test: true })).toBe(true);
    expect(humanLine({ test: true }, at, 'America/Sao_Paulo')).toBe('2026-11-23T07:00:00-03:00  ping (test postback)');
    expect(humanLine({ transactionId: 5, object: 'cashin', status: 'paid', value: 1234, orderId: 'p-1' }, at, 'America/Sao_Paulo')).toBe(
      '2026-11-23T07:00:00-03:00  cash-in 5  paid  R$ 12,34  order p-1',
    );
    expect(humanLine({ transactionId: 6, object: 'transfer', status: 'created', value: 100, destinationBank: { name: 'Ana', pixKey: 'a@b.co' } }, at, 'America/Sao_Paulo')).toBe(
      '2026-11-23T07:00:00-03:00  cash-out 6  created  R$ 1,00  to Ana (a@b.co)',
    );
    expect(humanLine({ transactionId: 7, status: 'paid' }, at, 'America/Sao_Paulo')).toBe('2026-11-23T07:00:00-03:00  postback 7  paid  amount ?');
  });
});

describe('listen: redeliveries', () => {
  it('an attempt above 1, or an event id seen before, is a redelivery; the ids remembered are bounded', () => {
    const seen = new Set<string>();
    expect(redeliveryOf({ 'x-paycli-event-id': 'evt_1', 'x-paycli-delivery-attempt': '1' }, seen)).toBeUndefined();
    const again = redeliveryOf({ 'x-paycli-event-id': 'evt_1', 'x-paycli-delivery-attempt': '1' }, seen)!;
    expect(redeliveryNote(again)).toBe('redelivery (attempt 1, already received)');
    expect(redeliveryNote(redeliveryOf({ 'x-paycli-event-id': 'evt_2', 'x-paycli-delivery-attempt': '3' }, seen)!)).toBe('redelivery (attempt 3)');
    expect(redeliveryOf({}, seen)).toBeUndefined(); // a gateway that sends no such headers
    expect(redeliveryOf({ 'x-paycli-event-id': 'evt 3\u001b', 'x-paycli-delivery-attempt': 'x' }, seen)).toBeUndefined(); // malformed: ignored
    for (let i = 0; i < SEEN_EVENTS_MAX + 10; i++) redeliveryOf({ 'x-paycli-event-id': `evt_x${i}` }, seen);
    expect(seen.size).toBe(SEEN_EVENTS_MAX);
    expect(redeliveryOf({ 'x-paycli-event-id': 'evt_1' }, seen)).toBeUndefined(); // forgotten: the oldest go first
  });
});

describe('field names in any letter case (lenient) and named in strict mode', () => {
  it('folds PascalCase names, nested ones too; the exact spelling wins; strict names the first that differs', () => {
    const pascal = { Value: 100, PixKeyType: 2, PIXKEY: 'a@b.co', Person: { Name: 'A', eMail: 'a@b.co', Phone: '11987654321' }, Unknown: 1 };
    const folded = canonicalBody('cashout', pascal, false);
    expect(folded).toEqual({ body: { value: 100, pixKeyType: 2, pixKey: 'a@b.co', person: { name: 'A', email: 'a@b.co', phone: '11987654321' }, Unknown: 1 } });
    expect(validationProblem('cashout', (folded as { body: unknown }).body, false)).toBeNull();
    expect(canonicalBody('cashin', { value: 1, Value: 2, splits: [{ ClientId: 'x', VALUE: 3 }] }, false)).toEqual({ body: { value: 1, splits: [{ clientId: 'x', value: 3 }] } });
    expect(canonicalBody('cashout', pascal, true)).toEqual({ problem: 'Validation Failed - Value: field names are case-sensitive (value)' });
    expect(canonicalBody('cashin', { value: 1, splits: [{ clientId: 'x', Value: 3 }] }, true)).toEqual({
      problem: 'Validation Failed - splits.0.Value: field names are case-sensitive (splits.0.value)',
    });
    expect(canonicalBody('cashin', 'x', false)).toEqual({ body: 'x' });
  });
});

describe('balance and failure rules', () => {
  const movements = { balance: -50, retention: 0, toAnticipate: 0, finalBalance: -50 };
  it('the opening balance is added; a cash-out over the final balance is refused', () => {
    expect(withOpening(movements, 1000)).toEqual({ balance: 950, retention: 0, toAnticipate: 0, finalBalance: 950 });
    const rules = new FailureRules();
    expect(cashoutFate({ value: 950 }, withOpening(movements, 1000), rules)).toBeNull();
    expect(cashoutFate({ value: 951 }, withOpening(movements, 1000), rules)).toEqual({ refuse: 'Insufficient balance' });
  });
  it('rules by key (mask and letter case aside) or by value; the key first; one per key or value', () => {
    const rules = new FailureRules();
    rules.add({ failure: 'key-not-found', pixKey: '+55 (11) 98765-4321' });
    rules.add({ failure: 'bank-timeout', value: 700 });
    rules.add({ failure: 'insufficient-balance', pixKey: 'Ana@Example.com' });
    const rich = withOpening(movements, 10_000);
    expect(cashoutFate({ value: 700, pixKey: '+5511987654321' }, rich, rules)).toEqual({ refuse: 'Pix key not found' });
    expect(cashoutFate({ value: 700, pixKey: 'x@y.co' }, rich, rules)).toBe('bank-timeout');
    expect(cashoutFate({ value: 1, pixKey: 'ana@example.com' }, rich, rules)).toEqual({ refuse: 'Insufficient balance' });
    rules.add({ failure: 'bank-timeout', pixKey: 'ana@example.com' });
    expect(rules.list()).toHaveLength(3);
    expect(cashoutFate({ value: 1, pixKey: 'ana@example.com' }, rich, rules)).toBe('bank-timeout');
    expect(rules.clear()).toBe(3);
    expect(parseFailureRule({ failure: 'bank-timeout', value: 5 })).toEqual({ failure: 'bank-timeout', value: 5 });
    expect(parseFailureRule({ failure: 'nope', value: 5 })).toMatch(/^failure must be one of insufficient-balance, key-not-found, bank-timeout/);
    expect(parseFailureRule({ failure: 'bank-timeout', value: 5, pixKey: 'a' })).toBe('send exactly one of pixKey and value');
    expect(parseFailureRule({ failure: 'bank-timeout', value: 0 })).toBe('value must be an integer of cents, at least 1');
  });
});

describe('which sandbox the control subcommands act on (src/cli/run/sandbox-control.ts)', () => {
  it('--sandbox-url, else the base URL of flag, environment or profile, else 127.0.0.1:4010; PAYCLI_API_KEY is the sandbox key, not a gateway setting', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { controlTarget } = await import('../../src/cli/run/sandbox-control.js');
    const dir = mkdtempSync(join(tmpdir(), 'paycli-control-'));
    const saved = process.env.PAYCLI_CONFIG_DIR;
    process.env.PAYCLI_CONFIG_DIR = dir; // no config file: nothing configured
    try {
      const env = { PAYCLI_API_KEY: 'sk_sandbox' };
      expect(controlTarget({ apiKey: 'sk_sandbox' }, env)).toEqual({ url: 'http://127.0.0.1:4010', flag: '--sandbox-url', apiKey: 'sk_sandbox' });
      expect(controlTarget({ baseUrl: 'http://127.0.0.1:4020' }, {})).toMatchObject({ url: 'http://127.0.0.1:4020', flag: '--base-url' });
      expect(controlTarget({}, { PAYCLI_BASE_URL: 'http://127.0.0.1:4030' })).toMatchObject({ url: 'http://127.0.0.1:4030', flag: 'PAYCLI_BASE_URL' });
      expect(controlTarget({ sandboxUrl: 'http://127.0.0.1:4040/', baseUrl: 'http://127.0.0.1:4040' }, {})).toMatchObject({ url: 'http://127.0.0.1:4040/' });
      expect(() => controlTarget({ sandboxUrl: 'http://127.0.0.1:4040', baseUrl: 'http://127.0.0.1:4050' }, {})).toThrow(/name two different sandboxes/);
      expect(() => controlTarget({}, { PAYCLI_BASE_URL: 'sandbox' })).toThrow(/PAYCLI_BASE_URL is "sandbox", the built-in sandbox/);
    } finally {
      if (saved === undefined) delete process.env.PAYCLI_CONFIG_DIR;
      else process.env.PAYCLI_CONFIG_DIR = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
