/**
 * The standalone sandbox keeps its transactions in its state folder (src/sandbox/store.ts,
 * `transactions.sqlite` through src/core/sqlite/): a restart (clean or killed) with the same folder
 * answers the earlier ids and order references with their last state and the same balance;
 * `paycli sandbox reset` starts the folder over, and refuses while a sandbox runs on it; two
 * sandboxes on two folders keep two states, and so do two on two ports with no `--data-dir` (each
 * port has its default folder, `<data folder>/sandbox/<port>`; `sandbox reset --port` starts one over).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runPaycli, type Home } from '../helpers/cli.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

let home: Home;
const running: SandboxProcess[] = [];
beforeEach(() => {
  home = makeHome();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  home.cleanup();
});

/** The sandboxes' opening balance in cents (R$ 1.000,00). */
const OPENING = 100_000;
const stateDir = (name = 'sandbox-state') => join(home.dir, name);

async function sandbox(dir = stateDir()): Promise<SandboxProcess> {
  const sb = await startSandboxProcess(['--data-dir', dir, '--opening-balance', String(OPENING)], home.env);
  running.push(sb);
  return sb;
}

async function stop(sb: SandboxProcess, how: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  running.splice(running.indexOf(sb), 1);
  const exited = new Promise((r) => sb.child.once('exit', r));
  sb.child.kill(how);
  await exited;
}

