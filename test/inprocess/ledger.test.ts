/**
 * The payment ledger (src/ledger/ledger.ts) and the duplicate-payout guard, run in process (test/helpers/run.ts) against a
 * test gateway on 127.0.0.1; every test counts the requests that reached the gateway. Covers a
 * lock holder stopped with SIGSTOP, a damaged, read-only, linked, foreign or full ledger, an
 * unknown outcome under a clock moved on and back (faketime), 20 concurrent processes, spellings
 * of one gateway URL and the import of an old journal.jsonl. `paycli history` is in history.test.ts.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { CASHOUT_OK, json, startGateway, useGatewayFixture } from '../helpers/gateway.js';
import { ageEntries, ledgerFile, ledgerRows, openSqlite } from '../helpers/ledger.js';

const KEY = 'sk_live_LEDGER_0123456789abcdef';
const t = useGatewayFixture(KEY);
const dataDir = () => t.home.env.PAYCLI_DATA_DIR!;
const file = () => ledgerFile(dataDir());
const rows = () => ledgerRows(dataDir());
/** The payments that reached the gateway (a lookup by order reference after an unknown outcome is a GET). */
const sent = () => t.gw.received.filter((q) => q.method === 'POST');
const withValue = (args: string[], cents: number) => args.map((a, i) => (args[i - 1] === '--value' ? String(cents) : a));

describe('ledger', () => {
  it('records a cash-out on disk before it is sent, then its outcome; 0600 in a 0700 folder; no API key', async () => {
    let atArrival: Record<string, unknown>[] = [];
    t.gw.respond((_req, res) => {
      atArrival = rows(); // what was committed when the request arrived
      json(res, 200, CASHOUT_OK);
    });
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code).toBe(0);
    expect(atArrival).toHaveLength(1);
    expect(atArrival[0]).toMatchObject({
      id: 1,
      kind: 'cashout',
      value: 1550,
      pix_key: 'fulano@example.com',
      pix_key_type: 2,
      target: `${t.gw.url}/transaction/cashout`,
      outcome: null,
      sandbox: 0,
      profile: 'default',
    });
    const all = rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: 1, outcome: 'ok', transaction_id: 77, status: '0', allow_duplicate: 0 });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir()).mode & 0o777).toBe(0o700);
    for (const f of ['ledger.db', 'ledger.db-wal', 'ledger.db-shm'])
      if (existsSync(join(dataDir(), f))) expect(readFileSync(join(dataDir(), f)).toString('latin1')).not.toContain(KEY);
    expect(sent()).toHaveLength(1);
  });

  it('--dry-run writes nothing', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--dry-run'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHIN_ARGS, '--dry-run'], { env: t.env() })).code).toBe(0);
    expect(existsSync(file())).toBe(false);
    expect(sent()).toHaveLength(0);
  });

  it('records the outcome of every kind of failure, and never the key even when the gateway echoes it', async () => {
    const cases: [(res: import('node:http').ServerResponse) => void, string][] = [
      [(res) => json(res, 400, { message: `value inválido for key ${KEY}` }), 'refused'],
      [(res) => json(res, 401, { message: 'nope' }), 'refused'],
      [(res) => json(res, 503, { message: 'down' }), 'unknown'],
      [(res) => json(res, 200, { transactionId: 'x' }), 'unknown'],
    ];
    let cents = 100;
    for (const [respond, outcome] of cases) {
      t.gw.respond((_req, res) => respond(res));
      await runPaycli([...withValue(CASHOUT_ARGS, cents++), '--yes'], { env: t.env() });
      expect(rows().pop()).toMatchObject({ outcome });
    }
    const url = t.gw.url;
    await t.gw.close();
    await runPaycli([...withValue(CASHOUT_ARGS, cents++), '--yes'], { env: { ...t.env(), PAYCLI_BASE_URL: url } });
    expect(rows().pop()).toMatchObject({ outcome: 'not_sent' });
    t.gw = await startGateway();
    const all = JSON.stringify(rows());
    expect(all).not.toContain(KEY);
    expect(all).toContain('[redacted]');
    expect(rows()[0]).toMatchObject({ outcome: 'refused', http_status: 400 });
  });

  it('cash-ins are recorded, never refused as duplicates', async () => {
    expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
    expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
    expect(sent()).toHaveLength(2);
    expect(rows().map((r) => [r.kind, r.outcome, r.payer, r.transaction_id])).toEqual([
      ['cashin', 'ok', 'Fulano de Tal', 4242],
      ['cashin', 'ok', 'Fulano de Tal', 4242],
    ]);
  });
});

