/**
 * Where the sandbox differed from the gateway family, and its controls: field names in any letter
 * case (PascalCase bodies, as a public client's test scripts send them; `--strict` names the field),
 * a cash-in's refund postback with string `pixKey`/`pixKeyType`, the balance that never goes below
 * 0 (the insufficient-balance answer), failure rules (`paycli sandbox failure`), and which sandbox
 * the control subcommands act on (`--base-url`, `PAYCLI_BASE_URL`, the profile, never silently
 * 127.0.0.1:4010). Real processes, real HTTP on 127.0.0.1.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, startGateway, type TestGateway } from '../helpers/gateway.js';
import { waitFor } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

let home: Home;
const running: SandboxProcess[] = [];
const gateways: TestGateway[] = [];
beforeAll(() => {
  home = makeHome();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await Promise.all(gateways.splice(0).map((g) => g.close()));
});
afterAll(() => home.cleanup());

async function sandbox(extra: string[] = []): Promise<SandboxProcess> {
  const sb = await startSandboxProcess(extra, home.env);
  running.push(sb);
  return sb;
}

async function recorder(): Promise<TestGateway> {
  const gw = await startGateway((_req, res) => json(res, 200, { ok: true }));
  gateways.push(gw);
  return gw;
}

async function post(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function get(url: string): Promise<Record<string, unknown>> {
  return (await (await fetch(url)).json()) as Record<string, unknown>;
}

/** A public client's test script body: PascalCase names, as an ASP.NET gateway accepts them. */
const PASCAL_CASHIN = {
  Value: 2590,
  PayerName: 'Fulano de Tal',
  PayerDocument: '123.456.789-09',
  PayerEmail: 'fulano@example.com',
  PayerPhone: '11987654321',
  ProductName: 'Camiseta',
  ProductDescription: 'Camiseta azul M',
  OrderId: 'pedido-Pascal',
};
const PASCAL_CASHOUT = {
  Value: 1550,
  PixKeyType: 2,
  PixKey: 'fulano@example.com',
  Person: { Name: 'Fulano de Tal', EMAIL: 'fulano@example.com', phone: '11987654321' },
  OrderId: 'saque-Pascal',
};

describe('field names in any letter case', () => {
  it('a PascalCase cash-in and cash-out are read like camelCase ones; --strict names the field whose case differs', async () => {
    const sb = await sandbox();
    const ci = await post(`${sb.url}/transaction/qrcode/cashin`, PASCAL_CASHIN);
    expect(ci.status, JSON.stringify(ci.body)).toBe(200);
    expect(ci.body).toMatchObject({ orderId: 'pedido-Pascal', success: true });
    expect(await get(`${sb.url}/transaction/get/by/id/${ci.body.transactionId}`)).toMatchObject({ object: 'cashin', value: 2590, orderId: 'pedido-Pascal' });
    const co = await post(`${sb.url}/transaction/cashout`, PASCAL_CASHOUT);
    expect(co.status, JSON.stringify(co.body)).toBe(200);
    expect(co.body).toMatchObject({ gross: 1550, orderId: 'saque-Pascal' });
    await post(`${sb.url}/_sandbox/transactions/${co.body.transactionId}/pay`, {});
    expect((await get(`${sb.url}/transaction/get/by/orderId/saque-Pascal`)).destinationBank).toMatchObject({
      name: 'Fulano de Tal',
      email: 'fulano@example.com',
      pixKey: 'fulano@example.com',
      pixKeyType: '2',
    });
    // A name spelled exactly wins over one that differs only in case.
    const both = await post(`${sb.url}/transaction/qrcode/cashin`, { ...PASCAL_CASHIN, value: 100 });
    expect(await get(`${sb.url}/transaction/get/by/id/${both.body.transactionId}`)).toMatchObject({ value: 100 });

    const strict = await sandbox(['--strict']);
    expect(await post(`${strict.url}/transaction/qrcode/cashin`, { ...PASCAL_CASHIN, Value: undefined, value: 2590 })).toEqual({
      status: 400,
      body: { message: 'Validation Failed - PayerName: field names are case-sensitive (payerName)' },
    });
    const nested = {
      value: 1550,
      pixKeyType: 2,
      pixKey: 'fulano@example.com',
      person: { name: 'Fulano de Tal', Email: 'fulano@example.com', phone: '11987654321' },
      orderId: 's-1',
    };
    expect(await post(`${strict.url}/transaction/cashout`, nested)).toEqual({
      status: 400,
      body: { message: 'Validation Failed - person.Email: field names are case-sensitive (person.email)' },
    });
  });
});

