/**
 * `paycli auth login|status|logout` end to end (docs/configuration.md "Where the API key is kept"):
 * against a real Secret Service (gnome-keyring in a private D-Bus session, `dbus-run-session`, its
 * keyring unlocked with a password on stdin, in a throw-away HOME), with `auth login` typed into a
 * real terminal (tmux); and without one (no D-Bus session), where the config file keeps the key.
 * The gateway is the test gateway, which refuses any other Authorization than the key's.
 * Here only what needs a process of its own: a terminal (the hidden prompt) and the keychain's D-Bus connection, made once per process; the rest runs in process:
 * test/inprocess/auth.test.ts.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, runPaycli } from '../helpers/cli.js';
import { useKeyGateway, useSecretService } from '../helpers/keyring.js';
import { startTty } from '../helpers/tty.js';

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

  it('auth login in a terminal keeps the key in the keychain; config.json holds none; a cash-out sends it; logout removes it', async () => {
    await profileOnGateway(env());
    const tty = startTty(['auth', 'login'], Object.fromEntries(Object.entries(env()).filter((e): e is [string, string] => e[1] !== undefined)), t.home.dir);
    try {
      await tty.waitFor('API key');
      tty.answer(KEY);
      expect(await tty.exitCode()).toBe(0);
      const screen = tty.screen();
      expect(screen).toMatch(/accepts the API key \(sk_t…cdef\) for profile "default"; kept in the Secret Service keyring/);
      expect(screen).not.toContain(KEY);
    } finally {
      tty.kill();
    }
    expect(configText()).not.toContain(KEY);
    expect(JSON.parse(configText()).profiles.default).toEqual({ 'base-url': t.gw.url, 'api-key-store': 'keychain' });

    const status = await runPaycli(['auth', 'status'], { env: env() });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toBe(
      `Profile   default\nGateway   ${new URL(t.gw.url).host}\nKept in   the Secret Service keyring\nKey       sk_t…cdef\nAccepted  yes, the gateway accepts the key\n`,
    );
    const list = await runPaycli(['config', 'list'], { env: env() });
    expect(list.stdout).not.toContain(KEY);

    const before = t.gw.received.length;
    const cashout = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(cashout.code, cashout.stderr).toBe(0);
    const post = t.gw.received.slice(before).find((r) => r.method === 'POST');
    expect(post?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(cashout.stdout + cashout.stderr).not.toContain(KEY);

    const out = await runPaycli(['auth', 'logout'], { env: env() });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/API key of profile "default" removed from the Secret Service keyring/);
    expect(JSON.parse(configText()).profiles.default).toEqual({ 'base-url': t.gw.url });
    const after = await runPaycli(['--json', 'auth', 'status'], { env: env() });
    expect(after.code).toBe(3);
    expect(JSON.parse(after.stdout)).toMatchObject({ profile: 'default', store: 'none', key: null, accepted: null });
    // and the keychain itself holds nothing any more: marked again by hand, the profile finds no key
    await runPaycli(['config', 'set', 'api-key-store', 'keychain'], { env: env() });
    const sent = t.gw.received.length;
    const none = await runPaycli([...CASHOUT_ARGS, '--value', '1660', '--yes'], { env: env() });
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no API key for profile "default"/);
    expect(t.gw.received.slice(sent).some((r) => r.headers.authorization !== undefined)).toBe(false);
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

  it('auth login keeps the key in the 0600 config file and says so; auth status says where; logout removes it', async () => {
    await profileOnGateway(env());
    const r = await runPaycli(['auth', 'login'], { env: env(), input: KEY });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /accepts the API key \(sk_t…cdef\) for profile "default"; kept in the config file .*config\.json \(mode 0600\): no keychain to use \(no D-Bus session bus, so no Secret Service\)/,
    );
    expect(JSON.parse(configText()).profiles.default['api-key']).toBe(KEY);
    expect(statSync(join(t.home.env.PAYCLI_CONFIG_DIR!, 'config.json')).mode & 0o777).toBe(0o600);
    const st = await runPaycli(['auth', 'status'], { env: env() });
    expect(st.code, st.stderr).toBe(0);
    expect(st.stdout).toMatch(/^Kept in   the config file .*config\.json$/m);
    expect(st.stdout).toMatch(/^Key       sk_t…cdef$/m);
    expect(st.stdout).not.toContain(KEY);
    const cashout = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(cashout.code, cashout.stderr).toBe(0);
    const out = await runPaycli(['auth', 'logout'], { env: env() });
    expect(out.stderr).toMatch(/removed from the config file/);
    expect(configText()).not.toContain(KEY);
  });
});
