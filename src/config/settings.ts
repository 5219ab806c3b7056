/**
 * Resolves the settings a request is sent with, from (highest first) flags, environment
 * variables (`PAYCLI_PROFILE`, `PAYCLI_BASE_URL`, `PAYCLI_API_KEY`) and the profile in the
 * config file. Reads the config file directly (a JSON object written by `conf` in
 * `src/cli/run/config.ts`) so that the request path does not load `conf`.
 *
 * Longer than 500 lines: every setting's precedence (flag, environment, profile) is resolved here in one
 * place, so that a rule of where a value comes from is written once.
 */
import { parseDuration } from '../core/duration.js';
import { AuthError, UsageError } from '../core/errors.js';
import { HEADER_PREFIX, secretStoreKey } from './keys.js';
import { readConfigFile, profileName, type ConfigFile, type GlobalFlags } from './config-file.js';
import { logger } from '../core/logger.js';
import { registerRequestSecrets, shownUrlInput } from '../core/secrets.js';
import { sanitizeText } from '../core/sanitize.js';
import { keychainGet, keychainName } from './keychain.js';
import { BUILT_IN_SANDBOX, endpointHost, endpointSetting, isSandbox, parseEndpoint, type Endpoint } from '../gateway/endpoint.js';
import { DEFAULT_LOOKUP_PATHS } from '../gateway/contract.js';
/** Default request timeout, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default duplicate-cash-out window, in minutes. */
export const DEFAULT_DUPLICATE_WINDOW_MIN = 10;

// The config file itself (trust, reading, shape, the profile's name) is src/config/config-file.ts.
export { checkConfigShape, profileName, readConfigFile, trustConfigFile, type ConfigFile, type GlobalFlags } from './config-file.js';

export type { Settings } from '../gateway/connection.js';
import type { Settings } from '../gateway/connection.js';
import { DEFAULT_SETTLE_AFTER_MS } from '../gateway/connection.js';
import { t } from '../core/i18n/index.js';

/** Which request the settings are for: an operation, or a lookup (`status`, `balance`, `reconcile`). */
export type SettingsOp = 'cashin' | 'cashout' | 'lookup';

/** A config value that must be one of `choices` (the first is the default). @throws UsageError */
function choice<T extends string>(value: string | undefined, choices: readonly T[], key: string, profile?: string): T {
  if (value === undefined || value === '') return choices[0]!;
  const v = value.trim().toLowerCase();
  if ((choices as readonly string[]).includes(v)) return v as T;
  throw new UsageError(t('settings.oneOf', profile ? t('settings.configKey', key, profile) : key, choices.join(', '), value), { field: key });
}

/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The configured profile nearest to `name` (same letters in another case, or at most 2 edits), if any. */
export function nearestProfile(name: string, names: readonly string[]): string | undefined {
  const ranked = names.map((n) => ({ n, d: n.toLowerCase() === name.toLowerCase() ? 0 : distance(name.toLowerCase(), n.toLowerCase()) })).sort((a, b) => a.d - b.d);
  return ranked[0] && ranked[0].d <= 2 ? ranked[0].n : undefined;
}

/**
 * The one check of a profile named by `--profile` or `PAYCLI_PROFILE`, for every command (docs/configuration.md). Fail closed: a named profile that is not configured is an error
 * (exit 2, `unknown_profile`, with "did you mean"), never the built-in sandbox nor a new profile.
 * `default` always exists (it may be empty); `extra` names other profiles the caller knows (those
 * of the ledger, for `history`); `action` ends the message (default "nothing was sent"), `hint`
 * replaces the list of configured profiles.
 * @returns the profile name, and whether it was named
 * @throws UsageError `unknown_profile`
 */
