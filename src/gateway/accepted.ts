/**
 * The cash-out's checks without zod: {@link acceptedCashOutRequest} and {@link acceptedCashOut} accept a body and an
 * answer that src/gateway/schemas.ts's `cashOutRequestSchema` and `cashOutResponseSchema` accept, with the same output,
 * and say `undefined` for anything else, which then goes to zod (loaded only then), whose issues word the problem. A
 * cash-out whose body and answer are sound so loads no zod (docs/speed.md "A cash-out without zod"); a batch checks
 * one body and one answer a row this way (docs/speed.md "The batch send's CPU"): src/gateway/payment-schemas.ts
 * `checkWith`. The constants both sides share are here; test/unit/request-parse.test.ts and
 * test/unit/answer-parse.test.ts check the equivalence.
 */
import { MAX_CENTS } from '../pix/money.js';
import { bareDocument, documentProblem, emailProblem, normalisePhone, phoneProblem, replacementProblem, textProblem } from '../pix/validators.js';
import { checkPixKey, type PixKeyTypeValue } from '../pix/pixkey.js';
import { CASH_OUT_STATUS_NAMES } from './status-words.js';
import { orderIdProblem } from './order-id.js';
import { isHttpUrl } from './net.js';
import type { CashOutRequest, CashOutResponse } from './schemas.js';

/** Longest name (payer, recipient, product) accepted, in characters. */
export const MAX_NAME = 100;
/** Longest product description accepted, in characters. */
export const MAX_DESCRIPTION = 500;
/** Longest postback URL accepted. */
export const MAX_URL = 2048;

/** `pixKeyType`'s values (interface §2.3): 0 CPF, 1 CNPJ, 2 EMAIL, 3 TELEFONE, 4 RANDOM_KEY. */
export const PIX_KEY_TYPE_LIST = [0, 1, 2, 3, 4] as const;
/** A cash-out's `status` digits (interface §3), those of {@link CASH_OUT_STATUS_NAMES}. */
export const CASH_OUT_STATUS_LIST = Object.keys(CASH_OUT_STATUS_NAMES) as ['0', '1', '2', '3', '4'];

/**
 * The pattern zod's `z.iso.datetime()` checks (a UTC time ending in `Z`, any fraction of a second, real calendar
 * days), as zod 4 builds it: `createdAt`'s check here; test/unit/answer-parse.test.ts compares it with the schema's own.
 */
export const CREATED_AT_PATTERN =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$/;
/** A string holding an integer number of cents (`tax`, `liquid`, interface §2.4). */
export const CENTS_STRING = /^-?[0-9]+$/;

const CASH_OUT_STATUSES = new Set<unknown>(CASH_OUT_STATUS_LIST);
const PIX_KEY_TYPE_VALUES = new Set<unknown>(PIX_KEY_TYPE_LIST);

/**
 * `cashOutResponseSchema`'s parse of an answer it accepts, without zod's machinery: the same checks (an object, not
 * an array; `transactionId` and `gross` safe integers; `tax` and `liquid` strings of digits; `status` one of the
 * interface's digits; `createdAt` zod's own pattern) and the same output (a new object, the interface's fields first,
 * then every other field as received).
 * @returns the answer as the schema gives it, or undefined when it does not accept it
 */
export function acceptedCashOut(json: unknown): CashOutResponse | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const a = json as Record<string, unknown>;
  const { transactionId, gross, tax, liquid, status, createdAt } = a;
  if (!Number.isSafeInteger(transactionId) || !Number.isSafeInteger(gross)) return undefined;
  if (typeof tax !== 'string' || typeof liquid !== 'string' || !CENTS_STRING.test(tax) || !CENTS_STRING.test(liquid)) return undefined;
  if (!CASH_OUT_STATUSES.has(status) || typeof createdAt !== 'string' || !CREATED_AT_PATTERN.test(createdAt)) return undefined;
  const out: Record<string, unknown> = { transactionId, gross, tax, liquid, status, createdAt };
  for (const k of Object.keys(a)) if (!(k in out)) out[k] = a[k];
  return out as CashOutResponse;
}

/** A plain-object check as zod's own (`typeof`, not null, not an array). */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text field the schemas' `text` accepts, trimmed (`max` characters at most), or undefined when it does not. */
function acceptedText(v: unknown, max: number): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s.length >= 1 && s.length <= max && textProblem(s) === null ? s : undefined;
}

/** An optional field's output as zod's object gives it: absent stays absent, present-but-undefined stays undefined. */
function optionalInto(out: Record<string, unknown>, a: Record<string, unknown>, key: string, accept: (v: unknown) => unknown): boolean {
  if (!(key in a)) return true;
  const v = a[key];
  if (v === undefined) {
    out[key] = undefined;
    return true;
  }
  const ok = accept(v);
  if (ok === undefined) return false;
  out[key] = ok;
  return true;
}

/** A postback URL the schemas' `urlSchema` accepts, trimmed, or undefined. */
function acceptedUrl(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s.length <= MAX_URL && isHttpUrl(s) && replacementProblem(s) === null ? s : undefined;
}

/**
 * `cashOutRequestSchema`'s parse of a body it accepts, without zod's machinery: the same checks (cents
 * 1..{@link MAX_CENTS}, a key type of the interface, the key trimmed and checked against its type and written in DICT
 * form, the document bare, the person's name, e-mail and phone checked and normalised as the schema's `text`,
 * `emailSchema` and `phoneSchema` do, `orderId` and `postbackUrl` trimmed and checked) and the same output (new
 * objects, the schema's fields in its order, unknown fields dropped).
 * @returns the body as the schema gives it, or undefined when it does not accept it
 */
export function acceptedCashOutRequest(json: unknown): CashOutRequest | undefined {
  if (!isRecord(json) || !isRecord(json.person)) return undefined;
  const { value, pixKeyType, pixKey, person } = json;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CENTS) return undefined;
  if (typeof pixKeyType !== 'number' || !PIX_KEY_TYPE_VALUES.has(pixKeyType) || typeof pixKey !== 'string') return undefined;
  const key = pixKey.trim();
  const check = key === '' ? undefined : checkPixKey(pixKeyType as PixKeyTypeValue, key);
  if (!check?.ok) return undefined;
  const out: Record<string, unknown> = { value, pixKeyType, pixKey: check.key };
  if (!optionalInto(out, json, 'cpfCnpj', (v) => (typeof v === 'string' && documentProblem(v) === null ? bareDocument(v) : undefined))) return undefined;
  const name = acceptedText(person.name, MAX_NAME);
  const email = typeof person.email === 'string' ? person.email.trim() : undefined;
  const phone = person.phone;
  if (name === undefined || email === undefined || emailProblem(email) !== null || typeof phone !== 'string' || phoneProblem(phone) !== null) return undefined;
  out.person = { name, email, phone: normalisePhone(phone)! };
  const orderIdOk = (v: unknown) => (typeof v === 'string' && orderIdProblem(v.trim()) === null ? v.trim() : undefined);
  if (!optionalInto(out, json, 'orderId', orderIdOk) || !optionalInto(out, json, 'postbackUrl', acceptedUrl)) return undefined;
  return out as CashOutRequest;
}
