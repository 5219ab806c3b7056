/**
 * Where paycli keeps its files. Defaults follow the platform's conventions (env-paths, the same
 * rules `conf` uses): on Linux `~/.config/paycli/config.json` and `~/.local/share/paycli/`.
 * `PAYCLI_CONFIG_DIR`, `PAYCLI_DATA_DIR` and `PAYCLI_CACHE_DIR` override them (tests and CI use these).
 */
import envPaths from 'env-paths';
import { join } from 'node:path';

let cached: { config: string; data: string; cache: string } | undefined;
function base(): { config: string; data: string; cache: string } {
  cached ??= envPaths('paycli', { suffix: '' });
  return cached;
}

/** Folder of `config.json` (mode 0700). */
export function configDir(): string {
  return process.env.PAYCLI_CONFIG_DIR || base().config;
}

/** Path of the config file (mode 0600). */
export function configFile(): string {
  return join(configDir(), 'config.json');
}

/** Folder of the payment ledger (src/ledger/ledger.ts) and the sandbox's counter (mode 0700). */
export function dataDir(): string {
  return process.env.PAYCLI_DATA_DIR || base().data;
}

/**
 * Folder of disposable caches (mode 0700): the V8 code cache of src/cli/compile-cache.ts. On Linux
 * `~/.cache/paycli/` (`$XDG_CACHE_HOME/paycli/`). Safe to delete at any time.
 */
export function cacheDir(): string {
  return process.env.PAYCLI_CACHE_DIR || base().cache;
}