export function checkProfile(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv = process.env,
  config: ConfigFile = readConfigFile(),
  opts: { extra?: (name: string) => boolean; action?: string; hint?: string } = {},
): { name: string; named: boolean } {
  const name = profileName(flags, env);
  const profiles = config.profiles ?? {};
  const names = Object.keys(profiles);
  const named = Boolean(flags.profile || env.PAYCLI_PROFILE);
  if (named && name !== 'default' && !Object.hasOwn(profiles, name) && !opts.extra?.(name)) {
    const near = nearestProfile(name, names);
    const source = flags.profile ? '--profile' : 'PAYCLI_PROFILE';
    throw new UsageError(
      t('settings.unknownProfile', name, source, near ?? '', opts.action ?? t('common.nothingSent')),
      {
        field: source,
        hint: opts.hint ?? (names.length ? t('settings.configuredProfiles', names.join(', ')) : t('settings.noProfiles')),
      },
      'unknown_profile',
    );
  }
  return { name, named };
}

/**
 * The profile a request uses, from the config file (docs/configuration.md): checked
 * by {@link checkProfile}, unless `missingOk` (reconcile asking about a payment recorded under a
 * profile the config file no longer has, with flags and environment giving the rest).
 * @returns the profile's keys, and whether any configuration exists at all
 * @throws UsageError `unknown_profile`
 */
export function selectProfile(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv = process.env,
  config: ConfigFile = readConfigFile(),
  missingOk = false,
): { name: string; keys: Record<string, string>; configured: boolean } {
  const name = missingOk ? profileName(flags, env) : checkProfile(flags, env, config).name;
  const profiles = config.profiles ?? {};
  return { name, keys: (Object.hasOwn(profiles, name) ? profiles[name] : undefined) ?? {}, configured: Object.keys(profiles).length > 0 };
}

/** The longest request timeout paycli takes: one hour, in milliseconds (docs/configuration.md). */
export const MAX_TIMEOUT_MS = 3_600_000;

/**
 * A request timeout (`--timeout`, config key `timeout`) in the one duration syntax (src/core/duration.ts):
 * `30s`, `500ms`, `2m`, a plain number in milliseconds; 1 ms to {@link MAX_TIMEOUT_MS}.
 * @returns milliseconds
 * @throws UsageError naming the source
 */
export function timeoutMs(text: string, source: string): number {
  const ms = parseDuration(text, 'ms');
  if (ms === undefined || ms < 1 || ms > MAX_TIMEOUT_MS)
    throw new UsageError(t('settingsValue.positiveInt', source, t('settingsValue.timeout'), MAX_TIMEOUT_MS, text), { field: source });
  return ms;
}

/** The longest `settle-after`: one day, in milliseconds. */
export const MAX_SETTLE_AFTER_MS = 86_400_000;

/**
 * `settle-after` (config key, or `PAYCLI_SETTLE_AFTER`): how long past a payment's deadline a
 * gateway's "not found" still proves nothing (docs/ledger-and-safety.md, "In flight"): a duration
 * (src/core/duration.ts), `90s`, `2m`, `1h`, `500ms`, a plain number in seconds; `0` for none.
 * @returns milliseconds
 * @throws UsageError naming the source
 */
export function settleAfterMs(text: string, source: string): number {
  const ms = parseDuration(text, 's') ?? NaN;
  if (!(ms >= 0 && ms <= MAX_SETTLE_AFTER_MS)) throw new UsageError(t('settingsValue.settleAfter', source, text), { field: source });
  return ms;
}

/**
 * The shortest `settle-after` for a gateway that is not the sandbox or on loopback: one minute
 * (docs/ledger-and-safety.md, "In flight"). paycli's deadline is when it stops waiting, not when
 * the gateway stops working: a request that left may sit in the gateway's queues and be created
 * seconds later, so a "not found" right at the deadline proves nothing, and a payment settled
 * `not_sent` on it would be sent a second time.
 */
export const MIN_REMOTE_SETTLE_AFTER_MS = 60_000;

/**
 * Refuses a `settle-after` below {@link MIN_REMOTE_SETTLE_AFTER_MS} for a gateway that is not the
 * sandbox or on loopback (where tests use 0: their gateway answers or not, nothing is queued).
 * @throws UsageError (exit 2, nothing sent) naming where the value came from
 */
