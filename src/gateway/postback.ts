/**
 * Postbacks (interface §6): the body the sandbox sends and the signature that the sandbox puts on it
 * and `paycli listen` checks. Signing and checking live here only, for both sides.
 *
 * The interface gives no payload, headers or signing for the postback (§6: "not shown"). The body
 * is the one the gateway family documents (docs/sandbox-and-postbacks.md "Postbacks", docs/). The signature is a sandbox
 * feature, modelled on Mercado Pago's `x-signature: ts=…,v1=…`, and a real gateway may not send
 * one:
 *
 *     x-paycli-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * Only node:crypto is imported, so `paycli listen` loads this without anything heavy.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { t } from '../core/i18n/index.js';

/** Name of the signature header (lower case, as node:http gives header names). */
export const SIGNATURE_HEADER = 'x-paycli-signature';

/**
 * A header on every answer of the sandbox (its value: paycli's version), by which its control
 * subcommands tell a sandbox from a gateway before acting on what it answered.
 */
export const SANDBOX_HEADER = 'x-paycli-sandbox';

/**
 * The event id header of every delivery attempt (`evt_<n>`, the same on every attempt of one
 * event); a sandbox feature, like the signature (src/sandbox/delivery.ts).
 */
export const EVENT_ID_HEADER = 'x-paycli-event-id';

/** The attempt number header: `1` on an event's first attempt; more marks a redelivery. */
export const ATTEMPT_HEADER = 'x-paycli-delivery-attempt';

/** How far a signature's `t` may be from the receiver's clock, in seconds (5 minutes), either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * A postback `status` (docs/sandbox-and-postbacks.md "Postbacks"): a word, unlike the digit string of the cash-out
 * response. `created` when the transaction is created, then `paid`, `failed`, `canceled`;
 * `refund` and `infraction` (a PIX infraction report, MED) after `paid`.
 */
export type PostbackStatus = 'created' | 'paid' | 'failed' | 'canceled' | 'refund' | 'infraction';

/** Every {@link PostbackStatus}, in lifecycle order. */
export const POSTBACK_STATUSES: readonly PostbackStatus[] = ['created', 'paid', 'failed', 'canceled', 'refund', 'infraction'];

/** A postback `object`: `cashin`, or `transfer` for a cash-out. */
export type PostbackObject = 'cashin' | 'transfer';

/** Who paid a cash-in (only once it is paid). Bank fields may be null. */
export interface PostbackPayer {
  transactionId: number;
  name: string | null;
  documentId: string | null;
  bankName: string | null;
  bankCode: string | null;
  bankIspb: string | null;
}

/** Where a cash-out (`transfer`) goes: the recipient and their bank. */
export interface PostbackDestination {
  name: string | null;
  cpfCnpj: string | null;
  email: string | null;
  pixKey: string | null;
  /** The key type's digit as a string (`"2"` for an e-mail key), as the documents show it. */
  pixKeyType: string | null;
  bank: string | null;
  bankId: string | null;
  ispb: string | null;
}

/**
 * The JSON body of a postback, as the sandbox sends it (docs/sandbox-and-postbacks.md "Postbacks"), and the document its
 * lookups answer. `value` is integer cents; `processedAt` is ISO 8601 UTC; `orderId` is the
 * caller's reference (null when none was sent); `observation` a free text or null.
 * `endToEndId` (a 32-character PIX end-to-end id: "E" + 8-digit ISPB + yyyyMMddHHmm + 11
 * alphanumerics) and `payer` appear once a cash-in is paid; `destinationBank` on every transfer.
 */
export interface PostbackBody {
  transactionId: number;
  object: PostbackObject;
  status: PostbackStatus;
  method: 'pix';
  value: number;
  processedAt: string;
  orderId: string | null;
  observation: string | null;
  endToEndId?: string;
  payer?: PostbackPayer;
  /** `null` on a transfer's `created` (as documented); absent where the documents show none. */
  destinationBank?: PostbackDestination | null;
}

/** The body of the connectivity test a gateway sends to a new webhook URL. */
export const PING_BODY = { test: true } as const;

/** Current time in whole Unix seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function hmacHex(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * The value of the {@link SIGNATURE_HEADER} header for one delivery: `t=<t>,v1=<hex>` where `<hex>`
 * is the lower-case hex HMAC-SHA256, keyed with `secret` (UTF-8), of the bytes of `"<t>."`
 * followed by the raw body exactly as sent.
 * @param secret the shared secret (non-empty)
 * @param rawBody the body bytes (a string is taken as UTF-8)
 * @param timestamp Unix seconds of the attempt; defaults to now
 */
export function signPostback(secret: string, rawBody: string | Uint8Array, timestamp: number = nowSeconds()): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

/** Outcome of {@link verifyPostback}; `reason` is a short phrase for a warning, in the run's language. */
export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * Checks a {@link SIGNATURE_HEADER} value against the raw body received. The header must hold one
 * `t=` (Unix seconds within `toleranceSeconds` of `now`) and at least one `v1=`; any `v1` that
 * matches is enough (room for a secret rotation). The comparison is constant-time.
 * Never throws; a missing or malformed header is `{ok: false}`.
 * @param header the header as received (node:http may give an array for a repeated header)
 * @param now Unix seconds, for tests; defaults to now
 */
export function verifyPostback(
  secret: string,
  rawBody: string | Uint8Array,
  header: string | string[] | undefined,
  now: number = nowSeconds(),
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): VerifyResult {
  if (header === undefined || header === '') return { ok: false, reason: t('postback.noSignature', SIGNATURE_HEADER) };
  if (Array.isArray(header)) return { ok: false, reason: t('postback.manySignatures', SIGNATURE_HEADER) };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const key = part.slice(0, i).trim();
    const value = part.slice(i + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^[0-9]{1,12}$/.test(value)) return { ok: false, reason: t('postback.malformedT') };
      timestamp = Number(value);
    } else if (key === 'v1') candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) return { ok: false, reason: t('postback.malformed') };
  if (Math.abs(now - timestamp) > toleranceSeconds) return { ok: false, reason: t('postback.tooOld', toleranceSeconds) };
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
  let match = false;
  for (const c of candidates) {
    if (!/^[0-9a-fA-F]{64}$/.test(c)) continue;
    // No early exit: every candidate is compared.
    if (timingSafeEqual(expected, Buffer.from(c, 'hex'))) match = true;
  }
  return match ? { ok: true, timestamp } : { ok: false, reason: t('postback.mismatch') };
}
