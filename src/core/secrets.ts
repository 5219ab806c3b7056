/**
 * The one rule for secrets (docs/configuration.md "Secrets"). A secret is:
 * - the API key (config key `api-key`, `PAYCLI_API_KEY`, `--api-key` of the sandbox tools);
 * - the team ledger's password (config key `ledger-password`);
 * - the value of every `header.<Name>` config key (gateways put client secrets there, e.g. `header.cs`);
 * - the user-info (`user:password@`) of any URL;
 * - a postback signing secret.
 * Wherever a secret could be shown it is replaced: masked (`••••`, plus the last 4 characters of a
 * long one) where the user asks to see a setting (`config get/list/set`), `[redacted]` in every
 * other output (stdout and stderr in every mode: human, `--json`, `--dry-run`, `--verbose`,
 * errors) and in what is written to the ledger. A secret is redacted whatever its length: one of 4
 * characters or more wherever it occurs, a shorter one wherever it stands as a whole word (not
 * inside a longer run of letters, digits, `-` and `_`), so that it is hidden without shredding
 * every number, word and config key name of the output.
 *
 * This module has no dependencies: the logger loads it on every start.
 */

/** What replaces a secret in output. */
export const REDACTED = '[redacted]';

/** Secrets of 4 characters or more are hidden wherever they occur; shorter ones as whole words. */
const SUBSTRING_MIN = 4;

/** Prefix of the config keys that add a static header (`header.X-Client-Id`). */
export const HEADER_PREFIX = 'header.';

/** True when the config key's value is a secret: `api-key`, `ledger-password` and every `header.<Name>`. */
export function isSecretKey(key: string): boolean {
  return key === 'api-key' || key === 'ledger-password' || key.toLowerCase().startsWith(HEADER_PREFIX);
}

/**
 * Masks a secret for `config get/list/set`: `••••` plus the last 4 characters when the secret has
 * 16 or more (then the 4 give no useful head start to a guesser), else `••••` alone.
 */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `••••${value.slice(-4)}` : '••••';
}

/**
 * A key as `paycli auth status` shows it, so that a person can tell which key it is: its first and
 * last 4 characters around `…`, fewer for a short key so that never more than half of it shows
 * (`sk_live_0123456789abcdef` → `sk_l…cdef`; 8 characters → `sk…ef`; under 4 → `••••`).
 */
export function maskKeyEnds(value: string): string {
  const n = Math.min(4, Math.floor(value.length / 4));
  return n === 0 ? '••••' : `${value.slice(0, n)}…${value.slice(-n)}`;
}

// `scheme://userinfo@`: the user-info of a URL, which may hold a password or a token.
const URL_USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/g;

/**
 * Replaces the user-info of every URL in `text` with `[redacted]`:
 * `https://user:pw@host/x` → `https://[redacted]@host/x`.
 */
export function redactUrls(text: string): string {
  return text.replace(URL_USERINFO, `$1${REDACTED}@`);
}

/**
 * A base URL as typed, for an error message: its user-info redacted even when the text is not a
 * URL at all (`u:pw@host`, `https//u:pw@host`), where {@link redactUrls} finds no scheme to anchor
 * on. Anything before the last `@` is hidden then, keeping only a leading `scheme://`.
 */
export function shownUrlInput(text: string): string {
  const redacted = redactUrls(text);
  if (!redacted.includes('@') || redacted.includes(`${REDACTED}@`)) return redacted;
  return text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)?.*@/s, `$1${REDACTED}@`);
}

/** A config value as `config get/list` shows it: secrets masked, URL user-info redacted. */
export function shownSetting(key: string, value: string): string {
  return isSecretKey(key) ? maskSecret(value) : redactUrls(value);
}

