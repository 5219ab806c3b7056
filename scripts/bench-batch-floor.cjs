// The floor of a batch run (docs/speed.md): POSTs every JSON body of a file to $BENCH_URL's
// cash-out path with node:http, N in flight over kept-alive connections, reading each answer.
// node scripts/bench-batch-floor.cjs <bodies.jsonl> <concurrency>
// CommonJS, as paycli is (scripts/bench-min-cashout.cjs says why).
'use strict';
const { Agent, request } = require('node:http');
const { readFileSync } = require('node:fs');

const bodies = readFileSync(process.argv[2], 'utf8').trim().split('\n');
const concurrency = Number(process.argv[3] ?? 8);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const url = new URL('/transaction/cashout', process.env.BENCH_URL);
let next = 0;
const post = (body) =>
  new Promise((resolve, reject) => {
    const r = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer bench' } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString())) : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
async function worker() {
  while (next < bodies.length) await post(bodies[next++]);
}
Promise.all(Array.from({ length: concurrency }, worker)).then(
  () => agent.destroy(),
  (err) => {
    console.error(err);
    process.exitCode = 1;
    agent.destroy();
  },
);
