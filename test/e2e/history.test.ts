/**
 * `paycli history` against the built CLI: filters in the database (--since/--until/--kind/--outcome/
 * --profile/--order-id/--by/--limit), the three formats (a table that fits 80 columns, JSON, CSV for
 * spreadsheets), on a ledger seeded through the import of an old journal and through real sends.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/history.test.ts.
 */
import { readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, runPaycli } from '../helpers/cli.js';
import { useGatewayFixture } from '../helpers/gateway.js';
import { seedOldJournal } from '../helpers/history-seed.js';
import { startTty } from '../helpers/tty.js';

const KEY = 'sk_live_HISTORY_0123456789abcdef';
const t = useGatewayFixture(KEY);

/** Seeds the data folder with an old journal (test/helpers/history-seed.ts). */
const seed = () => seedOldJournal(t.home.env.PAYCLI_DATA_DIR!);

const ids = async (...flags: string[]) => {
  const r = await runPaycli(['--json', 'history', ...flags], { env: t.env({ TZ: 'UTC' }) });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: number }[]).map((e) => e.id);
};

describe('paycli history', () => {
  it('who sent it: user, host and paycli version in json and csv, a BY column where it fits, --by user@host, user or @host', async () => {
    seed(); // 6 entries imported from the old journal: no run, so nobody known sent them
    expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
    const user = userInfo().username;
    const host = hostname();
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const doc = JSON.parse((await runPaycli(['--json', 'history', '--limit', 'all'], { env: t.env() })).stdout) as Record<string, unknown>[];
    expect(doc.map((e) => [e.id, e.user, e.host, e.version])).toEqual([
      [8, user, host, version],
      [7, user, host, version],
      ...[6, 5, 4, 3, 2, 1].map((id) => [id, undefined, undefined, undefined]),
    ]);
    const csv = (await runPaycli(['history', '--format', 'csv', '--limit', '3'], { env: t.env() })).stdout.split('\r\n');
    expect(csv[0]).toMatch(/,gateway,user,host,paycli_version,time_local$/);
    expect(csv[1]!.replace(/,[^,]+$/, '').endsWith(`,${user},${host},${version}`)).toBe(true);
    expect(csv[3]).toMatch(/^6,.*,sandbox,,,,[^,]+$/); // an imported entry: nobody recorded

    expect(await ids('--by', `${user}@${host}`)).toEqual([8, 7]);
    expect(await ids('--by', user)).toEqual([8, 7]);
    expect(await ids('--by', `@${host.toUpperCase()}`)).toEqual([8, 7]); // a host name without regard to case
    expect(await ids('--by', `${user}@`, '--kind', 'cashout')).toEqual([8]);
    expect(await ids('--by', `${user}x@${host}`)).toEqual([]);
    expect(await ids('--by', `@${host}.elsewhere`)).toEqual([]);
    for (const bad of ['@', ' ', '']) {
      const r = await runPaycli(['history', '--by', bad], { env: t.env() });
      expect(r.code, bad).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/--by: use user@host, user or @host/);
    }

    // a terminal wide enough: BY between the time and the kind; "?" for the imported entries
    const tty = startTty(['history', '--limit', '3'], t.env(), t.home.dir, { cols: 160, rows: 20 });
    try {
      expect(await tty.exitCode()).toBe(0);
      const lines = tty.screen().split('\n');
      const by = `${user}@${host}`;
      expect(lines[0]).toMatch(new RegExp(`^ENTRY {2}TIME \\(UTC\\) {8}BY {${by.length}}KIND +AMOUNT {2}OUTCOME +TO / FROM$`));
      expect(lines[1]).toMatch(new RegExp(`^ {4}8 {2}[0-9: -]{16} {2}${by.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} {2}cash-out +R\\$ 15,50 {2}ok +fulano@example\\.com$`));
      expect(lines[3]).toMatch(/^ {4}6 {2}[0-9: -]{16} {2}\? +cash-in\* +R\$ 50,00/);
    } finally {
      tty.kill();
    }
    // an 80-column pipe: BY only where the key still fits, never wider than 80
    for (const l of (await runPaycli(['history'], { env: t.env() })).stdout.trimEnd().split('\n')) expect(l.length).toBeLessThanOrEqual(80);
  });
});
