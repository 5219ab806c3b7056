/**
 * Shaping the output (docs/output-for-scripts.md "Shaping the output"), in process through the run
 * context against a real test gateway on 127.0.0.1: `--json FIELDS`, `--jq`, `--template`, a bad
 * expression refused before anything is sent, a filter that fails after money moved (exit 6, the
 * whole result on stderr), history per entry, the same JSON in Portuguese, and every document
 * checked against its JSON Schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { schemaFiles } from '../../src/cli/output/document-schemas.js';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { CASHIN_OK, CASHOUT_OK, json, lookupGateway, useGatewayFixture } from '../helpers/gateway.js';
import { runInProcess } from '../helpers/run.js';

const KEY = 'sk_test_output_0123456789';
const t = useGatewayFixture(KEY);
const run = (args: string[], env: Record<string, string> = {}) => runInProcess(args, { env: t.env(env) });
const posts = () => t.gw.received.filter((r) => r.method === 'POST');

/** The validator of command `name`'s document, from its JSON Schema file (src/cli/output/document-schemas.ts). */
function validator(name: string) {
  const ajv = new Ajv2020({ strict: false });
  return ajv.compile(JSON.parse(schemaFiles()[`${name}.schema.json`]!));
}

describe('--json FIELDS', () => {
  it('`paycli --json transactionId,status cashout ... --yes` prints only those fields', async () => {
    const r = await run(['--json', 'transactionId,status', ...CASHOUT_ARGS, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('{"transactionId":77,"status":"created"}\n');
    expect(posts()).toHaveLength(1);
  });

  it('`paycli --json cashout ...` is still the whole document: a command name is never a field list', async () => {
    const r = await run(['--json', ...CASHOUT_ARGS, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ kind: 'cashout', transactionId: 77, gross: 1550, tax: 65, liquid: 1485, status: 'created', statusCode: 0, sandbox: false, ledgerEntry: 1 });
    expect(doc.gateway).toEqual(CASHOUT_OK);
    expect(validator('cashout')(doc)).toBe(true);
  });

  it('after the command, and as --json=FIELDS', async () => {
    const r = await run([...CASHOUT_ARGS, '--yes', '--json=tax,liquid']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ tax: 65, liquid: 1485 });
  });

  it('an unknown field is exit 2 naming the fields there are, before anything is sent', async () => {
    const r = await run(['--json', 'transactionId,nosuch', ...CASHOUT_ARGS, '--yes']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'usage', field: '--json' });
    expect(r.stderr).toContain('unknown field nosuch');
    expect(r.stderr).toContain('transactionId, orderId, gross, tax');
    expect(t.gw.received).toHaveLength(0);
  });
});

