/**
 * Human-readable results. Plain text (stdout may be a pipe); every string that came from the
 * gateway is sanitised (src/core/sanitize.ts) before it is shown.
 */
import { formatReais } from '../pix/money.js';
import { CASH_OUT_STATUS_NAMES, statusWord, type Balance, type CashInResponse, type CashOutResponse, type TransactionLookup } from '../gateway/schemas.js';
import { sanitizeText } from '../core/sanitize.js';

const row = (label: string, value: string) => `${label.padEnd(16)}${value}`;

/** The cash-in result: ids (the order reference sent, when any), amount, the BR Code copy-and-paste text. */
export function formatCashIn(res: CashInResponse, valueCents: number, sandbox: boolean, orderId?: string): string {
  return [
    `Cash-in created${sandbox ? ' (sandbox: no money moves)' : ''}`,
    row('Transaction ID', String(res.transactionId)),
    row('External ID', sanitizeText(res.externalId, true)),
    ...(orderId !== undefined ? [row('Order ID', sanitizeText(orderId, true))] : []),
    row('Amount', formatReais(valueCents)),
    '',
    'PIX copy-and-paste (BR Code):',
    sanitizeText(res.qrCode, true),
  ].join('\n');
}

/** The cash-out result: id, order reference sent (when any), gross, fee and net in reais, status by name, created-at. */
export function formatCashOut(res: CashOutResponse, sandbox: boolean, orderId?: string): string {
  const tax = Number(res.tax);
  const liquid = Number(res.liquid);
  return [
    `Cash-out created${sandbox ? ' (sandbox: no money moves)' : ''}`,
    row('Transaction ID', String(res.transactionId)),
    ...(orderId !== undefined ? [row('Order ID', sanitizeText(orderId, true))] : []),
    row('Gross', formatReais(res.gross)),
    row('Fee', Number.isSafeInteger(tax) ? formatReais(tax) : sanitizeText(res.tax)),
    row('Net', Number.isSafeInteger(liquid) ? formatReais(liquid) : sanitizeText(res.liquid)),
    row('Status', CASH_OUT_STATUS_NAMES[res.status]),
    row('Created at', sanitizeText(res.createdAt, true)),
  ].join('\n');
}

/** `cashin` → `cash-in`, `transfer` → `cash-out (transfer)`; other words as they came. */
export function lookupKind(object: string | null | undefined): string {
  if (object === 'cashin') return 'Cash-in';
  if (object === 'transfer') return 'Cash-out (transfer)';
  return object ? `Transaction (${sanitizeText(object, true)})` : 'Transaction';
}

/** A status word or digit as shown: one vocabulary, digits by their word (`1` → `paid`; src/gateway/schemas.ts `statusWord`). */
export function lookupStatus(status: string | number): string {
  return sanitizeText(statusWord(status), true);
}

const joinParts = (parts: (string | number | null | undefined)[]) =>
  parts.filter((p) => p !== null && p !== undefined && String(p).trim() !== '').map((p) => sanitizeText(String(p), true)).join(', ');

/**
 * A transaction as a lookup answered it (`paycli status`): kind and status word, ids, amount in
 * reais, end-to-end id, processed time (as the gateway wrote it), the payer (cash-in) or the
 * destination (cash-out). `heading` replaces the first line.
 */
export function formatLookup(doc: TransactionLookup, heading?: string): string {
  const lines = [heading ?? `${lookupKind(doc.object)}, ${lookupStatus(doc.status)}`, row('Transaction ID', String(doc.transactionId))];
  if (doc.orderId) lines.push(row('Order ID', sanitizeText(doc.orderId, true)));
  if (heading) lines.push(row('Status', lookupStatus(doc.status)));
  lines.push(row('Amount', formatReais(doc.value)));
  if (doc.method) lines.push(row('Method', sanitizeText(doc.method, true)));
  if (doc.endToEndId) lines.push(row('End-to-end ID', sanitizeText(doc.endToEndId, true)));
  if (doc.processedAt) lines.push(row('Processed at', sanitizeText(doc.processedAt, true)));
  const p = doc.payer;
  if (p) {
    const bank = joinParts([p.bankName, p.bankCode !== null && p.bankCode !== undefined ? `code ${p.bankCode}` : undefined, p.bankIspb ? `ISPB ${p.bankIspb}` : undefined]);
    lines.push(row('Payer', joinParts([p.name, p.documentId ? `document ${p.documentId}` : undefined]) || '-'));
    if (bank) lines.push(row('Payer bank', bank));
  }
  const d = doc.destinationBank;
  if (d) {
    lines.push(row('Recipient', joinParts([d.name, d.pixKey ? `PIX key ${d.pixKey}` : undefined, d.cpfCnpj ? `document ${d.cpfCnpj}` : undefined]) || '-'));
    const bank = joinParts([d.bank, d.bankId !== null && d.bankId !== undefined ? `code ${d.bankId}` : undefined, d.ispb ? `ISPB ${d.ispb}` : undefined]);
    if (bank) lines.push(row('Recipient bank', bank));
  }
  return lines.join('\n');
}

/** The account balance (`paycli balance`): every amount in reais. */
export function formatBalance(b: Balance): string {
  return [
    row('Balance', formatReais(b.balance)),
    ...(b.retention !== undefined ? [row('Retention', formatReais(b.retention))] : []),
    ...(b.toAnticipate !== undefined ? [row('To anticipate', formatReais(b.toAnticipate))] : []),
    ...(b.finalBalance !== undefined ? [row('Final balance', formatReais(b.finalBalance))] : []),
  ].join('\n');
}
