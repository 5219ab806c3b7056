/**
 * The operating system's keychain, where `paycli auth login` keeps a profile's API key (docs/configuration.md
 * "Where the API key is kept"): the Secret Service on Linux (GNOME Keyring, KWallet), the Keychain on
 * macOS, the Credential Manager on Windows, through `@napi-rs/keyring` (prebuilt binaries, installed
 * from the npm registry without a build). One entry per profile and secret config key (src/core/secrets.ts
 * `isSecretKey`): service `paycli`, account the profile's name for its `api-key`, `<profile>/<key>` for
 * the others (`prod/header.X-Client-Secret`, `prod/ledger-password`).
 *
 * The library is loaded only here, on the first call: never at start-up, never on a request whose
 * key comes from `PAYCLI_API_KEY` or the config file (src/config/settings.ts `settingsFor`). On
 * Linux the entry is pinned to the Secret Service: the kernel keyring, the library's fallback, is
 * forgotten at log-out, so a machine without a Secret Service has no keychain for paycli and
 * `auth login` keeps the key in the config file instead.
 */
import type * as Keyring from '@napi-rs/keyring';

/** The keychain service name of every paycli entry. */
export const KEYCHAIN_SERVICE = 'paycli';

/** The keychain could not be used; `message` says why, in the library's words. */
export class KeychainUnavailable extends Error {}

let keyring: typeof Keyring | undefined;

/** The library, loaded on first use (its name through a variable: the bundle keeps it a runtime require). */
function library(): typeof Keyring {
  const name = '@napi-rs/keyring';
  return (keyring ??= require(name) as typeof Keyring);
}

/** The keychain's name on this system, for messages. */
export function keychainName(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'the Windows Credential Manager';
  return 'the Secret Service keyring';
}

function entry(profile: string, key: string): Keyring.Entry {
  try {
    return new (library().Entry)(KEYCHAIN_SERVICE, key === 'api-key' ? profile : `${profile}/${key}`, { linux: { store: 'secret-service' } });
  } catch (err) {
    throw new KeychainUnavailable(reason(err));
  }
}

/** The library's message, first line only (it may chain causes). */
function reason(err: unknown): string {
  const text = ((err as Error)?.message ?? String(err)).split('\n')[0]!.replace(/^Platform failure: /, '');
  // Linux without a desktop session: say so rather than D-Bus's advice about X11.
  if (/DBUS_SESSION_BUS_ADDRESS/.test(text)) return 'no D-Bus session bus, so no Secret Service';
  return text;
}

/**
 * The secret `key` (default `api-key`) kept for `profile`, or undefined when the keychain holds none.
 * @throws KeychainUnavailable when the keychain cannot be reached or read (none, locked)
 */
export function keychainGet(profile: string, key = 'api-key'): string | undefined {
  const e = entry(profile, key);
  try {
    return e.getPassword() ?? undefined;
  } catch (err) {
    throw new KeychainUnavailable(reason(err));
  }
}

/**
 * Keeps `secret` as `profile`'s config key `key` (default `api-key`) in the keychain (replacing any).
 * @throws KeychainUnavailable when there is no usable keychain
 */
export function keychainSet(profile: string, secret: string, key = 'api-key'): void {
  const e = entry(profile, key);
  try {
    e.setPassword(secret);
  } catch (err) {
    throw new KeychainUnavailable(reason(err));
  }
}

/**
 * Removes the secret `key` (default `api-key`) of `profile` from the keychain.
 * @returns true when one was removed, false when there was none
 * @throws KeychainUnavailable when the keychain cannot be reached
 */
export function keychainDelete(profile: string, key = 'api-key'): boolean {
  const e = entry(profile, key);
  try {
    return e.deletePassword();
  } catch (err) {
    throw new KeychainUnavailable(reason(err));
  }
}
