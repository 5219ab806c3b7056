import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, useGatewayFixture } from '../helpers/gateway.js';
import { seedOldJournal } from '../helpers/history-seed.js';

const KEY = 'sk_live_HISTORY_0123456789abcdef';
const t = useGatewayFixture(KEY);
const withValue = (args: string[], cents: number) => args.map((a, i) => (args[i - 1] === '--value' ? String(cents) : a));

/** Seeds the data folder with an old journal (test/helpers/history-seed.ts). */
const seed = () => seedOldJournal(t.home.env.PAYCLI_DATA_DIR!);

const ids = async (...flags: string[]) => {
  const r = await runPaycli(['--json', 'history', ...flags], { env: t.env({ TZ: 'UTC' }) });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: number }[]).map((e) => e.id);
};

describe('paycli history', () => {
  it('filters in the ledger: since, until, kind, outcome, profile, order reference, limit', async () => {
    seed();
    expect(await ids('--limit', 'all')).toEqual([6, 5, 4, 3, 2, 1]);
    expect(await ids()).toEqual([6, 5, 4, 3, 2, 1]);
    expect(await ids('--limit', '2')).toEqual([6, 5]);
    expect(await ids('--since', '7d')).toEqual([6, 5, 4]);
    expect(await ids('--since', '30d', '--until', '4d')).toEqual([4, 3, 2]);
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    expect(await ids('--since', tenDaysAgo, '--until', tenDaysAgo)).toEqual([3]); // a date: that whole local day (TZ=UTC here)
    expect(await ids('--kind', 'cashin')).toEqual([6, 2]);
    expect(await ids('--kind', 'cashout', '--outcome', 'ok')).toEqual([1]);
    expect(await ids('--outcome', 'unknown')).toEqual([4]);
    expect(await ids('--outcome', 'not_sent')).toEqual([5]);
    expect(await ids('--profile', 'prod')).toEqual([3, 2]);
    expect(await ids('--order-id', 'order-4')).toEqual([4]);
    expect(await ids('--order-id', 'nope')).toEqual([]);
    for (const bad of [
      ['--since', 'anteontem'],
      ['--csv-dialect', 'br'],
      ['--limit', '0'],
      ['--kind', 'pix'],
      ['--outcome', 'maybe'],
      ['--format', 'xml'],
      ['--json', '--format', 'csv'],
    ]) {
      const r = await runPaycli(['history', ...bad], { env: t.env() });
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
    const none = await runPaycli(['history', '--kind', 'cashin', '--outcome', 'refused'], { env: t.env() });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/no payment in the ledger matches/);
  });

  it('the table fits 80 columns: entry, time, kind (* sandbox), amount, outcome, key or payer', async () => {
    seed();
    const h = await runPaycli(['history'], { env: t.env() });
    expect(h.code).toBe(0);
    const lines = h.stdout.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(7);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^ENTRY {2}TIME \(UTC\) {8}KIND {6}\s*AMOUNT {2}OUTCOME {3}TO \/ FROM$/);
    expect(lines[1]).toMatch(/^ {4}6 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}cash-in\* +R\$ 50,00 {2}ok {8}Beltrana$/);
    expect(lines[3]).toMatch(/^ {4}4 .* cash-out +R\$ 30,00 {2}unknown {3}b@example\.com$/);
    expect(lines[6]).toMatch(/^ {4}1 .* cash-out +R\$ 1\.234,56 {2}ok {8}old@example\.com$/);
    expect(h.stderr).toMatch(/^› imported 6 payment\(s\) from .*\n› \* sent to the built-in sandbox: no money moved\n$/);
  });

  it('--format json (= --json) has every field; --format csv is for spreadsheets', async () => {
    seed();
    const j = await runPaycli(['history', '--format', 'json', '--order-id', 'order-1'], { env: t.env() });
    const doc = JSON.parse(j.stdout) as Record<string, unknown>[];
    expect(doc).toEqual([
      expect.objectContaining({
        id: 1,
        kind: 'cashout',
        value: 123456,
        pixKeyType: 2,
        pixKey: 'old@example.com',
        recipient: 'Old',
        orderId: 'order-1',
        transactionId: 11,
        outcome: 'ok',
        completed: true,
        profile: 'default',
        target: 'https://gw.example/transaction/cashout',
        sandbox: false,
        allowDuplicate: false,
      }),
    ]);
    expect(doc[0]).not.toHaveProperty('fingerprint');
    expect(JSON.parse((await runPaycli(['--json', 'history', '--order-id', 'order-1'], { env: t.env() })).stdout)).toEqual(doc);

    const c = await runPaycli(['history', '--format', 'csv', '--kind', 'cashout'], { env: t.env() });
    expect(c.code).toBe(0);
    const rows = c.stdout.split('\r\n');
    expect(rows.pop()).toBe('');
    expect(rows[0]).toBe(
      'entry,time_utc,kind,sandbox,profile,value_cents,amount_brl,outcome,outcome_recorded,pix_key_type,pix_key,recipient,payer,product,order_id,batch_id,batch_row,transaction_id,status,http_status,message,allow_duplicate,resolved_by,resolved_time_utc,note,gateway,user,host,paycli_version,time_local',
    );
    expect(rows).toHaveLength(5);
    expect(rows[4]).toMatch(
      /^1,\d{4}-[\d-]+T[\d:.]+Z,cashout,false,default,123456,"1234,56",ok,true,email,old@example\.com,Old,,,order-1,,,11,,,,false,,,,https:\/\/gw\.example\/transaction\/cashout,,,,\d{4}-[\d-]+T[\d:]+[+-]\d\d:\d\d$/,
    );
    // a key and a name that a spreadsheet would run as formulas; quotes and commas quoted
    expect(rows[3]).toContain(`,phone,'+5511987654321,'=cmd(),`);
    expect(rows[3]).toContain(`,400,"pixKey, ""inválida""",`);
    expect(rows[2]).toMatch(/^4,.*,3000,"30,00",unknown,false,/);
  });

  it('payments sent now are listed with the order of sending; the key never appears', async () => {
    expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    t.gw.respond((_req, res) => json(res, 400, { message: `pixKey inválida ${KEY}` }));
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 123456), '--yes'], { env: t.env() })).code).toBe(1);
    const h = await runPaycli(['history'], { env: t.env() });
    expect(h.stdout).toMatch(
      /^ENTRY.*\n {4}3 .* cash-out +R\$ 1\.234,56 {2}refused {2}fulano@example\.com\n {4}2 .* cash-out +R\$ 15,50 {2}ok {7}fulano@example\.com\n {4}1 .* cash-in +R\$ 10,00 {2}ok {7}Fulano de Tal\n$/,
    );
    expect(h.stderr).toBe('');
    const all = (await runPaycli(['--json', 'history'], { env: t.env() })).stdout + (await runPaycli(['history', '--format', 'csv'], { env: t.env() })).stdout;
    expect(all).not.toContain(KEY);
    expect(all).toContain('[redacted]');
  });

  it('an empty history: a notice on stderr, [] with --json, the header alone in csv; no ledger created', async () => {
    const h = await runPaycli(['history'], { env: t.env() });
    expect(h.code).toBe(0);
    expect(h.stdout).toBe('');
    expect(h.stderr).toMatch(/nothing sent from this machine yet/);
    expect(JSON.parse((await runPaycli(['--json', 'history'], { env: t.env() })).stdout)).toEqual([]);
    expect((await runPaycli(['history', '--format', 'csv'], { env: t.env() })).stdout).toMatch(/^entry,time_utc,.*,gateway,user,host,paycli_version,time_local\r\n$/);
  });
});