function checkSettleFloor(ms: number, endpoint: Endpoint, source: string): void {
  if (ms >= MIN_REMOTE_SETTLE_AFTER_MS || isSandbox(endpoint)) return;
  // a URL that does not parse is checkBaseUrl's to name
  if (!URL.canParse(endpoint.url) || isLoopbackHost(new URL(endpoint.url).hostname)) return;
  throw new UsageError(t('settingsValue.settleAfterFloor', source, ms, MIN_REMOTE_SETTLE_AFTER_MS / 1000), { field: 'settle-after' });
}

/**
 * `duplicate-window` in the one duration syntax (src/core/duration.ts): `10`, `1h`, `30m`, `0` turning
 * the time window off (an unknown outcome still blocks); a plain number is minutes, and the window is
 * whole minutes.
 * @returns minutes
 * @throws UsageError naming the source
 */
export function windowMinutes(text: string, source: string): number {
  const ms = parseDuration(text, 'm');
  if (ms === undefined || ms % 60_000 !== 0) throw new UsageError(t('settingsValue.window', source, text), { field: source });
  return ms / 60_000;
}

/**
 * The gateway settings present in a request's sources other than a base URL: a credential (the
 * environment's `PAYCLI_API_KEY`, the profile's `api-key` or keychain key), a way to send it
 * (`auth-header`, `header.<Name>`), a base URL for another operation, a lookup path, or
 * `allow-insecure-http` (flag or profile). Any of them says a gateway was meant, so a request without
 * a base URL must not fall back to the built-in sandbox (docs/configuration.md "Which gateway").
 * @returns the names of the settings found, as the user wrote them (`PAYCLI_API_KEY`, `api-key`, `header.X-Cs`)
 */
export function gatewaySettingsPresent(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Record<string, string>): string[] {
  const found: string[] = [];
  if (env.PAYCLI_API_KEY) found.push('PAYCLI_API_KEY');
  if (flags.allowInsecureHttp) found.push('--allow-insecure-http');
  for (const [k, v] of Object.entries(profile)) if (v !== '' && (GATEWAY_KEYS.includes(k) || k.startsWith(HEADER_PREFIX) || k.startsWith('header-store.'))) found.push(k);
  return found;
}

/** The profile keys that only a gateway uses (see {@link gatewaySettingsPresent}). */
const GATEWAY_KEYS: readonly string[] = [
  'base-url',
  'cashin-base-url',
  'cashout-base-url',
  'lookup-base-url',
  'api-key',
  'api-key-store',
  'auth-header',
  'allow-insecure-http',
  'status-path',
  'status-by-order-path',
  'balance-path',
];

/**
 * The base URL of a request: `--base-url`, `PAYCLI_BASE_URL`, then the profile. A lookup uses
 * `lookup-base-url`, else `base-url`, else the host of the operation it is about (`about`; for
 * `status` and `balance`, `cashout-base-url` then `cashin-base-url`). Without one, the built-in
 * sandbox only when no gateway setting is present ({@link gatewaySettingsPresent}): a credential
 * or a half set-up profile without a base URL is exit 2, nothing sent, never a sandbox "success".
 * @throws UsageError `usage` naming the missing `base-url` and the settings that were found
 */
function baseUrlOf(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  profile: Record<string, string>,
  op: SettingsOp,
  about: 'cashin' | 'cashout' | undefined,
  profileName: string,
): string {
  const fromProfile =
    op === 'lookup'
      ? profile['lookup-base-url'] || profile['base-url'] || (about ? profile[`${about}-base-url`] : profile['cashout-base-url'] || profile['cashin-base-url'])
      : profile[`${op}-base-url`] || profile['base-url'];
  const chosen = (flags.baseUrl || env.PAYCLI_BASE_URL || fromProfile || '').trim();
  if (chosen) return chosen;
  const present = gatewaySettingsPresent(flags, env, profile);
  if (present.length > 0) {
    throw new UsageError(
      t('settings.noBaseUrl', profileName, op, present.join(', ')),
      {
        field: 'base-url',
        hint: t('settings.noBaseUrlHint', `paycli config set base-url <url>${profileName === 'default' ? '' : ` --profile ${profileName}`}`),
      },
      'usage',
    );
  }
  return BUILT_IN_SANDBOX;
}

