/**
 * The sandbox used as an outsider would use it: another program's gateway client and postback
 * handler (test/outsider/, written the way public integrations of this gateway family are), run
 * against a standalone `paycli sandbox`, with paycli's own commands only to move transactions along
 * (`sandbox pay|refund|infraction`, `sandbox ping`). Real processes, real HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { waitFor } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';
import { OutsiderClient } from '../outsider/client.js';
import { startOutsiderHandler, type OutsiderHandler } from '../outsider/handler.js';

const TOKEN = 'sk_outsider_0123456789';
let home: Home;
let sb: SandboxProcess;
let handler: OutsiderHandler;
const orders = new Set(['pedido-1001', 'saque-2002']);

beforeAll(async () => {
  home = makeHome();
  handler = await startOutsiderHandler(orders);
  sb = await startSandboxProcess(['--api-key', TOKEN], { ...home.env, PAYCLI_SANDBOX_RETRY_BASE_MS: '50' });
});
afterAll(async () => {
  await sb.stop();
  await handler.close();
  home.cleanup();
});

const control = (action: string, id: number) => runPaycli(['sandbox', action, String(id), '--sandbox-url', sb.url], { env: { ...home.env, PAYCLI_API_KEY: TOKEN } });

describe('an outsider client and postback handler against paycli sandbox', () => {
  it('cash-in and cash-out with orderId and postbackUrl: created then paid for each; refund and infraction by their words', async () => {
    const client = new OutsiderClient(sb.url, TOKEN);
    const cashIn = await client.createCashIn({
      orderId: 'pedido-1001',
      value: 2590,
      postbackUrl: handler.url,
      payer: { name: 'Maria da Silva', document: '111.444.777-35', email: 'maria@example.com', phone: '' },
    });
    expect(cashIn).toMatchObject({ orderId: 'pedido-1001', success: true });
    expect(typeof cashIn.transactionId).toBe('number');
    const cashOut = await client.createCashOut({
      orderId: 'saque-2002',
      value: 1500,
      postbackUrl: handler.url,
      pixKey: 'joao@example.com',
      name: 'João Souza',
      email: 'joao@example.com',
    });
    expect(cashOut).toMatchObject({ orderId: 'saque-2002', gross: 1500, tax: '65', liquid: '1435', status: '0', success: 'true', description: null });

    await waitFor(() => handler.events.length >= 2, 5_000, 'the two created postbacks');
    expect((await control('pay', cashIn.transactionId)).code).toBe(0);
    expect((await control('pay', cashOut.transactionId)).code).toBe(0);
    await waitFor(() => handler.events.length >= 4, 5_000, 'the two paid postbacks');

    const inEvents = handler.of('pedido-1001');
    expect(inEvents.map((e) => [e.object, e.status])).toEqual([
      ['cashin', 'created'],
      ['cashin', 'paid'],
    ]);
    expect(inEvents[0]!.body.payer).toBeUndefined(); // payer only once paid
    expect(inEvents[1]!.body).toMatchObject({
      transactionId: cashIn.transactionId,
      method: 'pix',
      value: 2590,
      observation: null,
      payer: { transactionId: cashIn.transactionId, name: 'Maria da Silva', documentId: '11144477735', bankIspb: '99999999' },
    });
    expect(inEvents[1]!.body.endToEndId).toMatch(/^E99999999\d{12}[A-Za-z0-9]{11}$/);

    const outEvents = handler.of('saque-2002');
    expect(outEvents.map((e) => [e.object, e.status])).toEqual([
      ['transfer', 'created'],
      ['transfer', 'paid'],
    ]);
    expect(outEvents[0]!.body.destinationBank).toBeNull(); // a created transfer, as documented
    expect(outEvents[1]!.body.destinationBank).toEqual({
      name: 'João Souza',
      cpfCnpj: null,
      email: 'joao@example.com',
      pixKey: 'joao@example.com',
      pixKeyType: '2',
      bank: 'PAYCLI SANDBOX BANK',
      bankId: '999',
      ispb: '99999999',
    });
    for (const e of outEvents) expect(e.body.payer).toBeUndefined();

    // After payment: an infraction report on the cash-in, a refund of the cash-out.
    expect((await control('infraction', cashIn.transactionId)).code).toBe(0);
    expect((await control('refund', cashOut.transactionId)).code).toBe(0);
    await waitFor(() => handler.events.length >= 6, 5_000, 'infraction and refund postbacks');
    expect(handler.of('pedido-1001').map((e) => e.status)).toEqual(['created', 'paid', 'infraction']);
    expect(handler.of('saque-2002').map((e) => e.status)).toEqual(['created', 'paid', 'refund']);
    expect(handler.ignored).toBe(0); // every postback carried the orderId the handler correlates on

    // Lookups with the raw token, as the documentation's examples send it; the balance follows.
    const found = await client.byOrderId('saque-2002');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ transactionId: cashOut.transactionId, object: 'transfer', status: 'refund', orderId: 'saque-2002', value: 1500 });
    expect(await client.byOrderId('no-such-order')).toEqual({ status: 404, body: { message: 'Transaction not found' } });
    // cash-in 2590 paid and under infraction (retained); the cash-out came back (refund).
    expect((await client.balance()).body).toEqual({ balance: 100_002_590, retention: 2590, toAnticipate: 0, finalBalance: 100_000_000 });
  });

  it('the handler ignores a postback without orderId, and answers the ping', async () => {
    const before = handler.ignored;
    const r = await fetch(handler.url, { method: 'POST', body: JSON.stringify({ transactionId: 1, object: 'cashin', status: 'paid' }) });
    expect(await r.json()).toEqual({ ignored: true });
    expect(handler.ignored).toBe(before + 1);
    const ping = await runPaycli(['sandbox', 'ping', handler.url, '--sandbox-url', sb.url], { env: { ...home.env, PAYCLI_API_KEY: TOKEN } });
    expect(ping.code, ping.stderr).toBe(0);
    expect(ping.stdout).toMatch(/^ping → http:\/\/127\.0\.0\.1:\d+\/webhooks\/pix: HTTP 200, delivered\n$/);
    expect(handler.pings).toBe(1);
  });
});
