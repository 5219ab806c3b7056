/**
 * Money safety from structure (docs/output-for-scripts.md "Exit codes", docs/configuration.md), in process:
 * paycli run through its run context (test/helpers/run.ts) against a test gateway on 127.0.0.1, asserting stdout, stderr, the exit code
 * and how many requests reached the gateway.
 * - a profile that does not exist, or one half set up (a base URL for the other operation only),
 *   never falls back to the sandbox;
 * - an answer wrong about money, or a result that cannot be written out, ends with exit 6 after
 *   the payment is printed and recorded;
 * - what can be checked before sending (the --qr-file path, the timeout) is checked before sending;
 * - the confirmation says where the money goes; nothing is asked of someone who cannot send.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { CASHOUT_OK, json, useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_safety');
const writeConfig = (profiles: Record<string, Record<string, string>>) => {
  mkdirSync(t.home.env.PAYCLI_CONFIG_DIR!, { recursive: true, mode: 0o700 });
  writeFileSync(join(t.home.env.PAYCLI_CONFIG_DIR!, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
};
/** The home without PAYCLI_BASE_URL: the profile decides. */
const homeOnly = (extra: Record<string, string> = {}) => ({ ...t.home.env, PAYCLI_API_KEY: 'sk_test_safety', ...extra });

describe('profiles never fall back to the sandbox', () => {
  it('a mistyped --profile: exit 2 unknown_profile, "did you mean", nothing sent', async () => {
    writeConfig({ prod: { 'base-url': t.gw.url } });
    const r = await runPaycli(['--json', '--profile', 'prdo', ...CASHOUT_ARGS, '--yes'], { env: homeOnly() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({
      error: { code: 'unknown_profile', message: 'unknown profile "prdo" (--profile): did you mean prod?; nothing was sent' },
    });
    expect(r.stderr).not.toContain('sandbox');
    expect(t.gw.received).toHaveLength(0);
  });
  it('PAYCLI_PROFILE in another case: exit 2, did you mean prod', async () => {
    writeConfig({ prod: { 'base-url': t.gw.url } });
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: homeOnly({ PAYCLI_PROFILE: 'Prod' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown profile "Prod" \(PAYCLI_PROFILE\): did you mean prod\?; nothing was sent\nhint: configured profiles: prod/);
    expect(t.gw.received).toHaveLength(0);
  });
  it('a profile naming a gateway for the other operation only is an error, not the sandbox', async () => {
    writeConfig({ prod: { 'cashout-base-url': t.gw.url, 'api-key': 'sk_live_x' } });
    const r = await runPaycli(['--profile', 'prod', ...CASHIN_ARGS], { env: homeOnly() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: no `base-url` for cash-ins \(profile "prod"\), while PAYCLI_API_KEY, cashout-base-url, api-key are set: .*nothing was sent/);
    expect(r.stderr).not.toMatch(/no money moves/);
  });
  it('the sandbox by name, or with no configuration at all, still works', async () => {
    writeConfig({ prod: { 'base-url': t.gw.url } });
    expect((await runPaycli(['--base-url', 'sandbox', ...CASHIN_ARGS], { env: homeOnly() })).code).toBe(0);
    const fresh = await runPaycli(CASHIN_ARGS, { env: { PAYCLI_CONFIG_DIR: join(t.home.dir, 'none'), PAYCLI_DATA_DIR: join(t.home.dir, 'd2'), HOME: t.home.dir } });
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toMatch(/no money moves/);
  });
  it('a credential or any gateway setting without a base URL: exit 2 naming base-url, nothing sent, never the sandbox', async () => {
    const none = { PAYCLI_CONFIG_DIR: join(t.home.dir, 'none'), PAYCLI_DATA_DIR: join(t.home.dir, 'none-data'), HOME: t.home.dir };
    const cases: Array<[string, Record<string, Record<string, string>> | undefined, Record<string, string | undefined>]> = [
      ['PAYCLI_API_KEY', undefined, { ...none, PAYCLI_API_KEY: 'sk_live_x' }],
      ['api-key', { default: { 'api-key': 'sk_live_x' } }, t.home.env],
      ['api-key-store', { default: { 'api-key-store': 'keychain' } }, t.home.env],
      ['header.X-Client-Secret', { default: { 'header.X-Client-Secret': 'cs_x' } }, t.home.env],
      ['auth-header', { default: { 'auth-header': 'X-Api-Key', timeout: '5000' } }, t.home.env],
    ];
    for (const [setting, profiles, env] of cases) {
      if (profiles) writeConfig(profiles);
      for (const args of [[...CASHOUT_ARGS, '--yes'], CASHIN_ARGS]) {
        const r = await runPaycli(['--json', ...args], { env });
        expect(r.code, setting).toBe(2);
        expect(r.stdout).toBe('');
        const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
        expect(err).toMatchObject({ code: 'usage', field: 'base-url' });
        expect(err.message).toContain('no `base-url`');
        expect(err.message).toContain(setting);
        expect(r.stderr).not.toMatch(/no money moves|sk_live_x|cs_x/);
      }
    }
    // nothing was recorded either: the ledger of the home has no payment
    const h = await runPaycli(['--json', 'history'], { env: t.home.env });
    expect(JSON.parse(h.stdout)).toEqual([]);
    expect(t.gw.received).toHaveLength(0);
    // a profile that sets only what the sandbox uses too (lang, timeout) is still "nothing configured"
    writeConfig({ default: { lang: 'en', timeout: '5000', 'duplicate-window': '0' } });
    expect((await runPaycli(CASHIN_ARGS, { env: t.home.env })).code).toBe(0);
  });
  it('what the sandbox produced says so inside the document: --json, batch results, history', async () => {
    const env = { PAYCLI_CONFIG_DIR: join(t.home.dir, 'sb'), PAYCLI_DATA_DIR: join(t.home.dir, 'sb-data'), HOME: t.home.dir };
    const out = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ sandbox: true });
    const cin = await runPaycli(['--json', '--base-url', 'sandbox', ...CASHIN_ARGS], { env });
    expect(JSON.parse(cin.stdout)).toMatchObject({ sandbox: true });
    const file = join(t.home.dir, 'sb-payouts.csv');
    writeFileSync(file, 'value,pix-key-type,pix-key,person-name,person-email,person-phone\n1234,email,a@example.com,Fornecedor A,a@example.com,11987654321\n');
    const b = await runPaycli(['cashout', '--batch', file, '--yes', '--json'], { env });
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout.trim())).toMatchObject({ outcome: 'ok', sandbox: true });
    const csv = readFileSync(`${file}.results.csv`, 'utf8').trim().split('\n');
    expect(csv[0]!.split(',').at(-1)).toBe('sandbox');
    expect(csv[1]!.split(',').at(-1)).toBe('true');
    const h = await runPaycli(['--json', 'history'], { env });
    const entries = JSON.parse(h.stdout) as Array<{ sandbox: boolean }>;
    expect(entries).toHaveLength(3);
    expect(entries.every((e) => e.sandbox === true)).toBe(true);
    // a gateway's result says sandbox: false, and the gateway's answer under `gateway` is left as it came
    const gw = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(gw.code).toBe(0);
    expect(JSON.parse(gw.stdout).sandbox).toBe(false);
    expect(JSON.parse(gw.stdout).gateway.sandbox).toBeUndefined();
  });
  it('paycli config profiles lists every profile and where it sends, no secret', async () => {
    writeConfig({ default: { 'base-url': 'https://u:pw@gw.example/api' }, prod: { 'base-url': t.gw.url, 'api-key': 'sk_live_secret' } });
    const r = await runPaycli(['--json', 'config', 'profiles'], { env: homeOnly({ PAYCLI_PROFILE: 'prod' }) });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.profiles.map((p: { name: string; active: boolean; apiKey: boolean }) => [p.name, p.active, p.apiKey])).toEqual([
      ['default', false, false],
      ['prod', true, true],
    ]);
    expect(r.stdout).not.toMatch(/pw|sk_live_secret/);
    const h = await runPaycli(['config', 'profiles'], { env: homeOnly() });
    expect(h.stdout).toMatch(/^\* default +https:\/\/.*gw\.example\/api \(no API key\)\n {2}prod +http:\/\/127\.0\.0\.1:\d+\n$/);
  });
});

