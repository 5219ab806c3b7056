/**
 * Configuration and profiles (precedence flags > environment > profile, unknown keys,
 * secrets never taken as arguments), colour control (NO_COLOR, --no-color) in a real terminal,
 * and --qr-file with both forms of qrCodeBase64.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { CASHIN_OK, json, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startTty } from '../helpers/tty.js';

let home: Home;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => home.cleanup());

const KEY = 'sk_live_CONFIG_0123456789abcdef';

describe('paycli config', () => {
  it('set, get, list, unset and path, per profile', async () => {
    const e = home.env;
    expect((await runPaycli(['config', 'set', 'base-url', 'https://api.gateway.example'], { env: e })).code).toBe(0);
    expect((await runPaycli(['config', 'set', 'timeout', '5000', '--profile', 'prod', '--create'], { env: e })).code).toBe(0);
    expect((await runPaycli(['config', 'get', 'base-url'], { env: e })).stdout).toBe('https://api.gateway.example\n');
    expect((await runPaycli(['config', 'get', 'timeout'], { env: e })).code).toBe(2); // not in "default"
    expect((await runPaycli(['config', 'get', 'timeout'], { env: { ...e, PAYCLI_PROFILE: 'prod' } })).stdout).toBe('5000\n');
    expect((await runPaycli(['config', 'list', '--profile', 'prod'], { env: e })).stdout).toBe('timeout=5000\n');
    expect(JSON.parse((await runPaycli(['--json', 'config', 'list'], { env: e })).stdout)).toEqual({ profile: 'default', values: { 'base-url': 'https://api.gateway.example' } });
    expect((await runPaycli(['config', 'unset', 'base-url'], { env: e })).code).toBe(0);
    const empty = await runPaycli(['config', 'list'], { env: e });
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toMatch(/profile "default" has no settings/);
    const path = (await runPaycli(['config', 'path'], { env: e })).stdout.trim();
    expect(path).toBe(join(e.PAYCLI_CONFIG_DIR!, 'config.json'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profiles: { default: {}, prod: { timeout: '5000' } } });
  });

  it('refuses unknown keys with the list of valid ones, and bad values', async () => {
    const r = await runPaycli(['config', 'set', 'base_url', 'https://x.example'], { env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /unknown config key "base_url"; valid keys: base-url, cashin-base-url, cashout-base-url, api-key, api-key-store, auth-header, allow-insecure-http, lang, timeout, settle-after, duplicate-window, order-id, lookup, lookup-base-url, status-path, status-by-order-path, ledger-url, ledger-password, balance-path, header\.<Name>/,
    );
    expect((await runPaycli(['config', 'set', 'timeout', '30 seconds'], { env: home.env })).code).toBe(2);
    // one duration syntax: 30s, and duplicate-window 1h, are taken (a plain number keeps its unit)
    expect((await runPaycli(['config', 'set', 'timeout', '30s'], { env: home.env })).code).toBe(0);
    expect((await runPaycli(['config', 'set', 'duplicate-window', '1h'], { env: home.env })).code).toBe(0);
    const bad = await runPaycli(['config', 'set', 'duplicate-window', '90s'], { env: home.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('the window must be a duration of whole minutes');
    expect((await runPaycli(['config', 'set', 'base-url', 'ftp://x.example'], { env: home.env })).code).toBe(2);
    expect(existsSync(join(home.env.PAYCLI_CONFIG_DIR!, 'config.json')) ? readFileSync(join(home.env.PAYCLI_CONFIG_DIR!, 'config.json'), 'utf8') : '{}').not.toContain('x.example');
  });

  it('never takes the API key as an argument (shell history); reads it from stdin and masks it', async () => {
    const r = await runPaycli(['config', 'set', 'api-key', KEY], { env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/do not pass api-key as an argument/);
    expect(r.stderr).not.toContain(KEY);
    expect((await runPaycli(['config', 'list'], { env: home.env })).stdout).not.toContain('api-key');
    expect((await runPaycli(['config', 'set', 'api-key'], { env: home.env, input: `${KEY}\n` })).code).toBe(0);
    const got = await runPaycli(['config', 'get', 'api-key'], { env: home.env });
    expect(got.stdout).toBe('••••cdef\n');
    expect(got.stdout + got.stderr).not.toContain(KEY);
  });
});

describe('precedence: flags over environment over profile', () => {
  let fromProfile: TestGateway;
  let fromEnv: TestGateway;
  let fromFlag: TestGateway;
  beforeEach(async () => {
    [fromProfile, fromEnv, fromFlag] = await Promise.all([startGateway(), startGateway(), startGateway()]);
  });
  afterEach(() => Promise.all([fromProfile.close(), fromEnv.close(), fromFlag.close()]));

  it('base URL and profile selection', async () => {
    const e = { ...home.env, PAYCLI_API_KEY: KEY };
    await runPaycli(['config', 'set', 'base-url', fromProfile.url, '--profile', 'prod', '--create'], { env: e });
    expect((await runPaycli(['--profile', 'prod', ...CASHIN_ARGS], { env: e })).code).toBe(0);
    expect((await runPaycli(CASHIN_ARGS, { env: { ...e, PAYCLI_PROFILE: 'prod' } })).code).toBe(0);
    expect(fromProfile.received).toHaveLength(2);
    expect((await runPaycli(CASHIN_ARGS, { env: { ...e, PAYCLI_PROFILE: 'prod', PAYCLI_BASE_URL: fromEnv.url } })).code).toBe(0);
    expect(fromEnv.received).toHaveLength(1);
    expect((await runPaycli(['--base-url', fromFlag.url, ...CASHIN_ARGS], { env: { ...e, PAYCLI_PROFILE: 'prod', PAYCLI_BASE_URL: fromEnv.url } })).code).toBe(0);
    expect(fromFlag.received).toHaveLength(1);
    expect([fromProfile.received.length, fromEnv.received.length]).toEqual([2, 1]);
    // a default profile that names no gateway is the built-in sandbox, and says so
    const none = await runPaycli(CASHIN_ARGS, { env: home.env });
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/built-in sandbox; no money moves/);
  });

  it('the API key: PAYCLI_API_KEY over the profile', async () => {
    await runPaycli(['config', 'set', 'api-key'], { env: home.env, input: 'sk_profile_key_0123456789' });
    await runPaycli(['config', 'set', 'base-url', fromProfile.url], { env: home.env });
    await runPaycli(CASHIN_ARGS, { env: home.env });
    await runPaycli(CASHIN_ARGS, { env: { ...home.env, PAYCLI_API_KEY: KEY } });
    expect(fromProfile.received.map((r) => r.headers.authorization)).toEqual(['Bearer sk_profile_key_0123456789', `Bearer ${KEY}`]);
  });
});

describe('--qr-file', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startGateway();
  });
  afterEach(() => gw.close());
  const tinyPng = () => {
    const png = new PNG({ width: 2, height: 2 });
    png.data.fill(255);
    return PNG.sync.write(png);
  };

  it('accepts a data:image/png;base64 URL as well as raw base64', async () => {
    const bytes = tinyPng();
    for (const qrCodeBase64 of [`data:image/png;base64,${bytes.toString('base64')}`, bytes.toString('base64')]) {
      gw.respond((_req, res) => json(res, 200, { ...CASHIN_OK, qrCodeBase64 }));
      const file = join(home.dir, `qr-${gw.received.length}.png`);
      const r = await runPaycli([...CASHIN_ARGS, '--qr-file', file], { env: { ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY } });
      expect(r.code).toBe(0);
      expect(readFileSync(file).equals(bytes)).toBe(true);
    }
  });

  it('a qrCodeBase64 that is not a PNG: the result is printed, nothing written, exit 5', async () => {
    gw.respond((_req, res) => json(res, 200, { ...CASHIN_OK, qrCodeBase64: Buffer.from('<html>').toString('base64') }));
    const file = join(home.dir, 'qr.png');
    const r = await runPaycli([...CASHIN_ARGS, '--qr-file', file], { env: { ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY } });
    expect(r.code).toBe(5);
    expect(r.stdout).toMatch(/^Transaction ID\s+4242$/m);
    expect(r.stderr).toMatch(/the cash-in was created \(transaction 4242\), but qrCodeBase64 is not a base64 PNG image; nothing was written/);
    expect(existsSync(file)).toBe(false);
  });
});

describe('colour in a real terminal', () => {
  const RED = '\u001b[31m';
  const run = async (args: string[], env: Record<string, string>) => {
    const tty = startTty(args, env, home.dir);
    try {
      expect(await tty.exitCode()).toBe(2);
      return tty.rawScreen();
    } finally {
      tty.kill();
    }
  };

  it('errors are red on a terminal; NO_COLOR and --no-color turn colour off', async () => {
    const args = ['--no-input', ...CASHOUT_ARGS.slice(0, 3)];
    expect(await run(args, home.env)).toContain(RED);
    expect(await run(args, { ...home.env, NO_COLOR: '1' })).not.toMatch(/\u001b\[3\dm/);
    expect(await run(['--no-color', ...args], home.env)).not.toMatch(/\u001b\[3\dm/);
  });
});
