/** The ledger's pure rules: endpoint identity, fingerprint, the blocking rule, time bounds, CSV cells, history flags. */
import { describe, expect, it } from 'vitest';
import { ExitCode, PaycliError } from '../../src/core/errors.js';
import { blocks, cashOutFingerprint, endpointIdentity, outcomeOfError } from '../../src/ledger/rules.js';
import { formatHistory, historyQuery, parseBy } from '../../src/cli/run/history.js';
import { amountBrl, csvCell } from '../../src/cli/run/history-export.js';
import { parseTimeBound } from '../../src/cli/time-bound.js';
import type { LedgerEntry } from '../../src/ledger/ledger.js';

describe('endpointIdentity', () => {
  const base = 'https://gw.example/s/ok/transaction/cashout';
  it.each([
    'HTTPS://GW.EXAMPLE/s/ok/transaction/cashout',
    'https://gw.example:443/s/ok/transaction/cashout',
    'https://gw.example/s/OK/transaction/CashOut',
    'https://gw.example//s/ok//transaction/cashout',
    'https://gw.example/s/%6Fk/transaction/cashout',
    'https://gw.example/s/%6f%6B/transaction/cashout',
    'https://gw.example/s/./ok/x/../transaction/cashout',
    'https://gw.example/s/%2E/ok/transaction/cashout',
    'https://user:secret@gw.example/s/ok/transaction/cashout?x=1#y',
    ' https://gw.example/s/ok/transaction/cashout ',
  ])('%s is the same endpoint', (url) => {
    expect(endpointIdentity(url)).toBe(base);
  });
  it.each([
    'http://gw.example/s/ok/transaction/cashout', // another scheme
    'https://gw.example:8443/s/ok/transaction/cashout', // another port
    'https://gw2.example/s/ok/transaction/cashout', // another host
    'https://gw.example/s/ok%2Ftransaction/cashout', // an encoded slash is not a slash
    'https://gw.example/s/okk/transaction/cashout',
  ])('%s is another endpoint', (url) => {
    expect(endpointIdentity(url)).not.toBe(base);
  });
  it('http default port, IPv6, the sandbox, garbage', () => {
    expect(endpointIdentity('http://LOCALHOST:80/a')).toBe('http://localhost/a');
    expect(endpointIdentity('http://[::1]:8080/a')).toBe('http://[::1]:8080/a');
    expect(endpointIdentity('sandbox')).toBe('sandbox');
    expect(endpointIdentity('not a url')).toBe('invalid-url');
  });
  it('the fingerprint follows the identity, and the key type, key and cents', () => {
    const body = { value: 1550, pixKeyType: 2, pixKey: 'fulano@example.com' };
    expect(cashOutFingerprint('https://GW.example//s/OK/transaction/cashout', body)).toBe(cashOutFingerprint(base, body));
    expect(cashOutFingerprint(base, { ...body, value: 1551 })).not.toBe(cashOutFingerprint(base, body));
    expect(cashOutFingerprint(base, { ...body, pixKeyType: 4 })).not.toBe(cashOutFingerprint(base, body));
    expect(cashOutFingerprint('sandbox', body)).not.toBe(cashOutFingerprint(base, body));
  });
});

