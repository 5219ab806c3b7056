/** The team ledger's connect timeout (src/ledger/pg/opening.ts): libpq's PGCONNECT_TIMEOUT, never unlimited. */
import { describe, expect, it } from 'vitest';
import { connectTimeoutMs, PG_CONNECT_TIMEOUT_MS } from '../../src/ledger/pg/opening.js';

describe('connectTimeoutMs', () => {
  it('10 s without PGCONNECT_TIMEOUT', () => {
    expect(PG_CONNECT_TIMEOUT_MS).toBe(10_000);
    expect(connectTimeoutMs(undefined)).toBe(10_000);
  });

  it('PGCONNECT_TIMEOUT in whole seconds, at least 2 as libpq rounds it', () => {
    expect(connectTimeoutMs('45')).toBe(45_000);
    expect(connectTimeoutMs(' 3 ')).toBe(3_000);
    expect(connectTimeoutMs('1')).toBe(2_000);
  });

  it('0 (libpq: forever), negative, fractional or not a number keep the 10 s: a dead host still fails closed', () => {
    for (const v of ['0', '-5', '2.5', 'abc', '', '9999999']) expect(connectTimeoutMs(v), v).toBe(10_000);
  });
});
