/**
 * A proxy that wants credentials (HTTP 407 to the CONNECT) is named as such: exit 4
 * `proxy_auth_required`, "nothing was sent", the hint says where proxy credentials go; the
 * gateway (behind the proxy) receives nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';

let server: Server;
let proxyUrl: string;
let connects: string[];
let home: Home;
beforeEach(async () => {
  connects = [];
  home = makeHome();
  server = createServer((_req, res) => res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="corp"' }).end());
  server.on('connect', (req, client: Socket) => {
    connects.push(req.url ?? '');
    client.on('error', () => undefined);
    client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  home.cleanup();
});

describe('a proxy answering 407', () => {
  it('exit 4 proxy_auth_required, nothing sent, says so (text and --json)', async () => {
    const env = { ...home.env, PAYCLI_BASE_URL: 'https://gateway.invalid', PAYCLI_API_KEY: 'sk_test_proxy', HTTPS_PROXY: proxyUrl };
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'error: the proxy asked for authentication (HTTP 407 Proxy Authentication Required): nothing was sent\nhint: put the proxy credentials in the proxy variable',
    );
    expect(r.stderr).not.toContain('sk_test_proxy');
    const j = await runPaycli(['--json', ...CASHOUT_ARGS.slice(0, 2), '1551', ...CASHOUT_ARGS.slice(3), '--yes'], { env });
    expect(j.code).toBe(4);
    expect(JSON.parse(j.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ code: 'proxy_auth_required' });
    expect(connects.every((c) => c === 'gateway.invalid:443')).toBe(true);
    expect(connects.length).toBeGreaterThanOrEqual(2);
  });
});
