/**
 * The comprovante of a payment (docs/receipts-and-statements.md "Receipts"): what a receipt says,
 * built from the ledger's entry (src/ledger/schema.ts `LedgerEntry`, with what the create answer
 * said, `PaymentFacts`) and the gateway's latest answer to a lookup (src/gateway/lookup.ts). Only
 * a payment that happened gets one: a cash-out the gateway created and did not fail, cancel or
 * refund, and a cash-in the gateway says is paid. Keys and documents are masked here
 * (src/pix/mask.ts), so that no renderer can print them whole.
 */
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { sanitizeText } from '../core/sanitize.js';
import { decodeBrCode } from '../pix/brcode.js';
import { maskDocument, maskPixKey } from '../pix/mask.js';
import { PIX_KEY_TYPES } from '../pix/pixkey.js';
import { statusWord } from '../gateway/status-words.js';
import type { TransactionLookup } from '../gateway/schemas.js';
import type { LedgerEntry } from '../ledger/ledger.js';
import { SANDBOX_PAYER_BANK } from '../sandbox/lifecycle.js';

/** One side of a payment as the receipt shows it; every field optional (shown when known), keys and documents masked. */
export interface ReceiptParty {
  name?: string;
  /** CPF masked (`***.456.789-**`) or CNPJ in full. */
  document?: string;
  /** The PIX key, masked by its type. */
  pixKey?: string;
  /** `cpf`, `cnpj`, `email`, `phone`, `random` (src/pix/pix-key-types.ts). */
  pixKeyType?: string;
  /** Bank or institution name, or its ISPB. */
  institution?: string;
  /** The gateway account (host and profile) when this side is the merchant paycli pays from or charges for. */
  account?: { gateway: string; profile: string };
}

/** Everything a receipt shows; amounts in integer cents; `time` an ISO 8601 instant (UTC). */
export interface Receipt {
  kind: 'cashin' | 'cashout';
  /** Ledger entry number. */
  entry: number;
  transactionId: string;
  orderId?: string;
  /** The Pix end-to-end id (`E` + ISPB + UTC time + 11 characters), when the gateway gave it. */
  endToEndId?: string;
  externalId?: string;
  value: number;
  fee?: number;
  net?: number;
  /** When it was paid (or, for a cash-out not yet paid, created), ISO 8601 UTC. */
  time: string;
  /** The status word (`paid`, `pending`…; a cash-out digit as its word). */
  status: string;
  payer: ReceiptParty;
  recipient: ReceiptParty;
  /** The BR Code of a cash-in (Pix Copia e Cola). */
  brCode?: string;
  product?: string;
  /** Gateway host (`api.gateway.example`), or `sandbox` for the built-in sandbox. */
  gateway: string;
  profile: string;
  /** True for the built-in sandbox or paycli's standalone sandbox: no money moved (marked on the page). */
  sandbox: boolean;
}

/**
 * True when the gateway's answer comes from paycli's standalone sandbox (`paycli sandbox`): its
 * payer bank and end-to-end ids carry ISPB 99999999, which no institution has.
 */
export function fromSandbox(found: TransactionLookup | undefined): boolean {
  const ispb = SANDBOX_PAYER_BANK.bankIspb;
  return String(found?.payer?.bankIspb ?? '') === ispb || String(found?.endToEndId ?? '').startsWith(`E${ispb}`);
}

/** Status words of a cash-out that did not happen: no receipt. */
const NOT_A_PAYMENT = new Set(['failed', 'canceled', 'cancelled', 'refund', 'refunded', 'infraction', 'expired']);

/**
 * Why an entry gets no receipt, from the ledger alone (`undefined`: it may get one).
 * Refused, never sent, unknown outcome or still in flight: no payment to prove.
 */
export function ledgerRefusal(e: LedgerEntry): string | undefined {
  if (!e.completed || e.outcome === 'unknown') return t('receipt.noUnknown', e.id);
  if (e.outcome === 'refused') return t('receipt.noRefused', e.id, e.message ?? '');
  if (e.outcome === 'not_sent') return t('receipt.noNotSent', e.id);
  if (e.transactionId === undefined) return t('receipt.noTransaction', e.id);
  return undefined;
}

/**
 * A zone-less ISO time of the gateway (`2025-09-03T10:14:18.768543`, as its lookups write
 * `processedAt`) read as UTC, the zone of its `createdAt` (`…Z`); any other text is not a time.
 */
