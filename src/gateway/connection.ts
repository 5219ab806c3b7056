/**
 * The settings of one gateway connection, as the client and the lookups read them: where to send,
 * with which credential and headers, how long to wait, and the profile's payment options. The
 * config layer (src/config/settings.ts `settingsFor`) resolves them from flags, environment and
 * profile; this file only names their shape, so the gateway layer depends on nothing above it.
 */
import type { Endpoint } from './endpoint.js';
import type { OrderIdMode } from './order-id.js';

/** Default `settle-after`: 2 minutes past a payment's deadline, in milliseconds. */
export const DEFAULT_SETTLE_AFTER_MS = 120_000;

/** Everything the HTTP client needs for one operation. */
export interface Settings {
  /** Name of the profile in use. */
  profile: string;
  /** Where the operation goes: the built-in sandbox or a gateway's base URL (src/gateway/endpoint.ts). */
  endpoint: Endpoint;
  /** API key, when configured. */
  apiKey?: string;
  /** Header that carries the key raw; absent means `Authorization: Bearer <key>`. */
  authHeader?: string;
  /** Extra static headers from `header.<Name>` keys. */
  headers: Record<string, string>;
  /** Request timeout, in milliseconds. */
  timeoutMs: number;
  /** Duplicate cash-out window, in minutes; 0 = off (an unknown outcome blocks regardless). */
  duplicateWindowMin: number;
  /**
   * `settle-after`, in milliseconds: how long past a payment's deadline a "Transaction not found"
   * still proves nothing (docs/ledger-and-safety.md, "In flight"); default {@link DEFAULT_SETTLE_AFTER_MS}.
   */
  settleAfterMs: number;
  /** `--allow-insecure-http`. */
  allowInsecureHttp: boolean;
  /** Config key `order-id`: `auto` gives every payment without one a fresh `orderId` (src/gateway/order-id.ts). */
  orderId: OrderIdMode;
  /**
   * Config key `lookup`: `auto` asks the gateway by `orderId` before a cash-out with a caller's
   * reference and after an unknown outcome (and remembers when it has no lookup path); `off` never.
   */
  lookup: 'auto' | 'off';
  /** Lookup path templates (config keys `status-path`, `status-by-order-path`, `balance-path`). */
  statusPath: string;
  statusByOrderPath: string;
  balancePath: string;
}
