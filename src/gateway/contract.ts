/**
 * The paths of the gateway interface (docs/gateway-contract.md), used by the client and served by
 * the built-in sandbox alike, so that the two cannot drift apart. No imports: anything may load it.
 */

/** Cash-in: `POST {base}/transaction/qrcode/cashin` (interface §2.1, §4). */
export const CASHIN_PATH = '/transaction/qrcode/cashin';

/** Cash-out: `POST {base}/transaction/cashout` (interface §2.3, §4). */
export const CASHOUT_PATH = '/transaction/cashout';

/**
 * Default lookup path templates (beyond the interface: the gateway family's documentation,
 * docs/gateway-contract.md "Beyond the interface"; config keys `status-path`,
 * `status-by-order-path`, `balance-path` replace them per profile). `{transactionId}` and
 * `{orderId}` are replaced by the URL-encoded value (src/gateway/lookup.ts `lookupPath`).
 */
export const DEFAULT_LOOKUP_PATHS = {
  statusPath: '/transaction/get/by/id/{transactionId}',
  statusByOrderPath: '/transaction/get/by/orderId/{orderId}',
  balancePath: '/transaction/get/balance',
} as const;

/**
 * The fixed part of a path template, before its first `{placeholder}`:
 * `/transaction/get/by/id/{transactionId}` → `/transaction/get/by/id/`; a template without one is returned whole.
 */
export function templatePrefix(template: string): string {
  const i = template.indexOf('{');
  return i < 0 ? template : template.slice(0, i);
}
