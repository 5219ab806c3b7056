/**
 * The one check of an HTTP header name and the one parser of a TCP port, shared by `config`
 * (`header.<Name>`, `auth-header`), `sandbox --port` and `listen --port`. Light (src/core/errors.ts
 * only): the command definitions may load it.
 */
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';

/** An HTTP field name: a `token` of RFC 9110 §5.1 (letters, digits and ``!#$%&'*+-.^_`|~``). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** True when `name` is a valid HTTP header name (RFC 9110 §5.1), e.g. `X-Client-Id`. */
export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/**
 * Reads a TCP port number written in decimal: `0` (any free port) to `65535`, surrounding spaces
 * allowed, nothing else (no sign, no `0x`, no exponent, no fraction).
 * @returns the port, or `null` when `text` is not one
 */
export function parsePort(text: string): number | null {
  const t = text.trim();
  if (!/^[0-9]{1,5}$/.test(t)) return null;
  const port = Number(t);
  return port <= 65535 ? port : null;
}

/**
 * {@link parsePort} for a flag: the port, or a usage error naming the flag (exit 2).
 * @throws UsageError when `text` is not a port number 0-65535
 */
export function portFlag(text: string, flag = '--port'): number {
  const port = parsePort(text);
  if (port === null) throw new UsageError(t('net.port', flag, text), { field: flag });
  return port;
}

/**
 * True when `text` (surrounding spaces allowed) is an absolute `http://` or `https://` URL with a
 * host and no whitespace inside: the one rule for every URL paycli sends to or accepts
 * (`postbackUrl`, `--webhook-url`, `--forward-to`, `sandbox ping [url]`).
 */
export function isHttpUrl(text: string): boolean {
  const t = text.trim();
  return /^https?:\/\/\S+$/i.test(t) && URL.canParse(t) && new URL(t).hostname !== '';
}

/** Wait after a 429 without a usable `Retry-After`, and the longest wait honoured, in ms. */
const DEFAULT_RETRY_MS = 1000;
const MAX_RETRY_MS = 5 * 60_000;

/**
 * Parses `Retry-After` of a 429 (seconds, or an HTTP date) into milliseconds to wait: 1 s when absent
 * or unreadable, at most 5 min (batch runs and `--watch` both wait by it).
 */
export function retryAfterMs(header: string | undefined, now = Date.now()): number {
  if (header === undefined) return DEFAULT_RETRY_MS;
  const t = header.trim();
  if (/^[0-9]+$/.test(t)) return Math.min(Number(t) * 1000, MAX_RETRY_MS);
  const date = Date.parse(t);
  if (Number.isNaN(date)) return DEFAULT_RETRY_MS;
  return Math.min(Math.max(0, date - now), MAX_RETRY_MS);
}