describe('--jq', () => {
  it('filters the document with jq; strings come out raw', async () => {
    const r = await run([...CASHIN_ARGS, '--jq', '.qrCode']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${CASHIN_OK.qrCode}\n`);
    const n = await run([...CASHOUT_ARGS, '--yes', '--allow-duplicate', '--jq', '{tax, liquid, paid: (.status == "paid")}']);
    expect(n.code, n.stderr).toBe(0);
    expect(JSON.parse(n.stdout)).toEqual({ tax: 65, liquid: 1485, paid: false });
  });

  it("an expression that does not compile is exit 2 with jq's message, nothing sent", async () => {
    for (const expr of ['.tax |', 'nosuchfn(1)', '{']) {
      const r = await run([...CASHOUT_ARGS, '--yes', '--jq', expr]);
      expect(r.code, expr).toBe(2);
      expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'usage', field: '--jq' });
      expect(r.stderr).toMatch(/--jq: the expression does not compile: .*nothing was done/);
    }
    expect(t.gw.received).toHaveLength(0);
  });

  it('a filter that fails after the cash-out was created: exit 6, the whole result on stderr, never hidden', async () => {
    const r = await run([...CASHOUT_ARGS, '--yes', '--jq', '.tax | error("boom")']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    const lines = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.kind === 'cashout')).toMatchObject({ transactionId: 77, status: 'created', gross: 1550 });
    expect(lines.at(-1).error).toMatchObject({ code: 'needs_attention' });
    expect(lines.at(-1).error.message).toMatch(/--jq failed on the result \(boom\), but the gateway created cash-out 77/);
    expect(posts()).toHaveLength(1);
  });

  it('on a command that moved no money, a failing filter is exit 2', async () => {
    const r = await run(['config', 'path', '--jq', 'error("no")']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jq failed on the result: no/);
  });
});

describe('--template', () => {
  it('renders the document with a Liquid template; reais formats cents', async () => {
    const r = await run([...CASHOUT_ARGS, '--yes', '--template', '{{ transactionId }} {{ status }} {{ gross | reais }} net {{ liquid | reais }}']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('77 created R$ 15,50 net R$ 14,85\n');
  });

  it('a template that does not parse, or names a field the document lacks, is exit 2 with nothing sent', async () => {
    const bad = await run([...CASHOUT_ARGS, '--yes', '--template', '{% if %}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--template: the template does not parse');
    const unknown = await run([...CASHOUT_ARGS, '--yes', '--template', '{{ transactionID }}']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown field transactionID');
    const both = await run([...CASHOUT_ARGS, '--yes', '--template', '{{ tax }}', '--jq', '.tax']);
    expect(both.code).toBe(2);
    expect(t.gw.received).toHaveLength(0);
  });
});

describe('history, entry by entry', () => {
  /** Three cash-outs: the second answered 500 (its outcome unknown). */
  async function threePayments(): Promise<void> {
    let n = 0;
    t.gw.respond((req, res) => {
      if (req.method === 'GET') return json(res, 404, { message: 'Transaction not found' });
      n++;
      if (n === 2) return json(res, 500, { message: 'boom' });
      return json(res, 200, { ...CASHOUT_OK, transactionId: 100 + n });
    });
    for (const ref of ['pedido-1', 'pedido-2', 'pedido-3']) await run([...CASHOUT_ARGS, '--yes', '--allow-duplicate', '--order-id', ref]);
  }

  it('--jq with .[] runs on each entry; --template renders each; the JSON is the same in Portuguese', async () => {
    await threePayments();
    const unknown = await run(['history', '--jq', '.[] | select(.outcome=="unknown") | .orderId']);
    expect(unknown.code, unknown.stderr).toBe(0);
    expect(unknown.stdout).toBe('pedido-2\n');
    const all = await run(['history', '--jq', '.[] | .orderId']);
    expect(all.stdout).toBe('pedido-3\npedido-2\npedido-1\n');
    const count = await run(['history', '--jq', 'length']);
    expect(count.stdout).toBe('3\n');
    const tpl = await run(['history', '--template', '{{ id }} {{ orderId }} {{ value | reais }} {{ outcome }}']);
    expect(tpl.code, tpl.stderr).toBe(0);
    expect(tpl.stdout).toBe('3 pedido-3 R$ 15,50 ok\n2 pedido-2 R$ 15,50 unknown\n1 pedido-1 R$ 15,50 ok\n');
    const en = await run(['history', '--json', 'id,orderId,status,statusCode,outcome']);
    const pt = await run(['history', '--json', 'id,orderId,status,statusCode,outcome'], { LANG: 'pt_BR.UTF-8' });
    expect(pt.stdout).toBe(en.stdout);
    expect(JSON.parse(en.stdout)[0]).toEqual({ id: 3, orderId: 'pedido-3', status: 'created', statusCode: 0, outcome: 'ok' });
    const ptTpl = await run(['history', '--template', '{{ id }} {{ outcome }}'], { LANG: 'pt_BR.UTF-8' });
    expect(ptTpl.stdout).toBe('3 ok\n2 unknown\n1 ok\n');
    const whole = await run(['history', '--json']);
    const valid = validator('history');
    for (const e of JSON.parse(whole.stdout)) expect(valid(e), JSON.stringify(valid.errors)).toBe(true);
  });

  it('--format csv cannot be shaped: exit 2', async () => {
    const r = await run(['history', '--format', 'csv', '--jq', '.[]']);
    expect(r.code).toBe(2);
  });
});

describe('every document matches its JSON Schema', () => {
  it('cash-in, status, balance, dry run, config, completion', async () => {
    const ci = await run(['--json', ...CASHIN_ARGS]);
    expect(ci.code, ci.stderr).toBe(0);
    expect(validator('cashin')(JSON.parse(ci.stdout))).toBe(true);
    const dry = await run(['--json', ...CASHOUT_ARGS, '--dry-run']);
    expect(validator('cashout')(JSON.parse(dry.stdout))).toBe(true);
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.held.push({ transactionId: 9029, orderId: 'o-1', object: 'transfer', status: 'paid', value: 1550 });
    const st = await run(['--json', 'status', '9029']);
    expect(st.code, st.stderr).toBe(0);
    const doc = JSON.parse(st.stdout);
    expect(doc).toMatchObject({ kind: 'cashout', status: 'paid', statusCode: 1, value: 1550 });
    expect(validator('status')(doc)).toBe(true);
    t.gw.respond((_req, res) => json(res, 200, { balance: 100, retention: 0 }));
    const bal = await run(['--json', 'balance']);
    expect(JSON.parse(bal.stdout)).toEqual({ balance: 100, retention: 0, toAnticipate: null, finalBalance: null, gateway: { balance: 100, retention: 0 } });
    expect(validator('balance')(JSON.parse(bal.stdout))).toBe(true);
    const path = await run(['--json', 'config', 'path']);
    expect(validator('config-path')(JSON.parse(path.stdout))).toBe(true);
    const comp = await run(['--json', 'completion', 'bash']);
    expect(comp.code, comp.stderr).toBe(0);
    expect(validator('completion')(JSON.parse(comp.stdout))).toBe(true);
  });

  it('the files the build ships in schemas/ are these schemas', () => {
    const dir = join(__dirname, '../../schemas');
    for (const [name, text] of Object.entries(schemaFiles())) {
      let shipped: string;
      try {
        shipped = readFileSync(join(dir, name), 'utf8');
      } catch {
        continue; // not built yet (`npm run test:quick` before a build); `npm test` builds first
      }
      expect(shipped, name).toBe(text);
    }
  });
});
