/**
 * The one secret rule (src/core/secrets.ts, docs/configuration.md "Secrets"): the API key, every `header.<Name>` value
 * and the user-info of any URL are secrets, whatever their length. They are masked by `config
 * get/list/set` and redacted in every output mode, in errors, in the ledger and in history, even
 * when a gateway echoes them back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { CASHOUT_OK, json, startGateway, type TestGateway } from '../helpers/gateway.js';

/** A short API key (3 characters) and a SuitPay-like client secret in `header.cs`. */
const KEY = 'k9Z';
const CS = 'cs_live_SECRET_value_42';
const SESSION = 'sess-7Hq';

let home: Home;
let gw: TestGateway;
const env = (extra: Record<string, string> = {}) => ({ ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY, ...extra });

/** Everything a run left on this machine that a person or a script can read. */
function ledgerText(): string {
  const dir = home.env.PAYCLI_DATA_DIR!;
  let out = '';
  try {
    for (const f of readdirSync(dir)) {
      try {
        out += readFileSync(join(dir, f)).toString('latin1');
      } catch {
        /* a folder */
      }
    }
  } catch {
    /* nothing written */
  }
  return out;
}

const noSecret = (text: string) => {
  expect(text).not.toContain(CS);
  expect(text).not.toContain(SESSION);
  expect(text).not.toMatch(/(?<![A-Za-z0-9])k9Z(?![A-Za-z0-9])/);
};

beforeEach(async () => {
  home = makeHome();
  gw = await startGateway();
  expect((await runPaycli(['config', 'set', 'header.cs'], { env: home.env, input: `${CS}\n` })).code).toBe(0);
  expect((await runPaycli(['config', 'set', 'header.X-Session-Token', SESSION], { env: home.env })).code).toBe(0);
});
afterEach(async () => {
  await gw.close();
  home.cleanup();
});

