// A gateway for the team ledger bench (scripts/bench-team.sh, docs/speed.md): answers every cash-out POST
// after <delay> ms with a created transfer (the interface's shape, gross = the amount sent), on
// 127.0.0.1 on a free port, whose URL it prints on stdout. node scripts/bench-slow-gateway.mjs <delay-ms>
import { createServer } from 'node:http';

const delay = Number(process.argv[2] ?? 50);
let id = 1;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let value = 100;
    try {
      value = JSON.parse(Buffer.concat(chunks).toString()).value ?? 100;
    } catch {
      /* not JSON: the default amount */
    }
    setTimeout(() => {
      const body = JSON.stringify({ transactionId: id++, gross: value, tax: '0', liquid: String(value), status: '0', createdAt: new Date().toISOString() });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }, delay);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
