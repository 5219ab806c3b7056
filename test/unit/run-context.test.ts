/**
 * The safety logic behind the CLI layer, in process: the terminal policy (prompt, colour), the one
 * settings precedence rule, and the outcome of an error (message and exit code). The end-to-end
 * tests check the same rules through the built CLI.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { report, toPaycliError } from '../../src/cli/action.js';
import { ExitCode, InternalError, UsageError } from '../../src/core/errors.js';
import { settingsFrom, type ConfigFile } from '../../src/config/settings.js';
import { canPrompt, wantsColor } from '../../src/core/terminal.js';

const tty = (stdin: boolean, stdout: boolean, stderr = stdout) => ({ stdin, stdout, stderr });

describe('canPrompt: only when stdin and stdout are terminals and nothing says no', () => {
  const cases: Array<[string, boolean, boolean, { noInput?: boolean }, NodeJS.ProcessEnv, boolean]> = [
    ['both terminals', true, true, {}, {}, true],
    ['stdin piped', false, true, {}, {}, false],
    ['stdout piped', true, false, {}, {}, false],
    ['--no-input', true, true, { noInput: true }, {}, false],
    ['PAYCLI_NO_INPUT=1', true, true, {}, { PAYCLI_NO_INPUT: '1' }, false],
    ['PAYCLI_NO_INPUT=true', true, true, {}, { PAYCLI_NO_INPUT: 'true' }, false],
    ['PAYCLI_NO_INPUT=0', true, true, {}, { PAYCLI_NO_INPUT: '0' }, true],
  ];
  for (const [name, stdin, stdout, flags, env, expected] of cases) {
    it(`${name} → ${expected}`, () => expect(canPrompt(flags, { isTTY: tty(stdin, stdout), env })).toBe(expected));
  }
});

describe('wantsColor: stderr a terminal, no --no-color, NO_COLOR or TERM=dumb', () => {
  it('colours a terminal stderr by default', () => expect(wantsColor(false, { isTTY: tty(false, false, true), env: {} })).toBe(true));
  it('never when stderr is not a terminal', () => expect(wantsColor(false, { isTTY: tty(true, true, false), env: {} })).toBe(false));
  it('--no-color, NO_COLOR (any non-empty value), TERM=dumb turn it off; an empty NO_COLOR does not', () => {
    const t = tty(true, true, true);
    expect(wantsColor(true, { isTTY: t, env: {} })).toBe(false);
    expect(wantsColor(false, { isTTY: t, env: { NO_COLOR: '0' } })).toBe(false);
    expect(wantsColor(false, { isTTY: t, env: { TERM: 'dumb' } })).toBe(false);
    expect(wantsColor(false, { isTTY: t, env: { NO_COLOR: '' } })).toBe(true);
  });
});

describe('settings precedence: flags, then environment, then profile, then defaults', () => {
  const config: ConfigFile = {
    profiles: {
      default: { 'base-url': 'https://default.gw.example', 'api-key': 'profile-key', timeout: '5000' },
      prod: { 'base-url': 'https://prod.gw.example', 'cashout-base-url': 'https://payouts.gw.example', 'api-key': 'prod-key' },
      nourl: { 'api-key': 'k' },
      plain: { lang: 'en', timeout: '5000', 'duplicate-window': '0', 'settle-after': '90s', 'order-id': 'off', lookup: 'off' },
    },
  };
  const settings = (flags: Record<string, string | boolean>, env: NodeJS.ProcessEnv = {}, op: 'cashin' | 'cashout' | 'lookup' = 'cashin', cfg = config) =>
    settingsFrom({ flags, env, config: cfg, op });
  const host = (s: ReturnType<typeof settings>) => (s.endpoint.kind === 'gateway' ? new URL(s.endpoint.url).host : 'sandbox');

  it('the profile gives the base URL, key and timeout; defaults fill the rest', () => {
    const s = settings({});
    expect([s.profile, host(s), s.apiKey, s.timeoutMs, s.duplicateWindowMin]).toEqual(['default', 'default.gw.example', 'profile-key', 5000, 10]);
  });
  it('PAYCLI_PROFILE chooses the profile; --profile wins over it', () => {
    expect(settings({}, { PAYCLI_PROFILE: 'prod' }).profile).toBe('prod');
    expect(settings({ profile: 'default' }, { PAYCLI_PROFILE: 'prod' }).profile).toBe('default');
  });
  it('PAYCLI_BASE_URL beats the profile; --base-url beats both', () => {
    expect(host(settings({}, { PAYCLI_BASE_URL: 'https://env.gw.example' }))).toBe('env.gw.example');
    expect(host(settings({ baseUrl: 'https://flag.gw.example' }, { PAYCLI_BASE_URL: 'https://env.gw.example' }))).toBe('flag.gw.example');
  });
  it('PAYCLI_API_KEY beats the profile key; --timeout beats the profile timeout', () => {
    expect(settings({}, { PAYCLI_API_KEY: 'env-key' }).apiKey).toBe('env-key');
    expect(settings({ timeout: '1000' }).timeoutMs).toBe(1000);
  });
  it('cashout-base-url is used for cash-outs only', () => {
    expect(host(settings({ profile: 'prod' }, {}, 'cashout'))).toBe('payouts.gw.example');
    expect(host(settings({ profile: 'prod' }, {}, 'cashin'))).toBe('prod.gw.example');
  });
  it('fail closed: an unknown profile by flag or environment is unknown_profile with "did you mean"; never the sandbox', () => {
    for (const [flags, env] of [
      [{ profile: 'prdo' }, {}],
      [{}, { PAYCLI_PROFILE: 'Prod' }],
    ] as const) {
      let err: unknown;
      try {
        settings(flags, env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).code).toBe('unknown_profile');
      expect((err as UsageError).exitCode).toBe(ExitCode.USAGE);
      expect((err as UsageError).message).toContain('did you mean prod?');
    }
  });
  it('the sandbox only with no gateway setting at all: a credential, a header or a half set-up profile without base-url is an error', () => {
    expect(settings({ profile: 'plain' }).endpoint).toEqual({ kind: 'sandbox' });
    expect(() => settings({ profile: 'nourl' })).toThrow(/no `base-url` for cash-ins \(profile "nourl"\), while api-key is set/);
    expect(() => settings({ profile: 'plain' }, { PAYCLI_API_KEY: 'k' })).toThrow(/while PAYCLI_API_KEY is set/);
    expect(() => settings({ profile: 'plain', allowInsecureHttp: true })).toThrow(/while --allow-insecure-http is set/);
    for (const keys of [{ 'header.X-Cs': 'v' }, { 'api-key-store': 'keychain' }, { 'auth-header': 'X-Key' }, { 'balance-path': '/b' }] as Array<Record<string, string>>) {
      expect(() => settingsFrom({ flags: {}, env: {}, config: { profiles: { default: keys } }, op: 'cashout' })).toThrow(UsageError);
    }
    expect(() => settingsFrom({ flags: { profile: 'half' }, env: {}, config: { profiles: { half: { 'cashout-base-url': 'https://gw.example' } } }, op: 'cashin' })).toThrow(
      /no `base-url` for cash-ins \(profile "half"\), while cashout-base-url is set/,
    );
    expect(settings({ profile: 'nourl', baseUrl: 'sandbox' }, { PAYCLI_API_KEY: 'k' }).endpoint).toEqual({ kind: 'sandbox' });
    expect(settings({ baseUrl: 'sandbox' }).endpoint).toEqual({ kind: 'sandbox' });
    expect(settingsFrom({ flags: {}, env: {}, config: {}, op: 'cashin' }).endpoint).toEqual({ kind: 'sandbox' });
  });
  it('a timeout out of range is a usage error naming its source', () => {
    expect(() => settings({ timeout: '2147483648' })).toThrow(/--timeout/);
    expect(() => settings({}, {}, 'cashin', { profiles: { default: { 'base-url': 'https://gw.example', timeout: '0' } } })).toThrow(/config key timeout \(profile default\)/);
  });
  it('settle-after below one minute is refused for a gateway outside this machine, allowed for the sandbox and loopback', () => {
    const remote =
      (value: string, url = 'https://gw.example') =>
      () =>
        settingsFrom({ flags: {}, env: {}, config: { profiles: { default: { 'base-url': url, 'settle-after': value } } }, op: 'cashout' });
    for (const value of ['0', '59s', '59999ms']) {
      let err: unknown;
      try {
        remote(value)();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(ExitCode.USAGE);
      expect((err as UsageError).message).toMatch(/config key settle-after \(profile default\): settle-after \d+ ms is below 60s/);
    }
    expect(() => settings({}, { PAYCLI_SETTLE_AFTER: '0' })).toThrow(/^PAYCLI_SETTLE_AFTER: settle-after 0 ms is below 60s/);
    expect(remote('60s')().settleAfterMs).toBe(60_000);
    expect(remote('0', 'http://127.0.0.1:8080')().settleAfterMs).toBe(0);
    expect(remote('0', 'http://localhost:8080')().settleAfterMs).toBe(0);
    expect(remote('0', 'http://[::1]:8080')().settleAfterMs).toBe(0);
    expect(remote('0', 'sandbox')().settleAfterMs).toBe(0);
    expect(settings({})).toMatchObject({ settleAfterMs: 120_000 });
  });
});

describe('the outcome of an error', () => {
  afterEach(() => vi.restoreAllMocks());
  const captureStderr = () => {
    let text = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      text += String(chunk);
      return true;
    });
    return () => text;
  };

  it('a typed error keeps its code and exit code', () => {
    const e = new UsageError('bad flag', { field: '--value' });
    expect(toPaycliError(e)).toBe(e);
  });
  it('a plain Error (a bug) is internal_error, exit 70, never a gateway failure', () => {
    const e = toPaycliError(new TypeError('x is undefined'));
    expect(e).toBeInstanceOf(InternalError);
    expect([e.code, e.exitCode]).toEqual(['internal_error', 70]);
    expect(e.message).toMatch(/^internal error: x is undefined \(a bug in paycli/);
  });
  it('a closed prompt (Ctrl-C at a question) is interrupted, exit 130, nothing sent', () => {
    const closed = Object.assign(new Error('User force closed the prompt'), { name: 'ExitPromptError' });
    const e = toPaycliError(closed);
    expect([e.exitCode, e.message]).toEqual([130, 'interrupted: nothing was sent']);
  });
  it('report() prints one JSON error document with --json and returns the exit code; no stack without --verbose', () => {
    const stderr = captureStderr();
    expect(report(new Error('boom'), true, false)).toBe(70);
    const lines = stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({ error: { code: 'internal_error', message: expect.stringContaining('internal error: boom') } });
  });
  it('report() with --verbose adds the stack trace', () => {
    const stderr = captureStderr();
    expect(report(new Error('boom'), false, true)).toBe(70);
    expect(stderr()).toMatch(/error: internal error: boom[\s\S]*\n\s+at /);
  });
});