/** A lookup path template; it must be an absolute path holding `placeholder` (when given). @throws UsageError */
function pathTemplate(value: string | undefined, fallback: string, key: string, profile: string | undefined, placeholder?: string): string {
  if (value === undefined || value === '') return fallback;
  const v = value.trim();
  if (!v.startsWith('/') || (placeholder && !v.includes(placeholder))) {
    throw new UsageError(t('settingsValue.path', profile ? t('settings.configKey', key, profile) : key, placeholder ?? '', fallback, value), { field: key });
  }
  return v;
}

/**
 * Checks a value for the keys of order references and lookups (`order-id`, `lookup`,
 * `status-path`, `status-by-order-path`, `balance-path`) as `paycli config set` stores it.
 * @throws UsageError
 */
export function checkLookupSetting(key: string, value: string): void {
  if (key === 'order-id') choice(value, ['auto', 'off'] as const, key, undefined);
  if (key === 'lookup') choice(value, ['auto', 'off'] as const, key, undefined);
  if (key === 'status-path') pathTemplate(value, DEFAULT_LOOKUP_PATHS.statusPath, key, undefined, '{transactionId}');
  if (key === 'status-by-order-path') pathTemplate(value, DEFAULT_LOOKUP_PATHS.statusByOrderPath, key, undefined, '{orderId}');
  if (key === 'balance-path') pathTemplate(value, DEFAULT_LOOKUP_PATHS.balancePath, key, undefined);
}

/**
 * Resolves the settings of one operation or lookup from the config file and the environment of
 * this process (docs/configuration.md): see {@link settingsFrom}.
 * @throws UsageError as {@link settingsFrom}; a config file that cannot be trusted or read
 */
export function resolveSettings(
  flags: GlobalFlags & { profileFromLedger?: boolean },
  op: SettingsOp,
  about?: 'cashin' | 'cashout',
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  return settingsFrom({ flags, env, config: readConfigFile(), op, about });
}

/**
 * The settings of one operation or lookup; the one precedence rule, without side effects:
 * flags, then the environment (`PAYCLI_PROFILE`, `PAYCLI_BASE_URL`, `PAYCLI_API_KEY`), then the
 * profile's keys, then the defaults; the built-in sandbox only when named or when no gateway
 * setting is present at all (see {@link gatewaySettingsPresent}).
 * @param op which request: `cashin` / `cashout` (for `cashin-base-url` / `cashout-base-url`), or `lookup`
 * @param about for a lookup, which operation it is about (chooses that operation's host as a fallback)
 * @throws UsageError `unknown_profile`; a profile without base URL; a malformed timeout, base URL, lookup path or mode
 */
