/**
 * `paycli auth login|status|logout` in process (test/helpers/run.ts) (docs/configuration.md "Where the API key is kept"):
 * against a real Secret Service (gnome-keyring in a private D-Bus session, `dbus-run-session`, its
 * keyring unlocked with a password on stdin, in a throw-away HOME), with `auth login` typed into a
 * real terminal (tmux); and without one (no D-Bus session), where the config file keeps the key.
 * The gateway is the test gateway, which refuses any other Authorization than the key's.
 */
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { useKeyGateway, useSecretService } from '../helpers/keyring.js';

const KEY = 'sk_test_AUTH_0123456789abcdef';
const { t, configText } = useKeyGateway(KEY);

/** A paycli home whose default profile sends to the test gateway; no key anywhere. */
async function profileOnGateway(env: Record<string, string | undefined>): Promise<void> {
  const r = await runPaycli(['config', 'set', 'base-url', t.gw.url], { env });
  expect(r.code, r.stderr).toBe(0);
}

describe('with a Secret Service (gnome-keyring in a private D-Bus session)', () => {
  const secrets = useSecretService();
  const env = (extra: Record<string, string | undefined> = {}) => ({
    ...t.home.env,
    DBUS_SESSION_BUS_ADDRESS: secrets.bus(),
    PAYCLI_BASE_URL: undefined,
    PAYCLI_API_KEY: undefined,
    ...extra,
  });

  it('config set api-key, header.<Name> and ledger-password keep their secret where auth login does: the keychain, no copy in the file', async () => {
    await profileOnGateway(env());
    const CS = 'cs_client_secret_0123456789';
    const PW = 'ledger_pw_0123456789';
    for (const [key, secret] of [
      ['api-key', KEY],
      ['header.X-Client-Secret', CS],
      ['ledger-password', PW],
    ] as const) {
      const r = await runPaycli(['config', 'set', key], { env: env(), input: secret });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`${key.replace('.', '\\.')} set in profile "default" \\(••••....\\); kept in the Secret Service keyring`));
      expect(r.stderr).not.toContain(secret);
    }
    const text = configText();
    for (const secret of [KEY, CS, PW]) expect(text).not.toContain(secret);
    expect(JSON.parse(text).profiles.default).toEqual({
      'base-url': t.gw.url,
      'api-key-store': 'keychain',
      'header-store.X-Client-Secret': 'keychain',
      'ledger-password-store': 'keychain',
    });
    expect((await runPaycli(['config', 'get', 'header.X-Client-Secret'], { env: env() })).stdout).toBe('••••6789\n');
    // a cash-out sends both from the keychain
    const before = t.gw.received.length;
    const cashout = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(cashout.code, cashout.stderr).toBe(0);
    const post = t.gw.received.slice(before).find((r) => r.method === 'POST')!;
    expect([post.headers.authorization, post.headers['x-client-secret']]).toEqual([`Bearer ${KEY}`, CS]);
    // unset removes the keychain's copy and the mark
    const un = await runPaycli(['config', 'unset', 'header.X-Client-Secret'], { env: env() });
    expect(un.code, un.stderr).toBe(0);
    expect(JSON.parse(configText()).profiles.default['header-store.X-Client-Secret']).toBeUndefined();
    const again = await runPaycli(['config', 'get', 'header.X-Client-Secret'], { env: env() });
    expect(again.code).toBe(2);
    expect((await runPaycli(['config', 'unset', 'ledger-password'], { env: env() })).code).toBe(0);
    expect((await runPaycli(['auth', 'logout'], { env: env() })).code).toBe(0);
  }, 60_000);

  it('a key the gateway refuses is not kept (exit 3); PAYCLI_API_KEY wins over the kept key', async () => {
    await profileOnGateway(env());
    const bad = await runPaycli(['auth', 'login'], { env: env(), input: 'sk_test_wrong_key_000000' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/refused this API key .*; nothing was kept/);
    expect(JSON.parse(configText()).profiles.default).toEqual({ 'base-url': t.gw.url });
    expect((await runPaycli(['auth', 'login'], { env: env(), input: `${KEY}\n` })).code).toBe(0);
    const st = await runPaycli(['--json', 'auth', 'status'], { env: env({ PAYCLI_API_KEY: 'sk_test_from_env_99999999' }) });
    expect(JSON.parse(st.stdout)).toMatchObject({ store: 'env', key: 'sk_t…9999', accepted: false });
    expect(st.code).toBe(3);
    expect((await runPaycli(['auth', 'logout'], { env: env() })).code).toBe(0);
  }, 60_000);
});

describe('without a Secret Service', () => {
  const env = (extra: Record<string, string | undefined> = {}) => ({
    ...t.home.env,
    DBUS_SESSION_BUS_ADDRESS: undefined,
    PAYCLI_BASE_URL: undefined,
    PAYCLI_API_KEY: undefined,
    ...extra,
  });
  it('config set api-key without a keychain: the 0600 config file, and the notice says so, as auth login', async () => {
    await profileOnGateway(env());
    const r = await runPaycli(['config', 'set', 'api-key'], { env: env(), input: KEY });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/api-key set in profile "default" \(••••cdef\); kept in the config file .*config\.json \(mode 0600\): no keychain to use/);
    expect(JSON.parse(configText()).profiles.default['api-key']).toBe(KEY);
  });
  it('a profile that is the built-in sandbox has no key to log in with: exit 2 before asking', async () => {
    const r = await runPaycli(['auth', 'login'], { env: env(), input: KEY });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sends to the built-in sandbox, which needs no API key; nothing was kept/);
  });
});
