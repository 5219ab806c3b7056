/**
 * Order references, lookups (status, balance), the gateway as the duplicate guard's second witness,
 * unknown outcomes settled by asking, and `paycli reconcile`: against a test gateway that keeps
 * what it creates and can drop a connection after creating (test/helpers/gateway.ts). The commands run
 * in process through the run context (test/helpers/run.ts); the Ctrl-C tests spawn the built paycli,
 * since a signal needs a process of its own.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerRows } from '../helpers/ledger.js';
import { CASHIN_ARGS, CASHOUT_ARGS, childEnv, makeHome, PAYCLI } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, lookupGateway, useGatewayFixture } from '../helpers/gateway.js';
import { startSandboxProcess } from '../helpers/sandbox.js';

const KEY = 'sk_live_ORDERS_0123456789abcdef';
const t = useGatewayFixture(KEY);
const ULID_REF = /^paycli-[0-9A-HJKMNP-TV-Z]{26}$/;
const posts = () => t.gw.received.filter((r) => r.method === 'POST');
const gets = () => t.gw.received.filter((r) => r.method === 'GET');
const history = async (env = t.env()) => JSON.parse((await runPaycli(['history', '--json'], { env })).stdout) as Record<string, unknown>[];
const withValue = (args: string[], cents: number) => args.map((a, i) => (args[i - 1] === '--value' ? String(cents) : a));
const config = (args: string[], env = t.env()) => runPaycli(['config', 'set', ...args], { env });
/** Waits until every entry's deadline (the ledger's `deadlineMs`) has passed: a clock, not the machine's speed. */
async function pastDeadlines(): Promise<void> {
  const latest = Math.max(...(await history()).map((e) => Number(e.deadlineMs ?? 0)));
  while (Date.now() <= latest + 50) await new Promise((r) => setTimeout(r, Math.min(200, latest + 60 - Date.now())));
}

