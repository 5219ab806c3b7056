/**
 * paycli's JSON documents as commands build them (docs/output-for-scripts.md "Documents"): amounts are
 * integers in cents, booleans are booleans, a status is its name (`created`, `paid`…) with the
 * interface's code beside it (`statusCode`, null when the gateway gave a word the interface has no code
 * for), and the gateway's answer as it came is kept under `gateway`. Their shapes, as zod schemas and
 * the JSON Schema files of schemas/, are in src/cli/output/document-schemas.ts: a command that prints a
 * document builds none of those schemas (docs/speed.md "A cash-out without the document schemas").
 */
import { statusWord } from '../../gateway/status-words.js';
import type { Balance, CashInResponse, CashOutResponse, TransactionLookup } from '../../gateway/schemas.js';
import { sanitizeJson } from '../../core/sanitize.js';
import { statusCode } from './history-doc.js';
import type { BalanceDoc, CashInDoc, CashOutDoc, TransactionDoc } from './document-schemas.js';

export { historyEntryDoc, statusCode } from './history-doc.js';
export type { BalanceDoc, CashInDoc, CashOutDoc, HistoryEntryDoc, TransactionDoc } from './document-schemas.js';

/** Cents sent as a string by the gateway (`tax`, `liquid`: "65"), as an integer. */
const centsOf = (s: string): number => Number(s);

const answer = (raw: unknown): Record<string, unknown> => (raw && typeof raw === 'object' && !Array.isArray(raw) ? (sanitizeJson(raw) as Record<string, unknown>) : {});

/** The document of a created cash-out (its `tax` and `liquid` strings as integers, its status by name). */
export function cashOutDoc(data: CashOutResponse, raw: unknown, more: { orderId?: string; sandbox: boolean; ledgerEntry?: number }): CashOutDoc {
  return {
    kind: 'cashout',
    transactionId: data.transactionId,
    orderId: more.orderId ?? null,
    gross: data.gross,
    tax: centsOf(data.tax),
    liquid: centsOf(data.liquid),
    status: statusWord(data.status),
    statusCode: statusCode(data.status),
    createdAt: data.createdAt,
    sandbox: more.sandbox,
    ledgerEntry: more.ledgerEntry ?? null,
    gateway: answer(raw),
  };
}

/** The document of a created cash-in. */
export function cashInDoc(data: CashInResponse, raw: unknown, more: { value: number; orderId?: string; sandbox: boolean; ledgerEntry?: number }): CashInDoc {
  return {
    kind: 'cashin',
    transactionId: data.transactionId,
    externalId: data.externalId,
    orderId: more.orderId ?? null,
    value: more.value,
    qrCode: data.qrCode,
    qrCodeBase64: data.qrCodeBase64,
    sandbox: more.sandbox,
    ledgerEntry: more.ledgerEntry ?? null,
    gateway: answer(raw),
  };
}

/** A lookup's `object` as paycli names kinds: `transfer` → `cashout`, `cashin` as is. */
const kindOf = (object: string | null | undefined): string | null => (object === 'transfer' ? 'cashout' : (object ?? null));

/** The document of a transaction a lookup answered. */
export function transactionDoc(data: TransactionLookup, raw: unknown, more: { foundByOrderId?: boolean; ledgerEntry?: number } = {}): TransactionDoc {
  const obj = (v: unknown) => (v && typeof v === 'object' ? (sanitizeJson(v) as Record<string, unknown>) : null);
  return {
    kind: kindOf(data.object),
    transactionId: data.transactionId,
    orderId: data.orderId ?? null,
    value: data.value,
    status: statusWord(data.status),
    statusCode: statusCode(data.status),
    method: data.method ?? null,
    endToEndId: data.endToEndId ?? null,
    processedAt: data.processedAt ?? null,
    payer: obj(data.payer),
    destinationBank: obj(data.destinationBank),
    foundByOrderId: more.foundByOrderId ?? false,
    ledgerEntry: more.ledgerEntry ?? null,
    gateway: answer(raw),
  };
}

/** The document of a balance. */
export function balanceDoc(data: Balance, raw: unknown): BalanceDoc {
  return { balance: data.balance, retention: data.retention ?? null, toAnticipate: data.toAnticipate ?? null, finalBalance: data.finalBalance ?? null, gateway: answer(raw) };
}