describe("a cash-in's refund postback", () => {
  it('carries destinationBank.pixKey and pixKeyType as strings, as the documents show them', async () => {
    const receiver = await recorder();
    const sb = await sandbox(['--webhook-url', `${receiver.url}/hook`]);
    const ci = await post(`${sb.url}/transaction/qrcode/cashin`, {
      value: 1000,
      payerName: 'Fulano de Tal',
      payerDocument: '806.838.065-56',
      payerEmail: 'fulano@example.com',
      payerPhone: '',
      productName: 'P',
      productDescription: 'D',
      orderId: 'refund-1',
    });
    const id = ci.body.transactionId as number;
    for (const action of ['pay', 'refund']) expect((await runPaycli(['sandbox', action, String(id), '--sandbox-url', sb.url], { env: home.env })).code).toBe(0);
    await waitFor(() => receiver.received.some((r) => (r.json as { status?: string }).status === 'refund'), 10_000, 'the refund postback');
    const refund = receiver.received.find((r) => (r.json as { status?: string }).status === 'refund')!.json as Record<string, unknown>;
    expect(refund).toMatchObject({ transactionId: id, object: 'cashin', status: 'refund', orderId: 'refund-1' });
    expect(refund.destinationBank).toEqual({
      name: 'Fulano de Tal',
      cpfCnpj: '80683806556',
      email: 'fulano@example.com',
      pixKey: '80683806556',
      pixKeyType: '',
      bank: 'PAYCLI SANDBOX BANK',
      bankId: '999',
      ispb: '99999999',
    });
    expect(refund.payer).toBeUndefined();
  });
});