describe('config masks every secret', () => {
  it('header values and a short api-key are masked by config list/get, in text and --json', async () => {
    expect((await runPaycli(['config', 'set', 'api-key'], { env: home.env, input: KEY })).code).toBe(0);
    const runs = await Promise.all([
      runPaycli(['config', 'list'], { env: home.env }),
      runPaycli(['--json', 'config', 'list'], { env: home.env }),
      runPaycli(['config', 'get', 'header.cs'], { env: home.env }),
      runPaycli(['config', 'get', 'header.X-Session-Token'], { env: home.env }),
      runPaycli(['--json', 'config', 'get', 'api-key'], { env: home.env }),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      noSecret(r.stdout + r.stderr);
      expect(r.stdout).toContain('••••');
    }
    // a secret of 16 characters or more shows its last 4; a shorter one nothing
    expect(runs[0]!.stdout).toBe('header.cs=••••e_42\nheader.X-Session-Token=••••\napi-key=••••\n');
    expect(JSON.parse(runs[1]!.stdout)).toEqual({ profile: 'default', values: { 'header.cs': '••••e_42', 'header.X-Session-Token': '••••', 'api-key': '••••' } });
    // stored in clear in the 0600 file, for the requests
    expect(JSON.parse(readFileSync(join(home.env.PAYCLI_CONFIG_DIR!, 'config.json'), 'utf8')).profiles.default).toEqual({
      'header.cs': CS,
      'header.X-Session-Token': SESSION,
      'api-key': KEY,
    });
  });

  it('config set header.<Name> with a value warns that it is in the shell history; the notice masks it', async () => {
    const r = await runPaycli(['config', 'set', 'header.X-Client-Secret', 'abc'], { env: home.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('warning: header.X-Client-Secret is a secret and is now in your shell history');
    expect(r.stderr).toContain('header.X-Client-Secret set in profile "default" (••••)');
    expect(r.stderr).not.toMatch(/\babc\b/);
  });

  it('config set header.<Name> without a value reads it from stdin; an empty one is refused (exit 2)', async () => {
    const r = await runPaycli(['--json', 'config', 'set', 'header.ci'], { env: home.env, input: 'client-id-1\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('client-id-1');
    expect(JSON.parse(readFileSync(join(home.env.PAYCLI_CONFIG_DIR!, 'config.json'), 'utf8')).profiles.default['header.ci']).toBe('client-id-1');
    const empty = await runPaycli(['config', 'set', 'header.ci'], { env: home.env, input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the value of header.ci must not be empty');
  });
});

describe('every output mode redacts the secrets', () => {
  it('--dry-run (text and --json) shows every configured header and the key as [redacted]; nothing is sent', async () => {
    for (const flags of [['--dry-run'], ['--dry-run', '--json']]) {
      const r = await runPaycli([...(flags.includes('--json') ? ['--json'] : []), ...CASHOUT_ARGS, '--dry-run'], { env: env() });
      expect(r.code).toBe(0);
      noSecret(r.stdout + r.stderr);
      if (flags.includes('--json')) {
        const doc = JSON.parse(r.stdout);
        expect(doc.headers).toMatchObject({ authorization: 'Bearer [redacted]', cs: '[redacted]', 'x-session-token': '[redacted]' });
      } else {
        expect(r.stdout).toContain('cs: [redacted]');
        expect(r.stdout).toContain('x-session-token: [redacted]');
        expect(r.stdout).toContain('authorization: Bearer [redacted]');
      }
    }
    expect(gw.received).toHaveLength(0);
  });

  it('a gateway that echoes the secrets (body, header) gets them into no output: human, --json, --verbose', async () => {
    gw.respond((req, res) =>
      json(
        res,
        200,
        { ...CASHOUT_OK, echo: `${req.headers.cs} ${req.headers['x-session-token']} ${req.headers.authorization}`, cs: req.headers.cs },
        { 'x-echo': String(req.headers.cs) },
      ),
    );
    for (const flags of [[], ['--json'], ['--verbose'], ['--json', '--verbose']]) {
      const r = await runPaycli([...flags, ...CASHOUT_ARGS, '--yes', '--allow-duplicate'], { env: env() });
      expect(r.code).toBe(0);
      noSecret(r.stdout + r.stderr);
      if (flags.includes('--json')) expect(JSON.parse(r.stdout).gateway).toMatchObject({ echo: '[redacted] [redacted] Bearer [redacted]', cs: '[redacted]' }); // the gateway's answer as it came
      if (flags.includes('--verbose')) {
        expect(r.stderr).toContain('> cs: [redacted]');
        expect(r.stderr).toContain('< x-echo: [redacted]');
      }
    }
    // the gateway got the real values
    expect(gw.received).toHaveLength(4);
    for (const req of gw.received) {
      expect(req.headers.cs).toBe(CS);
      expect(req.headers['x-session-token']).toBe(SESSION);
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    }
    noSecret(ledgerText());
  });

  it('a refusal that echoes the secrets is redacted on stderr, in the ledger and in history (text and --json)', async () => {
    gw.respond((req, res) => json(res, 400, { message: `bad client secret ${req.headers.cs}, session ${req.headers['x-session-token']}, key ${KEY}` }));
    for (const flags of [[], ['--json']]) {
      const r = await runPaycli([...flags, ...CASHIN_ARGS], { env: env() });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      noSecret(r.stderr);
      expect(r.stderr).toContain('bad client secret [redacted], session [redacted], key [redacted]');
    }
    expect(gw.received).toHaveLength(2);
    noSecret(ledgerText());
    for (const flags of [[], ['--json']]) {
      const h = await runPaycli([...flags, 'history'], { env: home.env });
      expect(h.code).toBe(0);
      noSecret(h.stdout + h.stderr);
    }
    const doc = JSON.parse((await runPaycli(['--json', 'history'], { env: home.env })).stdout);
    expect(doc).toHaveLength(2);
    expect(JSON.stringify(doc)).toContain('[redacted]');
  });

  it('a password in the base URL is redacted from the "plain http", "must start with https" and "not an absolute URL" errors (exit 2, nothing sent)', async () => {
    const cases = [
      { url: 'http://alice:hunter2@gw.example', message: /base URL "http:\/\/\[redacted\]@gw\.example" uses plain http/ },
      { url: 'ftp://alice:hunter2@gw.example', message: /base URL "ftp:\/\/\[redacted\]@gw\.example" must start with https:\/\// },
      // not URLs at all: no scheme to anchor the user-info on, still redacted
      { url: 'alice:hunter2@gw.example', message: /base URL "\[redacted\]@gw\.example" (must start with https:\/\/|is not an absolute URL)/ },
      { url: 'https//alice:hunter2@gw.example', message: /base URL "\[redacted\]@gw\.example" is not an absolute URL/ },
      { url: 'https://alice:hunter2@gw example', message: /base URL "https:\/\/\[redacted\]@gw example" is not an absolute URL/ },
    ];
    for (const c of cases) {
      for (const flags of [[], ['--json']]) {
        const r = await runPaycli([...flags, '--base-url', c.url, ...CASHOUT_ARGS, '--yes'], { env: env() });
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).not.toContain('hunter2');
        expect(r.stderr).not.toContain('alice');
        expect(flags.length ? JSON.parse(r.stderr).error.message : r.stderr).toMatch(c.message);
      }
      const cfg = await runPaycli(['config', 'set', 'base-url', c.url], { env: home.env });
      expect(cfg.code).toBe(2);
      expect(cfg.stderr).not.toContain('hunter2');
    }
    expect(gw.received).toHaveLength(0);
  });

  it('a base URL with user-info is shown redacted by config get/list and --dry-run', async () => {
    expect((await runPaycli(['config', 'set', 'base-url', `http://bob:pa55word@${new URL(gw.url).host}`], { env: home.env })).code).toBe(0);
    const runs = await Promise.all([
      runPaycli(['config', 'get', 'base-url'], { env: home.env }),
      runPaycli(['--json', 'config', 'list'], { env: home.env }),
      runPaycli([...CASHOUT_ARGS, '--dry-run'], { env: { ...home.env, PAYCLI_API_KEY: KEY } }),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain('pa55word');
      expect(r.stdout + r.stderr).not.toContain('bob');
      expect(r.stdout).toContain('[redacted]@127.0.0.1');
    }
    expect(gw.received).toHaveLength(0);
  });
});