describe('duplicate-payout guard', () => {
  it('refuses an identical cash-out with exit 2, showing the earlier one; --allow-duplicate sends it and is recorded', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /an identical cash-out was already sent: R\$ 15,50 to Pix key fulano@example\.com, at \d{4}-\d\d-\d\dT[\d:]+[+-]\d\d:\d\d \(\d+ s ago\), entry 1, transaction 77, outcome ok; refused so that it is not paid twice; nothing was sent/,
    );
    expect(again.stderr).toMatch(/hint: .*--allow-duplicate.*within 10 min/);
    expect(sent()).toHaveLength(1);
    // the key typed differently normalises to the same key; recipient details do not matter
    const variant = CASHOUT_ARGS.map((a) => (a === 'Fulano@Example.com' ? 'FULANO@example.com' : a === 'Fulano de Tal' ? 'F. de Tal' : a));
    expect((await runPaycli([...variant, '--yes'], { env: t.env() })).code).toBe(2);
    const j = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { code: 'duplicate_cashout', field: '--allow-duplicate' } });
    expect(j.stdout).toBe('');
    // refused before asking for confirmation: no --yes needed to learn it is a duplicate
    expect((await runPaycli(CASHOUT_ARGS, { env: t.env() })).stderr).toMatch(/already sent/);
    expect(sent()).toHaveLength(1);
    const forced = await runPaycli([...CASHOUT_ARGS, '--yes', '--allow-duplicate'], { env: t.env() });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/warning: --allow-duplicate: sending although an identical cash-out \(entry 1, .*recorded as entry 2/);
    expect(sent()).toHaveLength(2);
    expect(rows().map((r) => [r.id, r.allow_duplicate, r.overrides, r.outcome])).toEqual([
      [1, 0, null, 'ok'],
      [2, 1, 1, 'ok'],
    ]);
    const h = JSON.parse((await runPaycli(['--json', 'history'], { env: t.env() })).stdout) as Record<string, unknown>[];
    expect(h[0]).toMatchObject({ id: 2, allowDuplicate: true, overrides: 1 });
  });

  it('a different amount, key or gateway is not a duplicate', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 1551), '--yes'], { env: t.env() })).code).toBe(0);
    const other = CASHOUT_ARGS.map((a) => (a === 'Fulano@Example.com' ? 'beltrano@example.com' : a));
    expect((await runPaycli([...other, '--yes'], { env: t.env() })).code).toBe(0);
    const gw2 = await startGateway();
    try {
      expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: { ...t.env(), PAYCLI_BASE_URL: gw2.url } })).code).toBe(0);
      expect(gw2.received).toHaveLength(1);
    } finally {
      await gw2.close();
    }
    expect(sent()).toHaveLength(3);
  });

  it('an earlier refusal (4xx) or a request that was never sent does not block a retry', async () => {
    t.gw.respond((_req, res) => json(res, 400, { message: 'pixKey inválida' }));
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(1);
    t.gw.respond((_req, res) => json(res, 200, CASHOUT_OK));
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    const url = t.gw.url;
    await t.gw.close();
    const notSent = await runPaycli([...withValue(CASHOUT_ARGS, 999), '--yes'], { env: { ...t.env(), PAYCLI_BASE_URL: url } });
    expect(notSent.code).toBe(4);
    expect(rows().pop()).toMatchObject({ outcome: 'not_sent' });
    // the same gateway back on the same port: the not-sent one does not block, the ok one still does
    t.gw = await startGateway(undefined, Number(new URL(url).port));
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 999), '--yes'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(2);
    expect(sent()).toHaveLength(1);
  });

  it('an unknown outcome (timeout) blocks with an explanation and the command that resolves it', async () => {
    t.gw.respond(() => undefined);
    expect((await runPaycli(['--timeout', '300', ...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(4);
    t.gw.respond((_req, res) => json(res, 200, CASHOUT_OK));
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /an identical cash-out may already have been paid: R\$ 15,50 .*entry 1; its outcome is unknown \(no valid answer came back.*refused until that outcome is resolved/,
    );
    expect(r.stderr).toMatch(
      /hint: check that cash-out at the gateway first, then record what happened: `paycli history resolve 1 --outcome ok` \(it was paid\) or `--outcome not_sent`/,
    );
    expect(sent()).toHaveLength(1);
  });

  it('duplicate-window: 10 minutes by default, follows the setting; 0 turns the window off but not the unknown rule', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    ageEntries(dataDir(), 9);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(2);
    expect((await runPaycli(['config', 'set', 'duplicate-window', '5'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0); // 9 min ago > 5 min window
    expect(sent()).toHaveLength(2);
    expect((await runPaycli(['config', 'set', 'duplicate-window', '60'], { env: t.env() })).code).toBe(0);
    ageEntries(dataDir(), 30);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(2);
    expect((await runPaycli(['config', 'unset', 'duplicate-window'], { env: t.env() })).code).toBe(0);
    ageEntries(dataDir(), 11);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    expect(sent()).toHaveLength(3);
    // 0: an ok one no longer blocks, even seconds later
    expect((await runPaycli(['config', 'set', 'duplicate-window', '0'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    expect(sent()).toHaveLength(4);
    // ... but an unknown one still does
    t.gw.respond(() => undefined);
    expect((await runPaycli(['--timeout', '300', ...withValue(CASHOUT_ARGS, 4321), '--yes'], { env: t.env() })).code).toBe(4);
    // (the gateway is asked about the unknown one first, and does not answer: one try of 300 ms)
    const r = await runPaycli(['--timeout', '300', ...withValue(CASHOUT_ARGS, 4321), '--yes'], { env: t.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/outcome is unknown/);
    expect(r.stderr).toMatch(/--allow-duplicate/);
    expect(sent()).toHaveLength(5);
    expect((await runPaycli(['config', 'set', 'duplicate-window', '-1'], { env: t.env() })).code).toBe(2);
  }, 90_000); // a dozen paycli runs in sequence: a budget for a busy machine

  it('history resolve: only an unknown entry, an existing one, a known outcome; --json', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    t.gw.respond(() => undefined);
    expect((await runPaycli(['--timeout', '300', ...withValue(CASHOUT_ARGS, 2000), '--yes'], { env: t.env() })).code).toBe(4);
    const known = await runPaycli(['history', 'resolve', '1', '--outcome', 'not_sent'], { env: t.env() });
    expect(known.code).toBe(2);
    expect(known.stderr).toMatch(/ledger entry 1 already has the outcome ok; nothing was changed/);
    const missing = await runPaycli(['history', 'resolve', '9', '--outcome', 'ok'], { env: t.env() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/there is no ledger entry 9/);
    expect((await runPaycli(['history', 'resolve', '2', '--outcome', 'maybe'], { env: t.env() })).code).toBe(2);
    expect((await runPaycli(['history', 'resolve', '2'], { env: t.env() })).code).toBe(2);
    expect((await runPaycli(['history', 'resolve', 'x', '--outcome', 'ok'], { env: t.env() })).code).toBe(2);
    const ok = await runPaycli(['--json', 'history', 'resolve', '2', '--outcome', 'ok', '--note', 'paid, seen in the dashboard'], { env: t.env() });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: 2, outcome: 'ok', completed: true, resolvedBy: 'hand', note: 'paid, seen in the dashboard' });
    // resolved ok: blocks within the window
    t.gw.respond((_req, res) => json(res, 200, CASHOUT_OK));
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 2000), '--yes'], { env: t.env() })).stderr).toMatch(/already sent: .*entry 2/);
    expect(sent()).toHaveLength(2);
  });
});

describe('one identity for a gateway endpoint', () => {
  it('other spellings of the same gateway URL are the same gateway: one request in total', async () => {
    const port = new URL(t.gw.url).port;
    const spellings = [
      `http://localhost:${port}/s/ok`,
      `http://LOCALHOST:${port}/s/ok`,
      `HTTP://LocalHost:${port}/s/ok`,
      `http://localhost:${port}/s/OK`,
      `http://localhost:${port}//s/ok`,
      `http://localhost:${port}/s//ok/`,
      `http://localhost:${port}/s/%6Fk`,
      `http://localhost:${port}/s/%6f%4B`,
      `http://localhost:${port}/s/./ok`,
      `http://localhost:${port}/s/x/../ok`,
    ];
    const codes: number[] = [];
    for (const url of spellings) {
      const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: { ...t.env(), PAYCLI_BASE_URL: url } });
      codes.push(r.code!);
      if (codes.length === 1) expect(r.code, r.stderr).toBe(0);
      else expect(r.stderr, url).toMatch(/an identical cash-out was already sent/);
    }
    expect(codes).toEqual([0, ...Array(spellings.length - 1).fill(2)]);
    expect(sent()).toHaveLength(1);
    expect(t.gw.received[0]!.path).toBe('/s/ok/transaction/cashout');
  });
});

