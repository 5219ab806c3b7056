/**
 * Config trust (docs/configuration.md): paycli run in process (test/helpers/run.ts) against a
 * recording test gateway. A config file that says where money goes is refused when someone else
 * could have written it (symlink, another owner, writable by others) and warned about when others
 * can read it; a refusal sends nothing, for payments and `config` commands alike.
 */
import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_trust');
const configPath = () => join(t.home.env.PAYCLI_CONFIG_DIR!, 'config.json');
/** Writes a config whose default profile sends to the test gateway, with `mode`. */
const writeConfig = (mode: number, path = configPath()) => {
  mkdirSync(t.home.env.PAYCLI_CONFIG_DIR!, { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify({ profiles: { default: { 'base-url': t.gw.url, 'api-key': 'sk_test_trust' } } }), { mode });
  chmodSync(path, mode);
};
/** The home only: the config file decides where the payout goes. */
const env = () => ({ ...t.home.env });

describe('config trust', () => {
  it('readable by others: a warning naming chmod 600, the payout is sent', async () => {
    writeConfig(0o644);
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: the config file ${configPath()} can be read by other users (it may hold your API key); run: chmod 600 ${configPath()}`);
    expect(r.stderr.match(/chmod 600/g)).toHaveLength(1);
    expect(r.stdout).toContain('77');
    expect(t.gw.received).toHaveLength(1);
  });
  it('mode 600: no warning', async () => {
    writeConfig(0o600);
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('chmod');
  });
  it('a symlinked config: exit 2 config_untrusted, nothing sent (--json error document)', async () => {
    const real = join(t.home.dir, 'elsewhere.json');
    mkdirSync(t.home.env.PAYCLI_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    writeConfig(0o600, real);
    symlinkSync(real, configPath());
    const r = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({
      error: { code: 'config_untrusted', message: `the config file ${configPath()} is a symbolic link; paycli does not trust it and sent nothing` },
    });
    expect(t.gw.received).toHaveLength(0);
  });
  it('a config owned by another user is refused, by payments and config commands', async () => {
    writeConfig(0o600);
    chownSync(configPath(), 65534, 65534);
    const pay = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(pay.code).toBe(2);
    expect(pay.stdout).toBe('');
    expect(pay.stderr).toMatch(
      new RegExp(
        `^error: the config file ${configPath().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is owned by another user \\(uid 65534, you are \\d+\\); paycli does not trust it and sent nothing\\n`,
      ),
    );
    expect(pay.stderr).not.toMatch(/at .*\.c?js:\d+/);
    expect(t.gw.received).toHaveLength(0);
    const list = await runPaycli(['config', 'list'], { env: env() });
    expect(list.code).toBe(2);
    expect(list.stdout).toBe('');
    expect(list.stderr).toContain('is owned by another user');
  });
  it('writable by others is refused', async () => {
    writeConfig(0o666);
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`can be written by other users; paycli does not trust it and sent nothing\nhint: run: chmod 600 ${configPath()}`);
    expect(t.gw.received).toHaveLength(0);
  });
  it('a wrong type names the file and the key: exit 2 for payments and config commands, nothing sent', async () => {
    mkdirSync(t.home.env.PAYCLI_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    writeFileSync(configPath(), JSON.stringify({ profiles: { default: { 'base-url': t.gw.url, 'api-key': 'sk_test_trust', timeout: 30000 } } }), { mode: 0o600 });
    for (const args of [
      [...CASHOUT_ARGS, '--yes'],
      ['config', 'list'],
      ['config', 'set', 'timeout', '5000'],
    ]) {
      const r = await runPaycli(args, { env: env() });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(
        `error: the config file ${configPath()}: profiles.default.timeout must be a string, not a number; fix it (or set it again with paycli config set)`,
      );
    }
    writeFileSync(configPath(), JSON.stringify({ profiles: ['prod'] }));
    const arr = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: env() });
    expect(arr.code).toBe(2);
    expect(JSON.parse(arr.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ code: 'usage', field: 'profiles' });
    writeFileSync(configPath(), '{"profiles": {');
    const bad = await runPaycli(['config', 'get', 'base-url'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`error: the config file ${configPath()} is not valid JSON; fix or delete it`);
    expect(bad.stderr).not.toMatch(/at .*\.c?js:\d+/);
    expect(t.gw.received).toHaveLength(0);
  });
});
