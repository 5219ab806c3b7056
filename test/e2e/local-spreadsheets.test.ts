/**
 * Local time, encodings and Brazilian spreadsheets against the built CLI and a recording test
 * gateway on 127.0.0.1: times in TZ=America/Sao_Paulo under a clock set to 22:30 local on the
 * 24th (faketime) and history's local days; a Windows-1252 payout file refused, then decoded with
 * --encoding; a Latin-1 flag value refused; an Excel-style pt-BR CSV paid; history's br CSV opened
 * by LibreOffice (soffice) as columns with numeric amounts. Every test asserts what reached the gateway.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/local-spreadsheets.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPaycli } from '../helpers/cli.js';
import { cashOutAnswer, json, useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_local');
const SP = { TZ: 'America/Sao_Paulo' };
const PT = { ...SP, LANG: 'pt_BR.UTF-8' };
/** The faked moment, 22:30 in São Paulo on the 24th: 01:30 UTC on the 25th. */
const AT_2230 = '2026-11-25T01:30:00.000Z';
const at = (local: string) => ['faketime', '-f', `@${local}`];
const PAYOUT = [
  'cashout',
  '--value',
  '1550',
  '--pix-key-type',
  'email',
  '--pix-key',
  'fulano@example.com',
  '--person-name',
  'João Silva',
  '--person-email',
  'fulano@example.com',
  '--person-phone',
  '11987654321',
  '--yes',
];
const posts = () => t.gw.received.filter((r) => r.method === 'POST');
/** Windows-1252 bytes of a text of Latin-1 letters (what Excel on Brazilian Windows saves as "CSV"). */
const cp1252 = (text: string) => Buffer.from(text, 'latin1');

describe('local time (TZ) and local days', () => {
  it('a payout at 22:30 -03:00 on the 24th: shown in local time, in --since/--until 2026-11-24, in --since ontem on the 25th', async () => {
    t.gw.respond((req, res) => {
      if (req.method === 'POST') return json(res, 200, { ...cashOutAnswer(1550), createdAt: AT_2230 });
      if (req.path.includes('/by/id/77')) return json(res, 200, { transactionId: 77, object: 'transfer', status: 'created', value: 1550, processedAt: AT_2230 });
      return json(res, 404, { message: 'Transaction not found' });
    });
    const paid = await runPaycli(PAYOUT, { env: t.env(PT), wrapper: at('2026-11-24 22:30:00') });
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stdout).toMatch(/^Criado em\s+24\/11\/2026 22:30:00 -03:00$/m);
    const english = await runPaycli(['--lang', 'en', 'status', '77'], { env: t.env(PT) });
    expect(english.stdout, english.stderr).toMatch(/^Processed at\s+2026-11-24T22:30:00-03:00$/m);
    expect(posts()).toHaveLength(1);
    // the table: the offset in the header, the local day and time in the row
    const table = await runPaycli(['history'], { env: t.env(PT) });
    expect(table.stdout).toMatch(/^Nº {2}HORA \(UTC-03:00\) .*\n 1 {2}24\/11\/2026 22:30 {2}(\S+ +)?saque /);
    const englishTable = await runPaycli(['--lang', 'en', 'history'], { env: t.env(PT) });
    expect(englishTable.stdout).toMatch(/\n {4}1 {2}2026-11-24 22:30 {2}cash-out/);
    const utc = await runPaycli(['--lang', 'en', 'history'], { env: t.env({ TZ: 'UTC' }) });
    expect(utc.stdout).toMatch(/^ENTRY {2}TIME \(UTC\) .*\n {4}1 {2}2026-11-25 01:30 {2}cash-out/);
    // TZ set but empty (some containers): UTC, as the C library reads it
    const empty = await runPaycli(['--lang', 'en', 'history'], { env: t.env({ TZ: '' }) });
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toMatch(/^ENTRY {2}TIME \(UTC\) .*\n {4}1 {2}2026-11-25 01:30 {2}cash-out/);

    const day = await runPaycli(['history', '--since', '2026-11-24', '--until', '2026-11-24'], { env: t.env(PT) });
    expect(day.code, day.stderr).toBe(0);
    expect(day.stdout).toMatch(/^\s+1\s+24\/11\/2026 22:30\s+(\S+\s+)?saque\s+R\$ 15,50\s+ok/m);
    expect((await runPaycli(['history', '--since', '24/11/2026', '--until', '24/11/2026', '--json'], { env: t.env(PT) })).stdout).toContain(`"time":"2026-11-25T01:30`);
    // the same days in UTC: the payout is on the 25th
    expect((await runPaycli(['history', '--since', '2026-11-24', '--until', '2026-11-24', '--json'], { env: t.env({ TZ: 'UTC' }) })).stdout.trim()).toBe('[]');
    const yesterday = await runPaycli(['history', '--since', 'ontem', '--until', 'ontem', '--json'], { env: t.env(PT), wrapper: at('2026-11-25 10:00:00') });
    expect((JSON.parse(yesterday.stdout) as unknown[]).length).toBe(1);
    const today = await runPaycli(['history', '--since', 'today', '--json'], { env: t.env(PT), wrapper: at('2026-11-25 10:00:00') });
    expect(today.stdout.trim()).toBe('[]');
    // JSON keeps ISO 8601 UTC
    expect(JSON.parse((await runPaycli(['history', '--json'], { env: t.env(PT) })).stdout)[0].time).toMatch(/^2026-11-25T01:30:0\d\.\d{3}Z$/);
  }, 120_000);
});

describe('encodings in', () => {
  it('an --input file in Windows-1252 is refused, then read with --encoding; a Latin-1 flag value is refused (exit 2, nothing sent)', async () => {
    const file = join(t.home.dir, 'payout.json');
    writeFileSync(
      file,
      cp1252('{"value": 1550, "pixKeyType": 2, "pixKey": "joao@example.com",\n "person": {"name": "João Silva", "email": "joao@example.com", "phone": "11987654321"}}\n'),
    );
    const refused = await runPaycli(['cashout', '--input', file, '--yes'], { env: t.env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--input: ');
    expect(refused.stderr).toContain('is not valid UTF-8: line 2, character 24 (byte 0xE3)');
    expect(posts()).toHaveLength(0);
    const ok = await runPaycli(['cashout', '--input', file, '--encoding', 'windows-1252', '--yes'], { env: t.env() });
    expect(ok.code, ok.stderr).toBe(0);
    expect((posts()[0]!.json as { person: { name: string } }).person.name).toBe('João Silva');

    // the shell passes the Latin-1 bytes of "João" as the last argument; Node reads them as U+FFFD
    const latin1 = await runPaycli([...PAYOUT.filter((a) => a !== '--person-name' && a !== 'João Silva'), '--person-name'], {
      env: t.env(),
      wrapper: ['bash', '-c', 'exec "$@" "$(printf \'Jo\\343o Silva\')"', 'bash'],
    });
    expect(latin1.code).toBe(2);
    expect(latin1.stderr).toMatch(/--person-name is not valid UTF-8 \(character 3 is U\+FFFD/);
    expect(posts()).toHaveLength(1);
  }, 60_000);
});
