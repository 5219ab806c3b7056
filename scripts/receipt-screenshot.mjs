#!/usr/bin/env node
// Makes the screenshot of a Portuguese receipt in docs/ (docs/receipt-pt-BR.png): a gateway on
// 127.0.0.1 that keeps what it creates and answers lookups (the family's documented shapes), a
// cash-in created with the built paycli (run `npm run build` first) in a fresh home, marked paid
// with a payer, then `paycli --lang pt-BR receipt <id> --format png --paper 80mm`. Times in São Paulo.
// Usage: node scripts/receipt-screenshot.mjs [out.png] (default docs/receipt-pt-BR.png).
// Used by test/e2e/receipt.test.ts, which runs it into a temporary file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import QRCode from 'qrcode';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'docs', 'receipt-pt-BR.png'));
// The Banco Central's example BR Code with an amount of R$ 149,90 (valid CRC).
const BR_CODE = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406149.905802BR5913Fulano de Tal6008BRASILIA62070503***6304';

function crc16(text) {
  let crc = 0xffff;
  for (const c of Buffer.from(text, 'utf8')) {
    crc ^= c << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const held = new Map();
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const byId = /^\/transaction\/get\/by\/id\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'GET') return byId && held.has(byId[1]) ? send(200, held.get(byId[1])) : send(404, { message: 'Transaction not found' });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    const id = String(4242 + held.size);
    held.set(id, {
      transactionId: Number(id),
      orderId: body.orderId,
      object: 'cashin',
      status: 'paid',
      method: 'pix',
      value: body.value,
      endToEndId: 'E60746948202611251504A1b2C3d4E5f',
      processedAt: '2026-11-25T15:04:15.768543',
      payer: { transactionId: Number(id), name: 'Beltrana da Silva', documentId: '98765432100', bankName: 'Banco Pagador S.A.', bankCode: null, bankIspb: '60746948' },
    });
    const qrCode = `${BR_CODE}${crc16(BR_CODE)}`;
    QRCode.toBuffer(qrCode).then((png) =>
      send(200, { transactionId: Number(id), externalId: '123e4567-e12b-12d1-a456-426655440000', orderId: body.orderId, qrCode, qrCodeBase64: png.toString('base64') }),
    );
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const home = mkdtempSync(join(tmpdir(), 'paycli-screenshot-'));
const env = {
  ...process.env,
  HOME: home,
  PAYCLI_CONFIG_DIR: join(home, 'config'),
  PAYCLI_DATA_DIR: join(home, 'data'),
  TZ: 'America/Sao_Paulo',
  LANG: 'C.UTF-8',
  PAYCLI_BASE_URL: `http://127.0.0.1:${server.address().port}`,
  PAYCLI_API_KEY: 'sk_test_screenshot',
};
const paycli = (args) =>
  new Promise((ok, fail) =>
    execFile(process.execPath, [join(root, 'bin', 'paycli.cjs'), ...args], { env }, (err, stdout, stderr) =>
      err ? fail(new Error(`paycli ${args.join(' ')}: ${stderr}`)) : ok(stdout),
    ),
  );
try {
  const created = JSON.parse(
    await paycli([
      'cashin',
      '--value',
      '14990',
      '--payer-name',
      'Beltrana da Silva',
      '--payer-document',
      '987.654.321-00',
      '--payer-email',
      'beltrana@example.com',
      '--payer-phone',
      '(11) 98765-4321',
      '--product-name',
      'Camiseta',
      '--product-description',
      'Camiseta azul M',
      '--order-id',
      'pedido-1234',
      '--json',
    ]),
  );
  await paycli(['--lang', 'pt-BR', 'receipt', String(created.transactionId), '--format', 'png', '--paper', '80mm', '-o', out]);
  process.stdout.write(`${out}\n`);
} finally {
  server.close();
  rmSync(home, { recursive: true, force: true });
}
