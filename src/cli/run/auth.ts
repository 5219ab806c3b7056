/**
 * `paycli auth login|status|logout`, per profile (docs/configuration.md "Where the API key is kept").
 * - login: reads the key (hidden prompt in a terminal, else stdin), checks it with the balance
 *   lookup (moves no money; skipped with `--no-check` or when the profile has `lookup off`), keeps it
 *   as `config set api-key` does (src/cli/run/config.ts `keepSecret`): in the system keychain, the
 *   profile marked `api-key-store=keychain` with no `api-key` left in the file; without a keychain,
 *   in the config file (0600). Says which.
 * - status: profile, gateway host, where the key is kept, the key masked (first and last 4
 *   characters, never more than half), and whether the gateway accepts it. Exit 0 accepted (or not
 *   checkable), 3 no key or refused, 4 the gateway could not be reached.
 * - logout: removes the key from the keychain and from the config file.
 */
import { readStdinText } from '../../core/stdin.js';
import { AuthError, PaycliError, UsageError } from '../../core/errors.js';
import { logger } from '../../core/logger.js';
import { output, type Output } from '../../core/output.js';
import { configFile } from '../../core/paths.js';
import { maskKeyEnds, registerSecret } from '../../core/secrets.js';
import { canPrompt, interruptSignal, type RunContext } from '../../core/terminal.js';
import { endpointHost, isSandbox } from '../../gateway/endpoint.js';
import { keyStoreOf, readConfigFile, settingsFrom, type GlobalFlags, type Settings } from '../../config/settings.js';
import { KeychainUnavailable, keychainDelete, keychainGet, keychainName } from '../../config/keychain.js';
import { keepSecret, openStore } from './config.js';
import { t } from '../../core/i18n/index.js';

/** Options of the auth subcommands: `--no-check` (login) and the globals. */
export type AuthOptions = GlobalFlags & { noInput?: boolean; check?: boolean };

const profileFlag = (profile: string) => (profile === 'default' ? '' : ` --profile ${profile}`);

/** The settings of the profile's lookups, with `key` as its credential (not the one kept). */
function lookupSettings(opts: AuthOptions, key?: string): Settings {
  const env = { ...process.env };
  delete env.PAYCLI_API_KEY;
  const settings = settingsFrom({ flags: opts, env, config: readConfigFile(), op: 'lookup' });
  return { ...settings, apiKey: key };
}

/** What the gateway said of a key: accepted, refused (exit 3), or not known (why). */
type Verdict = { kind: 'accepted' } | { kind: 'refused'; message: string } | { kind: 'unchecked'; why: string; error?: PaycliError };

/** Asks for the balance with `settings` (moves no money; docs/order-references.md). */
async function checkKey(settings: Settings): Promise<Verdict> {
  if (settings.lookup === 'off') return { kind: 'unchecked', why: `profile "${settings.profile}" has lookup off, so the balance is not asked` };
  const [{ lookupGateway }, { balanceSchema }] = await Promise.all([import('../../gateway/client.js'), import('../../gateway/schemas.js')]);
  const interrupt = interruptSignal();
  try {
    await lookupGateway({ path: settings.balancePath, schema: balanceSchema(), settings, baseUrl: (settings.endpoint as { url: string }).url, signal: interrupt.signal });
    return { kind: 'accepted' };
  } catch (err) {
    if (err instanceof AuthError) return { kind: 'refused', message: err.message };
    if (err instanceof PaycliError && err.exitCode === 130) throw err;
    return { kind: 'unchecked', why: err instanceof PaycliError ? err.message : String(err), error: err instanceof PaycliError ? err : undefined };
  } finally {
    interrupt.dispose();
  }
}