describe('the blocking rule', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  it('unknown blocks at any age, and with the window off', () => {
    for (const m of [0, 11, 60 * 24 * 365, -60 * 24]) expect(blocks({ time: at(m), outcome: 'unknown' }, 10, now)).toBe(true);
    expect(blocks({ time: at(11), outcome: 'unknown' }, 0, now)).toBe(true);
  });
  it('ok blocks within the window, including an entry from the future (clock moved back); 0 turns it off', () => {
    expect(blocks({ time: at(9), outcome: 'ok' }, 10, now)).toBe(true);
    expect(blocks({ time: at(11), outcome: 'ok' }, 10, now)).toBe(false);
    expect(blocks({ time: at(-60), outcome: 'ok' }, 10, now)).toBe(true);
    expect(blocks({ time: at(0), outcome: 'ok' }, 0, now)).toBe(false);
  });
  it('refused and not_sent never block', () => {
    expect(blocks({ time: at(0), outcome: 'refused' }, 10, now)).toBe(false);
    expect(blocks({ time: at(0), outcome: 'not_sent' }, 10, now)).toBe(false);
  });
  it('the outcome of an error', () => {
    expect(outcomeOfError(new PaycliError('gateway_refused', ExitCode.REFUSED, 'no'))).toBe('refused');
    expect(outcomeOfError(new PaycliError('network', ExitCode.NETWORK, 'x', { maybeSent: false }))).toBe('not_sent');
    expect(outcomeOfError(new PaycliError('timeout', ExitCode.NETWORK, 'x', { maybeSent: true }))).toBe('unknown');
    expect(outcomeOfError(new Error('bug'))).toBe('unknown');
  });
});

describe('time bounds', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('durations, dates, times', () => {
    expect(parseTimeBound('7d', '--since', { now })).toBe(now - 7 * 86_400_000);
    expect(parseTimeBound('24h', '--since', { now })).toBe(now - 86_400_000);
    expect(parseTimeBound('30m', '--since', { now })).toBe(now - 1_800_000);
    expect(parseTimeBound('2w', '--since', { now })).toBe(now - 14 * 86_400_000);
    const utc = { now, timeZone: 'UTC' };
    expect(parseTimeBound('2026-11-01', '--since', utc)).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(parseTimeBound('2026-11-01', '--until', { ...utc, endOfDay: true })).toBe(Date.parse('2026-11-02T00:00:00Z'));
    expect(parseTimeBound('2026-11-01T12:00:00-03:00', '--since', utc)).toBe(Date.parse('2026-11-01T15:00:00Z'));
    expect(parseTimeBound('2026-11-01 12:00', '--since', utc)).toBe(Date.parse('2026-11-01T12:00:00Z'));
  });
  it.each(['anteontem', '7', '7x', '2026-13-01', '31/02/2026', '2026-02-30', '', '-7d'])('%j is refused (exit 2, naming the flag)', (text) => {
    expect(() => parseTimeBound(text, '--since', { now })).toThrow(/--since: use a duration/);
  });
});

