/**
 * The payment journal, the duplicate-payout guard (including after a
 * SIGKILL and under 20 concurrent processes) and `paycli history`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, childEnv, PAYCLI, runPaycli } from '../helpers/cli.js';
import { CASHOUT_OK, json, startGateway, useGatewayFixture } from '../helpers/gateway.js';
import { startSandboxProcess } from '../helpers/sandbox.js';

const KEY = 'sk_live_JOURNAL_0123456789abcdef';
const t = useGatewayFixture(KEY);
const journalFile = () => join(t.home.env.PAYCLI_DATA_DIR!, 'journal.jsonl');
const events = () =>
  readFileSync(journalFile(), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const withValue = (args: string[], cents: number) => args.map((a, i) => (args[i - 1] === '--value' ? String(cents) : a));

describe('journal', () => {
  it('records a cash-out (fsync\'d) before it is sent, then its outcome; 0600 in a 0700 folder; no API key', async () => {
    let atArrival = '';
    t.gw.respond((_req, res) => {
      atArrival = readFileSync(journalFile(), 'utf8'); // what was on disk when the request arrived
      json(res, 200, CASHOUT_OK);
    });
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code).toBe(0);
    const before = atArrival.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ event: 'begin', kind: 'cashout', value: 1550, pixKey: 'fulano@example.com', pixKeyType: 2, target: `${t.gw.url}/transaction/cashout` });
    const all = events();
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ event: 'end', id: before[0]!.id, outcome: 'ok', transactionId: 77, status: '0' });
    expect(statSync(journalFile()).mode & 0o777).toBe(0o600);
    expect(statSync(t.home.env.PAYCLI_DATA_DIR!).mode & 0o777).toBe(0o700);
    expect(readFileSync(journalFile(), 'utf8')).not.toContain(KEY);
  });

  it('--dry-run writes nothing', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--dry-run'], { env: t.env() });
    expect(r.code).toBe(0);
    expect(existsSync(journalFile())).toBe(false);
    expect((await runPaycli([...CASHIN_ARGS, '--dry-run'], { env: t.env() })).code).toBe(0);
    expect(existsSync(journalFile())).toBe(false);
  });

  it('records the outcome of every kind of failure, and never the key even when the gateway echoes it', async () => {
    const cases: [string, (res: import('node:http').ServerResponse) => void, string][] = [
      ['refused', (res) => json(res, 400, { message: `value inválido for key ${KEY}` }), 'refused'],
      ['unauthorized', (res) => json(res, 401, { message: 'nope' }), 'refused'],
      ['5xx', (res) => json(res, 503, { message: 'down' }), 'unknown'],
      ['bad shape', (res) => json(res, 200, { transactionId: 'x' }), 'unknown'],
    ];
    let cents = 100;
    for (const [, respond, outcome] of cases) {
      t.gw.respond((_req, res) => respond(res));
      await runPaycli([...withValue(CASHOUT_ARGS, cents++), '--yes'], { env: t.env() });
      expect(events().pop()).toMatchObject({ event: 'end', outcome });
    }
    const url = t.gw.url;
    await t.gw.close();
    await runPaycli([...withValue(CASHOUT_ARGS, cents++), '--yes'], { env: { ...t.env(), PAYCLI_BASE_URL: url } });
    expect(events().pop()).toMatchObject({ event: 'end', outcome: 'not_sent' });
    t.gw = await startGateway();
    const text = readFileSync(journalFile(), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).toContain('[redacted]');
  });
});

describe('duplicate-payout guard', () => {
  it('refuses an identical cash-out with exit 2, showing the earlier one; --allow-duplicate sends it', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/an identical cash-out was already sent: R\$ 15,50 to PIX key fulano@example\.com, at \d{4}-\d\d-\d\dT[\d:.]+Z \(\d+ s ago\), transaction 77, outcome ok; refused so that it is not paid twice; nothing was sent/);
    expect(again.stderr).toMatch(/hint: .*--allow-duplicate.*10 min/);
    expect(t.gw.received).toHaveLength(1);
    // the key as typed differently normalises to the same key; recipient details do not matter
    const variant = CASHOUT_ARGS.map((a) => (a === 'Fulano@Example.com' ? 'FULANO@example.com' : a === 'Fulano de Tal' ? 'F. de Tal' : a));
    expect((await runPaycli([...variant, '--yes'], { env: t.env() })).code).toBe(2);
    const j = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { code: 'duplicate_cashout', field: '--allow-duplicate' } });
    expect(j.stdout).toBe('');
    expect(t.gw.received).toHaveLength(1);
    // refused before asking for confirmation: no --yes needed to learn it is a duplicate
    expect((await runPaycli(CASHOUT_ARGS, { env: t.env() })).stderr).toMatch(/already sent/);
    const forced = await runPaycli([...CASHOUT_ARGS, '--yes', '--allow-duplicate'], { env: t.env() });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/warning: --allow-duplicate: sending although an identical cash-out/);
    expect(t.gw.received).toHaveLength(2);
  });

  it('a different amount, key or gateway is not a duplicate', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 1551), '--yes'], { env: t.env() })).code).toBe(0);
    const other = CASHOUT_ARGS.map((a) => (a === 'Fulano@Example.com' ? 'beltrano@example.com' : a));
    expect((await runPaycli([...other, '--yes'], { env: t.env() })).code).toBe(0);
    const gw2 = await startGateway();
    try {
      expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: { ...t.env(), PAYCLI_BASE_URL: gw2.url } })).code).toBe(0);
    } finally {
      await gw2.close();
    }
    expect(t.gw.received).toHaveLength(3);
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
    expect(notSent.stderr).toMatch(/nothing was sent/);
    expect(events().pop()).toMatchObject({ event: 'end', outcome: 'not_sent' });
    // the same gateway back on the same port: the not-sent one does not block, the ok one still does
    t.gw = await startGateway(undefined, Number(new URL(url).port));
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 999), '--yes'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(2);
  });

  it('an earlier identical one whose outcome is unknown (timeout) blocks, with an explanation', async () => {
    t.gw.respond(() => undefined);
    expect((await runPaycli(['--timeout', '300', ...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(4);
    t.gw.respond((_req, res) => json(res, 200, CASHOUT_OK));
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/an identical cash-out may already have been paid: R\$ 15,50 .*its outcome is unknown \(no valid answer came back/);
    expect(r.stderr).toMatch(/hint: check that cash-out at the gateway first; if it was not paid, add --allow-duplicate/);
    // the first POST, then its lookup by orderId (unanswered: the outcome stayed unknown); the second sent nothing
    expect(t.gw.received.map((q) => q.method)).toEqual(['POST', 'GET']);
  });

  it('the window is 10 minutes by default and follows the duplicate-window setting', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    const shift = (minutes: number) => {
      const lines = events().map((e) => (e.event === 'begin' ? { ...e, time: new Date(Date.now() - minutes * 60_000).toISOString() } : e));
      writeFileSync(journalFile(), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    };
    shift(9);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(2);
    expect((await runPaycli(['config', 'set', 'duplicate-window', '5'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0); // 9 min ago > 5 min window
    expect(t.gw.received).toHaveLength(2);
    expect((await runPaycli(['config', 'set', 'duplicate-window', '60'], { env: t.env() })).code).toBe(0);
    shift(30);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(2);
    expect((await runPaycli(['config', 'unset', 'duplicate-window'], { env: t.env() })).code).toBe(0);
    shift(11);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    expect(t.gw.received).toHaveLength(3);
  });

  it('cash-ins are recorded but never refused', async () => {
    expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
    expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
    expect(t.gw.received).toHaveLength(2);
    expect(events().filter((e) => e.event === 'begin' && e.kind === 'cashin')).toHaveLength(2);
  });

  it('crash: a cash-out SIGKILLed after sending leaves an unknown outcome that blocks until --allow-duplicate', async () => {
    t.gw.respond(() => undefined); // never answers
    const child = spawn(process.execPath, [PAYCLI, ...CASHOUT_ARGS, '--yes'], { env: childEnv(t.env()), stdio: 'ignore' });
    const closed = new Promise<NodeJS.Signals | null>((r) => child.on('close', (_c, s) => r(s)));
    for (let i = 0; i < 500 && t.gw.received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(t.gw.received).toHaveLength(1);
    child.kill('SIGKILL');
    expect(await closed).toBe('SIGKILL');
    const evs = events();
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ event: 'begin', kind: 'cashout', value: 1550 });

    t.gw.respond((_req, res) => json(res, 200, CASHOUT_OK));
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/may already have been paid: .*its outcome is unknown \(paycli was killed before the answer, or it is still being sent\)/);
    expect(t.gw.received).toHaveLength(1);

    const hist = await runPaycli(['--json', 'history'], { env: t.env() });
    expect(JSON.parse(hist.stdout)).toMatchObject([{ kind: 'cashout', outcome: 'unknown', completed: false }]);

    const forced = await runPaycli([...CASHOUT_ARGS, '--yes', '--allow-duplicate'], { env: t.env() });
    expect(forced.code).toBe(0);
    expect(t.gw.received).toHaveLength(2);
  });

  it('concurrent identical cash-outs: exactly one is sent, the others are refused', async () => {
    t.gw.respond((_req, res) => {
      setTimeout(() => json(res, 200, CASHOUT_OK), 300);
    });
    // Hold the journal lock (owned by this live process) so that all six pass the early check
    // and then queue on the lock; released at once, they race for it.
    const lock = join(t.home.env.PAYCLI_DATA_DIR!, 'journal.lock');
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, 'owner'), String(process.pid));
    const pending = Promise.all(Array.from({ length: 6 }, () => runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env(), timeoutMs: 20_000 })));
    await new Promise((r) => setTimeout(r, 2500));
    expect(t.gw.received).toHaveLength(0); // all waiting for the lock
    rmSync(lock, { recursive: true });
    const runs = await pending;
    expect(runs.map((r) => r.code).sort()).toEqual([0, 2, 2, 2, 2, 2]);
    expect(t.gw.received).toHaveLength(1);
    expect(runs.filter((r) => r.code === 2).every((r) => /no known outcome|still being sent/.test(r.stderr))).toBe(true);
  });

  it('concurrency: 20 paycli processes at once against the sandbox leave exactly 20 complete, parseable entries', async () => {
    const sandbox = await startSandboxProcess([], t.home.env);
    try {
      const runs = await Promise.all(
        Array.from({ length: 20 }, (_, i) => runPaycli(['--json', '--base-url', sandbox.url, ...withValue(CASHOUT_ARGS, 1000 + i), '--yes'], { env: { ...t.home.env, PAYCLI_API_KEY: KEY }, timeoutMs: 30_000 })),
      );
      expect(runs.map((r) => r.code)).toEqual(Array(20).fill(0));
      const lines = readFileSync(journalFile(), 'utf8').split('\n');
      expect(lines.pop()).toBe(''); // ends with a newline, no partial line
      expect(lines).toHaveLength(40);
      const evs = lines.map((l) => JSON.parse(l) as { event: string; id: string; value?: number; outcome?: string });
      const begins = evs.filter((e) => e.event === 'begin');
      const ends = evs.filter((e) => e.event === 'end');
      expect(begins).toHaveLength(20);
      expect(ends).toHaveLength(20);
      expect(new Set(begins.map((e) => e.id)).size).toBe(20);
      expect(new Set(ends.map((e) => e.id))).toEqual(new Set(begins.map((e) => e.id)));
      expect(ends.every((e) => e.outcome === 'ok')).toBe(true);
      expect(begins.map((e) => e.value).sort()).toEqual(Array.from({ length: 20 }, (_, i) => 1000 + i));
      expect(existsSync(join(t.home.env.PAYCLI_DATA_DIR!, 'journal.lock'))).toBe(false);
    } finally {
      await sandbox.stop();
    }
  }, 60_000);

  it('recovers a lock left by a dead process, and an abandoned one', async () => {
    const lock = join(t.home.env.PAYCLI_DATA_DIR!, 'journal.lock');
    const dead = spawn(process.execPath, ['-e', '0']);
    const deadPid = dead.pid!;
    await new Promise((r) => dead.on('close', r));
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, 'owner'), String(deadPid));
    const a = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(a.code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    mkdirSync(lock); // no owner file, a minute old
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const b = await runPaycli([...withValue(CASHOUT_ARGS, 2000), '--yes'], { env: t.env() });
    expect(b.code).toBe(0);
    expect(t.gw.received).toHaveLength(2);
  });
});

describe('paycli history', () => {
  it('lists cash-ins and cash-outs newest first, with --limit and --json', async () => {
    expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    t.gw.respond((_req, res) => json(res, 400, { message: 'pixKey inválida' }));
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 123456), '--yes'], { env: t.env() })).code).toBe(1);

    const h = await runPaycli(['history'], { env: t.env() });
    expect(h.code).toBe(0);
    const lines = h.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^TIME \(UTC\)\s+KIND\s+AMOUNT\s+KEY \/ PAYER\s+TRANSACTION\s+OUTCOME$/);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\s+cash-out\s+R\$ 1\.234,56\s+fulano@example\.com \(email\)\s+-\s+refused$/);
    expect(lines[2]).toMatch(/cash-out\s+R\$ 15,50\s+fulano@example\.com \(email\)\s+77\s+ok$/);
    expect(lines[3]).toMatch(/cash-in\s+R\$ 10,00\s+Fulano de Tal\s+4242\s+ok$/);
    expect(h.stderr).toBe('');

    const j = await runPaycli(['--json', 'history', '--limit', '2'], { env: t.env() });
    const doc = JSON.parse(j.stdout) as Record<string, unknown>[];
    expect(doc).toHaveLength(2);
    expect(doc[0]).toMatchObject({ kind: 'cashout', value: 123456, outcome: 'refused', completed: true, httpStatus: 400, message: 'pixKey inválida' });
    expect(doc[1]).toMatchObject({ kind: 'cashout', value: 1550, pixKey: 'fulano@example.com', transactionId: 77, outcome: 'ok' });
    expect(Date.parse(doc[0]!.time as string)).toBeGreaterThanOrEqual(Date.parse(doc[1]!.time as string));
    expect(doc[0]).not.toHaveProperty('fingerprint');

    expect((await runPaycli(['history', '--limit', '0'], { env: t.env() })).code).toBe(2);
    expect((await runPaycli(['history', '--limit', '1'], { env: t.env() })).stdout.trim().split('\n')).toHaveLength(2);
  });

  it('an empty history: a notice on stderr, [] with --json', async () => {
    const h = await runPaycli(['history'], { env: t.env() });
    expect(h.code).toBe(0);
    expect(h.stdout).toBe('');
    expect(h.stderr).toMatch(/nothing sent from this machine yet/);
    const j = await runPaycli(['--json', 'history'], { env: t.env() });
    expect(JSON.parse(j.stdout)).toEqual([]);
  });
});
