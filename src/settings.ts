/**
 * Resolves the settings a request is sent with, from (highest first) flags, environment
 * variables (`PAYCLI_PROFILE`, `PAYCLI_BASE_URL`, `PAYCLI_API_KEY`) and the profile in the
 * config file. Reads the config file directly (a JSON object written by `conf` in
 * `src/run/config.ts`) so that the request path does not load `conf`.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';
import { configFile } from './paths.js';
import { HEADER_PREFIX } from './config-keys.js';

/** Value of the `base-url` keys that selects the built-in sandbox. */
export const SANDBOX = 'sandbox';
/** Default request timeout, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default duplicate-cash-out window, in minutes. */
export const DEFAULT_DUPLICATE_WINDOW_MIN = 10;

/** The stored config file: profiles by name, each a map of config key → string value. */
export interface ConfigFile {
  profiles?: Record<string, Record<string, string>>;
}

/** Reads the config file; a missing file is an empty config. @throws UsageError when it is not JSON */
export function readConfigFile(): ConfigFile {
  let text: string;
  try {
    text = readFileSync(configFile(), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as ConfigFile;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    throw new UsageError(`the config file ${configFile()} is not valid JSON; fix or delete it`);
  }
}

/** Global flags that affect settings (commander's global options). */
export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  timeout?: string;
  json?: boolean;
  verbose?: boolean;
  color?: boolean;
  allowInsecureHttp?: boolean;
}

/** Everything the HTTP client needs for one operation. */
export interface Settings {
  /** Name of the profile in use. */
  profile: string;
  /** Base URL of the operation, or {@link SANDBOX}. */
  baseUrl: string;
  /** API key, when configured. */
  apiKey?: string;
  /** Header that carries the key raw; absent means `Authorization: Bearer <key>`. */
  authHeader?: string;
  /** Extra static headers from `header.<Name>` keys. */
  headers: Record<string, string>;
  /** Request timeout, in milliseconds. */
  timeoutMs: number;
  /** Duplicate cash-out window, in minutes. */
  duplicateWindowMin: number;
  /** `--allow-insecure-http`. */
  allowInsecureHttp: boolean;
}

/** The profile name: `--profile`, else `PAYCLI_PROFILE`, else `default`. */
export function profileName(flags: GlobalFlags): string {
  return flags.profile || process.env.PAYCLI_PROFILE || 'default';
}

function positiveInt(text: string, what: string, source: string): number {
  if (!/^[0-9]+$/.test(text.trim()) || Number(text) <= 0) {
    throw new UsageError(`${source}: ${what} must be a positive whole number, got "${text}"`, { field: source });
  }
  return Number(text);
}

/**
 * Resolves the settings of one operation.
 * @param op which operation, for `cashin-base-url` / `cashout-base-url`
 * @throws UsageError on a malformed timeout or base URL
 */
export function resolveSettings(flags: GlobalFlags, op: 'cashin' | 'cashout'): Settings {
  const name = profileName(flags);
  const profile = readConfigFile().profiles?.[name] ?? {};
  const baseUrl = (flags.baseUrl || process.env.PAYCLI_BASE_URL || profile[`${op}-base-url`] || profile['base-url'] || SANDBOX).trim();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(profile)) if (k.startsWith(HEADER_PREFIX)) headers[k.slice(HEADER_PREFIX.length)] = v;
  const timeoutMs = flags.timeout
    ? positiveInt(flags.timeout, 'the timeout in milliseconds', '--timeout')
    : profile.timeout
      ? positiveInt(profile.timeout, 'the timeout in milliseconds', `config key timeout (profile ${name})`)
      : DEFAULT_TIMEOUT_MS;
  const windowText = profile['duplicate-window'];
  const settings: Settings = {
    profile: name,
    baseUrl,
    apiKey: process.env.PAYCLI_API_KEY || profile['api-key'] || undefined,
    authHeader: profile['auth-header'] || undefined,
    headers,
    timeoutMs,
    duplicateWindowMin: windowText ? positiveInt(windowText, 'the window in minutes', `config key duplicate-window (profile ${name})`) : DEFAULT_DUPLICATE_WINDOW_MIN,
    allowInsecureHttp: Boolean(flags.allowInsecureHttp),
  };
  if (baseUrl !== SANDBOX) checkBaseUrl(baseUrl, settings.allowInsecureHttp);
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
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`base URL "${baseUrl}" is not an absolute URL; example: https://api.gateway.example`, { field: '--base-url' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`base URL "${baseUrl}" must start with https://`, { field: '--base-url' });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new UsageError(`base URL "${baseUrl}" uses plain http: the API key would travel in clear`, {
      field: '--base-url',
      hint: 'use https://, or pass --allow-insecure-http if you really mean it',
    });
  }
}