export function settingsFrom(input: {
  flags: GlobalFlags & { profileFromLedger?: boolean };
  env: NodeJS.ProcessEnv;
  config: ConfigFile;
  op: SettingsOp;
  about?: 'cashin' | 'cashout';
}): Settings {
  const { flags, env, op, about } = input;
  const { name, keys: profile } = selectProfile(flags, env, input.config, Boolean(flags.profileFromLedger));
  const endpoint = parseEndpoint(baseUrlOf(flags, env, profile, op, about, name));
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(profile)) if (k.startsWith(HEADER_PREFIX)) headers[k.slice(HEADER_PREFIX.length)] = v;
  const requestTimeoutMs = flags.timeout
    ? timeoutMs(flags.timeout, '--timeout')
    : profile.timeout
      ? timeoutMs(profile.timeout, t('settings.configKey', 'timeout', name))
      : DEFAULT_TIMEOUT_MS;
  const windowText = profile['duplicate-window'];
  const settleSource: [string, string] | undefined = env.PAYCLI_SETTLE_AFTER
    ? [env.PAYCLI_SETTLE_AFTER, 'PAYCLI_SETTLE_AFTER']
    : profile['settle-after']
      ? [profile['settle-after'], t('settings.configKey', 'settle-after', name)]
      : undefined;
  const settings: Settings = {
    profile: name,
    endpoint,
    apiKey: env.PAYCLI_API_KEY || profile['api-key'] || undefined,
    authHeader: profile['auth-header'] || undefined,
    headers,
    timeoutMs: requestTimeoutMs,
    duplicateWindowMin: windowText ? windowMinutes(windowText, t('settings.configKey', 'duplicate-window', name)) : DEFAULT_DUPLICATE_WINDOW_MIN,
    settleAfterMs: settleSource ? settleAfterMs(settleSource[0], settleSource[1]) : DEFAULT_SETTLE_AFTER_MS,
    allowInsecureHttp: Boolean(flags.allowInsecureHttp) || choice(profile['allow-insecure-http'], ['false', 'true'] as const, 'allow-insecure-http', name) === 'true',
    orderId: choice(profile['order-id'], ['auto', 'off'] as const, 'order-id', name),
    lookup: choice(profile.lookup, ['auto', 'off'] as const, 'lookup', name),
    statusPath: pathTemplate(profile['status-path'], DEFAULT_LOOKUP_PATHS.statusPath, 'status-path', name, '{transactionId}'),
    statusByOrderPath: pathTemplate(profile['status-by-order-path'], DEFAULT_LOOKUP_PATHS.statusByOrderPath, 'status-by-order-path', name, '{orderId}'),
    balancePath: pathTemplate(profile['balance-path'], DEFAULT_LOOKUP_PATHS.balancePath, 'balance-path', name),
  };
  if (!isSandbox(endpoint)) checkBaseUrl(endpoint.url, settings.allowInsecureHttp);
  if (settleSource) checkSettleFloor(settings.settleAfterMs, endpoint, settleSource[1]);
  return settings;
}

/** True for loopback hosts, where plain http cannot leak a key over a network. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}

/**
 * Checks a base URL: absolute http(s); plain http only to loopback unless `--allow-insecure-http`
 * (an API key must not travel in clear).
 * @throws UsageError
 */
