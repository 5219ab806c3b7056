/**
 * Where a request goes: the built-in sandbox, or a gateway at a base URL (docs/sandbox-and-postbacks.md
 * "The built-in sandbox", docs/configuration.md). Resolved once with the settings (src/config/settings.ts
 * `Settings.endpoint`); code asks these helpers rather than comparing strings. No imports: the
 * ledger's rules (src/ledger/rules.ts) use it without loading anything else.
 */

/** The value of the `base-url` keys (and of `--base-url`, `PAYCLI_BASE_URL`) that selects the built-in sandbox. */
export const BUILT_IN_SANDBOX = 'sandbox';

/**
 * What the ledger records as the target of a payment sent to the built-in sandbox, and the
 * endpoint identity of such a payment (src/ledger/rules.ts). Stored in existing ledgers: never change it.
 */
export const BUILT_IN_SANDBOX_TARGET = 'sandbox';

/** The endpoint of a request: the built-in sandbox, or a gateway at `url` (an absolute http(s) base URL, possibly with a path). */
export type Endpoint = { kind: 'sandbox' } | { kind: 'gateway'; url: string };

/** A gateway endpoint. */
export type GatewayEndpoint = Extract<Endpoint, { kind: 'gateway' }>;

/**
 * The endpoint a base-URL setting names: {@link BUILT_IN_SANDBOX} is the sandbox, anything else
 * a gateway at that URL (not checked here: src/config/settings.ts `checkBaseUrl`).
 */
export function parseEndpoint(baseUrl: string): Endpoint {
  return baseUrl === BUILT_IN_SANDBOX ? { kind: 'sandbox' } : { kind: 'gateway', url: baseUrl };
}

/** True for the built-in sandbox. */
export function isSandbox(endpoint: Endpoint): endpoint is { kind: 'sandbox' } {
  return endpoint.kind === 'sandbox';
}

/** True for a target or identity string the ledger recorded for the built-in sandbox ({@link BUILT_IN_SANDBOX_TARGET}). */
export function isSandboxTarget(target: string): boolean {
  return target === BUILT_IN_SANDBOX_TARGET;
}

/**
 * The endpoint as its base-URL setting reads: `sandbox`, or the URL as configured. For keys
 * that name a profile's gateway (src/gateway/lookup.ts remembers gateways without lookups by it).
 */
export function endpointSetting(endpoint: Endpoint): string {
  return isSandbox(endpoint) ? BUILT_IN_SANDBOX : endpoint.url;
}

/**
 * The host of a gateway endpoint for summaries (`api.gateway.example`, `127.0.0.1:4010`), or
 * `sandboxWords` for the built-in sandbox.
 * @throws TypeError when the gateway URL is not absolute (settings are checked before: src/config/settings.ts)
 */
export function endpointHost(endpoint: Endpoint, sandboxWords = 'SANDBOX'): string {
  return isSandbox(endpoint) ? sandboxWords : new URL(endpoint.url).host;
}

/** Joins a base URL (which may carry a path prefix) and an interface path: `https://gw.example/api` + `/transaction/cashout` → `https://gw.example/api/transaction/cashout`. */
export function joinUrl(baseUrl: string, path: string): string {
  const key = `${baseUrl}\n${path}`;
  let url = joined.get(key);
  if (url === undefined) {
    url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
    if (joined.size >= 64) joined.clear();
    joined.set(key, url);
  }
  return url;
}

/** {@link joinUrl}'s answers: a batch joins the same base and path for every row (docs/speed.md). */
const joined = new Map<string, string>();

/**
 * Where a payment to `path` goes, as the ledger records it (its `target`, from which the duplicate
 * guard's endpoint identity is derived: src/ledger/rules.ts): {@link BUILT_IN_SANDBOX_TARGET} for the
 * built-in sandbox, else the gateway's base URL joined with `path` ({@link joinUrl}).
 */
export function endpointTarget(endpoint: Endpoint, path: string): string {
  return isSandbox(endpoint) ? BUILT_IN_SANDBOX_TARGET : joinUrl(endpoint.url, path);
}
