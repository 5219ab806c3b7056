/**
 * Secrets (config file modes, masking, redaction, plain http refused)
 * and the network (proxy variables honoured, Ctrl-C says whether the request was sent).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, childEnv, PAYCLI } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, useGatewayFixture } from '../helpers/gateway.js';
import { startProxy } from '../helpers/proxy.js';

const KEY = 'sk_live_TOPSECRET_0123456789abcdef';
const t = useGatewayFixture(KEY);

describe('secrets', () => {
  it('config file 0600 in a 0700 folder, even when the folder existed with looser modes', async () => {
    mkdirSync(t.home.env.PAYCLI_CONFIG_DIR!, { recursive: true, mode: 0o755 });
    chmodSync(t.home.env.PAYCLI_CONFIG_DIR!, 0o755);
    const r = await runPaycli(['config', 'set', 'api-key'], { env: t.home.env, input: `${KEY}\n` });
    expect(r.code).toBe(0);
    expect(statSync(t.home.env.PAYCLI_CONFIG_DIR!).mode & 0o777).toBe(0o700);
    const file = join(t.home.env.PAYCLI_CONFIG_DIR!, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(KEY); // stored, but shown nowhere
    expect(r.stderr).not.toContain(KEY);
    expect(r.stderr).toContain('••••cdef');
  });

  it('the key is masked in config get and config list (text and --json)', async () => {
    await runPaycli(['config', 'set', 'api-key'], { env: t.home.env, input: KEY });
    const outs = await Promise.all([
      runPaycli(['config', 'get', 'api-key'], { env: t.home.env }),
      runPaycli(['config', 'list'], { env: t.home.env }),
      runPaycli(['--json', 'config', 'get', 'api-key'], { env: t.home.env }),
      runPaycli(['--json', 'config', 'list'], { env: t.home.env }),
    ]);
    for (const r of outs) {
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect(r.stdout).toContain('••••cdef');
    }
    expect((await runPaycli(['config', 'set', 'api-key', KEY], { env: t.home.env })).code).toBe(2); // never as an argument
  });

  it('--dry-run and --verbose redact the key (and a password in the base URL)', async () => {
    for (const flags of [['--dry-run'], ['--dry-run', '--json']]) {
      const r = await runPaycli(['--base-url', 'https://user:hunter2hunter2@t.gw.example', ...CASHOUT_ARGS, ...flags], { env: t.env() });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[redacted]');
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect(r.stdout + r.stderr).not.toContain('hunter2hunter2');
    }
    const v = await runPaycli(['--verbose', ...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(v.code).toBe(0);
    expect(v.stderr).toContain('authorization: Bearer [redacted]');
    expect(v.stdout + v.stderr).not.toContain(KEY);
  });

  it('a gateway echoing the key (message, header, body) never gets it printed, in any mode', async () => {
    for (const status of [400, 401, 500, 200]) {
      t.gw.respond((req, res) =>
        json(res, status, status === 200 ? { transactionId: 'bad', echo: req.headers.authorization } : { message: `invalid credential ${req.headers.authorization} (${KEY})` }, {
          'x-echo': String(req.headers.authorization),
        }),
      );
      for (const flags of [[], ['--json'], ['--verbose'], ['--json', '--verbose']]) {
        const r = await runPaycli([...flags, ...CASHIN_ARGS], { env: t.env() });
        expect(r.code).toBe({ 400: 1, 401: 3, 500: 5, 200: 5 }[status]);
        expect(r.stdout + r.stderr).not.toContain(KEY);
        if (status !== 200) expect(r.stderr).toContain('invalid credential Bearer [redacted] ([redacted])');
      }
    }
  });

  it('a plain http:// base URL to a non-loopback host is refused (exit 2, nothing sent) unless --allow-insecure-http', async () => {
    const r = await runPaycli(['--base-url', 'http://example.invalid', ...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/uses plain http: the API key would travel in clear/);
    expect(r.stderr).toMatch(/--allow-insecure-http/);
    const cfg = await runPaycli(['config', 'set', 'base-url', 'http://example.invalid'], { env: t.home.env });
    expect(cfg.code).toBe(2);
    // allowed with the flag (checked with --dry-run: no traffic leaves this machine)
    const ok = await runPaycli(['--allow-insecure-http', '--base-url', 'http://example.invalid', ...CASHOUT_ARGS, '--dry-run'], { env: t.env() });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('POST http://example.invalid/transaction/cashout');
    // loopback is fine without it
    expect((await runPaycli(['--base-url', 'http://127.0.0.1:1', ...CASHOUT_ARGS, '--dry-run'], { env: t.env() })).code).toBe(0);
  });
});

describe('network', () => {
  it('HTTP_PROXY is honoured; NO_PROXY bypasses it', async () => {
    const proxy = await startProxy();
    try {
      const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env({ HTTP_PROXY: proxy.url }) });
      expect(r.code).toBe(0);
      expect(proxy.connects).toEqual([new URL(t.gw.url).host]);
      expect(t.gw.received).toHaveLength(1);
      expect(t.gw.received[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

      const direct = await runPaycli(CASHIN_ARGS, { env: t.env({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }) });
      expect(direct.code).toBe(0);
      expect(proxy.connects).toHaveLength(1); // unchanged
      expect(t.gw.received).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it('HTTPS_PROXY is used for https:// base URLs (lower-case https_proxy too)', async () => {
    const proxy = await startProxy({ answerConnect: true });
    try {
      // 127.0.0.1:<t.gw port> speaks plain http, so TLS through the tunnel fails; the proxy was asked first.
      for (const name of ['HTTPS_PROXY', 'https_proxy']) {
        const r = await runPaycli(['--timeout', '3000', '--base-url', `https://${new URL(t.gw.url).host}`, ...CASHIN_ARGS], { env: t.env({ [name]: proxy.url }) });
        expect(r.code).not.toBe(0);
      }
      expect(proxy.connects).toEqual([new URL(t.gw.url).host, new URL(t.gw.url).host]);
    } finally {
      await proxy.close();
    }
  });

  /** Starts a cash-out against a gateway that never answers and sends `signal` once the request has arrived (Ctrl-C: twice). */
  async function _interruptAfterSending(signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
    t.gw.respond(() => undefined);
    const child = spawn(process.execPath, [PAYCLI, ...CASHOUT_ARGS, '--yes'], { env: childEnv(t.env()) });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 500 && t.gw.received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    child.kill(signal);
    if (signal === 'SIGINT') {
      // The first Ctrl-C after sending only says it keeps waiting for the answer; the second stops the wait.
      for (let i = 0; i < 1500 && !stderr.includes("waiting for the gateway's answer"); i++) await new Promise((r) => setTimeout(r, 20));
      child.kill(signal);
    }
    return { code: await closed, stderr };
  }
});
