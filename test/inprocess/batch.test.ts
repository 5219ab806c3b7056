/**
 * Batch runs, paycli run in process (test/helpers/run.ts), against a recording test gateway on
 * 127.0.0.1 (which can answer 429 or hold answers) and the standalone sandbox. Every test asserts what
 * reached the gateway. Ctrl-C, SIGKILL, files changed and disks filled while a run goes, Node's own
 * warnings and the live bar in a terminal: test/e2e/batch.test.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { derivedOrderId, legacyDerivedOrderId } from '../../src/batch/rows.js';
import { decodeBrCode } from '../../src/pix/brcode.js';
import { makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { CASHIN_OK, CASHOUT_OK, json, lookupGateway, startGateway, type TestGateway } from '../helpers/gateway.js';
import { ledgerRun } from '../helpers/ledger.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

let home: Home;
let gw: TestGateway;
const sandboxes: SandboxProcess[] = [];
beforeEach(async () => {
  home = makeHome();
  gw = await startGateway((req, res) => {
    const body = req.json as { value?: number; orderId?: string };
    json(
      res,
      200,
      req.path.endsWith('/cashout')
        ? { ...CASHOUT_OK, transactionId: gw.received.length, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId }
        : { ...CASHIN_OK, transactionId: gw.received.length },
    );
  });
});
afterEach(async () => {
  await gw.close();
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
  home.cleanup();
});

const env = (extra: Record<string, string> = {}) => ({ ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: 'sk_test_batch', ...extra });
const HEADER = 'value,pix-key-type,pix-key,person-name,person-email,person-phone';
/** A valid cash-out row with a distinct e-mail key per `n`. */
const payoutRow = (n: number, cents = 1000 + n) => `${cents},email,fornecedor${n}@example.com,Fornecedor ${n},fornecedor${n}@example.com,11987654321`;
function writeCsv(name: string, lines: string[]): string {
  const file = join(home.dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
const results = (file: string) => readFileSync(file, 'utf8').trim().split('\n');
const cashouts = () => gw.received.filter((r) => r.method === 'POST' && r.path.endsWith('/cashout'));

describe('checking the file first', () => {
  it("reads back what paycli's own CSV wrote: a phone key behind the formula guard ('+55...) is the key, and history --format csv round-trips it", async () => {
    const file = writeCsv('guarded.csv', [HEADER, "1234,phone,'+5531998765432,Fornecedor Fone,fone@example.com,'+5531998765432"]);
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(cashouts().map((c) => c.json)).toMatchObject([{ pixKeyType: 3, pixKey: '+5531998765432', person: { phone: '31998765432' } }]);
    // history writes the key behind the guard; its pix_key column fed back into a batch is the same key
    const h = await runPaycli(['history', '--format', 'csv', '--csv-dialect', 'intl'], { env: env() });
    const cell = "'+5531998765432";
    expect(h.stdout).toContain(`,phone,${cell},`); // pix_key_type, pix_key
    const again = writeCsv('again.csv', [HEADER, `1235,phone,${cell},Fornecedor Fone,fone@example.com,11987654321`]);
    const r2 = await runPaycli(['cashout', '--batch', again, '--yes'], { env: env() });
    expect(r2.code, r2.stderr).toBe(0);
    expect((cashouts().at(-1)!.json as { pixKey: string }).pixKey).toBe('+5531998765432');
  });
  it('names all three bad rows by line and column, exit 2, nothing sent', async () => {
    const file = writeCsv('bad.csv', [
      HEADER,
      payoutRow(1),
      '10x0,email,a@example.com,Ana,a@example.com,11987654321', // line 3: value
      payoutRow(3),
      '1000,email,not-an-email,Bia,b@example.com,11987654321', // line 5: pix-key
      '1000,email,c@example.com,Caio,c@example.com,', // line 6: person-phone missing
    ]);
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('3 problems in 3 rows; nothing was sent');
    expect(r.stderr).toMatch(/line 3 \(row 2\), value: /);
    expect(r.stderr).toMatch(/line 5 \(row 4\), pix-key: /);
    expect(r.stderr).toMatch(/line 6 \(row 5\), person-phone: is required/);
    expect(r.stdout).toBe('');
    expect(gw.received).toHaveLength(0);
    expect(existsSync(`${file}.results.csv`)).toBe(false);

    const j = await runPaycli(['cashout', '--batch', file, '--yes', '--json'], { env: env() });
    expect(j.code).toBe(2);
    const doc = JSON.parse(j.stderr.trim().split('\n').at(-1)!) as { error: { code: string; problems: Array<{ line: number; row: number; column: string }> } };
    expect(doc.error.code).toBe('validation');
    expect(doc.error.problems.map((p) => [p.line, p.row, p.column])).toEqual([
      [3, 2, 'value'],
      [5, 4, 'pix-key'],
      [6, 5, 'person-phone'],
    ]);
    expect(gw.received).toHaveLength(0);
  });

  it('flags two identical payouts unless --allow-duplicate; an unknown column is named', async () => {
    const file = writeCsv('dup.csv', [HEADER, payoutRow(1), payoutRow(2), payoutRow(1)]);
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 4 \(row 3\): is the same cash-out as row 1/);
    expect(gw.received).toHaveLength(0);
    const ok = await runPaycli(['cashout', '--batch', file, '--yes', '--allow-duplicate'], { env: env() });
    expect(ok.code).toBe(0);
    expect(cashouts()).toHaveLength(3);

    const typo = writeCsv('typo.csv', [`${HEADER},pix-kye`, `${payoutRow(9)},x`]);
    const t = await runPaycli(['cashout', '--batch', typo, '--yes'], { env: env() });
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/line 1, pix-kye: is not a column paycli knows/);
  });

  it('needs --yes when not interactive (exit 2, nothing sent) and never overwrites an explicit --results', async () => {
    const file = writeCsv('p.csv', [HEADER, payoutRow(1)]);
    const r = await runPaycli(['cashout', '--batch', file], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    const out = join(home.dir, 'out.csv');
    writeFileSync(out, 'keep me');
    const o = await runPaycli(['cashout', '--batch', file, '--yes', '--results', out], { env: env() });
    expect(o.code).toBe(2);
    expect(o.stderr).toContain('already exists');
    expect(readFileSync(out, 'utf8')).toBe('keep me');
    expect(gw.received).toHaveLength(0);
  });
});

describe('sending', () => {
  it('reads a ;-separated CSV with a BOM and 1.234,56 amounts, JSON names and splits', async () => {
    const file = join(home.dir, 'br.csv');
    writeFileSync(
      file,
      '\uFEFFamount;pixKeyType;pixKey;person.name;person.email;person.phone\r\n' +
        '1.234,56;cpf;123.456.789-09;José da Silva;jose@example.com;(11) 98765-4321\r\n' +
        '"10,50";EMAIL;ana@example.com;"Ana; Souza";ana@example.com;21998765432\r\n',
    );
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: env() });
    expect(r.stderr).toContain('R$ 1.245,06 in total');
    expect(r.code).toBe(0);
    const bodies = cashouts().map((c) => c.json as Record<string, unknown>);
    expect(bodies.map((b) => b.value).sort()).toEqual([1050, 123456]);
    const jose = bodies.find((b) => b.value === 123456)!;
    expect(jose).toMatchObject({ pixKeyType: 0, pixKey: '12345678909', person: { name: 'José da Silva', phone: '11987654321' } });
    expect(bodies.find((b) => b.value === 1050)).toMatchObject({ pixKeyType: 2, person: { name: 'Ana; Souza' } });
    const lines = results(`${file}.results.csv`);
    expect(lines[0]).toBe('row;line;orderId;outcome;valueCents;transactionId;status;feeCents;netCents;brCode;png;error;sandbox');
    expect(lines[1]!.split(';').at(-1)).toBe('false');
    expect(lines).toHaveLength(3);

    // cash-ins from JSON Lines on stdin, with splits
    const split = { clientId: '123e4567-e12b-12d1-a456-426655440000', value: 300 };
    const doc = {
      value: 1000,
      payerName: 'Fulano',
      payerDocument: '123.456.789-09',
      payerEmail: 'f@example.com',
      payerPhone: '11987654321',
      productName: 'Camiseta',
      productDescription: 'Azul',
    };
    const input = `${JSON.stringify({ ...doc, splits: [split] })}\n\n${JSON.stringify({ ...doc, value: 2000, orderId: 'pedido-2' })}\n`;
    const c = await runPaycli(['cashin', '--batch', '-', '--batch-format', 'jsonl', '--yes', '--json', '--results', join(home.dir, 'ci.jsonl')], { env: env(), input });
    // The test gateway's BR Code asks for R$ 10,00: the R$ 20,00 row is created but needs attention (exit 6).
    expect(c.code).toBe(6);
    const ins = gw.received.filter((q) => q.path.endsWith('/cashin')).map((q) => q.json as Record<string, unknown>);
    expect(ins).toHaveLength(2);
    expect(ins.find((b) => b.value === 1000)!.splits).toEqual([split]);
    expect(ins.find((b) => b.value === 2000)!.orderId).toBe('pedido-2');
    const out = c.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { outcome: string; brCode: string; valueCents: number; error?: string });
    expect(out.map((o) => [o.valueCents, o.outcome]).sort()).toEqual([
      [1000, 'ok'],
      [2000, 'needs_attention'],
    ]);
    expect(out.find((o) => o.valueCents === 2000)!.error).toMatch(/R\$ 10,00/);
    expect(out[0]!.brCode).toBe(CASHIN_OK.qrCode);
  });

  it('a resumed run says how many rows it skipped, and its rate counts only the rows it sent', async () => {
    const file = writeCsv('resume.csv', [HEADER, ...Array.from({ length: 20 }, (_, i) => payoutRow(i + 1))]);
    // first run: rows of R$ 10,11 and more are refused, the 10 others paid
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      if (body.value > 1010) return json(res, 400, { message: 'try later' });
      json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
    });
    const first = await runPaycli(['cashout', '--batch', file, '--yes', '--json'], { env: env() });
    expect(first.code).toBe(1);
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
    });
    const again = await runPaycli(['cashout', '--batch', file, '--yes', '--json', '--retry-refused', '--results', join(home.dir, 'again.jsonl')], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(cashouts()).toHaveLength(30);
    const progress = again.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { progress?: { done: number; skipped: number; ok: number } })
      .filter((l) => l.progress)
      .at(-1)!.progress!;
    expect(progress).toMatchObject({ done: 20, skipped: 10, ok: 10 });
  });

  it('waits for Retry-After after a 429 and sends that row again; nothing else is retried', async () => {
    const file = writeCsv('rl.csv', [HEADER, payoutRow(1), payoutRow(2), payoutRow(3)]);
    let limited = false;
    const times: number[] = [];
    gw.respond((req, res) => {
      const body = req.json as { value: number };
      times.push(Date.now());
      if (body.value === 1002 && !limited) {
        limited = true;
        return json(res, 429, { message: 'Too many requests' }, { 'retry-after': '2' });
      }
      if (body.value === 1003) return json(res, 400, { message: 'Validation Failed - pixKey is invalid' });
      json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value) });
    });
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--concurrency', '1'], { env: env(), timeoutMs: 20_000 });
    expect(r.code).toBe(1); // row 3 refused
    const values = cashouts().map((c) => (c.json as { value: number }).value);
    expect(values.filter((v) => v === 1002)).toHaveLength(2);
    expect(values.filter((v) => v === 1003)).toHaveLength(1); // a 400 is never retried
    const i = values.indexOf(1002);
    expect(times[i + 1]! - times[i]!).toBeGreaterThanOrEqual(1900);
    const lines = results(`${file}.results.csv`);
    expect(lines.find((l) => l.startsWith('2,'))).toMatch(/,ok,1002,/);
    expect(lines.find((l) => l.startsWith('3,'))).toMatch(/,refused,1003,.*Validation Failed/);
    expect(r.stderr).toMatch(/refused: row 3/);
  });
});

