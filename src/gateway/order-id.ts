/**
 * Order references: the caller's own reference for a payment, sent as the body field `orderId`
 * on cash-ins and cash-outs. It is not in the interface; the gateway family documents it
 * (docs/order-references.md "Beyond the interface"): optional on cash-in, required on cash-out, echoed in both
 * answers, and the key of the lookup `GET /transaction/get/by/orderId/{orderId}`.
 *
 * With the profile setting `order-id` = `auto` (the default) paycli gives every payment that has
 * none a fresh reference {@link newOrderId}; with `off` it sends one only when the caller gives it.
 */
import { ulid } from 'ulid';
import { randomFill } from '../core/random.js';

/** Prefix of the references paycli generates. */
export const ORDER_ID_PREFIX = 'paycli-';
/** Longest order reference accepted, in characters. */
export const MAX_ORDER_ID = 100;
/**
 * Characters an order reference may hold: RFC 3986 path characters (`pchar`) without `%`, so that
 * it goes into a lookup URL path unchanged: letters, digits and `- . _ ~ : @ ! $ & ' ( ) * + , ; =`.
 */
export const ORDER_ID_PATTERN = /^[A-Za-z0-9._~:@!$&'()*+,;=-]+$/;

/** What the profile setting `order-id` can be. */
export type OrderIdMode = 'auto' | 'off';
/** The values of the config key `order-id`, the default first. */
export const ORDER_ID_MODES: readonly OrderIdMode[] = ['auto', 'off'];

/**
 * A fresh, unique, URL-safe order reference: `paycli-` and a ULID (26 Crockford base32
 * characters: 48 bits of milliseconds, 80 random bits; https://github.com/ulid/spec), e.g.
 * `paycli-01JD3QX6Z8R2M4N5P6Q7R8S9TV`. References sort by creation time.
 */
export function newOrderId(): string {
  return `${ORDER_ID_PREFIX}${ulid(undefined, randomSource())}`;
}

/**
 * ulid's source of randomness, from src/core/random.ts: one byte per character, as ulid's own default,
 * which reaches node:crypto through Web Crypto and costs module loads on every start
 * (docs/speed.md). Each call gives a number in [0, 1) in steps of 1/256; 16 bytes cover the 16
 * random characters of one ULID.
 */
function randomSource(): () => number {
  const bytes = randomFill(new Uint8Array(16));
  let next = 0;
  return () => bytes[next++ % bytes.length]! / 256;
}

/**
 * What is wrong with a caller's order reference, or null when it is fine: 1..{@link MAX_ORDER_ID}
 * characters of {@link ORDER_ID_PATTERN}.
 */
export function orderIdProblem(ref: string): string | null {
  if (ref.length === 0) return 'must not be empty, e.g. pedido-1234';
  if (ref.length > MAX_ORDER_ID) return `has ${ref.length} characters, more than the ${MAX_ORDER_ID} allowed; e.g. pedido-1234`;
  if (!ORDER_ID_PATTERN.test(ref)) return "may hold only letters, digits and - . _ ~ : @ ! $ & ' ( ) * + , ; = (no spaces, slashes or %); e.g. pedido-1234";
  return null;
}

/**
 * The body as sent: with `orderId` set to a fresh {@link newOrderId} when it has none and the
 * mode is `auto`; unchanged otherwise (a caller's reference is always kept).
 * @returns a new object (the argument is not changed) and whether the reference was generated
 */
export function withOrderId<T extends { orderId?: string }>(body: T, mode: OrderIdMode): { body: T; generated: boolean } {
  if (body.orderId !== undefined || mode !== 'auto') return { body, generated: false };
  return { body: { ...body, orderId: newOrderId() }, generated: true };
}