describe('fail closed: a ledger that cannot be used sends nothing', () => {
  /** Sends one cash-out so that the ledger exists and holds a payment a damaged ledger could hide. */
  async function withOnePayment(): Promise<void> {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    expect(sent()).toHaveLength(1);
    expect(existsSync(`${file()}-wal`)).toBe(false); // checkpointed at exit: the file holds it all
  }
  /** The identical cash-out, a different one and a cash-in: all exit 2, journal_unavailable naming the file, nothing sent. */
  async function expectNothingSent(reason: RegExp): Promise<void> {
    for (const args of [[...CASHOUT_ARGS, '--yes'], [...withValue(CASHOUT_ARGS, 999), '--yes'], CASHIN_ARGS]) {
      const r = await runPaycli(args, { env: t.env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`the payment ledger ${file()}`);
      expect(r.stderr).toMatch(reason);
      expect(r.stderr).toMatch(/nothing was sent/);
      const j = await runPaycli(['--json', ...args], { env: t.env() });
      expect(j.code).toBe(2);
      expect(JSON.parse(j.stderr.trim().split('\n').pop()!)).toMatchObject({ error: { code: 'journal_unavailable' } });
    }
    expect(sent()).toHaveLength(1);
  }

  it('truncated to half', async () => {
    await withOnePayment();
    truncateSync(file(), Math.floor(statSync(file()).size / 2));
    await expectNothingSent(/damaged or truncated \(SQLITE_CORRUPT/);
  });

  it('truncated to its first 100 bytes, and to nothing', async () => {
    await withOnePayment();
    truncateSync(file(), 100);
    await expectNothingSent(/cannot be used: /);
    truncateSync(file(), 0);
    await expectNothingSent(/is empty: it was truncated, or is not a paycli ledger/);
  });

  it('corrupted: every page after the first overwritten; the header overwritten; not a database at all', async () => {
    await withOnePayment();
    const good = readFileSync(file());
    const bad = Buffer.from(good);
    for (let i = 4096; i < bad.length; i++) bad[i] = (i * 7919) & 0xff;
    writeFileSync(file(), bad);
    await expectNothingSent(/damaged or truncated \(SQLITE_CORRUPT/);
    const badHeader = Buffer.from(good);
    badHeader.fill(0x41, 0, 100);
    writeFileSync(file(), badHeader);
    await expectNothingSent(/not a database \(SQLITE_NOTADB\)/);
    writeFileSync(file(), 'this is not a database\n'.repeat(300));
    await expectNothingSent(/not a database/);
  });

  it('another SQLite database that is not a paycli ledger', async () => {
    await withOnePayment();
    rmSync(file());
    const db = openSqlite(file(), { mustExist: false });
    db.exec('CREATE TABLE t (x)');
    db.close();
    chmodSync(file(), 0o600);
    await expectNothingSent(/cannot be used: SQLITE_ERROR: no such table: meta|is not a paycli ledger/);
  });

  it('read-only (the file, or its folder)', async () => {
    await withOnePayment();
    chmodSync(file(), 0o400);
    await expectNothingSent(/is read-only/);
    chmodSync(file(), 0o600);
    chmodSync(dataDir(), 0o500);
    try {
      await expectNothingSent(/cannot be used: its folder .* is read-only/);
    } finally {
      chmodSync(dataDir(), 0o700);
    }
  });

  it('a symbolic link', async () => {
    await withOnePayment();
    renameSync(file(), join(t.home.dir, 'elsewhere.db'));
    symlinkSync(join(t.home.dir, 'elsewhere.db'), file());
    await expectNothingSent(/is a symbolic link/);
  });

  it("another user's file", async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip(); // only root can give a file away; reported as skipped
    await withOnePayment();
    chownSync(file(), 65534, 65534);
    await expectNothingSent(/belongs to another user \(uid 65534\)/);
  });
});

describe('import of an old journal.jsonl', () => {
  it('is imported once, kept as it was, and its payments still block duplicates (even a torn line glued to the next)', async () => {
    mkdirSync(dataDir(), { recursive: true, mode: 0o700 });
    const target = `${t.gw.url}/transaction/cashout`;
    const now = Date.now();
    const begin = (id: string, minutesAgo: number, value: number, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        event: 'begin',
        v: 1,
        id,
        time: new Date(now - minutesAgo * 60_000).toISOString(),
        kind: 'cashout',
        fingerprint: 'old',
        value,
        target,
        sandbox: false,
        profile: 'default',
        pixKeyType: 2,
        pixKey: 'fulano@example.com',
        recipient: 'Fulano de Tal',
        pid: 1,
        ...extra,
      });
    const end = (id: string, outcome: string, extra: Record<string, unknown> = {}) => JSON.stringify({ event: 'end', id, time: new Date(now).toISOString(), outcome, ...extra });
    const journal = [
      begin('a', 3, 1550), // ok 3 minutes ago: blocks within the window
      end('a', 'ok', { transactionId: 70, status: '0' }),
      begin('b', 24 * 60, 2000), // a day ago, no end: unknown, blocks with no time limit
      begin('c', 60, 3000, { orderId: 'order-c' }), // an hour ago, refused: does not block
      end('c', 'refused', { httpStatus: 400, message: 'pixKey inválida' }),
      // a short write (disk full) left half a line, and the next begin was glued to it
      `${begin('d', 5, 9999).slice(0, 40)}${begin('e', 2, 4000)}`,
      'not json at all',
    ].join('\n'); // and the last line has no newline
    writeFileSync(join(dataDir(), 'journal.jsonl'), journal);

    const first = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/imported 4 payment\(s\) from .*journal\.jsonl into the ledger .*ledger\.db \(the journal file is kept as it was\)/);
    expect(first.stderr).toMatch(/2 line\(s\) of .*journal\.jsonl are not journal events and were not imported/);
    expect(first.stderr).toMatch(/already sent: R\$ 15,50 .*transaction 70/);
    expect(readFileSync(join(dataDir(), 'journal.jsonl'), 'utf8')).toBe(journal);
    const b = await runPaycli([...withValue(CASHOUT_ARGS, 2000), '--yes'], { env: t.env() });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/may already have been paid: R\$ 20,00 .*\(24 h ago\).*its outcome is unknown \(paycli was killed/);
    expect(b.stderr).not.toMatch(/imported/); // once
    const e = await runPaycli([...withValue(CASHOUT_ARGS, 4000), '--yes'], { env: t.env() });
    expect(e.code).toBe(2); // the begin recovered from the glued line blocks too
    expect(e.stderr).toMatch(/may already have been paid: R\$ 40,00/);
    expect(sent()).toHaveLength(0);
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 3000), '--yes'], { env: t.env() })).code).toBe(0); // refused earlier: sent
    expect(sent()).toHaveLength(1);
    const h = JSON.parse((await runPaycli(['--json', 'history', '--limit', 'all'], { env: t.env() })).stdout) as Record<string, unknown>[];
    expect(h.map((x) => [x.id, x.value, x.outcome, x.source ?? null])).toEqual([
      [5, 3000, 'ok', null],
      [4, 4000, 'unknown', 'journal.jsonl'],
      [3, 3000, 'refused', 'journal.jsonl'],
      [2, 2000, 'unknown', 'journal.jsonl'],
      [1, 1550, 'ok', 'journal.jsonl'],
    ]);
    expect(h[2]).toMatchObject({ orderId: 'order-c', httpStatus: 400, message: 'pixKey inválida', uuid: 'c' });
  });

  it('history alone imports it (and creates no ledger when there is nothing to import)', async () => {
    const empty = await runPaycli(['history'], { env: t.env() });
    expect(empty.code).toBe(0);
    expect(existsSync(file())).toBe(false);
    mkdirSync(dataDir(), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dataDir(), 'journal.jsonl'),
      `${JSON.stringify({ event: 'begin', v: 1, id: 'x', time: new Date().toISOString(), kind: 'cashin', fingerprint: 'f', value: 1000, target: 'sandbox', sandbox: true, profile: 'default', payer: 'Fulano', product: 'Camiseta', pid: 1 })}\n`,
    );
    const h = await runPaycli(['--json', 'history'], { env: t.env() });
    expect(h.code).toBe(0);
    expect(JSON.parse(h.stdout)).toMatchObject([{ id: 1, kind: 'cashin', value: 1000, payer: 'Fulano', outcome: 'unknown', completed: false, sandbox: true }]);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });
});