const secrets = new Set<string>();
let patterns: RegExp[] | undefined;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Registers a secret so that {@link redact} hides it wherever it would be printed or recorded.
 * Its JSON-escaped form is registered too (a secret with `"` or `\` inside a JSON document).
 * Empty and absent values are ignored.
 */
export function registerSecret(secret: string | undefined): void {
  if (!secret) return;
  for (const form of [secret, secret.trim(), JSON.stringify(secret).slice(1, -1)]) {
    if (form && !secrets.has(form)) {
      secrets.add(form);
      patterns = undefined;
    }
  }
}

/**
 * Registers every secret of a config profile (a map of config key → value): `api-key`, every
 * `header.<Name>` value, and the user-info of the base URLs.
 */
export function registerProfileSecrets(profile: Record<string, unknown> | undefined): void {
  if (!profile || typeof profile !== 'object') return;
  for (const [k, v] of Object.entries(profile)) {
    if (typeof v !== 'string') continue;
    if (isSecretKey(k)) registerSecret(v);
    else registerUrlSecrets(v);
  }
}

/** Registers the user name and password of a URL (decoded and as written) as secrets. */
export function registerUrlSecrets(url: string | undefined): void {
  if (!url || !URL.canParse(url)) return;
  const u = new URL(url);
  for (const part of [u.username, u.password]) {
    if (!part) continue;
    registerSecret(part);
    try {
      registerSecret(decodeURIComponent(part));
    } catch {
      /* not percent-encoded text: the raw form is registered */
    }
  }
}

/** Forgets every registered secret (unit tests). */
export function clearSecrets(): void {
  secrets.clear();
  patterns = undefined;
}

function compile(): RegExp[] {
  // Longest first, so that a secret containing another is replaced whole.
  const sorted = [...secrets].sort((a, b) => b.length - a.length);
  // A short one only as a whole word, where `-` and `_` join words: the key `key` hides in
  // `Bearer key` but leaves the name `api-key` whole.
  return sorted.map((s) => (s.length >= SUBSTRING_MIN ? new RegExp(escapeRegExp(s), 'g') : new RegExp(`(?<![\\p{L}\\p{N}_-])${escapeRegExp(s)}(?![\\p{L}\\p{N}_-])`, 'gu')));
}

/**
 * Replaces every registered secret and every URL user-info in `text` with `[redacted]`
 * (module doc). Every byte paycli writes to stdout, stderr or the ledger passes through here.
 */
export function redact(text: string): string {
  let out = redactUrls(text);
  if (secrets.size === 0) return out;
  patterns ??= compile();
  for (const p of patterns) out = out.replace(p, REDACTED);
  return out;
}

/** {@link redact} applied to every string (and key) of a JSON value; returns a copy. */
export function redactJson<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map(redactJson) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k)] = redactJson(v);
    return out as T;
  }
  return value;
}

/**
 * A URL for display: its user-info replaced with `[redacted]`, as {@link redactUrls} does;
 * `https://u:pw@gw.example/x` → `https://[redacted]@gw.example/x`.
 */
export function redactUrl(url: string): string {
  return redactUrls(url);
}

/**
 * Registers the secrets of the settings a request is sent with: the API key, every static header
 * value (`header.<Name>`) and the user-info of the base URL.
 */
export function registerRequestSecrets(settings: { apiKey?: string; headers: Record<string, string>; baseUrl?: string }): void {
  registerSecret(settings.apiKey);
  for (const v of Object.values(settings.headers)) registerSecret(v);
  registerUrlSecrets(settings.baseUrl);
}

/** Registers the secrets of every profile of a config file (`{"profiles": {name: {key: value}}}`). */
export function registerConfigSecrets(config: { profiles?: Record<string, Record<string, unknown>> } | undefined): void {
  const profiles = config?.profiles;
  if (!profiles || typeof profiles !== 'object') return;
  for (const p of Object.values(profiles)) registerProfileSecrets(p);
}

/**
 * True for the name of a header that carries a credential in a request paycli did not build (a
 * postback `listen` received): its value is shown as `[redacted]`. paycli's own headers need no
 * guess: every configured one is a secret.
 */
export function isCredentialHeader(name: string): boolean {
  return /auth|key|secret|token|cookie|session|password/i.test(name);
}
