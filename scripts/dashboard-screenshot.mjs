#!/usr/bin/env node
// Makes the README's picture of the sandbox dashboard (docs/dashboard.png): starts the built `paycli sandbox`
// on 127.0.0.1 with a fresh state folder, creates a few cash-ins and a cash-out, pays one, opens a cash-in
// (QR code, BR Code, controls, postbacks) in Debian's headless chromium (through playwright-core; nothing is
// downloaded) and photographs the page 1440 px wide. Usage: node scripts/dashboard-screenshot.mjs [out.png]
// (run `npm run build` first; test/e2e/dashboard-browser.test.ts runs it into test-output/).
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startSandboxChild } from './lib/sandbox-child.mjs';

const root = resolve(import.meta.dirname, '..');
const out = resolve(process.argv[2] ?? join(root, 'docs/dashboard.png'));
const { url, dashboard } = await startSandboxChild('paycli-dashboard-shot-', { PAYCLI_LANG: 'en', LANG: 'en_US.UTF-8' });
let browser;
const post = async (path, body) => {
  const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(j)}`);
  return j;
};
const payer = {
  payerName: 'Fulano de Tal',
  payerDocument: '123.456.789-09',
  payerEmail: 'fulano@example.com',
  payerPhone: '11987654321',
  productName: 'Camiseta',
  productDescription: 'Camiseta azul M',
};
const ids = [];
for (const [value, orderId] of [
  [4990, 'pedido-1001'],
  [12900, 'pedido-1002'],
  [2500, 'pedido-1003'],
])
  ids.push((await post('/transaction/qrcode/cashin', { ...payer, value, orderId })).transactionId);
await post(`/_sandbox/transactions/${ids[0]}/pay`);
await post(`/_sandbox/transactions/${ids[1]}/pay`);
await post('/transaction/cashout', {
  value: 1550,
  pixKeyType: 2,
  pixKey: 'fulano@example.com',
  cpfCnpj: '',
  person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '' },
  orderId: 'saque-77',
});
const shown = (await post('/transaction/qrcode/cashin', { ...payer, value: 8750, orderId: 'pedido-1004' })).transactionId;

browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'America/Sao_Paulo' });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${dashboard}#tx=${shown}`);
  await page.waitForSelector(`tr[data-testid=transaction-row][data-id="${shown}"]`);
  await page.waitForSelector('[data-testid=detail] [data-testid=qr-image]');
  await page.screenshot({ path: out });
  console.log(out);
} finally {
  await browser.close();
}
process.exit(0);
