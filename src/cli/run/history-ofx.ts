/**
 * `paycli history --format ofx`: a bank statement in OFX 1.0.2 (SGML), as Brazilian banks export
 * it and accounting software imports it (docs/receipts-and-statements.md "Statements"): the
 * `OFXHEADER:100` header with `CHARSET:1252` (the bytes are Windows-1252), one `<STMTTRN>` per
 * settled payment, oldest first: a cash-out the gateway created (and did not fail, cancel or
 * refund) as a DEBIT of its gross amount, a cash-in seen paid as a CREDIT; amounts signed, with
 * a dot decimal; `<FITID>` the entry's global id (its UUID), the same in every export and on
 * every machine of a team ledger; dates as `yyyyMMddHHmmss[-3:BRT]` in the local zone. Payments
 * of the built-in sandbox are left out (no money moved).
 */
import iconv from 'iconv-lite';
import type { LedgerEntry } from '../../ledger/ledger.js';
import { localParts, offsetMinutes, localTimeZone } from '../../core/local-time.js';
import { redact } from '../../core/secrets.js';
import { sanitizeText } from '../../core/sanitize.js';
import { statusWord } from '../../gateway/status-words.js';
import { t } from '../../core/i18n/index.js';

/** Status words after which a payment moved no money: not in a statement. */
const UNDONE = new Set(['failed', 'canceled', 'cancelled', 'refund', 'refunded', 'infraction', 'expired']);

/**
 * True for a payment a statement lists: not the built-in sandbox; a cash-out created at the gateway
 * (outcome `ok`) whose last known status is not failed, canceled or refunded; a cash-in whose
 * last known status is `paid` (creating a charge moves no money).
 */
export function isSettled(e: LedgerEntry): boolean {
  if (e.sandbox || e.outcome !== 'ok' || !e.completed) return false;
  const status = e.status === undefined ? undefined : statusWord(e.status).toLowerCase();
  if (e.kind === 'cashin') return status === 'paid';
  return status === undefined || !UNDONE.has(status);
}

const two = (n: number) => String(n).padStart(2, '0');

/** Brazil's zones by offset (hours), for the name in an OFX date; other offsets go without a name. */
const ZONE_NAMES: Record<string, string> = { '-2': 'FNT', '-3': 'BRT', '-4': 'AMT', '-5': 'ACT', '0': 'UTC' };

/** An instant as an OFX date in `timeZone`: `20261125120415[-3:BRT]` (offset in hours, decimal when not whole). */
export function ofxDate(ms: number, timeZone = localTimeZone()): string {
  const p = localParts(ms, timeZone);
  const off = offsetMinutes(ms, timeZone);
  const hours = String(Math.round((off / 60) * 100) / 100);
  const name = ZONE_NAMES[hours];
  return `${p.year}${two(p.month)}${two(p.day)}${two(p.hour)}${two(p.minute)}${two(p.second)}[${hours}${name ? `:${name}` : ''}]`;
}

