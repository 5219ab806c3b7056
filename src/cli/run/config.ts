/**
 * `paycli config set|get|unset|list|path`, on `conf`. The file is `{"profiles": {name: {key:
 * value}}}`, mode 0600 in a folder of mode 0700. Secrets (src/core/secrets.ts: `api-key` and every
 * `header.<Name>`) are shown masked. Without a value on the command line they are read from a hidden
 * prompt in a terminal, else from stdin; `api-key` is never taken from an argument, which would
 * land in shell history (a `header.<Name>` value may be, with a warning saying so). Every secret is
 * kept by {@link keepSecret}, as `auth login` keeps the API key: the system keychain, else the
 * config file (0600) with a notice saying so.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { readStdinText } from '../../core/stdin.js';
import type Conf from 'conf';
import { CONFIG_KEYS, isValidKey, secretStoreKey } from '../../config/keys.js';
import { KeychainUnavailable, keychainDelete, keychainName, keychainSet } from '../../config/keychain.js';
import { UsageError } from '../../core/errors.js';
import { parseLanguage, t } from '../../core/i18n/index.js';
import { logger } from '../../core/logger.js';
import { output, type Output } from '../../core/output.js';
import { configDir, configFile } from '../../core/paths.js';
import { isSecretKey, maskSecret, redactUrl, registerProfileSecrets, shownSetting } from '../../core/secrets.js';
import { isHeaderName } from '../../gateway/net.js';
import {
  checkBaseUrl,
  checkLookupSetting,
  checkProfile,
  isLoopbackHost,
  keptSecret,
  keyStoreOf,
  profileName,
  readConfigFile,
  settleAfterMs,
  timeoutMs,
  windowMinutes,
  type GlobalFlags,
} from '../../config/settings.js';
import { isSandbox, parseEndpoint } from '../../gateway/endpoint.js';
import { canPrompt, type RunContext } from '../../core/terminal.js';

type Profiles = Record<string, Record<string, string>>;

/**
 * Opens the config store, creating its folder with mode 0700. `conf` (with its JSON-schema
 * validator) is loaded here, not with the command, so `config path` stays light.
 */
export async function openStore(): Promise<Conf<{ profiles: Profiles }>> {
  const { default: Store } = await import('conf');
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  readConfigFile(); // trusted, JSON, right shape (exit 2 naming file and key) before conf reads it
  return new Store<{ profiles: Profiles }>({
    projectName: 'paycli',
    projectSuffix: '',
    cwd: dir,
    configName: 'config',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    defaults: { profiles: {} },
  });
}

/**
 * The one way a secret config key (`api-key`, `header.<Name>`, `ledger-password`) is stored, for
 * `config set` and `auth login` (docs/configuration.md "Where secrets are kept"): in the system
 * keychain (src/config/keychain.ts), the profile marking it with `<key>-store` = `keychain`
 * (src/config/keys.ts `secretStoreKey`) and the file keeping no copy; without a usable keychain,
 * in the config file (mode 0600), the marker removed.
 * @returns where it went, and why not the keychain when it could not be used
 */
export async function keepSecret(
  profile: string,
  key: string,
  secret: string,
  extra: Record<string, string> = {},
): Promise<{ where: 'keychain' | 'file'; why?: string; path: string }> {
  const store = await openStore();
  const profiles = store.get('profiles');
  const keys = { ...(profiles[profile] ?? {}), ...extra };
  let result: { where: 'keychain' | 'file'; why?: string };
  try {
    keychainSet(profile, secret, key);
    delete keys[key];
    keys[secretStoreKey(key)] = 'keychain';
    result = { where: 'keychain' };
  } catch (err) {
    if (!(err instanceof KeychainUnavailable)) throw err;
    keys[key] = secret;
    delete keys[secretStoreKey(key)];
    result = { where: 'file', why: err.message };
  }
  profiles[profile] = keys;
  store.set('profiles', profiles);
  chmodSync(store.path, 0o600);
  return { ...result, path: store.path };
}