async function api(sb: SandboxProcess, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(`${sb.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

const CASHIN = {
  payerName: 'Fulano de Tal',
  payerDocument: '123.456.789-09',
  payerEmail: 'fulano@example.com',
  payerPhone: '11987654321',
  productName: 'Camiseta',
  productDescription: 'Camiseta azul M',
  value: 1000,
  orderId: 'pedido-1',
};
const CASHOUT = {
  value: 1550,
  pixKeyType: 2,
  pixKey: 'fulano@example.com',
  cpfCnpj: '',
  person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '' },
  orderId: 'saque-1',
};

/** A paid cash-in of R$ 10,00 and a created cash-out of R$ 15,50; their ids. */
async function someState(sb: SandboxProcess): Promise<{ cashin: number; cashout: number }> {
  const ci = await api(sb, 'POST', '/transaction/qrcode/cashin', CASHIN);
  expect(ci.status, JSON.stringify(ci.json)).toBe(200);
  const co = await api(sb, 'POST', '/transaction/cashout', CASHOUT);
  expect(co.status, JSON.stringify(co.json)).toBe(200);
  const paid = await api(sb, 'POST', `/_sandbox/transactions/${ci.json.transactionId}/pay`);
  expect(paid.status, JSON.stringify(paid.json)).toBe(200);
  return { cashin: ci.json.transactionId, cashout: co.json.transactionId };
}

async function lookup(sb: SandboxProcess, id: number) {
  return api(sb, 'GET', `/transaction/get/by/id/${id}`);
}

describe('sandbox state across restarts', () => {
  for (const how of ['SIGTERM', 'SIGKILL'] as const) {
    it(`after ${how}, the same folder answers the earlier transactions, their states and the balance`, async () => {
      const first = await sandbox();
      const ids = await someState(first);
      const before = { cashin: await lookup(first, ids.cashin), cashout: await lookup(first, ids.cashout), balance: await api(first, 'GET', '/transaction/get/balance') };
      expect(before.cashin.status).toBe(200);
      expect(before.cashin.json.status).toBe('paid');
      await stop(first, how);

      const second = await sandbox();
      expect(second.log()).toMatch(/2 transactions from earlier runs/);
      const after = { cashin: await lookup(second, ids.cashin), cashout: await lookup(second, ids.cashout), balance: await api(second, 'GET', '/transaction/get/balance') };
      expect(after).toEqual(before);
      expect(after.balance.json).toMatchObject({ balance: OPENING + 1000 - 1550 });
      const byOrder = await api(second, 'GET', '/transaction/get/by/orderId/pedido-1');
      expect(byOrder.status).toBe(200);
      expect(byOrder.json.transactionId ?? byOrder.json.id).toBeDefined();
      // A change after the restart is kept too.
      const refund = await api(second, 'POST', `/_sandbox/transactions/${ids.cashin}/refund`);
      expect(refund.status, JSON.stringify(refund.json)).toBe(200);
      await stop(second, 'SIGTERM');
      const third = await sandbox();
      expect((await lookup(third, ids.cashin)).json.status).toBe('refund');
    }, 60_000);
  }

  it('sandbox reset refuses while a sandbox runs on the folder, then starts it over; ids keep increasing', async () => {
    const sb = await sandbox();
    const ids = await someState(sb);
    const refused = await runPaycli(['sandbox', 'reset', '--data-dir', stateDir()], { env: home.env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/in use by another paycli sandbox/);
    expect(existsSync(join(stateDir(), 'transactions.sqlite'))).toBe(true);
    await stop(sb, 'SIGTERM');

    const reset = await runPaycli(['--json', 'sandbox', 'reset', '--data-dir', stateDir()], { env: home.env });
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout)).toEqual({ dataDir: stateDir(), removed: true });
    expect(existsSync(join(stateDir(), 'transactions.sqlite'))).toBe(false);

    const fresh = await sandbox();
    expect(fresh.log()).not.toMatch(/from earlier runs/);
    expect((await lookup(fresh, ids.cashin)).status).toBe(404);
    expect((await api(fresh, 'GET', '/transaction/get/balance')).json).toMatchObject({ balance: OPENING });
    const next = await api(fresh, 'POST', '/transaction/qrcode/cashin', CASHIN);
    expect(next.json.transactionId).toBeGreaterThan(ids.cashout);

    const again = await runPaycli(['sandbox', 'reset', '--data-dir', stateDir('never-used')], { env: home.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/held no sandbox state/);
  }, 60_000);

  it('two sandboxes on two ports with two folders keep two states', async () => {
    const a = await sandbox(stateDir('a'));
    const b = await sandbox(stateDir('b'));
    const ids = await someState(a);
    expect((await lookup(b, ids.cashin)).status).toBe(404);
    await Promise.all([stop(a, 'SIGTERM'), stop(b, 'SIGTERM')]);
    const a2 = await sandbox(stateDir('a'));
    const b2 = await sandbox(stateDir('b'));
    expect((await lookup(a2, ids.cashin)).json.status).toBe('paid');
    expect((await lookup(b2, ids.cashin)).status).toBe(404);
    expect((await api(b2, 'GET', '/transaction/get/balance')).json).toMatchObject({ balance: OPENING });
  }, 60_000);

  it('two sandboxes on two ports with no --data-dir keep two states, each in its port folder; reset --port starts one over', async () => {
    const [p1, p2] = [await freePort(), await freePort()];
    const onPort = async (port: number) => {
      const sb = await startSandboxProcess(['--port', String(port), '--opening-balance', String(OPENING)], home.env);
      running.push(sb);
      return sb;
    };
    const a = await onPort(p1);
    const b = await onPort(p2);
    // neither falls back to memory: each holds its own folder
    expect(a.log()).not.toMatch(/in memory/);
    expect(b.log()).not.toMatch(/in memory/);
    const ids = await someState(a);
    expect((await lookup(b, ids.cashin)).status).toBe(404);
    const folder = (port: number) => join(home.env.PAYCLI_DATA_DIR!, 'sandbox', String(port));
    expect(existsSync(join(folder(p1), 'transactions.sqlite'))).toBe(true);
    await Promise.all([stop(a, 'SIGTERM'), stop(b, 'SIGTERM')]);

    const a2 = await onPort(p1);
    const b2 = await onPort(p2);
    expect((await lookup(a2, ids.cashin)).json.status).toBe('paid');
    expect((await lookup(b2, ids.cashin)).status).toBe(404);
    // reset names the port whose folder it starts over; refused while that sandbox runs
    const refused = await runPaycli(['sandbox', 'reset', '--port', String(p1)], { env: home.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(folder(p1));
    await Promise.all([stop(a2, 'SIGTERM'), stop(b2, 'SIGTERM')]);
    const reset = await runPaycli(['--json', 'sandbox', 'reset', '--port', String(p1)], { env: home.env });
    expect(reset.code, reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout)).toEqual({ dataDir: folder(p1), removed: true });
    const a3 = await onPort(p1);
    expect((await lookup(a3, ids.cashin)).status).toBe(404);
  }, 60_000);

  it('sandboxes started at the same moment on one folder: exactly one keeps state there, the others say they keep it in memory', async () => {
    const all = await Promise.all(Array.from({ length: 6 }, () => startSandboxProcess(['--opening-balance', String(OPENING)], home.env)));
    running.push(...all);
    const folder = join(home.env.PAYCLI_DATA_DIR!, 'sandbox', '0');
    const keeping = all.filter((sb) => sb.log().includes(`events kept in ${folder}`));
    const inMemory = all.filter((sb) => /events kept in memory only: .* is in use by another paycli sandbox \(pid \d+\)/.test(sb.log()));
    expect(keeping.length, all.map((sb) => sb.log()).join('\n---\n')).toBe(1);
    expect(inMemory.length).toBe(5);
    // every one answers, and the one keeping state is the one the lock names
    for (const sb of all) expect((await api(sb, 'POST', '/transaction/qrcode/cashin', CASHIN)).status).toBe(200);
    expect(readFileSync(join(folder, 'lock'), 'utf8')).toBe(String(keeping[0]!.child.pid));
    // no lock file of an attempt is left behind
    expect(
      readdirSync(folder)
        .filter((name) => name.startsWith('lock'))
        .sort(),
    ).toEqual(['lock']);
  }, 60_000);
});

/** A port free on 127.0.0.1 now (the system's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}
