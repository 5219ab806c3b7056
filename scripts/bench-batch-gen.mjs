// Writes a batch CSV of N valid, distinct cash-outs (docs/batch-runs.md), and the JSON bodies
// paycli sends for them (for the floor script): node scripts/bench-batch-gen.mjs <rows> <csv> [<bodies.jsonl>]
import { createWriteStream } from 'node:fs';

const [rows, csvPath, bodiesPath] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const csv = createWriteStream(csvPath);
const bodies = bodiesPath ? createWriteStream(bodiesPath) : undefined;
const write = (stream, text) => (stream.write(text) ? undefined : new Promise((r) => stream.once('drain', r)));
await write(csv, 'value;pix-key-type;pix-key;person-name;person-email;person-phone\n');
for (let i = 0; i < rows; i++) {
  const email = `fornecedor${i}@example.com`;
  await write(csv, `${100 + (i % 100000)};email;${email};Fornecedor ${i};${email};11987654321\n`);
  if (bodies)
    await write(
      bodies,
      `${JSON.stringify({ value: 100 + (i % 100000), pixKeyType: 2, pixKey: email, person: { name: `Fornecedor ${i}`, email, phone: '11987654321' }, orderId: `bench-${i}` })}\n`,
    );
}
csv.end();
bodies?.end();
