// The floor for any Node client of a cash-out: POST one cash-out with node:http (no library), print
// the answer. `npm run bench` compares paycli's cash-out (which also checks and records it in its
// ledger) with this.
import { request } from 'node:http';

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