function checkKey(key: string): void {
  if (!isValidKey(key)) {
    throw new UsageError(t('config.unknownKey', key, CONFIG_KEYS.map((k) => k.name).join(', ')), { field: 'key' });
  }
}

function checkValue(key: string, value: string, flags: GlobalFlags): void {
  if (key === 'timeout') timeoutMs(value, key);
  if (key === 'settle-after') settleAfterMs(value, key);
  if (key === 'duplicate-window') windowMinutes(value, key);
  if (key.endsWith('base-url') && !isSandbox(parseEndpoint(value))) checkBaseUrl(value, Boolean(flags.allowInsecureHttp));
  if (key === 'ledger-url' && (!/^postgres(ql)?:\/\//i.test(value) || !URL.canParse(value))) throw new UsageError(t('configValue.ledgerUrl', redactUrl(value)), { field: key });
  if (key === 'auth-header' && !isHeaderName(value)) throw new UsageError(t('configValue.authHeader'), { field: key });
  if (key === 'lang' && !parseLanguage(value)) throw new UsageError(t('config.lang.invalid', value), { field: key });
  if (key === 'allow-insecure-http' && value !== 'true' && value !== 'false') throw new UsageError(t('configValue.trueFalse', key, value), { field: key });
  checkLookupSetting(key, value);
}

/** True when `value` (a base URL) is plain http to a host off loopback: it needs `allow-insecure-http`. */
function insecureHttp(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

async function readSecret(key: string, flags: GlobalFlags & { noInput?: boolean }, ctx: RunContext): Promise<string> {
  if (ctx.isTTY.stdin) {
    if (!canPrompt(flags, ctx)) throw new UsageError(t('configValue.pipeSecret', key), { field: key });
    const { password } = await import('@inquirer/prompts');
    return password({ message: `${key}:`, mask: '•', validate: (v) => (v.trim() ? true : t('configValue.notEmptyPrompt')) }, { output: ctx.stderr as NodeJS.WriteStream });
  }
  return (await readStdinText(ctx.stdin)).replace(/\r?\n$/, '');
}

/** Runs a `config` subcommand (the subcommand's name selects which). */
export async function run(opts: GlobalFlags & { noInput?: boolean; create?: boolean }, ctx: RunContext): Promise<Output | void> {
  const { args, command } = ctx;
  const profile = profileName(opts);
  const [key, value] = args;
  switch (command?.name()) {
    case 'path':
      return output({ path: configFile() }, configFile());
    case 'profiles': {
      // Each profile with where it sends (docs/configuration.md); no secret is shown.
      const profiles = (await openStore()).get('profiles');
      const active = profileName(opts);
      const rows = Object.entries(profiles).map(([name, keys]) => ({
        name,
        active: name === active,
        baseUrl: keys['base-url'] === undefined ? null : redactUrl(keys['base-url']),
        cashinBaseUrl: keys['cashin-base-url'] === undefined ? null : redactUrl(keys['cashin-base-url']),
        cashoutBaseUrl: keys['cashout-base-url'] === undefined ? null : redactUrl(keys['cashout-base-url']),
        apiKey: keys['api-key'] !== undefined || keys['api-key-store'] === 'keychain',
      }));
      const where = (r: (typeof rows)[number]) =>
        [r.baseUrl, r.cashinBaseUrl && `cash-in ${r.cashinBaseUrl}`, r.cashoutBaseUrl && `cash-out ${r.cashoutBaseUrl}`].filter(Boolean).join(', ') || t('configValue.noBaseUrl');
      return output({ profiles: rows }, () => {
        if (!rows.length) logger.notice(t('config.noProfiles'));
        return rows.map((r) => `${r.active ? '*' : ' '} ${r.name.padEnd(12)} ${where(r)}${r.apiKey ? '' : ` ${t('configValue.noApiKey')}`}`).join('\n');
      });
    }
    case 'list': {
      const entries = (await openStore()).get('profiles')[profile] ?? {};
      registerProfileSecrets(entries);
      const shown = Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, shownSetting(k, v)]));
      const lines = Object.entries(shown).map(([k, v]) => `${k}=${v}`);
      return output({ profile, values: shown }, () => {
        if (!lines.length) logger.notice(t('config.emptyProfile', profile));
        return lines.join('\n');
      });
    }
    case 'get': {
      checkKey(key!);
      const entries = (await openStore()).get('profiles')[profile];
      registerProfileSecrets(entries);
      const v = isSecretKey(key!) ? keptSecret(readConfigFile(), profile, key!) : entries?.[key!];
      registerProfileSecrets({ [key!]: v });
      if (v === undefined) throw new UsageError(t('config.notSet', key!, profile), { field: key });
      const shown = shownSetting(key!, v);
      return output({ profile, key, value: shown }, shown);
    }
    case 'unset': {
      checkKey(key!);
      const store = await openStore();
      const profiles = store.get('profiles');
      const inKeychain = isSecretKey(key!) && keyStoreOf(readConfigFile(), profile, key!) === 'keychain';
      if (!profiles[profile] || (!Object.hasOwn(profiles[profile], key!) && !inKeychain)) return logger.notice(t('config.nothingToRemove', key!, profile));
      if (inKeychain) {
        try {
          keychainDelete(profile, key!);
        } catch (err) {
          if (!(err instanceof KeychainUnavailable)) throw err;
          throw new UsageError(t('authKey.keychainUnreachable', profile, keychainName(), err.message), { field: key });
        }
        delete profiles[profile][secretStoreKey(key!)];
      }
      delete profiles[profile][key!];
      store.set('profiles', profiles);
      logger.notice(t('config.removed', key!, profile));
      return;
    }
    case 'set': {
      checkKey(key!);
      // A new profile only on purpose: a typo (`--profile prdo`) must not silently make one.
      if (!opts.create) {
        const names = Object.keys(readConfigFile().profiles ?? {});
        checkProfile(opts, process.env, undefined, { action: t('common.nothingChanged'), hint: t('configValue.createHint', profile, names.join(', ')) });
      }
      let v = value;
      if (isSecretKey(key!)) {
        if (v !== undefined && key === 'api-key') throw new UsageError(t('configValue.secretArgument', key!), { field: key });
        if (v !== undefined) logger.warn(t('configValue.secretInHistory', key!));
        else v = await readSecret(key!, opts, ctx);
      }
      if (v === undefined) throw new UsageError(t('configValue.missing', key!), { field: key });
      v = v.trim();
      if (!v) throw new UsageError(t('configValue.empty', key!), { field: key });
      checkValue(key!, v, opts);
      if (isSecretKey(key!)) {
        const kept = await keepSecret(profile, key!, v);
        const said = t('config.set', key!, profile, maskSecret(v), false);
        logger.notice(
          kept.where === 'keychain' ? t('config.keptIn', said, keychainName()) : t('auth.noKeychain', t('config.keptIn', said, t('auth.configFile', kept.path)), kept.why ?? ''),
        );
        return;
      }
      const store = await openStore();
      const profiles = store.get('profiles');
      // --allow-insecure-http given with a plain http base URL is remembered with it, or every later
      // command would refuse the URL the user was allowed to set.
      const remember: Record<string, string> = key!.endsWith('base-url') && opts.allowInsecureHttp && insecureHttp(v) ? { 'allow-insecure-http': 'true' } : {};
      profiles[profile] = { ...(profiles[profile] ?? {}), [key!]: v, ...remember };
      store.set('profiles', profiles);
      chmodSync(store.path, 0o600);
      logger.notice(t('config.set', key!, profile, isSecretKey(key!) ? maskSecret(v) : '', 'allow-insecure-http' in remember));
      return;
    }
  }
}