describe('history flags and output', () => {
  it('historyQuery: defaults, filters, formats, conflicts', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(historyQuery({}, now)).toEqual({ query: { limit: 20 }, format: 'table' });
    expect(historyQuery({ json: true, limit: 'all' }, now)).toEqual({ query: { limit: -1 }, format: 'json' });
    expect(historyQuery({ since: '1d', until: '2026-11-23', kind: 'cash-out', outcome: 'not-sent', profile: 'prod', orderId: 'o-1', format: 'CSV' }, now)).toEqual({
      query: { limit: 20, since: '2026-11-22T12:00:00.000Z', until: '2026-11-24T00:00:00.000Z', kind: 'cashout', outcome: 'not_sent', profile: 'prod', orderId: 'o-1' },
      format: 'csv',
    });
    for (const bad of [
      { limit: '0' },
      { limit: '-1' },
      { limit: 'x' },
      { kind: 'pix' },
      { outcome: 'maybe' },
      { format: 'xml' },
      { json: true, format: 'csv' },
      { since: '1d', until: '2d' },
    ]) {
      expect(() => historyQuery(bad, now), JSON.stringify(bad)).toThrow();
    }
  });
  it('amounts for spreadsheets and CSV cells', () => {
    expect(amountBrl(123456)).toBe('1234,56');
    expect(amountBrl(5)).toBe('0,05');
    expect(amountBrl(100000000000)).toBe('1000000000,00');
    expect(csvCell('1234,56')).toBe('"1234,56"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+5511987654321')).toBe("'+5511987654321");
    expect(csvCell(1550)).toBe('1550');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('a\u001b[31mb')).toBe('ab'); // terminal escapes removed
  });
  it('the table fits 80 columns with long keys and large amounts', () => {
    const e = (id: number, value: number, pixKey: string): LedgerEntry => ({
      id,
      uuid: 'u',
      time: '2026-11-23T12:34:56.789Z',
      kind: 'cashout',
      value,
      target: 't',
      endpoint: 't',
      sandbox: true,
      profile: 'default',
      pixKeyType: 2,
      pixKey,
      allowDuplicate: false,
      outcome: 'not_sent',
      completed: true,
      fingerprint: 'f',
    });
    const text = formatHistory([e(1_000_000, 9_999_999_999, `${'a'.repeat(70)}@example.com`), e(2, 5, 'b@example.com')], 80, { portuguese: false, timeZone: 'America/Sao_Paulo' });
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(text.split('\n')).toEqual([
      '  ENTRY  TIME (UTC-03:00)  KIND                 AMOUNT  OUTCOME   TO / FROM',
      '1000000  2026-11-23 09:34  cash-out*  R$ 99.999.999,99  not_sent  aaaaaaaaaaaaa…',
      '      2  2026-11-23 09:34  cash-out*           R$ 0,05  not_sent  b@example.com',
    ]);
    expect(formatHistory([e(2, 5, 'b@example.com')])).toContain('R$ 0,05  not_sent  b@example.com');
    expect(formatHistory([e(2, 5, 'b@example.com')], 80, { portuguese: true, timeZone: 'America/Sao_Paulo' })).toContain('23/11/2026 09:34  cash-out*');
  });
  it('--by: user@host, user or @host; the BY column where it fits', () => {
    expect(parseBy('ana@ci-1')).toEqual({ user: 'ana', host: 'ci-1' });
    expect(parseBy(' ana ')).toEqual({ user: 'ana' });
    expect(parseBy('@ci-1')).toEqual({ host: 'ci-1' });
    expect(parseBy('ana@')).toEqual({ user: 'ana' });
    expect(parseBy('a@b@ci-1')).toEqual({ user: 'a@b', host: 'ci-1' }); // a host name has no @
    expect(parseBy(undefined)).toBeUndefined();
    for (const bad of ['', '@', ' @ ']) expect(() => parseBy(bad)).toThrow(/--by: use user@host, user or @host/);
    expect(historyQuery({ by: 'ana@ci-1' }).query).toEqual({ limit: 20, by: { user: 'ana', host: 'ci-1' } });

    const e = (id: number, pixKey: string, who: { user?: string; host?: string } = {}): LedgerEntry => ({
      id,
      uuid: 'u',
      time: '2026-11-23T12:34:56.789Z',
      kind: 'cashout',
      value: 1550,
      target: 't',
      endpoint: 't',
      sandbox: false,
      profile: 'default',
      pixKeyType: 2,
      pixKey,
      allowDuplicate: false,
      outcome: 'ok',
      completed: true,
      fingerprint: 'f',
      ...who,
    });
    const both = [e(2, 'b@example.com', { user: 'ana', host: 'ci-1' }), e(1, 'c@example.com')];
    expect(formatHistory(both).split('\n')).toEqual([
      'ENTRY  TIME (UTC)        BY        KIND        AMOUNT  OUTCOME  TO / FROM',
      '    2  2026-11-23 12:34  ana@ci-1  cash-out  R$ 15,50  ok       b@example.com',
      '    1  2026-11-23 12:34  ?         cash-out  R$ 15,50  ok       c@example.com',
    ]);
    // the key would be cut below 20 characters: no BY at 80 columns, BY on a wider terminal
    const long = [e(1, `${'k'.repeat(30)}@example.com`, { user: 'ana', host: 'ci-1' })];
    expect(formatHistory(long).split('\n')[0]).toBe('ENTRY  TIME (UTC)        KIND        AMOUNT  OUTCOME  TO / FROM');
    expect(formatHistory(long, 120).split('\n')[0]).toBe('ENTRY  TIME (UTC)        BY        KIND        AMOUNT  OUTCOME  TO / FROM');
    // nobody recorded for any entry: no BY column
    expect(formatHistory([e(1, 'c@example.com')], 200).split('\n')[0]).not.toContain('BY');
  });
});
