/**
 * The config file itself (docs/configuration.md): whether paycli may trust it, reading it, the shape
 * it must have, and the profile a command line names. Apart from src/config/settings.ts, which
 * re-exports all of it, so that a command that only reads the file (`history`: the secrets it hides,
 * whether a team ledger is named) loads none of the settings' rules, keys and keychain
 * (docs/speed.md "History's start-up").
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { logger } from '../core/logger.js';
import { configFile } from '../core/paths.js';
import { configTrust } from './trust.js';

/** The stored config file: profiles by name, each a map of config key → string value. */
export interface ConfigFile {
  profiles?: Record<string, Record<string, string>>;
}

let trustWarned = false;

/**
 * Refuses a config file paycli must not trust and warns (once per process) about one others can
 * read (src/config/trust.ts). Call before reading the file by any means (`conf` included).
 * @throws UsageError `config_untrusted`
 */
export function trustConfigFile(): void {
  const { warning } = configTrust(configFile());
  if (warning && !trustWarned) {
    trustWarned = true;
    logger.warn(warning);
  }
}

/**
 * Reads the config file; a missing file is an empty config.
 * @throws UsageError when it is not JSON, `config_untrusted` when it must not be trusted
 */
export function readConfigFile(): ConfigFile {
  trustConfigFile();
  let text: string;
  try {
    text = readFileSync(configFile(), 'utf8');
  } catch {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(t('settings.notJson', configFile()));
  }
  return checkConfigShape(parsed, configFile());
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks the shape of a parsed config file: `{ "profiles": { <name>: { <key>: <string> } } }`.
 * @throws UsageError naming the file and the JSON path of the first wrong value (e.g. `profiles.prod.timeout`)
 */
export function checkConfigShape(parsed: unknown, file: string): ConfigFile {
  const wrong = (path: string, want: string, got: unknown): never => {
    const kind = got === null ? 'null' : Array.isArray(got) ? 'an array' : typeof got === 'object' ? 'an object' : `a ${typeof got}`;
    throw new UsageError(t('settings.shape', file, path, want, kind), { field: path });
  };
  if (!isObject(parsed)) return wrong('the top level', 'an object', parsed);
  if (parsed.profiles === undefined) return {};
  if (!isObject(parsed.profiles)) return wrong('profiles', 'an object', parsed.profiles);
  for (const [name, keys] of Object.entries(parsed.profiles)) {
    if (!isObject(keys)) return wrong(`profiles.${name}`, 'an object', keys);
    for (const [key, value] of Object.entries(keys)) if (typeof value !== 'string') wrong(`profiles.${name}.${key}`, 'a string', value);
  }
  return parsed as ConfigFile;
}

/** Global flags that affect settings (commander's global options). */
export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  timeout?: string;
  json?: boolean | string; // `--json FIELDS` gives the comma list (src/cli/output/shape.ts)
  verbose?: boolean;
  color?: boolean;
  allowInsecureHttp?: boolean;
}

/** The profile name: `--profile`, else `PAYCLI_PROFILE`, else `default`. */
export function profileName(flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env): string {
  return flags.profile || env.PAYCLI_PROFILE || 'default';
}

/**
 * The team ledger's address as the configuration gives it (docs/ledger-and-safety.md "Team
 * ledger"): `PAYCLI_LEDGER_URL`, else the `ledger-url` of the profile in use; undefined for the local
 * ledger. Not checked here: src/ledger/team.ts `teamLedger` checks it and adds its password.
 * @param profile the profile in use (default: `PAYCLI_PROFILE`, else `default`)
 * @returns the URL as written, the profile's name and the config file it was read from
 * @throws UsageError when the config file cannot be read ({@link readConfigFile})
 */
export function ledgerUrlSetting(profile?: string, env: NodeJS.ProcessEnv = process.env): { url: string; name: string; config: ConfigFile } | undefined {
  const config = readConfigFile();
  const name = profile ?? profileName({}, env);
  const url = env.PAYCLI_LEDGER_URL || config.profiles?.[name]?.['ledger-url'];
  return url ? { url, name, config } : undefined;
}
