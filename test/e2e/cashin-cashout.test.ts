/**
 * Cash-in and cash-out where a process of its own matters: Ctrl-C during a request (a signal), and
 * `--version`, which the launcher (bin/paycli.cjs) answers before loading anything. The rest runs in
 * process: test/inprocess/cashin-cashout.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, childEnv, makeHome, runPaycli, type Home } from '../helpers/cli.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

let home: Home;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => home.cleanup());

describe('against a gateway', () => {
  let gw: TestGateway;
  const KEY = 'sk_live_SECRET_abcdef0123456789';
  const env = () => ({ ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY });
  beforeEach(async () => {
    gw = await startGateway();
  });
  afterEach(() => gw.close());

  // ---- the exit-code table ----

  it('exit 130: Ctrl-C once keeps waiting for the answer, twice stops, saying the request was sent and how to settle it', async () => {
    const { spawn } = await import('node:child_process');
    const { PAYCLI } = await import('../helpers/cli.js');
    gw.respond(() => undefined);
    const child = spawn(process.execPath, [PAYCLI, ...CASHOUT_ARGS, '--yes'], { env: childEnv(env()) });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    while (gw.received.length === 0) await new Promise((r) => setTimeout(r, 20));
    // The first Ctrl-C only stops nothing: the request is out, and its answer is the only way to learn the outcome.
    child.kill('SIGINT');
    while (!stderr.includes("waiting for the gateway's answer")) await new Promise((r) => setTimeout(r, 20));
    expect(stderr).toContain('Ctrl-C again to stop waiting');
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(130);
    expect(stderr).toContain('paycli reconcile');
    expect(stderr).toMatch(/interrupted after the request was sent: the outcome is unknown/);
    expect(stderr).not.toMatch(/at .*\.js/); // no stack trace
  });
});

describe('help', () => {
  it('-V and --version print the version alone', async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string };
    for (const flag of ['-V', '--version']) {
      const r = await runPaycli([flag], { env: home.env });
      expect(r).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});