/** Reads the key: a hidden prompt in a terminal, else stdin (never an argument: shell history). */
async function readKey(opts: AuthOptions, ctx: RunContext): Promise<string> {
  let key: string;
  if (ctx.isTTY.stdin) {
    if (!canPrompt(opts, ctx)) throw new UsageError(t('authKey.pipe'), { field: 'api-key' });
    const { password } = await import('@inquirer/prompts');
    key = await password(
      { message: t('authKey.prompt'), mask: '•', validate: (v) => (v.trim() ? true : t('configValue.notEmptyPrompt')) },
      { output: ctx.stderr as NodeJS.WritableStream & NodeJS.WriteStream },
    );
  } else key = await readStdinText(ctx.stdin);
  key = key.replace(/\r?\n$/, '').trim();
  if (!key) throw new UsageError(t('authKey.empty'), { field: 'api-key' });
  return key;
}

/** The settings of the profile, refusing one that is the built-in sandbox (no key to log in with). */
function gatewaySettings(opts: AuthOptions, key?: string): Settings {
  const settings = lookupSettings(opts, key);
  if (isSandbox(settings.endpoint)) {
    throw new UsageError(t('authKey.sandbox', settings.profile), {
      field: '--profile',
      hint: t('authKey.sandboxHint', `paycli config set base-url <url>${profileFlag(settings.profile)}`),
    });
  }
  return settings;
}

async function login(opts: AuthOptions, ctx: RunContext): Promise<Output> {
  const probe = gatewaySettings(opts); // before asking: a profile without a gateway is refused at once
  const key = await readKey(opts, ctx);
  registerSecret(key);
  const settings = { ...probe, apiKey: key };
  const host = endpointHost(settings.endpoint);
  let checked = false;
  if (opts.check !== false) {
    const verdict = await checkKey(settings);
    if (verdict.kind === 'refused') throw new AuthError(t('auth.refused', host, verdict.message), { hint: t('auth.refusedHint') });
    if (verdict.kind === 'unchecked') {
      if (verdict.error && verdict.error.exitCode === 4)
        throw new PaycliError(verdict.error.code, verdict.error.exitCode, t('auth.uncheckedNetwork', verdict.why), { hint: t('auth.uncheckedHint') });
      logger.warn(t('auth.uncheckedKept', verdict.why));
    } else checked = true;
  }
  const kept = await keepSecret(settings.profile, 'api-key', key);
  const { where } = kept;
  const fallbackWhy = kept.why ?? '';
  const said = t('auth.kept', checked, host, maskKeyEnds(key), settings.profile, where === 'keychain' ? keychainName() : t('auth.configFile', kept.path));
  return output({ profile: settings.profile, gateway: host, store: where, checked }, '', {
    after: () => {
      logger.notice(where === 'file' ? t('auth.noKeychain', said, fallbackWhy) : said);
      if (process.env.PAYCLI_API_KEY) logger.warn(t('auth.envWins'));
    },
  });
}

/** Where the key of a profile is, and the key: the environment first, as every request reads it. */
function keptKey(profile: string): { store: 'env' | 'keychain' | 'file' | 'none'; key?: string; problem?: string } {
  if (process.env.PAYCLI_API_KEY) return { store: 'env', key: process.env.PAYCLI_API_KEY };
  const config = readConfigFile();
  const store = keyStoreOf(config, profile);
  if (store === 'file') return { store, key: config.profiles![profile]!['api-key'] };
  if (store === 'keychain') {
    try {
      const key = keychainGet(profile);
      return key ? { store, key } : { store: 'none', problem: `the profile says its key is in ${keychainName()}, which holds none` };
    } catch (err) {
      return { store, problem: `${keychainName()} cannot be read (${(err as Error).message})` };
    }
  }
  return { store: 'none' };
}

const storeWords = (store: 'env' | 'keychain' | 'file' | 'none'): string => (store === 'keychain' ? keychainName() : t(`auth.store.${store}`));

