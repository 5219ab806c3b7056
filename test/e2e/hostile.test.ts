/**
 * The hostile-gateway case that measures the memory of the paycli process (its peak RSS, read at
 * its exit): a body streamed without end is cut at the cap. The rest of the matrix runs in process:
 * test/inprocess/hostile.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, runPaycli } from '../helpers/cli.js';
import { useGatewayFixture } from '../helpers/gateway.js';

const KEY = 'sk_live_HOSTILE_0123456789abcdef';
const t = useGatewayFixture(KEY);
const cashout = (...extra: string[]) => [...extra, ...CASHOUT_ARGS, '--yes'];

describe('hostile gateway: answers outside the interface', () => {
  it('a 50 MB body streamed without Content-Length: refused at the 1 MiB cap, exit 5, memory stays bounded', async () => {
    let streamed = 0;
    let closedEarly = false;
    t.gw.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length to refuse up front
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const total = 50 * 1024 * 1024;
      res.on('close', () => (closedEarly = streamed < total));
      const pump = () => {
        while (streamed < total && !res.destroyed) {
          streamed += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.write('{"transactionId": 77, "pad": "');
      pump();
    });
    // Peak memory of the child, read from inside it at exit (no external tool needed).
    const rssFile = join(t.home.dir, 'maxrss');
    const preload = join(t.home.dir, 'maxrss.mjs');
    writeFileSync(
      preload,
      `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`,
    );
    const r = await runPaycli(cashout(), { env: t.env({ NODE_OPTIONS: `--import=${preload}` }), timeoutMs: 30_000 });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/the gateway's answer is larger than 1048576 bytes; refused/);
    expect(closedEarly).toBe(true); // paycli hung up long before 50 MB
    expect(streamed).toBeLessThan(40 * 1024 * 1024);
    const maxRssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
    expect(maxRssMiB).toBeGreaterThan(10); // the measurement is real
    expect(maxRssMiB).toBeLessThan(200); // ~100 MiB here; reading the 50 MB body whole takes ~290 MiB
  }, 40_000);
});
