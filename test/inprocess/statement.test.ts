/**
 * `paycli history --format ofx` run in process (test/helpers/run.ts): an OFX 1.0.2 statement that validates
 * against the OFX DTD (libofx's copy of the OFX 1.6 DTD, Debian package `ofx`, checked by OpenSP's
 * `onsgmls`) and that libofx (`ofxdump`, what GnuCash and other importers use) reads: one STMTTRN
 * per settled payment, amounts signed, FITID the same in every export, a period by local days,
 * Windows-1252 bytes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, lookupGateway, useGatewayFixture } from '../helpers/gateway.js';

const KEY = 'sk_live_STATEMENT_0123456789abcdef';
const t = useGatewayFixture(KEY);
const SP = { TZ: 'America/Sao_Paulo' };
const DTD = '/usr/share/libofx7/libofx/dtd';

/** The statement's bytes (stdout as Windows-1252), from a paycli run with its stdout kept as bytes. */
function exportOfx(args: string[]): { bytes: Buffer; stderr: string } {
  const r = spawnSync(process.execPath, [join(__dirname, '../../bin/paycli.cjs'), 'history', '--format', 'ofx', ...args], {
    env: { ...process.env, ...t.env(SP), LANG: 'C.UTF-8' },
  });
  expect(r.status, r.stderr.toString()).toBe(0);
  return { bytes: r.stdout, stderr: r.stderr.toString() };
}

/** Validates the SGML body (after the OFX header) against the OFX DTD; returns onsgmls's errors. */
function validate(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  const file = join(t.home.dir, 'body.sgml');
  writeFileSync(file, Buffer.from(text.slice(text.indexOf('<OFX>')), 'latin1'));
  // OpenSP's own SGML declaration (libofx's opensp.dcl describes ASCII only), the bytes read as Windows-1252
  const r = spawnSync('onsgmls', ['-s', join(DTD, 'ofx160.dtd'), file], { encoding: 'utf8', env: { ...process.env, SP_CHARSET_FIXED: '1', SP_ENCODING: 'WINDOWS-1252' } });
  return `${r.status}${r.stderr}`;
}

const withValue = (args: string[], cents: number) => args.map((a, i) => (args[i - 1] === '--value' ? String(cents) : a));

describe('paycli history --format ofx', () => {
  it('settled payments only, signed, valid against the OFX DTD, read by libofx; FITIDs stable across exports', async () => {
    const l = lookupGateway();
    t.gw.respond(l.responder);
    const name = ['--person-name', 'José Conceição & Filhos <ME>'];
    const co = await runPaycli(
      [...withValue(CASHOUT_ARGS, 12345).filter((_, i, a) => a[i] !== '--person-name' && a[i - 1] !== '--person-name'), ...name, '--order-id', 'out-1', '--yes'],
      { env: t.env(SP) },
    );
    expect(co.code, co.stderr).toBe(0);
    const paidIn = await runPaycli([...CASHIN_ARGS, '--order-id', 'in-paid', '--json'], { env: t.env(SP) });
    const unpaidIn = await runPaycli([...CASHIN_ARGS, '--order-id', 'in-unpaid'], { env: t.env(SP) });
    expect([paidIn.code, unpaidIn.code]).toEqual([0, 0]);
    const paidId = (JSON.parse(paidIn.stdout) as { transactionId: number }).transactionId;
    Object.assign(l.held.find((h) => h.transactionId === paidId)!, { status: 'paid', processedAt: '2026-11-25T15:04:15Z' });
    // the gateway's "paid" reaches the ledger when paycli sees it (here: the receipt's lookup)
    expect((await runPaycli(['receipt', String(paidId), '--json'], { env: t.env(SP) })).code).toBe(0);
    t.gw.respond((req, res) =>
      req.method === 'POST' ? json(res, 400, { message: 'Validation Failed - pixKey is invalid' }) : json(res, 404, { message: 'Transaction not found' }),
    );
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 999), '--order-id', 'out-refused', '--yes'], { env: t.env(SP) })).code).toBe(1);
    expect((await runPaycli([...withValue(CASHOUT_ARGS, 888), '--yes'], { env: { ...t.home.env, ...SP, PAYCLI_BASE_URL: 'sandbox' } })).code).toBe(0);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const { bytes, stderr } = exportOfx(['--since', today, '--until', today]);
    expect(stderr).toContain('3 payments of the period left out of the statement');
    expect(validate(bytes)).toBe('0');
    const text = iconv.decode(bytes, 'win1252');
    expect(text.startsWith('OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\n')).toBe(true);
    expect(text).toContain('CHARSET:1252');
    expect(bytes.includes(Buffer.from('Conceição', 'latin1'))).toBe(true); // Windows-1252 bytes, not UTF-8
    const trns = text.split('<STMTTRN>').slice(1);
    expect(trns).toHaveLength(2);
    expect(trns[0]).toMatch(
      /<TRNTYPE>DEBIT\r\n<DTPOSTED>\d{14}\[-3:BRT\]\r\n<TRNAMT>-123\.45\r\n<FITID>[0-9a-f-]{36}\r\n<REFNUM>\d+\r\n<NAME>José Conceição Filhos ME\r\n<MEMO>Pix sent - order out-1 - transaction \d+/,
    );
    expect(trns[1]).toMatch(/<TRNTYPE>CREDIT[\s\S]*<TRNAMT>10\.00[\s\S]*<MEMO>Pix received - order in-paid/);
    expect(text).toContain(`<DTSTART>${today.replace(/-/g, '')}000000[-3:BRT]`);
    expect(text).toContain('<BALAMT>-113.45');
    expect(text).toContain('<CURDEF>BRL');
    // libofx reads it: two transactions with their amounts and ids
    const file = join(t.home.dir, 's.ofx');
    writeFileSync(file, bytes);
    const dump = execFileSync('ofxdump', [file], { encoding: 'latin1', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(dump.match(/ofx_proc_transaction\(\)/g)).toHaveLength(2);
    expect(dump).toMatch(/Total money amount: -123\.45/);
    expect(dump).toMatch(/Total money amount: 10\.00/);
    // FITIDs are the same in every export, whatever the period around them
    const fitids = (b: Buffer) => [...iconv.decode(b, 'win1252').matchAll(/<FITID>([^\r\n]+)/g)].map((m) => m[1]);
    expect(fitids(exportOfx([]).bytes)).toEqual(fitids(bytes));
    expect(fitids(exportOfx(['--since', '30d']).bytes)).toEqual(fitids(bytes));
    // a period without payments is a valid, empty statement
    const empty = exportOfx(['--since', '2020-01-01', '--until', '2020-01-31']).bytes;
    expect(validate(empty)).toBe('0');
    expect(iconv.decode(empty, 'win1252')).toContain('<DTSTART>20200101000000[-3:BRT]');
    expect(iconv.decode(empty, 'win1252')).not.toContain('<STMTTRN>');
  });

  it('the validator catches a broken statement (the check is real)', () => {
    const broken = Buffer.from('OFXHEADER:100\r\n\r\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTTRN><FITID>x</STMTTRN></STMTTRNRS></BANKMSGSRSV1></OFX>', 'latin1');
    expect(validate(broken)).not.toBe('0');
  });
});