describe('balance and failures on demand', () => {
  it('a cash-out over the balance gets "Insufficient balance" and nothing is created; the balance never goes below 0', async () => {
    // a state folder of its own: a sandbox keeps its transactions, and so its balance, across starts
    const sb = await sandbox(['--data-dir', join(home.dir, 'balance-sandbox'), '--opening-balance', '2000']);
    expect(sb.log()).toMatch(/opening balance R\$ 20,00/);
    const first = await runPaycli(['--json', '--base-url', sb.url, ...CASHOUT_ARGS, '--yes'], { env: home.env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runPaycli(['--base-url', sb.url, ...CASHOUT_ARGS, '--order-id', 'over-the-balance', '--allow-duplicate', '--yes'], { env: home.env });
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toMatch(/Insufficient balance/);
    expect(await post(`${sb.url}/transaction/cashout`, { value: 451, pixKeyType: 2, pixKey: 'a@b.co', person: { name: 'A', email: 'a@b.co', phone: '' } })).toEqual({
      status: 400,
      body: { message: 'Insufficient balance' },
    });
    expect(await get(`${sb.url}/transaction/get/balance`)).toEqual({ balance: 450, retention: 0, toAnticipate: 0, finalBalance: 450 });
    expect((await fetch(`${sb.url}/transaction/get/by/orderId/over-the-balance`)).status).toBe(404); // nothing was created
    // A paid cash-in (R$ 10,00) adds to it: 450 + 1000 covers 1200.
    const ci = await runPaycli(['--json', '--base-url', sb.url, ...CASHIN_ARGS], { env: home.env });
    expect((await runPaycli(['sandbox', 'pay', String(JSON.parse(ci.stdout).transactionId), '--sandbox-url', sb.url], { env: home.env })).code).toBe(0);
    const third = await runPaycli(
      ['--base-url', sb.url, ...CASHOUT_ARGS.map((a) => (a === '1550' ? '1200' : a)), '--order-id', 'after-the-cash-in', '--allow-duplicate', '--yes'],
      { env: home.env },
    );
    expect(third.code, third.stderr).toBe(0);
  });

  it('`paycli sandbox failure` has it answer insufficient balance, key not found or a bank timeout for a key or an amount; list and clear', async () => {
    const receiver = await recorder();
    const sb = await sandbox(['--webhook-url', `${receiver.url}/hook`]);
    const failure = (...args: string[]) => runPaycli(['sandbox', 'failure', ...args, '--sandbox-url', sb.url], { env: home.env });
    const added = await failure('key-not-found', '--pix-key', 'ninguem@example.com');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe('key-not-found  every cash-out to Pix key ninguem@example.com\n');
    expect((await failure('insufficient-balance', '--value', '66600')).code).toBe(0);
    expect((await failure('bank-timeout', '--pix-key', '+55 (11) 98765-4321')).code).toBe(0);
    const listed = await failure('--json');
    expect(JSON.parse(listed.stdout)).toEqual([
      { failure: 'key-not-found', pixKey: 'ninguem@example.com' },
      { failure: 'insufficient-balance', value: 66600 },
      { failure: 'bank-timeout', pixKey: '+55 (11) 98765-4321' },
    ]);
    expect(sb.log()).toMatch(/failure rule added: insufficient-balance for every cash-out of value 66600/);

    const cashout = (args: string[]) => runPaycli(['--base-url', sb.url, ...args, '--yes'], { env: home.env });
    const noKey = await cashout(CASHOUT_ARGS.map((a) => (a === 'Fulano@Example.com' ? 'Ninguem@example.com' : a)));
    expect(noKey.code, noKey.stderr).toBe(1);
    expect(noKey.stderr).toMatch(/Pix key not found/);
    const poor = await cashout(CASHOUT_ARGS.map((a) => (a === '1550' ? '66600' : a)));
    expect(poor.code, poor.stderr).toBe(1);
    expect(poor.stderr).toMatch(/Insufficient balance/);
    const phone = [
      'cashout',
      '--value',
      '1200',
      '--pix-key-type',
      'phone',
      '--pix-key',
      '+5511987654321',
      '--person-name',
      'Fulano de Tal',
      '--person-email',
      'fulano@example.com',
      '--person-phone',
      '11987654321',
    ];
    const timedOut = await runPaycli(['--json', '--base-url', sb.url, ...phone, '--yes'], { env: home.env });
    expect(timedOut.code, timedOut.stderr).toBe(0); // created, as the gateway answers it
    const id = (JSON.parse(timedOut.stdout) as { transactionId: number }).transactionId;
    await waitFor(
      () => receiver.received.some((r) => (r.json as { transactionId?: number; status?: string }).transactionId === id && (r.json as { status?: string }).status === 'failed'),
      10_000,
      'the failed postback',
    );
    const failed = receiver.received.find((r) => (r.json as { transactionId?: number }).transactionId === id && (r.json as { status?: string }).status === 'failed')!.json;
    expect(failed).toMatchObject({ object: 'transfer', status: 'failed', observation: "the recipient's bank did not answer in time (sandbox failure bank-timeout)" });
    expect(receiver.received.filter((r) => (r.json as { transactionId?: number }).transactionId === id).map((r) => (r.json as { status: string }).status)).toEqual([
      'created',
      'failed',
    ]);

    expect((await failure('--clear')).stdout).toBe('3 failure rules removed\n');
    const cleared = await failure();
    expect(cleared.stdout).toBe('');
    expect(cleared.stderr).toMatch(/no failure rules/);
    expect((await cashout(CASHOUT_ARGS.map((a) => (a === 'Fulano@Example.com' ? 'Ninguem@example.com' : a)))).code).toBe(0);
    for (const bad of [
      ['nope', '--value', '1'],
      ['bank-timeout'],
      ['bank-timeout', '--value', '1', '--pix-key', 'a@b.co'],
      ['bank-timeout', '--value', '0'],
      ['--clear', '--value', '1'],
    ]) {
      expect((await failure(...bad)).code, bad.join(' ')).toBe(2);
    }
  });
});

describe('failure rules from the start', () => {
  it('`paycli sandbox --failure` sets them as the sandbox starts; a rule that is not one is exit 2', async () => {
    const sb = await sandbox(['--failure', 'key-not-found:pix-key=Ninguem@example.com', '--failure', 'insufficient-balance:value=66600']);
    expect(sb.log()).toMatch(/2 failure rules \(paycli sandbox failure lists them\)/);
    const listed = await runPaycli(['--json', 'sandbox', 'failure', '--sandbox-url', sb.url], { env: home.env });
    expect(JSON.parse(listed.stdout)).toEqual([
      { failure: 'key-not-found', pixKey: 'Ninguem@example.com' },
      { failure: 'insufficient-balance', value: 66600 },
    ]);
    const person = { name: 'A', email: 'a@b.co', phone: '' };
    expect(await post(`${sb.url}/transaction/cashout`, { value: 100, pixKeyType: 2, pixKey: 'ninguem@example.com', person })).toEqual({
      status: 400,
      body: { message: 'Pix key not found' },
    });
    expect(await post(`${sb.url}/transaction/cashout`, { value: 66600, pixKeyType: 2, pixKey: 'a@b.co', person })).toEqual({
      status: 400,
      body: { message: 'Insufficient balance' },
    });
    for (const bad of ['key-not-found', 'nope:value=1', 'bank-timeout:value=0', 'bank-timeout:value=x', 'bank-timeout:pix-key=']) {
      const r = await runPaycli(['sandbox', '--port', '0', '--failure', bad], { env: home.env });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--failure: use <insufficient-balance\|key-not-found\|bank-timeout>:pix-key=<key> or <failure>:value=<cents>/);
    }
  });
});

describe('which sandbox the control subcommands act on', () => {
  it('--base-url, PAYCLI_BASE_URL and the profile name it like every other command; never 127.0.0.1:4010 when another was given', async () => {
    const sb = await sandbox();
    const id = async () => (JSON.parse((await runPaycli(['--json', '--base-url', sb.url, ...CASHIN_ARGS], { env: home.env })).stdout) as { transactionId: number }).transactionId;
    const byFlag = await runPaycli(['--base-url', sb.url, 'sandbox', 'pay', String(await id())], { env: home.env });
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(byFlag.stdout).toMatch(/created → paid/);
    const byEnv = await runPaycli(['sandbox', 'fail', String(await id())], { env: { ...home.env, PAYCLI_BASE_URL: sb.url } });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    const profileHome = makeHome();
    try {
      expect((await runPaycli(['config', 'set', 'base-url', sb.url, '--profile', 'local', '--create'], { env: profileHome.env })).code).toBe(0);
      const events = await runPaycli(['sandbox', 'events', '--json', '--profile', 'local'], { env: profileHome.env });
      expect(events.code, events.stderr).toBe(0);
      expect((JSON.parse(events.stdout) as unknown[]).length).toBeGreaterThan(0);
      const cancel = await runPaycli(['--profile', 'local', 'sandbox', 'cancel', String(await id())], { env: profileHome.env });
      expect(cancel.code, cancel.stderr).toBe(0);
    } finally {
      profileHome.cleanup();
    }
    // A gateway is not a sandbox: exit 5, and it is said.
    const gw = await recorder();
    const notSandbox = await runPaycli(['--base-url', gw.url, 'sandbox', 'pay', '1'], { env: home.env });
    expect(notSandbox.code, notSandbox.stderr).toBe(5);
    expect(notSandbox.stderr).toMatch(/without the sandbox's x-paycli-sandbox header: it is not a paycli sandbox/);
  });

  it('refuses the built-in sandbox and two different addresses (exit 2, nothing sent)', async () => {
    const builtIn = await runPaycli(['--base-url', 'sandbox', 'sandbox', 'pay', '1'], { env: home.env });
    expect(builtIn.code).toBe(2);
    expect(builtIn.stderr).toMatch(/--base-url is "sandbox", the built-in sandbox, which lives inside each command/);
    const gw = await recorder();
    const two = await runPaycli(['--base-url', gw.url, 'sandbox', 'events', '--sandbox-url', 'http://127.0.0.1:4010'], { env: home.env });
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/name two different sandboxes/);
    expect(gw.received).toHaveLength(0);
  });
});
