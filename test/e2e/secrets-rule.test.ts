/**
 * The one secret rule (src/core/secrets.ts, docs/configuration.md "Secrets"): the API key, every `header.<Name>` value
 * and the user-info of any URL are secrets, whatever their length. They are masked by `config
 * get/list/set` and redacted in every output mode, in errors, in the ledger and in history, even
 * when a gateway echoes them back.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/secrets-rule.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runPaycli, type Home } from '../helpers/cli.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { startTty } from '../helpers/tty.js';

const CS = 'cs_live_SECRET_value_42';
const SESSION = 'sess-7Hq';

let home: Home;
let gw: TestGateway;

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
  it('config set header.<Name> without a value asks for it hidden in a terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paycli-tty-'));
    const tty = startTty(['config', 'set', 'header.cs'], home.env, dir);
    try {
      await tty.waitFor('header.cs:');
      tty.answer('typed-secret-77');
      expect(await tty.exitCode()).toBe(0);
      expect(tty.screen()).not.toContain('typed-secret-77');
      expect(tty.screen()).toContain('header.cs set in profile "default" (••••)');
    } finally {
      tty.kill();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(JSON.parse(readFileSync(join(home.env.PAYCLI_CONFIG_DIR!, 'config.json'), 'utf8')).profiles.default['header.cs']).toBe('typed-secret-77');
  });
});
