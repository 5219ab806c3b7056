/** The one secret rule (src/core/secrets.ts), the header-name check and port parser (src/gateway/net.ts), the cause walker. */
import { afterEach, describe, expect, it } from 'vitest';
import { errorCodeOf } from '../../src/core/error-cause.js';
import {
  clearSecrets,
  isSecretKey,
  maskKeyEnds,
  maskSecret,
  redact,
  redactJson,
  registerProfileSecrets,
  registerRequestSecrets,
  registerSecret,
  shownSetting,
} from '../../src/core/secrets.js';
import { isHeaderName, isHttpUrl, parsePort } from '../../src/gateway/net.js';

afterEach(clearSecrets);

describe('secret keys', () => {
  it('api-key and every header.<Name> are secrets; other keys are not', () => {
    for (const k of ['api-key', 'header.cs', 'header.X-Client-Id', 'header.X-Session-Token', 'HEADER.ci']) expect(isSecretKey(k)).toBe(true);
    for (const k of ['base-url', 'auth-header', 'timeout', 'cashout-base-url']) expect(isSecretKey(k)).toBe(false);
  });
  it('masks: last 4 only from 16 characters', () => {
    expect(maskSecret('ab')).toBe('••••');
    expect(maskSecret('0123456789abcde')).toBe('••••');
    expect(maskSecret('0123456789abcdef')).toBe('••••cdef');
  });
  it('config values: secrets masked, URL user-info redacted', () => {
    expect(shownSetting('header.cs', 'x')).toBe('••••');
    expect(shownSetting('base-url', 'https://u:p@gw.example/v2')).toBe('https://[redacted]@gw.example/v2');
    expect(shownSetting('base-url', 'https://gw.example/v2')).toBe('https://gw.example/v2');
  });
});

describe('maskKeyEnds', () => {
  it('shows the first and last 4 characters, never more than half the key', () => {
    expect(maskKeyEnds('sk_live_0123456789abcdef')).toBe('sk_l…cdef');
    expect(maskKeyEnds('sk_12345')).toBe('sk…45');
    expect(maskKeyEnds('abcdefghijklmno')).toBe('abc…mno');
    expect(maskKeyEnds('key')).toBe('••••');
    for (let len = 1; len <= 40; len++) {
      const shown = maskKeyEnds('x'.repeat(len)).replace(/[…•]/g, '').length;
      expect(shown * 2).toBeLessThanOrEqual(len);
    }
  });
});

describe('redact', () => {
  it('hides a long secret anywhere, a short one as a whole word only', () => {
    registerSecret('longsecret');
    registerSecret('k9');
    expect(redact('xlongsecrety k9 Bearer k9, "k9" k99 ak9')).toBe('x[redacted]y [redacted] Bearer [redacted], "[redacted]" k99 ak9');
  });
  it('leaves a config key name whole around a short secret (api-key with the key "key")', () => {
    registerSecret('key');
    expect(redact('api-key=•••• auth_key Bearer key')).toBe('api-key=•••• auth_key Bearer [redacted]');
  });
  it('hides a one-character secret standing alone', () => {
    registerSecret('7');
    expect(redact('tenant 7; R$ 17,00')).toBe('tenant [redacted]; R$ 17,00');
  });
  it('hides the JSON-escaped form of a secret with quotes or backslashes', () => {
    registerSecret('a"b\\c-secret');
    expect(redact(JSON.stringify({ echo: 'a"b\\c-secret' }))).toBe('{"echo":"[redacted]"}');
  });
  it('hides the user-info of any URL, even unregistered', () => {
    expect(redact('base URL "ftp://alice:pw@gw.example/x" and http://tok@h:1/ but not fulano@example.com')).toBe(
      'base URL "ftp://[redacted]@gw.example/x" and http://[redacted]@h:1/ but not fulano@example.com',
    );
  });
  it('registers the secrets of a profile and of request settings', () => {
    registerProfileSecrets({ 'api-key': 'ab', 'header.cs': 'c5', 'base-url': 'https://us%65r:p%40ss@gw.example', timeout: '1000' });
    expect(redact('ab c5 1000 user p@ss')).toBe('[redacted] [redacted] 1000 [redacted] [redacted]');
    clearSecrets();
    registerRequestSecrets({ apiKey: 'KEY1', headers: { ci: 'id-1' }, baseUrl: 'https://gw.example' });
    expect(redactJson({ a: ['KEY1', { 'id-1': 'x' }] })).toEqual({ a: ['[redacted]', { '[redacted]': 'x' }] });
  });
});

describe('header names and ports', () => {
  it('header names are RFC 9110 tokens', () => {
    for (const n of ['X-Client-Id', 'cs', 'access_token', "a!#$%&'*+.^_`|~-9"]) expect(isHeaderName(n)).toBe(true);
    for (const n of ['', 'X Client', 'X:Y', 'é', 'a\nb', 'a"b']) expect(isHeaderName(n)).toBe(false);
  });
  it('ports are decimal 0-65535', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort(' 4010 ')).toBe(4010);
    expect(parsePort('65535')).toBe(65535);
    for (const t of ['65536', '-1', '+80', '0x10', '1e3', '80.0', '', '123456']) expect(parsePort(t)).toBeNull();
  });
});

describe('http(s) URLs', () => {
  it('absolute http(s) with a host, no whitespace inside', () => {
    for (const u of ['https://example.com/pix/postback', ' http://127.0.0.1:4011/ ', 'HTTPS://EXAMPLE.COM']) expect(isHttpUrl(u)).toBe(true);
    for (const u of ['ftp://example.com', 'example.com/x', 'https://', 'https://exa mple.com', 'https://example.com/a b', 'mailto:a@b.com', '']) expect(isHttpUrl(u)).toBe(false);
  });
});

describe('error causes', () => {
  it('finds the innermost meaningful code, skipping UND_ERR_SOCKET, bounded on cycles', () => {
    const inner = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    const socket = Object.assign(new Error('socket'), { code: 'UND_ERR_SOCKET', cause: inner });
    expect(errorCodeOf(new Error('fetch failed', { cause: socket }))).toBe('ECONNREFUSED');
    expect(errorCodeOf(Object.assign(new Error('s'), { code: 'UND_ERR_SOCKET' }))).toBe('UND_ERR_SOCKET');
    const a: { cause?: unknown } = {};
    a.cause = a;
    expect(errorCodeOf(a)).toBeUndefined();
    expect(errorCodeOf(undefined)).toBeUndefined();
  });
});