export function gatewayInstant(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  const s = text.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(s) ? s : `${s}Z`;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(zoned)) return undefined;
  const ms = Date.parse(zoned.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

const text = (v: unknown, max = 120): string | undefined =>
  typeof v === 'string' && v.trim() ? sanitizeText(v.trim(), true).slice(0, max) : typeof v === 'number' ? String(v) : undefined;

/** Copies the defined fields only (a receipt's JSON has no `null`s or empty keys). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;
}

/**
 * The receipt of a ledger entry, with the gateway's answer to a lookup when there is one.
 * @param e the entry (a completed, created payment: {@link ledgerRefusal} is checked here too)
 * @param found the gateway's document for its transaction, or undefined when it could not be asked
 * @param where the gateway host (or `sandbox`) and the profile
 * @throws UsageError (exit 2, `no_receipt`) naming why there is no receipt: refused, unknown,
 *   never sent, a cash-in not paid (or whose payment cannot be confirmed), a cash-out failed,
 *   canceled or refunded
 */
export function buildReceipt(e: LedgerEntry, found: TransactionLookup | undefined, where: { gateway: string }): Receipt {
  const why = ledgerRefusal(e);
  if (why) throw new UsageError(why, { field: 'transactionId' }, 'no_receipt');
  const status = statusWord(found?.status ?? e.status ?? (e.kind === 'cashin' ? 'created' : '0')).toLowerCase();
  if (e.kind === 'cashin' && !found)
    throw new UsageError(t('receipt.noCashInUnconfirmed', e.id), { field: 'transactionId', hint: t('receipt.noCashInUnconfirmedHint') }, 'no_receipt');
  if (e.kind === 'cashin' && status !== 'paid') throw new UsageError(t('receipt.noCashInNotPaid', e.id, status), { field: 'transactionId' }, 'no_receipt');
  if (NOT_A_PAYMENT.has(status)) throw new UsageError(t('receipt.noCashOutStatus', e.id, status), { field: 'transactionId' }, 'no_receipt');
  const facts = e.answer ?? {};
  const time = (status === 'paid' ? gatewayInstant(found?.processedAt) : undefined) ?? gatewayInstant(facts.createdAt) ?? e.endTime ?? e.time;
  const fee = facts.tax;
  const net = facts.liquid ?? (fee !== undefined ? (facts.gross ?? e.value) - fee : undefined);
  const account = { gateway: where.gateway, profile: e.profile };
  const r: Receipt = {
    kind: e.kind,
    entry: e.id,
    transactionId: String(e.transactionId),
    value: e.value,
    time,
    // the gateway's word, shown: cleaned of escapes and controls (src/core/sanitize.ts) like every text of a receipt
    status: text(status, 24) ?? '?',
    payer: {},
    recipient: {},
    gateway: where.gateway,
    profile: e.profile,
    sandbox: e.sandbox || fromSandbox(found),
  };
  const extra = defined({ orderId: text(e.orderId), endToEndId: text(found?.endToEndId, 40), externalId: text(facts.externalId, 60), fee, net, product: text(e.product) });
  Object.assign(r, extra);
  if (e.kind === 'cashout') {
    const bank = found?.destinationBank;
    r.payer = { account };
    const keyType = e.pixKeyType !== undefined ? (PIX_KEY_TYPES as readonly { name: string }[])[e.pixKeyType]?.name : undefined;
    const doc = text(bank?.cpfCnpj, 20);
    r.recipient = defined({
      name: text(e.recipient) ?? text(bank?.name),
      pixKey: e.pixKey ? maskPixKey(e.pixKey, e.pixKeyType) : undefined,
      pixKeyType: keyType,
      document: doc ? maskDocument(doc) : undefined,
      institution: text(bank?.bank) ?? text(bank?.ispb),
    });
  } else {
    const payer = found?.payer;
    const doc = text(payer?.documentId, 20);
    r.payer = defined({
      name: text(payer?.name) ?? text(e.payer),
      document: doc ? maskDocument(doc) : undefined,
      institution: text(payer?.bankName) ?? (payer?.bankIspb != null ? `ISPB ${String(payer.bankIspb)}` : undefined),
    });
    const code = facts.qrCode;
    if (code) {
      r.brCode = sanitizeText(code, true);
      const decoded = decodeBrCode(code);
      r.recipient = defined({ name: text(decoded.merchantName), pixKey: decoded.key ? maskPixKey(decoded.key) : undefined, account });
    } else r.recipient = { account };
  }
  return r;
}