describe('order references', () => {
  it('--order-id reaches the gateway as orderId on a cash-out (asked about first) and on a cash-in; shown and recorded', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const out = await runPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'pedido-1234'], { env: t.env() });
    expect(out.code, out.stderr).toBe(0);
    expect(t.gw.received.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /transaction/get/by/orderId/pedido-1234', 'POST /transaction/cashout']);
    expect(posts()[0]!.json).toMatchObject({ orderId: 'pedido-1234' });
    expect(out.stdout).toMatch(/Order ID\s+pedido-1234/);
    const cin = await runPaycli([...CASHIN_ARGS, '--order-id', 'pedido-1235'], { env: t.env() });
    expect(cin.code, cin.stderr).toBe(0);
    expect(posts()[1]!.json).toMatchObject({ orderId: 'pedido-1235' });
    expect(gets()).toHaveLength(1); // a cash-in moves no money: no second witness
    expect(cin.stdout).toMatch(/Order ID\s+pedido-1235/);
    const h = await history();
    expect(h.map((e) => e.orderId).sort()).toEqual(['pedido-1234', 'pedido-1235']);
  });

  it('without --order-id, a fresh paycli-<ULID> is sent (no lookup); order-id off sends none', async () => {
    t.gw.respond(lookupGateway().responder);
    const a = await runPaycli([...CASHOUT_ARGS, '--yes', '--json'], { env: t.env() });
    const b = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(gets()).toHaveLength(0);
    const [ra, rb] = posts().map((r) => (r.json as { orderId?: string }).orderId);
    expect(ra).toMatch(ULID_REF);
    expect(rb).toMatch(ULID_REF);
    expect(ra).not.toBe(rb);
    expect((await history()).map((e) => e.orderId).sort()).toEqual([ra, rb].sort());
    expect((await config(['order-id', 'off'])).code).toBe(0);
    expect((await runPaycli(withValue([...CASHOUT_ARGS, '--yes'], 1600), { env: t.env() })).code).toBe(0);
    expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
    expect(
      posts()
        .slice(2)
        .map((r) => 'orderId' in (r.json as object)),
    ).toEqual([false, false]);
    // ... unless given
    expect((await runPaycli(withValue([...CASHOUT_ARGS, '--yes', '--order-id', 'x-1'], 1700), { env: t.env() })).code).toBe(0);
    expect(posts()[4]!.json).toMatchObject({ orderId: 'x-1' });
    expect((await config(['order-id', 'sometimes'])).code).toBe(2);
  });

  it('orderId and postbackUrl in --input are sent (no "ignoring" warning); a bad reference is refused before sending', async () => {
    t.gw.respond(lookupGateway().responder);
    const file = join(t.home.dir, 'payout.json');
    writeFileSync(
      file,
      JSON.stringify({
        value: 1550,
        pixKeyType: 2,
        pixKey: 'fulano@example.com',
        person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' },
        orderId: 'from-file',
        postbackUrl: 'https://example.com/pix/postback',
      }),
    );
    const r = await runPaycli(['cashout', '--input', file, '--yes'], { env: t.env({ PAYCLI_NO_INPUT: '1' }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('ignoring');
    expect(posts()[0]!.json).toMatchObject({ orderId: 'from-file', postbackUrl: 'https://example.com/pix/postback' });
    const bad = await runPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'has space/slash'], { env: t.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--order-id');
    expect(t.gw.received).toHaveLength(2); // the lookup of from-file, then its cash-out
  });

  it('cashout --postback-url is sent as postbackUrl', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes', '--postback-url', 'https://example.com/pix/postback'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(posts()[0]!.json).toMatchObject({ postbackUrl: 'https://example.com/pix/postback' });
    const bad = await runPaycli([...CASHOUT_ARGS, '--yes', '--postback-url', 'not a url'], { env: t.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--postback-url');
  });
});

describe('status and balance', () => {
  it('status by id and by order: human text, --json the document as received; not found exit 1', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.held.push({
      transactionId: 9029,
      orderId: 'your-order-id',
      object: 'cashin',
      status: 'paid',
      method: 'pix',
      value: 2000,
      endToEndId: 'E60746948202509031014A1234567890',
      processedAt: '2025-09-03T10:14:18.768543',
      payer: { transactionId: 9029, name: 'FULANO DE TAL', documentId: '80683806556', bankName: null, bankCode: null, bankIspb: '18236120' },
      extra: 'kept',
    });
    l.held.push({
      transactionId: 100,
      orderId: 'out-1',
      object: 'transfer',
      status: 'created',
      value: 15000,
      destinationBank: { name: 'FULANO', cpfCnpj: '12345678901', pixKey: 'user@example.com', pixKeyType: 'EMAIL', bank: 'Banco X', bankId: '1', ispb: '0' },
    });
    const human = await runPaycli(['status', '9029'], { env: t.env() });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('Cash-in, paid');
    expect(human.stdout).toMatch(/Amount\s+R\$ 20,00/);
    expect(human.stdout).toMatch(/End-to-end ID\s+E60746948202509031014A1234567890/);
    expect(human.stdout).toMatch(/Processed at\s+2025-09-03T10:14:18.768543/);
    expect(human.stdout).toMatch(/Payer\s+FULANO DE TAL/);
    expect(human.stdout).toContain('ISPB 18236120');
    const byOrder = await runPaycli(['status', '--order-id', 'out-1'], { env: t.env() });
    expect(byOrder.code).toBe(0);
    expect(byOrder.stdout).toContain('Cash-out (transfer), created');
    expect(byOrder.stdout).toMatch(/Recipient\s+FULANO, Pix key user@example.com/);
    expect(byOrder.stdout).toMatch(/Recipient bank\s+Banco X/);
    const j = await runPaycli(['status', '9029', '--json'], { env: t.env() });
    // the lookup as received under `gateway`; paycli's typed document around it
    const found = JSON.parse(j.stdout);
    expect(found.gateway).toEqual(l.held[0]);
    expect(found).toMatchObject({
      kind: 'cashin',
      transactionId: 9029,
      orderId: 'your-order-id',
      value: 2000,
      status: 'paid',
      statusCode: 1,
      method: 'pix',
      payer: { name: 'FULANO DE TAL' },
      destinationBank: null,
      foundByOrderId: false,
    });
    expect(gets().map((r) => r.path)).toEqual(['/transaction/get/by/id/9029', '/transaction/get/by/orderId/out-1', '/transaction/get/by/id/9029']);
    expect(gets()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const miss = await runPaycli(['status', '--order-id', 'nope', '--json'], { env: t.env() });
    expect(miss.code).toBe(1);
    expect(miss.stdout).toBe('');
    expect(JSON.parse(miss.stderr).error).toMatchObject({ code: 'not_found', status: 404 });
    expect(JSON.parse(miss.stderr).error.message).toContain('Transaction not found');
    const missText = await runPaycli(['status', '31337'], { env: t.env() });
    expect(missText.code).toBe(1);
    expect(missText.stderr).toContain('Transaction not found (transaction 31337)');
  });

  it('status: usage errors exit 2 without asking; the built-in sandbox is refused; templates per profile', async () => {
    for (const args of [['status'], ['status', 'abc'], ['status', '1', '--order-id', 'x']]) {
      const r = await runPaycli(args, { env: t.env() });
      expect(r.code, args.join(' ')).toBe(2);
    }
    const sb = await runPaycli(['status', '1'], { env: { ...t.home.env } });
    expect(sb.code).toBe(2);
    expect(sb.stderr).toContain('built-in sandbox');
    expect(t.gw.received).toHaveLength(0);
    expect((await config(['status-path', '/v2/tx/{transactionId}'])).code).toBe(0);
    expect((await config(['status-by-order-path', '/v2/orders/{orderId}/tx'])).code).toBe(0);
    expect((await config(['status-path', 'no-slash'])).code).toBe(2);
    t.gw.respond((_req, res) => json(res, 200, { transactionId: 1, status: 'paid', value: 5, object: 'cashin' }));
    expect((await runPaycli(['status', '7'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli(['status', '--order-id', 'a:b@c'], { env: t.env() })).code).toBe(0);
    expect(gets().map((r) => r.path)).toEqual(['/v2/tx/7', '/v2/orders/a%3Ab%40c/tx']);
  });

  it('balance: reais, and --json as received', async () => {
    t.gw.respond(lookupGateway().responder);
    const r = await runPaycli(['balance'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Balance\s+R\$ 25\.968,78/);
    expect(r.stdout).toMatch(/Retention\s+R\$ 53,39/);
    expect(r.stdout).toMatch(/To anticipate\s+R\$ 49,90/);
    expect(r.stdout).toMatch(/Final balance\s+R\$ 25\.865,49/);
    const j = await runPaycli(['balance', '--json'], { env: t.env() });
    expect(JSON.parse(j.stdout)).toEqual({
      balance: 2596878,
      retention: 5339,
      toAnticipate: 4990,
      finalBalance: 2586549,
      gateway: { balance: 2596878, retention: 5339, toAnticipate: 4990, finalBalance: 2586549 },
    });
    expect(gets().map((r) => r.path)).toEqual(['/transaction/get/balance', '/transaction/get/balance']);
  });

  it('lookups map hostile answers like the POSTs (3 / 5), never leak the key, and retry a GET a bounded number of times', async () => {
    const cases: [(res: import('node:http').ServerResponse) => void, number][] = [
      [(res) => json(res, 401, { message: `bad ${KEY}` }), 3],
      [(res) => json(res, 200, '<html>oops</html>', { 'content-type': 'text/html' }), 5],
      [(res) => json(res, 200, { transactionId: 'x', status: 'paid', value: 1 }), 5],
      [(res) => json(res, 500, { message: 'down' }), 5],
      [(res) => json(res, 302, {}, { location: 'https://evil.example/' }), 5],
    ];
    for (const [respond, code] of cases) {
      t.gw.respond((_req, res) => respond(res));
      const r = await runPaycli(['status', '1', '--verbose'], { env: t.env() });
      expect(r.code, r.stderr).toBe(code);
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect(r.stderr).not.toContain('outcome is unknown');
    }
    expect(gets()).toHaveLength(cases.length); // 401, 200s, 500 and redirects are not retried
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.held.push({ transactionId: 1, object: 'cashin', status: 'paid', value: 100 });
    l.nextGet.push('reset', '503');
    const ok = await runPaycli(['status', '1'], { env: t.env() });
    expect(ok.code, ok.stderr).toBe(0);
    expect(gets()).toHaveLength(cases.length + 3);
    l.nextGet.push('reset', 'reset', 'reset', 'reset');
    const down = await runPaycli(['status', '1'], { env: t.env() });
    expect(down.code).toBe(4);
    expect(down.stderr).toContain('the lookup failed');
    expect(gets()).toHaveLength(cases.length + 6); // 3 tries, then it gives up
  });
});

describe('the gateway as second witness', () => {
  it('two runs with different HOMEs and the same --order-id: exactly 1 cash-out reaches the gateway', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const first = await runPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'job-42'], { env: t.env() });
    expect(first.code, first.stderr).toBe(0);
    const other = makeHome();
    try {
      const second = await runPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'job-42', '--json'], { env: { ...t.env(), ...other.env } });
      expect(second.code).toBe(2);
      expect(second.stdout).toBe('');
      const err = JSON.parse(second.stderr.trim().split('\n').pop()!).error;
      expect(err.code).toBe('duplicate_cashout');
      expect(err.message).toContain(`transaction ${l.held[0]!.transactionId}`);
      expect(err.message).toContain('nothing was sent');
      // --allow-duplicate overrides the local guard only: the order is at the gateway
      const third = await runPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'job-42', '--allow-duplicate'], { env: { ...t.env(), ...other.env } });
      expect(third.code).toBe(2);
    } finally {
      other.cleanup();
    }
    expect(posts()).toHaveLength(1);
    expect(l.held).toHaveLength(1);
  });

  it('a gateway without the lookup path is remembered per profile (lookup auto); lookup off never asks; a failing lookup sends nothing', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.nextGet.push('html404');
    const a = await runPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'o-1'], { env: t.env() });
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain('no lookup by order reference');
    const b = await runPaycli(withValue([...CASHOUT_ARGS, '--yes', '--order-id', 'o-2'], 1600), { env: t.env() });
    expect(b.code).toBe(0);
    expect(gets()).toHaveLength(1);
    expect(posts()).toHaveLength(2);
    // `status` asks again; a gateway that answers is forgotten from the memory
    expect((await runPaycli(['status', '--order-id', 'o-2'], { env: t.env() })).code).toBe(0);
    expect((await runPaycli(withValue([...CASHOUT_ARGS, '--yes', '--order-id', 'o-3'], 1700), { env: t.env() })).code).toBe(0);
    expect(gets()).toHaveLength(3);
    expect((await config(['lookup', 'off'])).code).toBe(0);
    expect((await runPaycli(withValue([...CASHOUT_ARGS, '--yes', '--order-id', 'o-4'], 1800), { env: t.env() })).code).toBe(0);
    expect(gets()).toHaveLength(3);
    expect((await config(['lookup', 'auto'])).code).toBe(0);
    t.gw.respond((req, res) => (req.method === 'GET' ? json(res, 500, { message: 'db down' }) : json(res, 200, {})));
    const c = await runPaycli(withValue([...CASHOUT_ARGS, '--yes', '--order-id', 'o-5'], 1900), { env: t.env() });
    expect(c.code).toBe(5);
    expect(c.stderr).toContain('nothing was sent');
    expect(posts()).toHaveLength(4);
  });
});