async function status(opts: AuthOptions): Promise<Output> {
  const base = lookupSettings(opts);
  const profile = base.profile;
  const host = isSandbox(base.endpoint) ? 'the built-in sandbox' : endpointHost(base.endpoint);
  const kept = keptKey(profile);
  if (kept.key) registerSecret(kept.key);
  let verdict: Verdict | undefined;
  if (kept.key && !isSandbox(base.endpoint)) verdict = await checkKey({ ...base, apiKey: kept.key });
  const accepted = verdict?.kind === 'accepted' ? true : verdict?.kind === 'refused' ? false : null;
  const masked = kept.key ? maskKeyEnds(kept.key) : null;
  const where = `${storeWords(kept.store)}${kept.store === 'file' ? ` ${configFile()}` : ''}`;
  const gatewaySays = isSandbox(base.endpoint)
    ? t('auth.says.sandbox')
    : !kept.key
      ? t('auth.says.noKey')
      : verdict!.kind === 'accepted'
        ? t('auth.says.yes')
        : verdict!.kind === 'refused'
          ? t('auth.says.no', verdict!.message)
          : t('auth.says.unknown', verdict!.why);
  const row = (label: string, value: string) => `${label.padEnd(10)}${value}`;
  const shownHost = isSandbox(base.endpoint) ? t('auth.status.sandboxHost') : host;
  const text = [
    row(t('auth.status.profile'), profile),
    row(t('auth.status.gateway'), shownHost),
    row(t('auth.status.keptIn'), kept.problem && kept.store !== 'none' ? `${where}: ${kept.problem}` : where),
    row(t('auth.status.key'), masked ?? '-'),
    row(t('auth.status.accepted'), gatewaySays),
  ].join('\n');
  return output({ profile, gateway: host, store: kept.store, key: masked, accepted, ...(kept.problem ? { problem: kept.problem } : {}) }, text, {
    // the status is shown, then its exit code tells a script what it means
    after: () => {
      if (!isSandbox(base.endpoint) && !kept.key)
        throw new AuthError(t('auth.noKey', profile, kept.problem ?? ''), { hint: t('auth.runLogin', `paycli auth login${profileFlag(profile)}`) }, 'no_credential');
      if (verdict?.kind === 'refused') throw new AuthError(t('auth.refusesProfile', host, profile), { hint: t('auth.runLoginRight', `paycli auth login${profileFlag(profile)}`) });
      if (verdict?.kind === 'unchecked' && verdict.error?.exitCode === 4) throw verdict.error;
    },
  });
}

async function logout(opts: AuthOptions): Promise<Output> {
  const profile = lookupSettings(opts).profile;
  const removed: string[] = [];
  const config = readConfigFile();
  const keys = config.profiles?.[profile];
  if (keys?.['api-key-store'] === 'keychain' || !keys?.['api-key']) {
    try {
      if (keychainDelete(profile)) removed.push(keychainName());
    } catch (err) {
      if (!(err instanceof KeychainUnavailable)) throw err;
      if (keys?.['api-key-store'] === 'keychain') throw new AuthError(t('authKey.keychainUnreachable', profile, keychainName(), err.message));
    }
  }
  if (keys && (keys['api-key'] !== undefined || keys['api-key-store'] !== undefined)) {
    const store = await openStore();
    const profiles = store.get('profiles');
    const p = { ...profiles[profile] };
    if (p['api-key'] !== undefined) removed.push(t('authKey.configFile', store.path));
    delete p['api-key'];
    delete p['api-key-store'];
    profiles[profile] = p;
    store.set('profiles', profiles);
  }
  return output({ profile, removed: removed.length > 0 }, '', {
    after: () => {
      logger.notice(removed.length ? t('authKey.removed', profile, removed.join(t('authKey.and'))) : t('authKey.nothingToRemove', profile));
      if (process.env.PAYCLI_API_KEY) logger.warn(t('authKey.envStillSet'));
    },
  });
}

/** Runs an `auth` subcommand (the subcommand's name selects which). */
export async function run(opts: AuthOptions, ctx: RunContext): Promise<Output | void> {
  const { command } = ctx;
  switch (command?.name()) {
    case 'login':
      return login(opts, ctx);
    case 'status':
      return status(opts);
    case 'logout':
      return logout(opts);
  }
}