describe('answers wrong about money: printed, recorded, exit 6', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['status 2 (failed) at creation', { status: '2' }, /the gateway created the cash-out with status 2 \(failed\): check whether the money moved/],
    ['status 4 (refund) at creation', { status: '4' }, /status 4 \(refund\)/],
    ['gross other than requested', { gross: 1500, liquid: '1435' }, /the gateway's gross amount \(R\$ 15,00\) differs from the requested R\$ 15,50/],
    ['tax greater than gross', { tax: '2000', liquid: '-450' }, /the gateway's fee \(R\$ 20,00\) is greater than the gross amount \(R\$ 15,50\)/],
    ['negative tax', { tax: '-5', liquid: '1555' }, /the gateway's fee \(-5 cents\) is negative/],
    ['liquid not gross - tax', { liquid: '1500' }, /the gateway's net amount \(R\$ 15,00\) is not gross \(R\$ 15,50\) minus fee \(R\$ 0,65\)/],
  ];
  for (const [name, change, problem] of cases) {
    it(name, async () => {
      t.gw.respond((_req, res) => json(res, 200, { ...CASHOUT_OK, ...change }));
      const r = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env() });
      expect(r.code).toBe(6);
      expect(t.gw.received).toHaveLength(1);
      expect(JSON.parse(r.stdout).transactionId).toBe(CASHOUT_OK.transactionId);
      const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
      expect(err.code).toBe('needs_attention');
      expect(err.problems.join('\n')).toMatch(problem);
      const history = JSON.parse((await runPaycli(['--json', 'history'], { env: t.env() })).stdout);
      expect(history[0]).toMatchObject({ kind: 'cashout', outcome: 'ok', transactionId: CASHOUT_OK.transactionId });
    });
  }
  it('a sound answer still exits 0', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/attention/);
  });
});

describe('exit codes that tell the truth', () => {
  it('--qr-file in a folder that does not exist: exit 2 before anything is sent', async () => {
    const r = await runPaycli([...CASHIN_ARGS, '--qr-file', '/no/such/dir/q.png'], { env: t.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--qr-file: \/no\/such\/dir\/q\.png cannot be created \(no such folder\); nothing was sent/);
    expect(t.gw.received).toHaveLength(0);
  });
  it('a timeout out of range is a usage error, nothing sent', async () => {
    for (const timeout of ['2147483648', '0', '1e3']) {
      const r = await runPaycli(['--timeout', timeout, ...CASHIN_ARGS], { env: t.env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--timeout: the timeout must be a duration from 1ms to 1h: 30s, 500ms, 2m, or a plain number of milliseconds from 1 to 3600000/);
    }
    expect(t.gw.received).toHaveLength(0);
  });
  it('--json is compact when stdout is not a terminal', async () => {
    const r = await runPaycli(['--json', ...CASHIN_ARGS], { env: t.env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });
});
