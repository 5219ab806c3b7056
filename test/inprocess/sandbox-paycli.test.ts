/**
 * paycli itself against a standalone `paycli sandbox`: order references and postback URLs on both
 * operations reach a postback handler as `created` then `paid` (then `refund` / `infraction`);
 * `status` and `balance` read what the sandbox kept; a cash-out whose connection the sandbox resets
 * after creating it (`--drop-after-create`) is found by its order reference, and an identical retry
 * sends nothing. Real processes, real HTTP on 127.0.0.1.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { waitFor } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';
import { startOutsiderHandler, type OutsiderHandler } from '../outsider/handler.js';

let home: Home;
let handler: OutsiderHandler;
const running: SandboxProcess[] = [];
beforeAll(async () => {
  home = makeHome();
  handler = await startOutsiderHandler(new Set(['pedido-9', 'saque-9']));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});
afterAll(async () => {
  await handler.close();
  home.cleanup();
});

async function sandbox(extra: string[] = []): Promise<SandboxProcess> {
  const sb = await startSandboxProcess(extra, home.env);
  running.push(sb);
  return sb;
}

const paycli = (sb: SandboxProcess, args: string[]) => runPaycli(['--base-url', sb.url, ...args], { env: home.env });

describe('paycli against paycli sandbox', () => {
  it('cash-in and cash-out with --order-id and --postback-url: created then paid for each; refund and infraction; status and balance', async () => {
    const sb = await sandbox();
    const ci = await paycli(sb, ['--json', ...CASHIN_ARGS, '--order-id', 'pedido-9', '--postback-url', handler.url]);
    expect(ci.code, ci.stderr).toBe(0);
    const cashIn = JSON.parse(ci.stdout) as { transactionId: number; orderId: string; success: boolean };
    expect(cashIn).toMatchObject({ kind: 'cashin', orderId: 'pedido-9', gateway: { orderId: 'pedido-9', success: true } });
    const co = await paycli(sb, ['--json', ...CASHOUT_ARGS, '--order-id', 'saque-9', '--postback-url', handler.url, '--yes']);
    expect(co.code, co.stderr).toBe(0);
    const cashOut = JSON.parse(co.stdout) as { transactionId: number };
    expect(JSON.parse(co.stdout)).toMatchObject({
      kind: 'cashout',
      orderId: 'saque-9',
      status: 'created',
      statusCode: 0,
      gateway: { success: 'true', description: null, status: '0' },
    });

    for (const id of [cashIn.transactionId, cashOut.transactionId])
      expect((await runPaycli(['sandbox', 'pay', String(id), '--sandbox-url', sb.url], { env: home.env })).code).toBe(0);
    expect((await runPaycli(['sandbox', 'refund', String(cashIn.transactionId), '--sandbox-url', sb.url], { env: home.env })).code).toBe(0);
    expect((await runPaycli(['sandbox', 'infraction', String(cashOut.transactionId), '--sandbox-url', sb.url], { env: home.env })).code).toBe(0);
    await waitFor(() => handler.events.length >= 6, 5_000, 'six postbacks');
    expect(handler.of('pedido-9').map((e) => `${e.object} ${e.status}`)).toEqual(['cashin created', 'cashin paid', 'cashin refund']);
    expect(handler.of('saque-9').map((e) => `${e.object} ${e.status}`)).toEqual(['transfer created', 'transfer paid', 'transfer infraction']);
    expect(handler.of('pedido-9')[1]!.body.payer).toMatchObject({ name: 'Fulano de Tal', documentId: '12345678909' });
    expect(handler.of('saque-9')[1]!.body.destinationBank).toMatchObject({ name: 'Fulano de Tal', pixKey: 'fulano@example.com', pixKeyType: '2' });

    const status = await paycli(sb, ['status', '--order-id', 'saque-9']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Cash-out \(transfer\), infraction\n/);
    expect(status.stdout).toMatch(/Recipient +Fulano de Tal, Pix key fulano@example\.com/);
    const byId = await paycli(sb, ['--json', 'status', String(cashIn.transactionId)]);
    expect(JSON.parse(byId.stdout)).toMatchObject({
      transactionId: cashIn.transactionId,
      kind: 'cashin',
      status: 'refund',
      statusCode: 4,
      orderId: 'pedido-9',
      gateway: { object: 'cashin', status: 'refund' },
    });
    const missing = await paycli(sb, ['status', '--order-id', 'never-sent']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Transaction not found/);
    // The cash-in was refunded; the cash-out (1550) is paid, under an infraction: still debited.
    const balance = await paycli(sb, ['--json', 'balance']);
    expect(JSON.parse(balance.stdout)).toEqual({
      balance: 99_998_450,
      retention: 0,
      toAnticipate: 0,
      finalBalance: 99_998_450,
      gateway: { balance: 99_998_450, retention: 0, toAnticipate: 0, finalBalance: 99_998_450 },
    });
  });

  it('--drop-after-create 1: the cash-out is reported as created (exit 0) from the lookup, and an identical retry sends nothing', async () => {
    const sb = await sandbox(['--drop-after-create', '1']);
    const first = await paycli(sb, ['--json', ...CASHOUT_ARGS, '--order-id', 'drop-9', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ transactionId: expect.any(Number), orderId: 'drop-9' });
    expect(sb.log()).toMatch(/cash-out \d+ created; connection reset before the answer/);
    const retry = await paycli(sb, ['--json', ...CASHOUT_ARGS, '--order-id', 'drop-9', '--yes']);
    expect(retry.code).toBe(2);
    expect(sb.log().match(/connection reset before the answer|POST \/transaction\/cashout → 200/g)).toHaveLength(1); // one cash-out reached the sandbox
  });
});
