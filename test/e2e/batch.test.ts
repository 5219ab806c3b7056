/**
 * Batch runs end to end: the built paycli against a recording test gateway on 127.0.0.1 (which
 * can answer 429 or hold answers) and the standalone sandbox. Every test asserts what reached
 * the gateway.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBrCode } from '../../src/pix/brcode.js';
import { childEnv, makeHome, PAYCLI, runPaycli, type Home } from '../helpers/cli.js';
import { CASHIN_OK, CASHOUT_OK, json, lookupGateway, startGateway, type TestGateway } from '../helpers/gateway.js';
import { ledgerRun } from '../helpers/ledger.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';
import { startTty, type TtySession } from '../helpers/tty.js';

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

  it('--concurrency 32 against a failing gateway, --json: stderr holds only JSON lines, no MaxListenersExceededWarning', async () => {
    const file = writeCsv('fail32.csv', [HEADER, ...Array.from({ length: 96 }, (_, i) => payoutRow(i + 1))]);
    gw.respond((req, res) => (req.method === 'GET' ? json(res, 404, { message: 'Transaction not found' }) : json(res, 500, { message: 'internal error' })));
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--json', '--concurrency', '32'], { env: env() });
    expect(r.code).toBe(5);
    expect(cashouts()).toHaveLength(96);
    expect(r.stderr).not.toMatch(/MaxListenersExceeded|Warning/);
    for (const line of r.stderr.trim().split('\n')) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
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

  it('Ctrl-C: starts no more rows, waits for the ones in flight, records them, exit 130', async () => {
    const file = writeCsv('int.csv', [HEADER, ...Array.from({ length: 10 }, (_, i) => payoutRow(i + 1))]);
    const held: Array<() => void> = [];
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      held.push(() => json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId }));
    });
    const child = spawn(process.execPath, [PAYCLI, 'cashout', '--batch', file, '--yes', '--concurrency', '2'], { env: childEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await waitUntil(() => held.length === 2);
    child.kill('SIGINT');
    await waitUntil(() => /starting no more rows/.test(stderr));
    held.splice(0).forEach((answer) => answer());
    expect(await exited).toBe(130);
    expect(cashouts()).toHaveLength(2);
    const lines = results(`${file}.results.csv`).slice(1);
    expect(lines).toHaveLength(10); // every row once: 2 created, 8 not started
    expect(lines.filter((l) => /,ok,/.test(l))).toHaveLength(2);
    expect(lines.filter((l) => /,not_started,/.test(l))).toHaveLength(8);
    expect(stderr).toMatch(/8 +not started \(interrupted\)/);

    // The same command again: the 2 paid rows are skipped, the 8 others sent.
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
    });
    const again = await runPaycli(['cashout', '--batch', file, '--yes', '--concurrency', '2'], { env: env() });
    expect(again.code).toBe(0);
    expect(cashouts()).toHaveLength(10);
    expect(new Set(cashouts().map((c) => (c.json as { orderId: string }).orderId)).size).toBe(10);
    expect(again.stderr).toMatch(/2 +already paid/);
  });
});

describe('what was checked is what is sent', () => {
  it('a file rewritten while its rows are being sent: every row goes out as it was checked and confirmed', async () => {
    // Far larger than what the reading streams hold at once (a few 64 KiB buffers): most rows are
    // read after the rewrite.
    const rows = 3000;
    const row = (n: number, cents: number) => `${cents},email,fornecedor${n}@example.com,Fornecedor ${n} ${'de Souza '.repeat(9).trim()},fornecedor${n}@example.com,11987654321`;
    const file = writeCsv('moving.csv', [HEADER, ...Array.from({ length: rows }, (_, i) => row(i + 1, 1001 + i))]);
    let first: (() => void) | undefined;
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      const answer = () => json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId });
      if (cashouts().length === 1) first = answer;
      else answer();
    });
    const child = spawn(process.execPath, [PAYCLI, 'cashout', '--batch', file, '--yes', '--concurrency', '1'], { env: childEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await waitUntil(() => first !== undefined);
    // Every amount becomes R$ 9.999,99 while the first row is on its way.
    writeCsv('moving.csv', [HEADER, ...Array.from({ length: rows }, (_, i) => row(i + 1, 999_999))]);
    first!();
    expect(await exited).toBe(0);
    expect(cashouts().map((c) => (c.json as { value: number }).value)).toEqual(Array.from({ length: rows }, (_, i) => 1001 + i));
  });

  it('no temporary folder for the checked rows: exit 2, nothing sent', async () => {
    const file = writeCsv('tmp.csv', [HEADER, payoutRow(1), payoutRow(2)]);
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: env({ TMPDIR: join(home.dir, 'no-such-folder') }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot make a temporary folder for the checked rows');
    expect(r.stderr).toContain('nothing was sent');
    expect(gw.received).toHaveLength(0);
  });

  it('a temporary folder that fills up while the rows are kept: exit 2, nothing sent', async () => {
    // A 64 KiB file system of its own (a private mount namespace), far smaller than the rows checked.
    const small = join(home.dir, 'small-tmp');
    mkdirSync(small);
    const file = writeCsv('big.csv', [HEADER, ...Array.from({ length: 3000 }, (_, i) => payoutRow(i + 1))]);
    const script = 'mount -t tmpfs -o size=64k none "$TMPDIR" && exec "$0" "$@"';
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('unshare', ['-rm', 'sh', '-c', script, process.execPath, PAYCLI, 'cashout', '--batch', file, '--yes'], {
        env: childEnv(env({ TMPDIR: small })),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(r.stderr).toContain('cannot keep the checked rows in');
    expect(r.stderr).toContain('(ENOSPC); nothing was sent');
    expect(r.code).toBe(2);
    expect(gw.received).toHaveLength(0);
    expect(existsSync(`${file}.results.csv`)).toBe(false);
  });

  it('a ledger disk that fills up mid-run: every row is in the summary and the results once, by state; the same command then sends the rest, each row once in total', async () => {
    // The ledger on a 192 KiB file system of its own (a private mount namespace): it fills up after
    // some rows are recorded; the second run, after the file system grew, resumes.
    const data = join(home.dir, 'small-data');
    mkdirSync(data);
    const rows = 600;
    const file = writeCsv('full.csv', [HEADER, ...Array.from({ length: rows }, (_, i) => payoutRow(i + 1))]);
    const [r1, r2] = [join(home.dir, 'r1.csv'), join(home.dir, 'r2.csv')];
    gw.respond(lookupGateway().responder); // answers lookups: the resume asks about rows whose outcome the full disk kept from the ledger
    const script = [
      'mount -t tmpfs -o size=192k none "$PAYCLI_DATA_DIR" || exit 99',
      '"$0" "$1" cashout --batch "$2" --yes --results "$3"; echo "first $?"',
      'mount -o remount,size=8m "$PAYCLI_DATA_DIR" || exit 98',
      '"$0" "$1" cashout --batch "$2" --yes --results "$4"; echo "second $?"',
    ].join('\n');
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('unshare', ['-rm', 'sh', '-c', script, process.execPath, PAYCLI, file, r1, r2], {
        env: childEnv({ ...env(), PAYCLI_DATA_DIR: data }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.code, r.stderr).toBe(0);
    const first = results(r1)
      .slice(1)
      .map((l) => l.split(','));
    // Every row exactly once, in one of two states: created, or not started (nothing of it sent).
    expect(first.map((c) => Number(c[0])).sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    const created = first.filter((c) => c[3] === 'ok').length;
    const notStarted = first.filter((c) => c[3] === 'not_started').length;
    expect(created).toBeGreaterThan(0);
    expect(notStarted).toBeGreaterThan(0);
    expect(created + notStarted).toBe(rows);
    expect(r.stdout).toContain('first 6');
    expect(r.stderr).toMatch(new RegExp(`${created} +cash-outs created`));
    expect(r.stderr).toMatch(new RegExp(`${notStarted} +not started \\(the run stopped; see below\\)`));
    expect(r.stderr).toMatch(/not started: rows [0-9]+-600/);
    expect(r.stderr).toContain('disk is full (SQLITE_FULL); the run stopped after sending some rows');
    expect(r.stderr).toContain(`${created} created, ${notStarted} not started`);
    expect(r.stderr).not.toMatch(/sending some rows.*nothing was sent/);
    // The outcomes the full disk kept from the ledger: said to be sent, never "nothing was sent".
    expect(r.stderr).toMatch(
      /were sent, but their outcomes could not be recorded in the ledger \(the payment ledger .* the disk is full \(SQLITE_FULL\)\): the ledger keeps them with an unknown outcome, so they are not sent again/,
    );
    expect(r.stderr.match(/nothing was sent/g) ?? []).toHaveLength(0);
    // The resume: the created rows are found (in the ledger, or at the gateway by order reference),
    // the rows not started are sent; a row recorded but never sent whose ending the full disk lost
    // stays unknown until its deadline has passed (a lookup's "not found" proves nothing before),
    // and is not sent. No row reached the gateway twice.
    expect(r.stdout).toMatch(/second (0|4)/);
    const second = results(r2)
      .slice(1)
      .map((l) => l.split(','));
    const firstState = new Map(first.map((c) => [c[0], c[3]]));
    expect(second.filter((c) => c[3] === 'already_ok')).toHaveLength(created);
    for (const c of second.filter((c) => c[3] === 'ok' || c[3] === 'unknown')) expect(firstState.get(c[0])).toBe('not_started');
    expect(second.filter((c) => c[3] === 'ok').length + second.filter((c) => c[3] === 'unknown').length).toBe(notStarted);
    expect(cashouts()).toHaveLength(created + second.filter((c) => c[3] === 'ok').length);
    expect(new Set(cashouts().map((c) => (c.json as { orderId: string }).orderId)).size).toBe(cashouts().length);
  }, 60_000);

  it('a file that changes between its fingerprint and its check is refused, nothing sent', async () => {
    // A FIFO gives each reader what the writer of that moment writes: the fingerprint (the first
    // read) sees one file and the check (the second) another.
    const fifoDir = join(home.dir, 'fifo');
    mkdirSync(fifoDir);
    const fifo = join(fifoDir, 'rows.jsonl');
    execFileSync('mkfifo', [fifo]);
    const doc = (value: number) =>
      JSON.stringify({ value, pixKeyType: 'email', pixKey: 'ana@example.com', person: { name: 'Ana', email: 'ana@example.com', phone: '11987654321' } });
    const child = spawn(process.execPath, [PAYCLI, 'cashout', '--batch', fifo, '--yes'], { env: childEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    // Whether paycli has the FIFO open now (its open file descriptors, /proc/<pid>/fd).
    const paycliReads = () => {
      try {
        return readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
          try {
            return readlinkSync(`/proc/${child.pid}/fd/${fd}`) === fifo;
          } catch {
            return false;
          }
        });
      } catch {
        return false; // it has ended
      }
    };
    const feed = (async () => {
      for (const value of [1000, 50_000]) {
        // One writer per open by paycli: its write waits until paycli opens the FIFO to read. A writer
        // exits once its line is in the pipe, maybe before paycli has read it; the next writer waits
        // until paycli has closed that read, or paycli would read both lines at once.
        await new Promise<void>((resolve) => {
          const w = spawn('sh', ['-c', 'cat > "$0"', fifo], { stdio: ['pipe', 'ignore', 'ignore'] });
          w.on('close', () => resolve());
          w.stdin.end(`${doc(value)}\n`);
        });
        while (paycliReads()) await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const code = await exited;
    await feed;
    expect(code).toBe(2);
    expect(stderr).toContain('changed while it was being checked; nothing was sent');
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

async function waitUntil(cond: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('resume', () => {
  it('SIGKILL in the middle, then the same command until done: exactly one request per row in total (rows the killed run may have in flight wait for their deadline)', async () => {
    const sb = await startSandboxProcess(['--json'], home.env);
    sandboxes.push(sb);
    const rows = Array.from({ length: 300 }, (_, i) => payoutRow(i + 1));
    const file = writeCsv('kill.csv', [HEADER, ...rows]);
    // A short timeout and no settle-after: the killed run's rows become decidable within the test.
    const env = { ...home.env, PAYCLI_SETTLE_AFTER: '0' };
    const args = ['cashout', '--batch', file, '--yes', '--concurrency', '4', '--base-url', sb.url, '--timeout', '1000'];
    const posts = () =>
      sb
        .log()
        .split('\n')
        .filter((l) => l.includes('POST /transaction/cashout')).length;
    const child = spawn(process.execPath, [PAYCLI, ...args], { env: childEnv(env), stdio: ['ignore', 'ignore', 'ignore'] });
    const exited = new Promise<void>((r) => child.on('close', () => r()));
    await waitUntil(() => posts() >= 60, 30_000);
    child.kill('SIGKILL');
    await exited;
    const first = posts();
    expect(first).toBeLessThan(300);
    // At once: the rows the killed run recorded may still be in flight: left unknown (exit 4), the others sent.
    const again = await runPaycli(args, { env, timeoutMs: 60_000 });
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('run the same command again after');
    // Once their deadline has passed, the same command settles them by lookup and sends what never arrived.
    const latest = Math.max(
      ...(JSON.parse((await runPaycli(['history', '--json', '--limit', '1000'], { env })).stdout) as Array<{ deadlineMs?: number }>).map((e) => e.deadlineMs ?? 0),
    );
    while (Date.now() <= latest + 50) await new Promise((r) => setTimeout(r, 100));
    const done = await runPaycli(args, { env, timeoutMs: 60_000 });
    expect(done.code, done.stderr).toBe(0);
    expect(posts()).toBe(300);
    const lines = results(`${file}.results-3.csv`).slice(1);
    expect(lines).toHaveLength(300);
    const already = lines.filter((l) => l.includes(',already_ok,')).length;
    expect(already).toBeGreaterThanOrEqual(first - 4); // those whose answer came back before the kill, and the ones found by lookup
    expect(lines.filter((l) => l.includes(',ok,')).length + already).toBe(300);
    // a fourth run sends nothing
    const fourth = await runPaycli(args, { env, timeoutMs: 60_000 });
    expect(fourth.code).toBe(0);
    expect(fourth.stderr).toMatch(/300 +already paid/);
    expect(posts()).toBe(300);
  }, 120_000);
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

describe('progress on a terminal', () => {
  let tty: TtySession | undefined;
  afterEach(() => {
    tty?.kill();
    tty = undefined;
  });

  it('a live bar with done/total and the counters while running (tmux), then the summary', async () => {
    gw.respond((req, res) => {
      const body = req.json as { value: number; orderId: string };
      setTimeout(() => json(res, 200, { ...CASHOUT_OK, gross: body.value, tax: '0', liquid: String(body.value), orderId: body.orderId }), 300);
    });
    const file = writeCsv('slow.csv', [HEADER, ...Array.from({ length: 10 }, (_, i) => payoutRow(i + 1))]);
    tty = startTty(['cashout', '--batch', file, '--yes', '--concurrency', '1'], env(), home.dir);
    // while running: some rows done, not all; ok counts them, nothing refused or unknown, reais sent so far
    const running = await tty.waitFor(/\b[3-8]\/10 \| ok [3-8] · refused 0 · unknown 0 \| R\$ [0-9.,]+ \|/, 15_000);
    const m = /\b([3-8])\/10 \| ok ([3-8]) · refused 0 · unknown 0 \| (R\$ [0-9.,]+) \| ([0-9.]+)\/s \| .* left/.exec(running)!;
    expect(m, running).not.toBeNull();
    expect(m[2]).toBe(m[1]); // every finished row is ok
    const done = Number(m[1]);
    const cents = 1000 * done + (done * (done + 1)) / 2; // rows 1..done, in order at concurrency 1
    expect(m[3]).toBe(`R$ ${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`);
    expect(running).not.toContain('Batch summary');
    expect(cashouts().length).toBeLessThan(10);

    expect(await tty.exitCode(20_000)).toBe(0);
    const end = tty.screen();
    expect(end).toMatch(/10\/10 \| ok 10 · refused 0 · unknown 0 \| R\$ 100,55 \|/);
    expect(end).toMatch(/Batch summary\n +10 +cash-outs created +R\$ 100,55/);
    expect(end).toContain(`Results: ${file}.results.csv`);
    expect(cashouts()).toHaveLength(10);
  });
});