describe('unknown outcomes settled by asking', () => {
  it('created, then the connection dropped: reported as created (exit 0), recorded, and an identical retry sends nothing', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.next.push('drop-after-create');
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Cash-out created');
    expect(r.stdout).toContain(`Transaction ID  ${l.held[0]!.transactionId}`);
    const [entry] = await history();
    expect(entry).toMatchObject({ outcome: 'ok', transactionId: l.held[0]!.transactionId, orderId: l.held[0]!.orderId });
    expect(gets().map((g) => g.path)).toEqual([`/transaction/get/by/orderId/${l.held[0]!.orderId}`]);
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(again.code).toBe(2);
    expect(posts()).toHaveLength(1);
  });

  it('one the gateway never received stays unknown while it may be in flight (exit 4; the same command refused); after its deadline and settle-after, sent again under the same order reference', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.next.push('drop-before-create');
    const env = t.env({ PAYCLI_SETTLE_AFTER: '0' });
    const r = await runPaycli([...CASHOUT_ARGS, '--yes', '--json', '--timeout', '1000'], { env });
    expect(r.code).toBe(4);
    const err = JSON.parse(r.stderr.trim().split('\n').pop()!).error;
    expect(err.maybeSent).not.toBe(false);
    expect(err.message).toContain('its outcome is unknown');
    expect(err.message).not.toContain('not sent');
    expect((await history())[0]).toMatchObject({ outcome: 'unknown' });
    const orderId = (posts()[0]!.json as { orderId: string }).orderId;
    const soon = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
    if (soon.code !== 0) {
      // still before its deadline: refused, nothing sent (a "not found" proves nothing yet)
      expect(soon.code).toBe(2);
      expect(soon.stderr).toContain('proves nothing');
      expect(posts()).toHaveLength(1);
      await pastDeadlines();
      const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
      expect(again.code, again.stderr).toBe(0);
    }
    expect(posts()).toHaveLength(2);
    expect((posts()[1]!.json as { orderId: string }).orderId).toBe(orderId);
    expect((await history()).map((e) => e.outcome)).toEqual(['ok', 'not_sent']);
  });

  /**
   * Starts a cash-out and presses Ctrl-C twice once its POST reached the gateway (the first only
   * says it keeps waiting for the answer); the run's exit code, stdout and stderr.
   */
  async function ctrlCAfterSending(args: string[], env = t.env()): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [PAYCLI, ...args], { env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 500 && posts().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(posts()).toHaveLength(1);
    child.kill('SIGINT');
    for (let i = 0; i < 1500 && !stderr.includes('waiting for the gateway'); i++) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    return { code: await closed, stdout, stderr };
  }

  it('Ctrl-C twice after the gateway created it: exit 130, unknown, naming reconcile; the same command asks by order reference, records it ok and sends nothing', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.next.push('hang-after-create');
    const r = await ctrlCAfterSending([...CASHOUT_ARGS, '--yes']);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('paycli reconcile');
    expect(r.stdout).toBe('');
    const orderId = l.held[0]!.orderId!;
    expect(orderId).toMatch(ULID_REF);
    expect((await history())[0]).toMatchObject({ outcome: 'unknown', orderId });
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`asking the gateway for order ${orderId}`);
    expect(again.stderr).toContain('already sent');
    expect(gets().map((g) => g.path)).toEqual([`/transaction/get/by/orderId/${orderId}`]);
    expect((await history())[0]).toMatchObject({ outcome: 'ok', transactionId: l.held[0]!.transactionId, orderId });
    expect(posts()).toHaveLength(1);
  });

  it('Ctrl-C twice after sending, and the gateway has no such order: exit 130, unknown (never "not created"); sent again only after its deadline and settle-after, under the same order reference', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.next.push('hang-before-create');
    const env = t.env({ PAYCLI_SETTLE_AFTER: '0' });
    const r = await ctrlCAfterSending([...CASHOUT_ARGS, '--yes', '--json', '--timeout', '2000'], env);
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    const err = JSON.parse(r.stderr.trim().split('\n').pop()!).error as { maybeSent: boolean; message: string };
    expect(err.maybeSent).not.toBe(false);
    expect(err.message).toContain('its outcome is unknown');
    expect(r.stderr).not.toContain('not created');
    expect(gets()).toHaveLength(0); // stopped waiting: no lookup
    expect((await history())[0]).toMatchObject({ outcome: 'unknown' });
    await pastDeadlines();
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(posts()).toHaveLength(2);
    expect(new Set(posts().map((p) => (p.json as { orderId: string }).orderId)).size).toBe(1);
  });

  it('a cash-in created behind a 500 is found: recorded ok, exit 6 (its BR Code was lost)', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.next.push('500-after-create');
    const r = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect(r.code).toBe(6);
    expect(r.stdout).toContain('Cash-in created');
    expect(r.stderr).toContain('BR Code was lost');
    expect((await history())[0]).toMatchObject({ outcome: 'ok', transactionId: l.held[0]!.transactionId });
  });

  it('reconcile settles every unknown entry it can and says which it could not; exit 4, then 0', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    expect((await config(['lookup', 'off'])).code).toBe(0);
    // a short deadline and no grace, so that "not found" can count within the test
    expect((await config(['timeout', '1000'])).code).toBe(0);
    expect((await config(['settle-after', '0'])).code).toBe(0);
    l.next.push('500-after-create', 'drop-before-create', '500-after-create');
    const a = await runPaycli(withValue([...CASHOUT_ARGS, '--yes'], 1001), { env: t.env() }); // created
    const b = await runPaycli(withValue([...CASHOUT_ARGS, '--yes'], 1002), { env: t.env() }); // never arrived
    expect((await config(['order-id', 'off'])).code).toBe(0);
    const c = await runPaycli(withValue([...CASHOUT_ARGS, '--yes'], 1003), { env: t.env() }); // no reference
    expect([a.code, b.code, c.code]).toEqual([5, 4, 5]);
    expect(gets()).toHaveLength(0);
    expect((await history()).map((e) => e.outcome)).toEqual(['unknown', 'unknown', 'unknown']);
    expect((await config(['lookup', 'auto'])).code).toBe(0);
    await pastDeadlines();
    const r = await runPaycli(['reconcile', '--json'], { env: t.env() });
    expect(r.code).toBe(4);
    const doc = JSON.parse(r.stdout) as { entries: Record<string, unknown>[]; settled: number; unknown: number };
    expect(doc).toMatchObject({ settled: 2, unknown: 1 });
    expect(doc.entries.map((e) => [e.value, e.result])).toEqual([
      [1001, 'ok'],
      [1002, 'not_sent'],
      [1003, 'unknown'],
    ]);
    expect(doc.entries[0]).toMatchObject({ transactionId: l.held[0]!.transactionId });
    expect(doc.entries[2]!.reason).toContain('no order reference');
    const text = await runPaycli(['reconcile'], { env: t.env() });
    expect(text.code).toBe(4);
    expect(text.stdout).toMatch(/TIME \(UTC\)\s+KIND\s+AMOUNT\s+ORDER ID\s+RESULT\s+DETAIL/);
    expect(text.stdout).toContain('no order reference');
    const outcomes = (await history()).map((e) => [e.value, e.outcome]);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        [1001, 'ok'],
        [1002, 'not_sent'],
        [1003, 'unknown'],
      ]),
    );
    expect(posts()).toHaveLength(3);
    // only entries since a time; none unknown in that window: exit 0
    const later = await runPaycli(['reconcile', '--since', new Date(Date.now() + 60_000).toISOString()], { env: t.env() });
    expect(later.code).toBe(0);
    expect(later.stderr).toContain('nothing to reconcile');
    expect((await runPaycli(['reconcile', '--since', 'anteontem'], { env: t.env() })).code).toBe(2);
  });
});