export function checkBaseUrl(baseUrl: string, allowInsecureHttp: boolean): void {
  const shownInput = shownUrlInput(baseUrl);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(t('settings.baseUrlNotAbsolute', shownInput), { field: '--base-url' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(t('settings.baseUrlHttps', shownInput), { field: '--base-url' });
  }
  // A path is kept (`https://gw.example/api/v2` + `/transaction/cashout`, see src/gateway/client.ts); a
  // query or fragment has no place to go once the interface path is appended, so it is refused
  // rather than silently dropped or glued into the path.
  if (baseUrl.includes('?') || baseUrl.includes('#')) {
    const q = baseUrl.indexOf('?');
    const h = baseUrl.indexOf('#');
    const isQuery = q >= 0 && (h < 0 || q < h);
    // The query itself is not shown: it may carry a token.
    const shown = `${url.origin}${url.pathname}${isQuery ? '?…' : '#…'}`;
    throw new UsageError(t('settings.baseUrlQuery', shown, isQuery), {
      field: '--base-url',
      hint: t('settings.baseUrlQueryHint'),
    });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new UsageError(t('settings.baseUrlHttp', shownInput), {
      field: '--base-url',
      hint: t('settings.baseUrlHttpHint'),
    });
  }
}

/**
 * True when a request goes without a credential because none is configured and the base URL is
 * on loopback (a standalone `paycli sandbox`, a local test gateway): nothing leaves the machine,
 * so trying the sandbox needs no key (docs/sandbox-and-postbacks.md "The built-in sandbox").
 */
export function keylessLoopback(settings: Settings): boolean {
  if (isSandbox(settings.endpoint) || settings.apiKey) return false;
  try {
    return isLoopbackHost(new URL(settings.endpoint.url).hostname);
  } catch {
    return false;
  }
}

const keylessNoticed = new Set<string>();
const keychainSecrets = new Map<string, string | undefined>();

/** Where a profile's API key is kept, by what the config file says: `keychain` when `auth login` or `config set` put it there. */
export function keyStoreOf(config: ConfigFile, profile: string, key = 'api-key'): 'keychain' | 'file' | undefined {
  const keys = config.profiles?.[profile];
  if (keys?.[secretStoreKey(key)] === 'keychain') return 'keychain';
  return keys?.[key] ? 'file' : undefined;
}

/**
 * A profile's secret config key (`api-key`, `header.<Name>`, `ledger-password`) where it is kept
 * (docs/configuration.md "Where secrets are kept"): the system keychain (src/config/keychain.ts)
 * when the profile says so, else the config file. The keychain library is loaded on no other path
 * (docs/speed.md), and asked once per process. Fail closed: a keychain that cannot be read is
 * exit 3, nothing sent.
 * @throws AuthError `no_credential`
 */
export function keptSecret(config: ConfigFile, profile: string, key: string): string | undefined {
  if (keyStoreOf(config, profile, key) !== 'keychain') return config.profiles?.[profile]?.[key] || undefined;
  const id = `${profile}\n${key}`;
  if (keychainSecrets.has(id)) return keychainSecrets.get(id);
  let secret: string | undefined;
  try {
    secret = keychainGet(profile, key);
  } catch (err) {
    throw new AuthError(
      t('settings.keychainUnreadable', profile, keychainName(), sanitizeText((err as Error).message, true), key),
      {
        hint: t('settings.keychainHint', `paycli ${key === 'api-key' ? 'auth login' : `config set ${key}`}${profile === 'default' ? '' : ` --profile ${profile}`}`),
      },
      'no_credential',
    );
  }
  keychainSecrets.set(id, secret);
  return secret;
}

/** The `header.<Name>` values a profile keeps in the keychain (`header-store.<Name>` = `keychain`), by header name. @throws as {@link keptSecret} */
function keychainHeaders(config: ConfigFile, profile: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.profiles?.[profile] ?? {})) {
    if (!k.startsWith('header-store.') || v !== 'keychain') continue;
    const name = k.slice('header-store.'.length);
    const value = keptSecret(config, profile, `${HEADER_PREFIX}${name}`);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * Resolves settings and checks the credential: a real gateway needs an API key (exit 3 before
 * anything is sent; `--dry-run` only warns); the sandbox does not, nor a base URL on loopback
 * (one notice, sent without a credential). Registers the key for redaction.
 * The loopback notice is said once per process, however many requests follow (a cash-out and its lookup).
 * @param flags with `profileFromLedger` when the profile comes from a ledger entry, not from the user
 *   (reconcile): a profile the config file lacks is then empty, not an error
 * @param about for a lookup (`op` = `lookup`), the operation it is about ({@link resolveSettings})
 */
export function settingsFor(
  flags: GlobalFlags & { dryRun?: boolean; profileFromLedger?: boolean },
  op: SettingsOp,
  about?: 'cashin' | 'cashout',
  opts: { quiet?: boolean; env?: NodeJS.ProcessEnv } = {},
): Settings {
  const config = readConfigFile();
  const settings = settingsFrom({ flags, env: opts.env ?? process.env, config, op, about });
  if (!isSandbox(settings.endpoint)) {
    if (!settings.apiKey) settings.apiKey = keptSecret(config, settings.profile, 'api-key');
    Object.assign(settings.headers, keychainHeaders(config, settings.profile));
  }
  registerRequestSecrets({ ...settings, baseUrl: endpointSetting(settings.endpoint) });
  const noticeKey = `${settings.profile}\n${endpointHost(settings.endpoint)}`;
  if (keylessLoopback(settings)) {
    if (opts.quiet || keylessNoticed.has(noticeKey)) return settings; // said once, for the operation the lookups are about
    keylessNoticed.add(noticeKey);
    logger.notice(t('settings.noKeyLoopback', settings.profile, endpointHost(settings.endpoint)));
  } else if (!isSandbox(settings.endpoint) && !settings.apiKey && !flags.dryRun) {
    throw new AuthError(
      t('settings.noKey', settings.profile),
      {
        hint: t('settings.noKeyHint', `paycli auth login${settings.profile === 'default' ? '' : ` --profile ${settings.profile}`}`),
      },
      'no_credential',
    );
  }
  return settings;
}
