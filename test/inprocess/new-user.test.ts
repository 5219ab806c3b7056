/**
 * What a new user trips on, paycli run in process through its run context (README "Configuration and
 * profiles", "Output for scripts"): a profile that names no gateway is the sandbox; every
 * `--profile` is checked the same way; reconcile and lookups work from flags and environment
 * alone; `history --json` is compact in a pipe; messages say only what is true, once.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import QRCode from 'qrcode';
import { crc16 } from '../../src/pix/brcode.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, lookupGateway, useGatewayFixture } from '../helpers/gateway.js';
import { startSandboxProcess } from '../helpers/sandbox.js';

const KEY = 'sk_test_new_user_0123456789';
const t = useGatewayFixture(KEY);
const writeConfig = (profiles: Record<string, Record<string, string>>) => {
  mkdirSync(t.home.env.PAYCLI_CONFIG_DIR!, { recursive: true, mode: 0o700 });
  writeFileSync(join(t.home.env.PAYCLI_CONFIG_DIR!, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
};
const readConfig = () => JSON.parse(readFileSync(join(t.home.env.PAYCLI_CONFIG_DIR!, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, string>> };

describe('1. a profile that names no gateway is the built-in sandbox', () => {
  it('after `config set timeout 10000` on a fresh home, a cash-out runs in the sandbox with its notice', async () => {
    const set = await runPaycli(['config', 'set', 'timeout', '10000'], { env: t.home.env });
    expect(set.code, set.stderr).toBe(0);
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.home.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/built-in sandbox; no money moves/);
    expect(r.stdout).toMatch(/Cash-out created \(sandbox: no money moves\)/);
  });
  it('a profile "prod" with a base URL does not make the default profile an error; an API key without a base URL does', async () => {
    const set = await runPaycli(['config', 'set', 'base-url', t.gw.url, '--profile', 'prod', '--create'], { env: t.home.env });
    expect(set.code, set.stderr).toBe(0);
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.home.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/no money moves/);
    const keyed = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: { ...t.home.env, PAYCLI_API_KEY: KEY } });
    expect(keyed.code).toBe(2);
    expect(keyed.stdout).toBe('');
    expect(keyed.stderr).toMatch(/^error: no `base-url` for cash-outs \(profile "default"\), while PAYCLI_API_KEY is set/);
    expect(t.gw.received).toHaveLength(0);
  });
});

describe('2. every --profile is checked the same way', () => {
  it('config set on a profile that does not exist needs --create: exit 2, did you mean, nothing changed', async () => {
    writeConfig({ prod: { 'base-url': t.gw.url } });
    const r = await runPaycli(['config', 'set', 'timeout', '5000', '--profile', 'prdo'], { env: t.home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown profile "prdo" \(--profile\): did you mean prod\?; nothing was changed\nhint: to make a new profile "prdo", add --create/);
    expect(Object.keys(readConfig().profiles)).toEqual(['prod']);
    const created = await runPaycli(['config', 'set', 'timeout', '5000', '--profile', 'staging', '--create'], { env: t.home.env });
    expect(created.code, created.stderr).toBe(0);
    expect(readConfig().profiles.staging).toEqual({ timeout: '5000' });
  });
  it('history, config list and config get refuse an unknown profile (exit 2) as a payment does', async () => {
    writeConfig({ prod: { 'base-url': t.gw.url } });
    for (const args of [
      ['history', '--profile', 'prdd'],
      ['config', 'list', '--profile', 'staging'],
      ['config', 'get', 'timeout', '--profile', 'prdo'],
      ['config', 'unset', 'timeout', '--profile', 'prdo'],
      ['balance', '--profile', 'prdo'],
    ]) {
      const r = await runPaycli(args, { env: t.home.env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^error: unknown profile "\w+" \(--profile\)/);
      expect(r.stderr).not.toMatch(/sandbox|no payment/);
    }
    const near = await runPaycli(['history', '--profile', 'prdd'], { env: t.home.env });
    expect(near.stderr).toContain('did you mean prod?');
  });
  it('history --profile accepts a profile that is only in the ledger', async () => {
    writeConfig({ old: { 'base-url': t.gw.url } });
    expect((await runPaycli(['--profile', 'old', ...CASHOUT_ARGS, '--yes'], { env: t.env({ PAYCLI_BASE_URL: '' }) })).code).toBe(0);
    writeConfig({ prod: { 'base-url': t.gw.url } });
    const r = await runPaycli(['--json', 'history', '--profile', 'old'], { env: t.home.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});

describe('3. reconcile and lookups from flags and environment alone', () => {
  it('no config file: reconcile settles a cash-out sent with PAYCLI_BASE_URL', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    l.next.push('hang-after-create');
    l.nextGet.push(...Array<'reset'>(30).fill('reset')); // the lookups after the time-out fail: the outcome stays unknown
    const sentAt = Date.now();
    const sent = await runPaycli(['--timeout', '300', ...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(sent.code, sent.stderr).toBe(4);
    l.nextGet.length = 0;
    // at once (perhaps still in flight) and once the request's time is surely over: never "unknown profile"
    const early = await runPaycli(['--json', 'reconcile'], { env: t.env() });
    expect(early.stdout + early.stderr).not.toMatch(/unknown profile/);
    while (Date.now() - sentAt < 700) await new Promise((r) => setTimeout(r, 100));
    const r = await runPaycli(['--json', 'reconcile'], { env: t.env() });
    expect(r.stdout + r.stderr).not.toMatch(/unknown profile/);
    expect(r.code, r.stderr).toBe(0);
    const h = await runPaycli(['--json', 'history'], { env: t.env() });
    expect((JSON.parse(h.stdout) as { outcome: string }[]).map((e) => e.outcome)).toEqual(['ok']);
    const st = await runPaycli(['status', String(l.held[0]!.transactionId)], { env: t.env() });
    expect(st.code, st.stderr).toBe(0);
    const bal = await runPaycli(['balance'], { env: t.env() });
    expect(bal.code, bal.stderr).toBe(0);
  });
});

describe('4. history --json in a pipe', () => {
  it('is one compact line, as every other command', async () => {
    for (const cents of ['1550', '1660']) expect((await runPaycli([...CASHOUT_ARGS.map((a) => (a === '1550' ? cents : a)), '--yes'], { env: t.env() })).code).toBe(0);
    const r = await runPaycli(['history', '--json'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(2);
    expect(r.stdout).not.toMatch(/\n {2}/);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });
});

describe('6. no noisy or wrong words', () => {
  it('config unset of a key never set says so', async () => {
    const r = await runPaycli(['config', 'unset', 'timeout'], { env: t.home.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/timeout is not set in profile "default": nothing to remove/);
    expect(r.stderr).not.toMatch(/removed/);
  });
  it('--allow-insecure-http given to config set base-url is remembered', async () => {
    const set = await runPaycli(['config', 'set', 'base-url', 'http://gw.example.invalid', '--allow-insecure-http'], { env: t.home.env });
    expect(set.code, set.stderr).toBe(0);
    expect(readConfig().profiles.default!['allow-insecure-http']).toBe('true');
    const dry = await runPaycli([...CASHOUT_ARGS, '--dry-run'], { env: { ...t.home.env, PAYCLI_API_KEY: KEY } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).not.toMatch(/plain http/);
  });
  it('the keyless loopback notice is said once when a lookup follows', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const r = await runPaycli([...CASHOUT_ARGS, '--order-id', 'pedido-once-1', '--yes'], { env: t.env({ PAYCLI_API_KEY: undefined as unknown as string }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/without a credential/g)).toHaveLength(1);
  });
  it('the sandbox notice is not printed on a pure validation failure', async () => {
    const r = await runPaycli(
      [
        'cashout',
        '--value',
        '0',
        '--pix-key-type',
        'email',
        '--pix-key',
        'x@example.com',
        '--person-name',
        'A B',
        '--person-email',
        'x@example.com',
        '--person-phone',
        '11987654321',
        '--yes',
      ],
      { env: t.home.env },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/built-in sandbox/);
  });
  it('a cash-out prints the status word status and postbacks use (created), not Pending', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Status\s+created$/m);
    expect(r.stdout).not.toMatch(/Pending/);
    // history says the same word (the ledger keeps the gateway's digit)
    const h = await runPaycli(['--json', 'history'], { env: t.env() });
    expect((JSON.parse(h.stdout) as { status: string }[]).map((e) => e.status)).toEqual(['created']);
    const csv = await runPaycli(['history', '--format', 'csv'], { env: t.env() });
    expect(csv.stdout).toMatch(/,created,/);
  });
  it('a short API key is masked, not shredded, by config list', async () => {
    const set = await runPaycli(['config', 'set', 'api-key'], { env: t.home.env, input: 'key' });
    expect(set.code, set.stderr).toBe(0);
    const r = await runPaycli(['config', 'list'], { env: t.home.env });
    expect(r.stdout).toBe('api-key=••••\n');
  });
  it('a malformed answer later found by lookup does not say the answer was lost', async () => {
    const l = lookupGateway();
    t.gw.respond((req, res) => {
      if (req.method === 'GET') return l.responder(req, res);
      void l.responder(req, { writeHead: () => undefined, end: () => undefined } as never); // created and held
      return json(res, 200, { unexpected: true });
    });
    const r = await runPaycli([...CASHOUT_ARGS, '--order-id', 'pedido-malformed-1', '--yes'], { env: t.env() });
    expect(r.stdout).toMatch(/Cash-out created \(its answer was outside the interface; found at the gateway by its order reference\)/);
    expect(r.stdout).not.toMatch(/lost/);
  });
  it('sandbox ping without a URL, to a sandbox without --webhook-url, speaks of the command', async () => {
    const sb = await startSandboxProcess([], t.home.env);
    try {
      const r = await runPaycli(['sandbox', 'ping', '--sandbox-url', sb.url], { env: t.home.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: no URL to ping: the sandbox at .* was started without --webhook-url\nhint: name one: paycli sandbox ping http/);
      expect(r.stderr).not.toMatch(/send \{"url"/);
    } finally {
      await sb.stop();
    }
  });
});

describe("7. phones follow Anatel's numbering plan", () => {
  const withPhone = (phone: string) => CASHOUT_ARGS.map((a, i) => (CASHOUT_ARGS[i - 1] === '--person-phone' ? phone : a));
  it('a 10-digit number whose subscriber part starts with 6-9 or 0-1 is refused (exit 2, nothing sent); 2-5 is a fixed line', async () => {
    for (const phone of ['1187654321', '1117654321']) {
      const r = await runPaycli([...withPhone(phone), '--yes'], { env: t.env() });
      expect(r.code, phone).toBe(2);
      expect(r.stderr).toMatch(/person-phone.*fixed line, whose number after the DDD starts with 2-5/);
    }
    expect(t.gw.received).toHaveLength(0);
    const ok = await runPaycli([...withPhone('(11) 3456-7890'), '--yes'], { env: t.env() });
    expect(ok.code, ok.stderr).toBe(0);
    expect((t.gw.received[0]!.json as { person: { phone: string } }).person.phone).toBe('1134567890');
  });
});

describe('8. BR Codes', () => {
  const BCB = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
  const o = (id: string, v: string) => `${id}${String(v.length).padStart(2, '0')}${v}`;
  const withCrc = (body: string) => `${body}6304${crc16(`${body}6304`)}`;
  it('brcode decode --image reads grey on grey and light modules left transparent', async () => {
    const images: Array<[string, { dark: string; light: string }]> = [
      ['grey-on-grey', { dark: '#7a7a7aff', light: '#8c8c8cff' }],
      ['dark-grey-on-grey', { dark: '#303030ff', light: '#404040ff' }],
      ['transparent-light', { dark: '#000000ff', light: '#00000000' }],
      ['transparent-light-grey', { dark: '#555555ff', light: '#55555500' }],
    ];
    for (const [name, color] of images) {
      const file = join(t.home.dir, `${name}.png`);
      writeFileSync(file, await QRCode.toBuffer(BCB, { type: 'png', margin: 4, scale: 6, color }));
      const r = await runPaycli(['--json', 'brcode', 'decode', '--image', file], { env: t.home.env });
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).brCode).toBe(BCB);
    }
  });
  it('brcode create: 11 bare digits that are a CPF and a mobile need --key-type (exit 2); with it, that type', async () => {
    const amb = await runPaycli(['brcode', 'create', '--key', '11987654374', '--name', 'Fulano', '--city', 'Recife'], { env: t.home.env });
    expect(amb.code).toBe(2);
    expect(amb.stdout).toBe('');
    expect(amb.stderr).toMatch(/is both a valid CPF and a valid mobile number; say which with --key-type cpf or --key-type phone/);
    const phone = await runPaycli(['--json', 'brcode', 'create', '--key', '11987654374', '--key-type', 'phone', '--name', 'Fulano', '--city', 'Recife'], { env: t.home.env });
    expect(JSON.parse(phone.stdout).key).toBe('+5511987654374');
    const cpf = await runPaycli(['--json', 'brcode', 'create', '--key', '11987654374', '--key-type', 'cpf', '--name', 'Fulano', '--city', 'Recife'], { env: t.home.env });
    expect(JSON.parse(cpf.stdout).key).toBe('11987654374');
    // not ambiguous: only a mobile, or written as a CPF
    expect(JSON.parse((await runPaycli(['--json', 'brcode', 'create', '--key', '11987654321', '--name', 'F', '--city', 'R'], { env: t.home.env })).stdout).key).toBe(
      '+5511987654321',
    );
  });
  it('brcode decode: an amount of more than 13 characters, and a merchant account with both a key and a URL, are errors', async () => {
    const head = o('00', '01');
    const tail = o('52', '0000') + o('53', '986');
    const rest = o('58', 'BR') + o('59', 'Fulano de Tal') + o('60', 'BRASILIA') + o('62', o('05', '***'));
    const longAmount = withCrc(head + o('26', o('00', 'br.gov.bcb.pix') + o('01', '123e4567-e12b-12d1-a456-426655440000')) + tail + o('54', '00000000010.00') + rest);
    const a = await runPaycli(['--json', 'brcode', 'decode', longAmount], { env: t.home.env });
    expect(a.code).toBe(2);
    expect(JSON.parse(a.stdout).problems.map((p: { rule: string }) => p.rule)).toEqual(['amountLength']);
    const both = withCrc(head + o('26', o('00', 'br.gov.bcb.pix') + o('01', '123e4567-e12b-12d1-a456-426655440000') + o('25', 'pix.example.com/qr/1')) + tail + rest);
    const b = await runPaycli(['brcode', 'decode', both], { env: t.home.env });
    expect(b.code).toBe(2);
    expect(b.stdout).toMatch(/error: its Pix merchant account has both a key \(01\) and a location URL \(25\)/);
  });
});