/** Cents as an OFX amount: `-1550` → `-15.50`. */
export function ofxAmount(cents: number): string {
  const abs = String(Math.abs(cents)).padStart(3, '0');
  return `${cents < 0 ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}

/** Text for an element: one line, no markup characters (SGML), at most `max` characters. */
function field(text: string, max: number): string {
  return sanitizeText(redact(text), true).replace(/[<>&]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

/** One `<STMTTRN>` of an entry. */
export function statementLine(e: LedgerEntry, timeZone = localTimeZone()): string {
  const credit = e.kind === 'cashin';
  const who = credit ? e.payer : (e.recipient ?? e.pixKey);
  const memo = [
    t(credit ? 'ofx.memo.cashin' : 'ofx.memo.cashout'),
    e.orderId ? t('ofx.memo.order', e.orderId) : undefined,
    e.transactionId !== undefined ? t('ofx.memo.transaction', String(e.transactionId)) : undefined,
  ]
    .filter(Boolean)
    .join(' - ');
  const parts = [
    '<STMTTRN>',
    `<TRNTYPE>${credit ? 'CREDIT' : 'DEBIT'}`,
    `<DTPOSTED>${ofxDate(e.timeMs ?? Date.parse(e.time), timeZone)}`,
    `<TRNAMT>${ofxAmount(credit ? e.value : -e.value)}`,
    `<FITID>${field(e.uuid, 255)}`,
    ...(e.transactionId !== undefined ? [`<REFNUM>${field(String(e.transactionId), 32)}`] : []),
    ...(who ? [`<NAME>${field(who, 32)}`] : []),
    `<MEMO>${field(memo, 255)}`,
    '</STMTTRN>',
  ];
  return parts.join('\n');
}

/** What a statement is about: its period (epoch ms; from the entries when not given), the account's name, the time it is written. */
export interface StatementInfo {
  since?: number;
  until?: number;
  /** The account id written in `<ACCTID>` (the profile, or `paycli`). */
  account: string;
  now: number;
  timeZone?: string;
}

/**
 * The whole statement as Windows-1252 bytes (characters outside it become `?`). `<LEDGERBAL>`,
 * which the format requires, holds the sum of the listed movements, not the account's balance
 * (`paycli balance` asks the gateway for that).
 */
export function ofxStatement(entries: readonly LedgerEntry[], info: StatementInfo): Buffer {
  const zone = info.timeZone ?? localTimeZone();
  const settled = entries.filter(isSettled).sort((a, b) => (a.timeMs ?? Date.parse(a.time)) - (b.timeMs ?? Date.parse(b.time)) || a.id - b.id);
  const times = settled.map((e) => e.timeMs ?? Date.parse(e.time));
  const start = info.since ?? (times.length ? times[0]! : info.now);
  const end = Math.min(info.until !== undefined ? info.until - 1000 : info.now, info.now);
  const total = settled.reduce((sum, e) => sum + (e.kind === 'cashin' ? e.value : -e.value), 0);
  const header = [
    'OFXHEADER:100',
    'DATA:OFXSGML',
    'VERSION:102',
    'SECURITY:NONE',
    'ENCODING:USASCII',
    'CHARSET:1252',
    'COMPRESSION:NONE',
    'OLDFILEUID:NONE',
    'NEWFILEUID:NONE',
    '',
  ];
  const body = [
    '<OFX>',
    '<SIGNONMSGSRSV1>',
    '<SONRS>',
    '<STATUS>\n<CODE>0\n<SEVERITY>INFO\n</STATUS>',
    `<DTSERVER>${ofxDate(end, zone)}`,
    '<LANGUAGE>POR',
    '</SONRS>',
    '</SIGNONMSGSRSV1>',
    '<BANKMSGSRSV1>',
    '<STMTTRNRS>',
    '<TRNUID>1',
    '<STATUS>\n<CODE>0\n<SEVERITY>INFO\n</STATUS>',
    '<STMTRS>',
    '<CURDEF>BRL',
    `<BANKACCTFROM>\n<BANKID>0000\n<ACCTID>${field(info.account, 22)}\n<ACCTTYPE>CHECKING\n</BANKACCTFROM>`,
    '<BANKTRANLIST>',
    `<DTSTART>${ofxDate(start, zone)}`,
    `<DTEND>${ofxDate(end, zone)}`,
    ...settled.map((e) => statementLine(e, zone)),
    '</BANKTRANLIST>',
    `<LEDGERBAL>\n<BALAMT>${ofxAmount(total)}\n<DTASOF>${ofxDate(end, zone)}\n</LEDGERBAL>`,
    '</STMTRS>',
    '</STMTTRNRS>',
    '</BANKMSGSRSV1>',
    '</OFX>',
    '',
  ];
  return iconv.encode([...header, ...body].join('\n').replace(/\n/g, '\r\n'), 'win1252');
}
