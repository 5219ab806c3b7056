// Fills a paycli ledger (created by a real paycli run, so the schema is paycli's own) with N
// generated payments, written straight into the database: `npm run bench` measures a cash-out and
// `paycli history` against a ledger that holds 1,000,000 payments (docs/speed.md).
// Usage: node scripts/bench-ledger-fill.mjs <ledger.db> <count>
// The payments span the last year, oldest first; 90% cash-outs to 50,000 different keys on two
// gateways, 10% cash-ins; outcomes mostly ok, some refused and not_sent, one in 10,000 unknown.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';

const [file, countText] = process.argv.slice(2);
const count = Number(countText);
if (!file || !Number.isSafeInteger(count) || count < 1) {
  console.error('usage: bench-ledger-fill.mjs <ledger.db> <count>');
  process.exit(2);
}
const db = new Database(file, { fileMustExist: true });
if (db.prepare(`SELECT value FROM meta WHERE key = 'format'`).pluck().get() !== 'paycli-ledger') throw new Error(`${file} is not a paycli ledger`);
// Bulk load: no WAL and no fsync while filling (a benchmark's data), then back to paycli's settings.
db.pragma('journal_mode = DELETE');
db.pragma('synchronous = OFF');
db.pragma('cache_size = -262144'); // 256 MiB for the index builds
const indexes = db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'payments' AND sql IS NOT NULL`).all();
for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);

const insert =
  db.prepare(`INSERT INTO payments (uuid, time, kind, fingerprint, value, target, endpoint, sandbox, profile, pix_key_type, pix_key, recipient, payer, product, order_id, outcome, end_time, transaction_id, status, http_status, message)
  VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
const gateways = ['https://api.gateway.example/transaction/cashout', 'https://other.gateway.example/v2/transaction/cashout'];
const hex = (s) => createHash('sha256').update(s).digest('hex');
const start = Date.now() - 365 * 86_400_000;
const step = (365 * 86_400_000) / count;
const t0 = Date.now();
db.transaction(() => {
  for (let i = 0; i < count; i++) {
    const time = new Date(start + i * step).toISOString();
    const cashout = i % 10 !== 0;
    const gw = gateways[i % 2];
    const key = `fornecedor${i % 50_000}@example.com`;
    const value = 100 + ((i * 7919) % 500_000);
    const outcome = i % 10_000 === 5 ? 'unknown' : i % 50 === 7 ? 'refused' : i % 97 === 3 ? 'not_sent' : 'ok';
    insert.run(
      hex(`uuid-${i}`).slice(0, 32),
      time,
      cashout ? 'cashout' : 'cashin',
      // distinct from any fingerprint the bench's own cash-out has: the generated ones are salted; its
      // 32 bytes, as the ledger keeps it since schema 6 (src/ledger/schema.ts fingerprintValue)
      createHash('sha256')
        .update(`bench-fill-${cashout ? 'cashout' : 'cashin'}-${gw}-${value}-${key}`)
        .digest(),
      value,
      gw,
      gw,
      i % 3 === 0 ? 'prod' : 'default',
      cashout ? 2 : null,
      cashout ? key : null,
      cashout ? `Fornecedor ${i % 50_000}` : null,
      cashout ? null : `Cliente ${i % 80_000}`,
      cashout ? null : 'Assinatura mensal',
      `paycli-BENCH${String(i).padStart(21, '0')}`,
      outcome === 'unknown' ? null : outcome,
      outcome === 'unknown' ? null : time,
      outcome === 'ok' ? 1_000_000 + i : null,
      outcome === 'ok' && cashout ? '1' : null,
      outcome === 'refused' ? 400 : null,
      outcome === 'refused' ? 'pixKey inválida' : null,
    );
  }
})();
for (const { sql } of indexes) db.exec(sql);
db.pragma('journal_mode = WAL');
db.close();
console.error(`bench: ${count} payments written into ${file} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
