/**
 * Human-readable results. Plain text (stdout may be a pipe); every string that came from the
 * gateway is sanitised (src/output/sanitize.ts) before it is shown.
 */
import { formatReais } from '../money.js';
import { CASH_OUT_STATUS_NAMES, type CashInResponse, type CashOutResponse } from '../schemas.js';
import { sanitizeText } from './sanitize.js';

const row = (label: string, value: string) => `${label.padEnd(16)}${value}`;

/** The cash-in result: ids, amount, the BR Code copy-and-paste text. */
export function formatCashIn(res: CashInResponse, valueCents: number, sandbox: boolean): string {
  return [
    `Cash-in created${sandbox ? ' (sandbox: no money moves)' : ''}`,
    row('Transaction ID', String(res.transactionId)),
    row('External ID', sanitizeText(res.externalId, true)),
    row('Amount', formatReais(valueCents)),
    '',
    'PIX copy-and-paste (BR Code):',
    sanitizeText(res.qrCode, true),
  ].join('\n');
}

/** The cash-out result: id, gross, fee and net in reais, status by name, created-at. */
export function formatCashOut(res: CashOutResponse, sandbox: boolean): string {
  const tax = Number(res.tax);
  const liquid = Number(res.liquid);
  return [
    `Cash-out created${sandbox ? ' (sandbox: no money moves)' : ''}`,
    row('Transaction ID', String(res.transactionId)),
    row('Gross', formatReais(res.gross)),
    row('Fee', Number.isSafeInteger(tax) ? formatReais(tax) : sanitizeText(res.tax)),
    row('Net', Number.isSafeInteger(liquid) ? formatReais(liquid) : sanitizeText(res.liquid)),
    row('Status', CASH_OUT_STATUS_NAMES[res.status]),
    row('Created at', sanitizeText(res.createdAt, true)),
  ].join('\n');
}
