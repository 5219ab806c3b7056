/**
 * The keys `paycli config` accepts, with what each means. Shared by the config command, the
 * settings resolution and shell completion. Which values are secrets is decided in
 * src/core/secrets.ts (the one rule): `api-key` and every `header.<Name>`.
 */
import { DEFAULT_LOOKUP_PATHS } from '../gateway/contract.js';
import { HEADER_PREFIX, isSecretKey, maskSecret } from '../core/secrets.js';
import { isHeaderName } from '../gateway/net.js';

export { HEADER_PREFIX, isSecretKey, maskSecret };

/** A config key and its help text. `secret` keys are masked wherever they are shown. */
export interface ConfigKey {
  name: string;
  description: string;
  secret?: boolean;
}

/** Every fixed key; `header.<Name>` keys are accepted as well (see {@link isValidKey}). */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  { name: 'base-url', description: 'gateway base URL for both operations, or "sandbox" (default: sandbox)' },
  { name: 'cashin-base-url', description: 'base URL for cash-ins only (gateways that serve them from another host)' },
  { name: 'cashout-base-url', description: 'base URL for cash-outs only' },
  { name: 'api-key', description: 'the gateway API key, sent as "Authorization: Bearer <key>"', secret: true },
  {
    name: 'api-key-store',
    description: 'keychain: the API key is in the system keychain (set by paycli auth login or config set api-key; removed by auth logout or config unset)',
  },
  { name: 'auth-header', description: 'send the API key raw under this header instead of Authorization: Bearer' },
  { name: 'allow-insecure-http', description: 'true: this profile may send to a plain http:// base URL off loopback (set with base-url and --allow-insecure-http)' },
  { name: 'lang', description: 'language of messages and help: pt-BR or en (default: LC_ALL/LC_MESSAGES/LANG; --lang overrides it)' },
  { name: 'timeout', description: 'request timeout: 30s, 500ms, 2m, or a plain number of milliseconds (default 30s)' },
  { name: 'settle-after', description: 'how long past a payment\'s deadline a lookup\'s "not found" still proves nothing (default 2m; e.g. 90s, 5m)' },
  { name: 'duplicate-window', description: 'how long an identical cash-out is refused: 10 (minutes), 30m, 1h (default 10; 0 = off; an unknown outcome blocks until resolved)' },
  // Beyond the interface: the gateway family's order references and lookups (docs/order-references.md "Beyond the interface").
  { name: 'order-id', description: 'auto (default): give every payment without --order-id a reference paycli-<ULID>; off: send orderId only when given' },
  { name: 'lookup', description: 'auto (default): ask the gateway by orderId before a cash-out and after an unknown outcome; off: never' },
  { name: 'lookup-base-url', description: 'base URL for status, balance and lookups (default: base-url)' },
  { name: 'status-path', description: `lookup path by transaction id (default ${DEFAULT_LOOKUP_PATHS.statusPath})` },
  { name: 'status-by-order-path', description: `lookup path by order reference (default ${DEFAULT_LOOKUP_PATHS.statusByOrderPath})` },
  // The team ledger (docs/ledger-and-safety.md "Team ledger").
  { name: 'ledger-url', description: 'postgres://USER@HOST:PORT/DATABASE: record payments in this team ledger instead of the local one (PAYCLI_LEDGER_URL overrides)' },
  { name: 'ledger-password', description: "the team ledger's password when ledger-url holds none (then PGPASSWORD, then ~/.pgpass)", secret: true },
  { name: 'balance-path', description: `balance path (default ${DEFAULT_LOOKUP_PATHS.balancePath})` },
];

/**
 * The config key that records where the secret config key `key` is kept (src/core/secrets.ts
 * `isSecretKey`): `api-key-store`, `ledger-password-store`, `header-store.<Name>`; its value
 * `keychain` means the system keychain holds the secret and the config file does not
 * (docs/configuration.md "Where secrets are kept").
 */
export function secretStoreKey(key: string): string {
  return key.startsWith(HEADER_PREFIX) ? `header-store.${key.slice(HEADER_PREFIX.length)}` : `${key}-store`;
}

/** True for a fixed key or a `header.<Name>` key with a valid HTTP header name. */
export function isValidKey(key: string): boolean {
  if (CONFIG_KEYS.some((k) => k.name === key)) return true;
  return key.startsWith(HEADER_PREFIX) && isHeaderName(key.slice(HEADER_PREFIX.length));
}