describe('what was checked is what is sent', () => {
  it('no temporary folder for the checked rows: exit 2, nothing sent', async () => {
    const file = writeCsv('tmp.csv', [HEADER, payoutRow(1), payoutRow(2)]);
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: env({ TMPDIR: join(home.dir, 'no-such-folder') }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot make a temporary folder for the checked rows');
    expect(r.stderr).toContain('nothing was sent');
    expect(gw.received).toHaveLength(0);
  });
});

describe('the standalone sandbox', () => {
  it('1,000 rows at concurrency 8: every row reached the sandbox once, as written', async () => {
    const sb = await startSandboxProcess(['--json'], home.env);
    sandboxes.push(sb);
    const rows = Array.from({ length: 1000 }, (_, i) => `${100 + i},email,p${i}@example.com,Pessoa ${i},p${i}@example.com,11987654321,lote-${i}`);
    const file = writeCsv('thousand.csv', [`${HEADER},order-id`, ...rows]);
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--concurrency', '8', '--base-url', sb.url], { env: home.env, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/1000 +cash-outs created/);
    await sb.waitForLog((log) => log.split('POST /transaction/cashout → 200').length > 1000); // each logged just after its answer
    const posts = sb
      .log()
      .split('\n')
      .filter((l) => l.includes('POST /transaction/cashout → 200'));
    expect(posts).toHaveLength(1000);
    const lines = results(`${file}.results.csv`)
      .slice(1)
      .map((l) => l.split(','));
    expect(lines).toHaveLength(1000);
    const byRow = new Map(lines.map((c) => [Number(c[0]), c]));
    for (let i = 0; i < 1000; i++) {
      const c = byRow.get(i + 1)!;
      expect(c[2]).toBe(`lote-${i}`);
      expect(c[3]).toBe('ok');
      expect(c[4]).toBe(String(100 + i));
    }
    // what the sandbox holds, row by row (its lookup by orderId); a created transfer carries no
    // destinationBank (as the gateway family documents it), so every 50th row is paid first and its
    // destination read back
    for (let i = 0; i < 1000; i += 1) {
      const id = byRow.get(i + 1)![5];
      if (i % 50 === 0) expect((await fetch(`${sb.url}/_sandbox/transactions/${id}/pay`, { method: 'POST' })).status).toBe(200);
      const res = await fetch(`${sb.url}/transaction/get/by/orderId/lote-${i}`);
      const t = (await res.json()) as { transactionId: number; value: number; destinationBank: { pixKey: string } | null };
      expect(t.value).toBe(100 + i);
      expect(String(t.transactionId)).toBe(id);
      if (i % 50 === 0) expect(t.destinationBank?.pixKey).toBe(`p${i}@example.com`);
    }
  }, 120_000);
});

describe('derived references', () => {
  it('follow the rows of a new file; a file an older paycli started keeps its references: nothing recorded is sent under a new one', async () => {
    const file = writeCsv('older.csv', [HEADER, payoutRow(1), payoutRow(2), payoutRow(3), payoutRow(4)]);
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    // first run: rows of R$ 10,03 and more are refused, rows 1 and 2 paid
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      if (body.value > 1002) return json(res, 400, { message: 'try later' });
      json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
    });
    const first = await runPaycli(['cashout', '--batch', file, '--yes'], { env: env() });
    expect(first.code).toBe(1);
    expect(cashouts().map((r) => (r.json as { orderId: string }).orderId)).toEqual([1, 2, 3, 4].map((row) => derivedOrderId(sha, 'cashout', row)));
    // what an older paycli would have recorded: every row under the reference it derived
    for (const row of [1, 2, 3, 4]) ledgerRun(home.env.PAYCLI_DATA_DIR!, 'UPDATE payments SET order_id = ? WHERE batch_row = ?', legacyDerivedOrderId(sha, 'cashout', row), row);
    const before = cashouts().length;
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
    });
    const again = await runPaycli(['cashout', '--batch', file, '--yes', '--retry-refused', '--results', join(home.dir, 'again.csv')], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    // rows 1 and 2 found paid under their old references; 3 and 4 sent again under theirs
    expect(
      cashouts()
        .slice(before)
        .map((r) => (r.json as { orderId: string }).orderId),
    ).toEqual([3, 4].map((row) => legacyDerivedOrderId(sha, 'cashout', row)));
    expect(
      results(join(home.dir, 'again.csv'))
        .slice(1)
        .map((l) => l.split(',').slice(2, 4)),
    ).toEqual([
      [legacyDerivedOrderId(sha, 'cashout', 1), 'already_ok'],
      [legacyDerivedOrderId(sha, 'cashout', 2), 'already_ok'],
      [legacyDerivedOrderId(sha, 'cashout', 3), 'ok'],
      [legacyDerivedOrderId(sha, 'cashout', 4), 'ok'],
    ]);
  });
});

