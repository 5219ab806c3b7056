// The floor for any Node client of a cash-out: POST one cash-out with node:http (no library), print
// the answer. `npm run bench` compares paycli's cash-out (which also checks and records it in its
// ledger) with this. CommonJS, as paycli is: on Node 22 and later an ES module's `import ... from
// 'node:http'` reads every export of the module, and `http.WebSocket`'s getter loads Node's bundled
// undici (about 40 ms a start on this project's machine; docs/speed.md "The minimal cash-out in CommonJS").
'use strict';
const { request } = require('node:http');

const body = JSON.stringify({
  value: 1550,
  pixKeyType: 2,
  pixKey: 'fulano@example.com',
  person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' },
  orderId: `paycli-${Date.now().toString(36).toUpperCase().padStart(26, '0')}`,
});
const req = request(`${process.env.BENCH_URL}/transaction/cashout`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer bench' },
});
req.on('response', (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
});
req.end(body);
