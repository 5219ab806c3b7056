#!/usr/bin/env node
// How the standalone sandbox's cost per request changes as its state grows (docs/speed.md, "The
// sandbox's speed as its state grows"): starts the built `paycli sandbox` on 127.0.0.1 with a fresh
// state folder (and a large opening balance), POSTs N cash-outs (default 50,000) 8 at a time over
// kept-alive node:http connections, and prints, for the 1,000 requests that end at each checkpoint
// (1,000, 20,000, 50,000, and every 10,000), the requests a second, the sandbox's CPU (user + system,
// /proc/<pid>/stat) and the bytes it wrote (/proc/<pid>/io write_bytes) per request. The CPU and the
// bytes do not move with the machine's load; the rate does. Not a timed test.
// Usage: node scripts/sandbox-rate.mjs [count] [checkpoints, comma-separated]   (after `npm run build`)
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { startSandboxChild } from './lib/sandbox-child.mjs';

const COUNT = Number(process.argv[2] ?? 50_000);
const MARKS = new Set((process.argv[3] ?? '1000,20000,50000').split(',').map(Number));
for (let m = 10_000; m <= COUNT; m += 10_000) MARKS.add(m);
const WINDOW = 1_000;
const PARALLEL = 8;
const { child, url } = await startSandboxChild('paycli-sandbox-rate-', {}, ['--opening-balance', '100000000000']);
const TICK = 100; // clock ticks a second (USER_HZ on Linux)
const cpuMs = () => {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICK;
};
const written = () => Number(/write_bytes: (\d+)/.exec(readFileSync(`/proc/${child.pid}/io`, 'utf8'))[1]);
const sample = () => ({ at: performance.now(), cpu: cpuMs(), bytes: written() });

const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });
const target = new URL('/transaction/cashout', url);
const post = (body) =>
  new Promise((resolve, reject) => {
    const r = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    r.on('error', reject);
    r.end(body);
  });
const body = (i) => {
  const email = `fornecedor${i}@example.com`;
  return JSON.stringify({ value: 100 + (i % 100000), pixKeyType: 2, pixKey: email, person: { name: `Fornecedor ${i}`, email, phone: '11987654321' }, orderId: `rate-${i}` });
};
const rows = [];
let done = 0;
const starts = new Map();
let next = 0;
async function worker() {
  while (next < COUNT) {
    const i = next++;
    await post(body(i));
    done++;
    if (MARKS.has(done + WINDOW)) starts.set(done + WINDOW, sample());
    const start = starts.get(done);
    if (start) {
      const end = sample();
      const s = (end.at - start.at) / 1000;
      rows.push({
        after: done,
        perSecond: Math.round(WINDOW / s),
        cpuMsPerRequest: Number(((end.cpu - start.cpu) / WINDOW).toFixed(2)),
        bytesWrittenPerRequest: Math.round((end.bytes - start.bytes) / WINDOW),
      });
    }
  }
}
if (MARKS.has(WINDOW)) starts.set(WINDOW, sample());
await Promise.all(Array.from({ length: PARALLEL }, worker));
agent.destroy();
console.log(JSON.stringify({ node: process.version, load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '), windows: rows }));
process.exit(0);