describe('the ledger keeps the reference', () => {
  it('the entry carries orderId before the request is sent', async () => {
    let atArrival: Record<string, unknown>[] = [];
    t.gw.respond((req, res) => {
      if (req.method === 'GET') return json(res, 404, { message: 'Transaction not found' });
      atArrival = ledgerRows(t.home.env.PAYCLI_DATA_DIR!);
      json(res, 200, { transactionId: 1, gross: 1550, tax: '65', liquid: '1485', status: '0', createdAt: '2026-11-21T12:00:00.000Z' });
    });
    expect((await runPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'before-send'], { env: t.env() })).code).toBe(0);
    expect(atArrival).toMatchObject([{ order_id: 'before-send', outcome: null }]);
  });
});

describe('against the standalone sandbox', () => {
  const sandboxEnv = (url: string, home: { env: Record<string, string> }) => ({ ...home.env, PAYCLI_BASE_URL: url, PAYCLI_API_KEY: 'sandbox-key' });

  it('orderId reaches it; status by id and by order, balance, not found; two HOMEs with one --order-id pay once', async () => {
    const sb = await startSandboxProcess();
    const other = makeHome();
    try {
      const env = sandboxEnv(sb.url, t.home);
      const out = await runPaycli([...CASHOUT_ARGS, '--yes', '--json', '--order-id', 'sb-order-1'], { env });
      expect(out.code, out.stderr).toBe(0);
      const created = JSON.parse(out.stdout) as { transactionId: number; orderId: string };
      expect(created.orderId).toBe('sb-order-1'); // echoed by the sandbox: it reached it as orderId
      const byId = await runPaycli(['status', String(created.transactionId), '--json'], { env });
      expect(byId.code, byId.stderr).toBe(0);
      expect(JSON.parse(byId.stdout)).toMatchObject({ transactionId: created.transactionId, orderId: 'sb-order-1', kind: 'cashout', value: 1550, gateway: { object: 'transfer' } });
      const byOrder = await runPaycli(['status', '--order-id', 'sb-order-1'], { env });
      expect(byOrder.code, byOrder.stderr).toBe(0);
      expect(byOrder.stdout).toContain('Cash-out (transfer), created');
      expect(byOrder.stdout).toMatch(/Amount\s+R\$ 15,50/);
      const auto = await runPaycli(CASHIN_ARGS, { env });
      expect(auto.code, auto.stderr).toBe(0);
      const autoRef = /Order ID\s+(paycli-\S+)/.exec(auto.stdout)?.[1];
      expect(autoRef).toMatch(ULID_REF);
      expect((await runPaycli(['status', '--order-id', autoRef!], { env })).stdout).toContain('Cash-in, created');
      const miss = await runPaycli(['status', '--order-id', 'never-sent'], { env });
      expect(miss.code).toBe(1);
      expect(miss.stderr).toContain('Transaction not found');
      const bal = await runPaycli(['balance', '--json'], { env });
      expect(bal.code, bal.stderr).toBe(0);
      expect(Object.keys(JSON.parse(bal.stdout))).toEqual(expect.arrayContaining(['balance', 'retention', 'toAnticipate', 'finalBalance']));
      expect((await runPaycli(['balance'], { env })).stdout).toMatch(/Final balance\s+-?R\$ /);
      // another HOME (a fresh CI runner), the same order: the sandbox holds it, nothing is sent
      const again = await runPaycli([...CASHOUT_ARGS, '--yes', '--order-id', 'sb-order-1'], { env: sandboxEnv(sb.url, other) });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(`transaction ${created.transactionId}`);
      expect(sb.log().match(/POST \/transaction\/cashout/g)).toHaveLength(1);
    } finally {
      other.cleanup();
      await sb.stop();
    }
  });

  it('--drop-after-create: reported as created (exit 0), recorded, an identical retry sends nothing; reconcile settles what lookups were off for', async () => {
    const sb = await startSandboxProcess(['--drop-after-create', '1,2']);
    try {
      const env = sandboxEnv(sb.url, t.home);
      const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Cash-out created (the answer was lost; found at the gateway by its order reference)');
      const [entry] = await history(env);
      expect(entry).toMatchObject({ outcome: 'ok', kind: 'cashout' });
      expect(entry!.transactionId).toEqual(expect.any(Number));
      const retry = await runPaycli([...CASHOUT_ARGS, '--yes'], { env });
      expect(retry.code).toBe(2);
      // the 2nd creation drops too, with lookups off: unknown; reconcile asks and settles it
      expect((await config(['lookup', 'off'], env)).code).toBe(0);
      const lost = await runPaycli(withValue([...CASHOUT_ARGS, '--yes'], 2500), { env });
      expect(lost.code).toBe(4);
      expect((await config(['lookup', 'auto'], env)).code).toBe(0);
      const rec = await runPaycli(['reconcile', '--json'], { env });
      expect(rec.code, rec.stderr).toBe(0);
      expect(JSON.parse(rec.stdout)).toMatchObject({ settled: 1, unknown: 0, entries: [{ value: 2500, result: 'ok' }] });
      expect((await history(env)).map((e) => e.outcome)).toEqual(['ok', 'ok']);
      expect(sb.log().match(/cash-out \d+ created/g)).toHaveLength(2); // the retry sent nothing
    } finally {
      await sb.stop();
    }
  });
});
