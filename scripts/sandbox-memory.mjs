#!/usr/bin/env node
// Peak memory of a standalone sandbox holding many transactions (docs/speed.md, "Sandbox memory"):
// starts the built `paycli sandbox` on 127.0.0.1 with a fresh state folder, creates N cash-ins (default
// 10,000; a few requests at a time) and pays one in ten, keeps a dashboard-like reader open meanwhile
// (its live-updates stream when the sandbox serves one, and a page of the newest transactions), then
// prints the peak RSS (VmHWM of /proc/<pid>/status) and the RSS at the end, in MiB.
// Usage: node scripts/sandbox-memory.mjs [count]   (run `npm run build` first). Not a timed test.
import { readFileSync } from 'node:fs';
import { startSandboxChild } from './lib/sandbox-child.mjs';

const COUNT = Number(process.argv[2] ?? 10_000);
const PARALLEL = 8;
const { child, url } = await startSandboxChild('paycli-sandbox-mem-');
const mib = (field) =>
  Number(
    /(\d+) kB/.exec(
      readFileSync(`/proc/${child.pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith(field)),
    )[1],
  ) / 1024;
// What an open dashboard keeps: its live stream (Server-Sent Events), and pages of the list read as it goes.
const streams = [];
for (const path of ['/_dashboard/api/stream']) {
  const ac = new AbortController();
  fetch(`${url}${path}`, { signal: ac.signal }).then(
    (r) => r.body?.pipeTo(new WritableStream()).catch(() => {}),
    () => {},
  );
  streams.push(ac);
}
const body = (i) => ({
  payerName: 'Fulano de Tal',
  payerDocument: '123.456.789-09',
  payerEmail: 'fulano@example.com',
  payerPhone: '11987654321',
  productName: 'Camiseta',
  productDescription: 'Camiseta azul M',
  value: 1000 + (i % 500),
  orderId: `pedido-${i}`,
});
let next = 0;
const t0 = performance.now();
async function worker() {
  while (next < COUNT) {
    const i = next++;
    const r = await fetch(`${url}/transaction/qrcode/cashin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(i)) });
    const j = await r.json();
    if (r.status !== 200) throw new Error(`cash-in ${i}: ${r.status} ${JSON.stringify(j)}`);
    if (i % 1000 === 0) await fetch(`${url}/_dashboard/api/transactions?offset=0&limit=50`).then((p) => p.arrayBuffer());
    if (i % 10 === 0) await fetch(`${url}/_sandbox/transactions/${j.transactionId}/pay`, { method: 'POST' }).then((p) => p.arrayBuffer());
  }
}
await Promise.all(Array.from({ length: PARALLEL }, worker));
const seconds = (performance.now() - t0) / 1000;
// one lookup of an early id and the balance, answered from the store
await fetch(`${url}/transaction/get/balance`).then((r) => r.arrayBuffer());
const t1 = performance.now();
const page = await fetch(`${url}/_dashboard/api/transactions?offset=5000&limit=50`);
await page.arrayBuffer();
const pageMs = performance.now() - t1;
const peak = mib('VmHWM');
const now = mib('VmRSS');
for (const ac of streams) ac.abort();
process.exitCode = 0;
console.log(
  JSON.stringify({
    transactions: COUNT,
    seconds: Number(seconds.toFixed(1)),
    peakRssMiB: Number(peak.toFixed(1)),
    rssAtEndMiB: Number(now.toFixed(1)),
    dashboardPageMs: Math.round(pageMs),
    dashboardPageStatus: page.status,
    node: process.version,
  }),
);
process.exit(0);
