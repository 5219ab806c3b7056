/** The endpoint value (src/gateway/endpoint.ts): parsed once from a base-URL setting; the ledger's target strings stay as they were. */
import { describe, expect, it } from 'vitest';
import { endpointHost, endpointSetting, endpointTarget, isSandbox, parseEndpoint } from '../../src/gateway/endpoint.js';
import { endpointIdentity } from '../../src/ledger/rules.js';

describe('endpoint', () => {
  it('parses `sandbox` as the built-in sandbox, anything else as a gateway URL', () => {
    expect(parseEndpoint('sandbox')).toEqual({ kind: 'sandbox' });
    expect(parseEndpoint('https://gw.example/api')).toEqual({ kind: 'gateway', url: 'https://gw.example/api' });
    expect(isSandbox(parseEndpoint('sandbox'))).toBe(true);
    expect(isSandbox(parseEndpoint('https://sandbox.gw.example'))).toBe(false);
  });
  it('records the same ledger target as the base URL string did', () => {
    expect(endpointTarget(parseEndpoint('sandbox'), '/transaction/cashout')).toBe('sandbox');
    expect(endpointTarget(parseEndpoint('https://gw.example/api/v2'), '/transaction/cashout')).toBe('https://gw.example/api/v2/transaction/cashout');
    expect(endpointTarget(parseEndpoint('https://gw.example/api/v2/'), '/transaction/qrcode/cashin')).toBe('https://gw.example/api/v2/transaction/qrcode/cashin');
    expect(endpointIdentity(endpointTarget(parseEndpoint('sandbox'), '/transaction/cashout'))).toBe('sandbox');
  });
  it('gives the host for summaries, or the sandbox wording; and the setting as written', () => {
    expect(endpointHost(parseEndpoint('http://127.0.0.1:4010/x'))).toBe('127.0.0.1:4010');
    expect(endpointHost(parseEndpoint('sandbox'))).toBe('SANDBOX');
    expect(endpointHost(parseEndpoint('sandbox'), 'SANDBOX - no money moves')).toBe('SANDBOX - no money moves');
    expect(endpointSetting(parseEndpoint('sandbox'))).toBe('sandbox');
    expect(endpointSetting(parseEndpoint('https://gw.example/api'))).toBe('https://gw.example/api');
  });
});
