/**
 * Human-readable results. Plain text (stdout may be a pipe); every string that came from the
 * gateway is sanitised (src/core/sanitize.ts) before it is shown.
 */
import { formatReais } from '../pix/money.js';
import { CASH_OUT_STATUS_NAMES, statusWord } from '../gateway/status-words.js';
import type { Balance, CashInResponse, CashOutResponse, TransactionLookup } from '../gateway/schemas.js';
import { sanitizeText } from '../core/sanitize.js';
import { formatLocalTime } from '../core/local-time.js';
import { isPortuguese, t } from '../core/i18n/index.js';

const row = (label: string, value: string) => `${label.padEnd(16)}${value}`;

/** The cash-in result: ids (the order reference sent, when any), amount, the BR Code copy-and-paste text. */
export function formatCashIn(res: CashInResponse, valueCents: number, sandbox: boolean, orderId?: string): string {
  return [
    t('result.cashinCreated', sandbox),
    row(t('result.transactionId'), String(res.transactionId)),
    row(t('result.externalId'), sanitizeText(res.externalId, true)),
    ...(orderId !== undefined ? [row(t('result.orderId'), sanitizeText(orderId, true))] : []),
    row(t('result.amount'), formatReais(valueCents)),
    '',
    t('result.brcode'),
    sanitizeText(res.qrCode, true),
  ].join('\n');
}

/** The cash-out result: id, order reference sent (when any), gross, fee and net in reais, status by name, created-at in local time (src/core/local-time.ts). */
export function formatCashOut(res: CashOutResponse, sandbox: boolean, orderId?: string): string {
  const tax = Number(res.tax);
  const liquid = Number(res.liquid);
  return [
    t('result.cashoutCreated', sandbox),
    row(t('result.transactionId'), String(res.transactionId)),
    ...(orderId !== undefined ? [row(t('result.orderId'), sanitizeText(orderId, true))] : []),
    row(t('result.gross'), formatReais(res.gross)),
    row(t('result.fee'), Number.isSafeInteger(tax) ? formatReais(tax) : sanitizeText(res.tax)),
    row(t('result.net'), Number.isSafeInteger(liquid) ? formatReais(liquid) : sanitizeText(res.liquid)),
    row(t('result.status'), shownStatus(res.status)),
    row(t('result.createdAt'), sanitizeText(formatLocalTime(res.createdAt, { portuguese: isPortuguese() }), true)),
  ].join('\n');
}

/**
 * A status for people, in the language of the run: a cash-out digit or one of its words
 * (src/gateway/schemas.ts `CASH_OUT_STATUS_NAMES`: `0`/`created` → `criado` in Portuguese); any other
 * word (a lookup's, a postback's) as it came. `--json` and CSV for scripts keep the English word.
 */
export function shownStatus(status: string | number): string {
  const word = statusWord(status);
  return (Object.values(CASH_OUT_STATUS_NAMES) as string[]).includes(word) ? t(`statusWord.${word as 'created'}`) : sanitizeText(word, true);
}

/** `cashin` → `cash-in`, `transfer` → `cash-out (transfer)`; other words as they came. */
export function lookupKind(object: string | null | undefined): string {
  if (object === 'cashin') return t('result.kind.cashin');
  if (object === 'transfer') return t('result.kind.transfer');
  return t('result.kind.other', object ? sanitizeText(object, true) : '');
}

/** A status word or digit as shown: one vocabulary, digits by their word (`1` → `paid`; src/gateway/schemas.ts `statusWord`). */
export function lookupStatus(status: string | number): string {
  return shownStatus(status);
}

const joinParts = (parts: (string | number | null | undefined)[]) =>
  parts
    .filter((p) => p !== null && p !== undefined && String(p).trim() !== '')
    .map((p) => sanitizeText(String(p), true))
    .join(', ');

/**
 * A transaction as a lookup answered it (`paycli status`): kind and status word, ids, amount in
 * reais, end-to-end id, processed time (in local time; as the gateway wrote it when it is not a time), the payer (cash-in) or the
 * destination (cash-out). `heading` replaces the first line.
 */
export function formatLookup(doc: TransactionLookup, heading?: string): string {
  const lines = [heading ?? `${lookupKind(doc.object)}, ${lookupStatus(doc.status)}`, row(t('result.transactionId'), String(doc.transactionId))];
  if (doc.orderId) lines.push(row(t('result.orderId'), sanitizeText(doc.orderId, true)));
  if (heading) lines.push(row(t('result.status'), lookupStatus(doc.status)));
  lines.push(row(t('result.amount'), formatReais(doc.value)));
  if (doc.method) lines.push(row(t('result.method'), sanitizeText(doc.method, true)));
  if (doc.endToEndId) lines.push(row(t('result.endToEnd'), sanitizeText(doc.endToEndId, true)));
  if (doc.processedAt) lines.push(row(t('result.processedAt'), sanitizeText(formatLocalTime(doc.processedAt, { portuguese: isPortuguese() }), true)));
  const p = doc.payer;
  if (p) {
    const bank = joinParts([
      p.bankName,
      p.bankCode !== null && p.bankCode !== undefined ? t('result.code', String(p.bankCode)) : undefined,
      p.bankIspb ? `ISPB ${p.bankIspb}` : undefined,
    ]);
    lines.push(row(t('result.payer'), joinParts([p.name, p.documentId ? t('result.document', p.documentId) : undefined]) || '-'));
    if (bank) lines.push(row(t('result.payerBank'), bank));
  }
  const d = doc.destinationBank;
  if (d) {
    lines.push(
      row(t('result.recipient'), joinParts([d.name, d.pixKey ? t('result.pixKey', d.pixKey) : undefined, d.cpfCnpj ? t('result.document', d.cpfCnpj) : undefined]) || '-'),
    );
    const bank = joinParts([d.bank, d.bankId !== null && d.bankId !== undefined ? t('result.code', String(d.bankId)) : undefined, d.ispb ? `ISPB ${d.ispb}` : undefined]);
    if (bank) lines.push(row(t('result.recipientBank'), bank));
  }
  return lines.join('\n');
}

/** The account balance (`paycli balance`): every amount in reais. */
export function formatBalance(b: Balance): string {
  return [
    row(t('result.balance'), formatReais(b.balance)),
    ...(b.retention !== undefined ? [row(t('result.retention'), formatReais(b.retention))] : []),
    ...(b.toAnticipate !== undefined ? [row(t('result.toAnticipate'), formatReais(b.toAnticipate))] : []),
    ...(b.finalBalance !== undefined ? [row(t('result.finalBalance'), formatReais(b.finalBalance))] : []),
  ].join('\n');
}