describe('a re-run of a finished file', () => {
  it('reports every row already_ok from the ledger (same rows, lines, references and transaction ids), sends nothing, exit 0; --json too', async () => {
    // a blank line after row 3: row 4 is not on line row + 1
    const file = writeCsv('done.csv', [HEADER, payoutRow(1), payoutRow(2), payoutRow(3), '', payoutRow(4)]);
    const plain = writeCsv('plain.csv', [HEADER, payoutRow(5), payoutRow(6), payoutRow(7)]);
    for (const [f, rows] of [
      [file, 4],
      [plain, 3],
    ] as const) {
      const first = await runPaycli(['cashout', '--batch', f, '--yes', '--results', `${f}.1.csv`], { env: env() });
      expect(first.code, first.stderr).toBe(0);
      const sent = gw.received.length;
      const again = await runPaycli(['cashout', '--batch', f, '--yes', '--results', `${f}.2.csv`], { env: env() });
      expect(again.code, again.stderr).toBe(0);
      expect(gw.received).toHaveLength(sent);
      expect(again.stderr).toMatch(new RegExp(`${rows} +already paid \\(earlier run\\)`));
      const firstRows = results(`${f}.1.csv`)
        .slice(1)
        .map((l) => l.split(','));
      const againRows = results(`${f}.2.csv`)
        .slice(1)
        .map((l) => l.split(','));
      expect(againRows).toHaveLength(rows);
      // row, line, orderId, outcome, valueCents, transactionId, status
      expect(againRows.map((c) => c.slice(0, 7))).toEqual(firstRows.map((c) => [...c.slice(0, 3), 'already_ok', ...c.slice(4, 7)]));
      const json = await runPaycli(['--json', 'cashout', '--batch', f, '--yes', '--results', `${f}.3.jsonl`], { env: env() });
      expect(json.code).toBe(0);
      const docs = json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { row: number; outcome: string });
      expect(docs.map((d) => [d.row, d.outcome])).toEqual(Array.from({ length: rows }, (_, i) => [i + 1, 'already_ok']));
      expect(JSON.parse(json.stderr.trim().split('\n').at(-1)!).summary.already_ok.rows).toBe(rows);
    }
    // row 4 kept its real line number, 6
    expect(results(`${file}.2.csv`)[4]!.split(',').slice(0, 2)).toEqual(['4', '6']);
  });

  it('an unreadable record of the file in the ledger: checked row by row instead, every row already_ok, nothing sent, exit 0', async () => {
    const file = writeCsv('record.csv', [HEADER, payoutRow(1), payoutRow(2)]);
    const first = await runPaycli(['cashout', '--batch', file, '--yes', '--results', `${file}.1.csv`], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    ledgerRun(home.env.PAYCLI_DATA_DIR!, "UPDATE meta SET value = '{not json' WHERE key LIKE 'batch:%'");
    const again = await runPaycli(['cashout', '--batch', file, '--yes', '--results', `${file}.2.csv`], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/2 +already paid \(earlier run\)/);
    expect(again.stderr).not.toMatch(/internal|SyntaxError/);
    expect(
      results(`${file}.2.csv`)
        .slice(1)
        .map((l) => l.split(',')[3]),
    ).toEqual(['already_ok', 'already_ok']);
    expect(cashouts()).toHaveLength(2);
  });

  it('a file with a refused row is checked row by row again: the refused row is reported, not sent; --retry-refused sends only it', async () => {
    const file = writeCsv('refused.csv', [HEADER, payoutRow(1), payoutRow(2), payoutRow(3)]);
    gw.respond((req, res) => {
      const body = req.json as { value?: number; orderId?: string };
      if (body.value === 1002) return json(res, 400, { message: 'PIX key not found' });
      json(res, 200, { ...CASHOUT_OK, transactionId: gw.received.length, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
    });
    const first = await runPaycli(['cashout', '--batch', file, '--yes', '--results', `${file}.1.csv`], { env: env() });
    expect(first.code, first.stderr).toBe(1);
    const again = await runPaycli(['cashout', '--batch', file, '--yes', '--results', `${file}.2.csv`], { env: env() });
    expect(again.code).toBe(1);
    expect(gw.received).toHaveLength(3);
    expect(
      results(`${file}.2.csv`)
        .slice(1)
        .map((l) => l.split(',')[3]),
    ).toEqual(['already_ok', 'already_refused', 'already_ok']);
    const retry = await runPaycli(['cashout', '--batch', file, '--yes', '--retry-refused', '--results', `${file}.3.csv`], { env: env() });
    expect(retry.code).toBe(1);
    expect(gw.received).toHaveLength(4);
    expect((gw.received[3]!.json as { value: number }).value).toBe(1002);
  });
});

describe('the ledger answers for one gateway', () => {
  it('a file rehearsed on the built-in sandbox is sent in full to a gateway (every row once), then found done there', async () => {
    const file = writeCsv('rehearsed.csv', [HEADER, payoutRow(1), payoutRow(2), payoutRow(3)]);
    const sandboxEnv = { ...home.env, PAYCLI_BASE_URL: 'sandbox' };
    const rehearsal = await runPaycli(['cashout', '--batch', file, '--yes', '--results', `${file}.sandbox.csv`], { env: sandboxEnv });
    expect(rehearsal.code, rehearsal.stderr).toBe(0);
    expect(rehearsal.stderr).toMatch(/3 +cash-outs created/);
    expect(gw.received).toHaveLength(0);

    const real = await runPaycli(['cashout', '--batch', file, '--yes', '--results', `${file}.gateway.csv`], { env: env() });
    expect(real.code, real.stderr).toBe(0);
    expect(real.stderr).toMatch(/3 +cash-outs created/);
    expect(real.stderr).not.toMatch(/already paid/);
    expect(cashouts().map((r) => (r.json as { value: number }).value)).toEqual([1001, 1002, 1003]);
    expect(
      results(`${file}.gateway.csv`)
        .slice(1)
        .map((l) => l.split(',')[3]),
    ).toEqual(['ok', 'ok', 'ok']);

    // Both runs are now done, each at its own gateway: neither sends again.
    for (const [name, e] of [
      ['gateway', env()],
      ['sandbox', sandboxEnv],
    ] as const) {
      const again = await runPaycli(['cashout', '--batch', file, '--yes', '--results', `${file}.${name}-again.csv`], { env: e });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/3 +already paid \(earlier run\)/);
    }
    expect(cashouts()).toHaveLength(3);
  });
});

describe('the gateway as second witness', () => {
  it('two runs with different HOMEs and the same order-id column: exactly one POST per row; the second run reports the rows already at the gateway (exit 6)', async () => {
    const l = lookupGateway();
    gw.respond(l.responder);
    const file = writeCsv('orders.csv', [`${HEADER},order-id`, `${payoutRow(1)},lote-a`, `${payoutRow(2)},lote-b`, `${payoutRow(3)},lote-c`]);
    const lookups = () => gw.received.filter((r) => r.method === 'GET' && r.path.startsWith('/transaction/get/by/orderId/'));
    const first = await runPaycli(['cashout', '--batch', file, '--yes', '--results', join(home.dir, 'first.csv')], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(cashouts()).toHaveLength(3);
    // each row was asked about before its POST (none held yet)
    expect(
      lookups()
        .map((r) => r.path)
        .sort(),
    ).toEqual(['lote-a', 'lote-b', 'lote-c'].map((o) => `/transaction/get/by/orderId/${o}`));
    for (const o of ['lote-a', 'lote-b', 'lote-c']) {
      const ask = gw.received.findIndex((r) => r.method === 'GET' && r.path.endsWith(`/${o}`));
      const post = gw.received.findIndex((r) => r.method === 'POST' && (r.json as { orderId: string }).orderId === o);
      expect(ask).toBeLessThan(post);
    }

    const other = makeHome();
    try {
      const out = join(other.dir, 'second.jsonl');
      const second = await runPaycli(['cashout', '--batch', file, '--yes', '--results', out], { env: { ...env(), ...other.env } });
      expect(second.code).toBe(6);
      expect(second.stderr).toMatch(/3 +already at the gateway \(not sent\)/);
      expect(second.stderr).toMatch(/already at the gateway: rows 1, 2, 3/);
      expect(second.stderr).not.toMatch(/cash-outs created/);
      const rows = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { orderId: string; outcome: string; transactionId: number; error: string });
      expect(rows).toHaveLength(3);
      for (const r of rows) {
        const held = l.held.find((t) => t.orderId === r.orderId)!;
        expect(r.outcome).toBe('already_at_gateway');
        expect(r.transactionId).toBe(held.transactionId);
        expect(r.error).toContain(`the gateway already holds order ${r.orderId}: transaction ${held.transactionId}`);
      }
      // nothing of it counts as paid in the second home: a third run there asks again and sends nothing
      const third = await runPaycli(['cashout', '--batch', file, '--yes', '--json', '--results', join(other.dir, 'third.csv')], { env: { ...env(), ...other.env } });
      expect(third.code).toBe(6);
      const summary = JSON.parse(third.stderr.trim().split('\n').at(-1)!) as { summary: Record<string, { rows: number; cents: number }> };
      expect(summary.summary.already_at_gateway).toEqual({ rows: 3, cents: 1001 + 1002 + 1003 });
      expect(summary.summary.ok!.rows).toBe(0);
      expect(summary.summary.already_ok!.rows).toBe(0);
    } finally {
      other.cleanup();
    }
    expect(cashouts()).toHaveLength(3);
    expect(l.held).toHaveLength(3);
    expect(lookups()).toHaveLength(9);
  });
});

describe('--rate', () => {
  it('6 rows at --rate 2 with --concurrency 8: the starts are spread over about 2.5 s, every row sent once', async () => {
    const arrivals: Array<{ at: number; orderId: string }> = [];
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      arrivals.push({ at: Date.now(), orderId: body.orderId });
      json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
    });
    const file = writeCsv('rate.csv', [HEADER, ...Array.from({ length: 6 }, (_, i) => payoutRow(i + 1))]);
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--rate', '2', '--concurrency', '8'], { env: env(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/6 +cash-outs created/);
    expect(arrivals).toHaveLength(6);
    expect(new Set(arrivals.map((a) => a.orderId)).size).toBe(6);
    // one start every 500 ms: the sixth 2.5 s after the first (slack for a loaded machine)
    expect(arrivals.at(-1)!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(2000);
    // never all at once, although 8 could be in flight: no three within one 500 ms window (the gap
    // between two single arrivals depends on how fast the machine is, the count in a window much less)
    for (let i = 2; i < arrivals.length; i++) expect(arrivals[i]!.at - arrivals[i - 2]!.at).toBeGreaterThanOrEqual(500);
    expect(
      results(`${file}.results.csv`)
        .slice(1)
        .filter((l) => l.includes(',ok,')),
    ).toHaveLength(6);
  });

  it.each([['0'], ['-1'], ['abc'], ['1e3'], ['']])('--rate %j: exit 2 naming --rate, nothing sent, no results file', async (rate) => {
    const file = writeCsv('badrate.csv', [HEADER, payoutRow(1)]);
    const r = await runPaycli(['cashout', '--batch', file, '--yes', `--rate=${rate}`], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--rate');
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stdout).toBe('');
    expect(gw.received).toHaveLength(0);
    expect(existsSync(`${file}.results.csv`)).toBe(false);
  });

  it('--rate and the other batch flags on a single payment: exit 2 naming the flag, nothing sent', async () => {
    const single = [
      'cashout',
      '--value',
      '1550',
      '--pix-key-type',
      'email',
      '--pix-key',
      'a@example.com',
      '--person-name',
      'Ana',
      '--person-email',
      'a@example.com',
      '--person-phone',
      '11987654321',
      '--yes',
    ];
    for (const extra of [
      ['--rate', '2'],
      ['--concurrency', '4'],
      ['--results', join(home.dir, 'r.csv')],
    ]) {
      const r = await runPaycli([...single, ...extra], { env: env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${extra[0]} is for batch runs`);
    }
    expect(gw.received).toHaveLength(0);
  });
});

describe('cash-ins with --qr-dir', () => {
  const CHARGES = 'value,payer-name,payer-document,payer-email,payer-phone,product-name,product-description';
  const charge = (n: number) => `${1000 + n},Pagador ${n},123.456.789-09,pagador${n}@example.com,11987654321,Produto ${n},Pedido ${n}`;
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  it('against the standalone sandbox: one PNG per row in the folder, the results carry each BR Code and PNG path', async () => {
    const sb = await startSandboxProcess(['--json'], home.env);
    sandboxes.push(sb);
    const file = writeCsv('charges.csv', [CHARGES, ...[1, 2, 3].map(charge)]);
    const qrDir = join(home.dir, 'qr', 'novembro'); // created by paycli
    const out = join(home.dir, 'charges.results.jsonl');
    const r = await runPaycli(['cashin', '--batch', file, '--qr-dir', qrDir, '--yes', '--results', out, '--base-url', sb.url], { env: home.env, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/3 +cash-ins created/);
    await sb.waitForLog((log) => log.split('POST /transaction/qrcode/cashin → 200').length > 3); // each logged just after its answer
    expect(
      sb
        .log()
        .split('\n')
        .filter((l) => l.includes('POST /transaction/qrcode/cashin → 200')),
    ).toHaveLength(3);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row: number; orderId: string; outcome: string; valueCents: number; brCode: string; png: string });
    expect(rows.map((x) => x.row).sort()).toEqual([1, 2, 3]);
    for (const x of rows) {
      expect(x.outcome).toBe('ok');
      expect(x.png).toBe(join(qrDir, `row-${x.row}-${x.orderId}.png`));
      expect(readFileSync(x.png).subarray(0, 8).equals(PNG)).toBe(true);
      expect(readFileSync(x.png).length).toBeGreaterThan(100);
      // the BR Code of the row's own amount, that decodes without problems
      const decoded = decodeBrCode(x.brCode);
      expect(decoded.valid, JSON.stringify(decoded.problems)).toBe(true);
      expect(decoded.amountCents).toBe(x.valueCents);
    }
    expect(readdirSync(qrDir).sort()).toEqual(rows.map((x) => `row-${x.row}-${x.orderId}.png`).sort());
  });

  it('a --qr-dir that cannot be written (a regular file, a path under one): exit 2 naming --qr-dir, nothing sent, no results', async () => {
    const file = writeCsv('charges.csv', [CHARGES, charge(1)]);
    const plain = join(home.dir, 'not-a-folder');
    writeFileSync(plain, 'x');
    for (const qrDir of [plain, join(plain, 'sub')]) {
      const r = await runPaycli(['cashin', '--batch', file, '--qr-dir', qrDir, '--yes'], { env: env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--qr-dir: cannot write into .*not-a-folder.*; nothing was sent/);
      expect(r.stdout).toBe('');
    }
    expect(gw.received).toHaveLength(0);
    expect(readFileSync(plain, 'utf8')).toBe('x');
    expect(existsSync(`${file}.results.csv`)).toBe(false);
  });
});
