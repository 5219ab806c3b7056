/**
 * `paycli --version --verbose` (docs/node-versions.md): what a bug report needs about where paycli
 * runs: paycli's version, the Node that runs it, the SQLite driver of the ledger and its SQLite
 * version, and where the ledger, the config file and the cache are. Loaded only for that flag pair.
 */
import { join } from 'node:path';
import { cacheDir, configFile } from '../core/paths.js';
import { VERSION } from '../core/version.js';
import { t } from '../core/i18n/index.js';
import { sqliteDriverInfo } from '../core/sqlite/connect.js';
import { ledgerPath } from '../ledger/ledger.js';

/** What `paycli --version --verbose` reports (its `--json` shape). */
export interface VersionInfo {
  paycli: string;
  node: { version: string; lts: string | null; platform: string; arch: string; path: string };
  /** The ledger's SQLite driver, or why it cannot be loaded here. */
  sqlite: { driver: string; driverVersion: string; version: string } | { error: string };
  ledger: string;
  config: string;
  cache: string;
  /** Who keeps the code cache: paycli's own (src/cli/compile-cache.ts, every Node line), or off (`NODE_DISABLE_COMPILE_CACHE`). */
  codeCache: { by: 'paycli' | 'off'; dir: string | null };
}

/** Collects {@link VersionInfo}; never throws (a driver that cannot load is reported as such). */
export function versionInfo(): VersionInfo {
  let sqlite: VersionInfo['sqlite'];
  try {
    const d = sqliteDriverInfo();
    sqlite = { driver: d.name, driverVersion: d.version, version: d.sqliteVersion };
  } catch (err) {
    sqlite = { error: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
  const lts = (process.release as { lts?: string }).lts;
  return {
    paycli: VERSION,
    node: { version: process.version, lts: typeof lts === 'string' ? lts : null, platform: process.platform, arch: process.arch, path: process.execPath },
    sqlite,
    ledger: ledgerPath(),
    config: configFile(),
    cache: cacheDir(),
    codeCache: codeCache(),
  };
}

/** The code cache src/cli/compile-cache.ts turned on: paycli's `v8-<V8 version>-<arch>` folder, on every Node line. */
function codeCache(): VersionInfo['codeCache'] {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return { by: 'off', dir: null };
  return { by: 'paycli', dir: join(cacheDir(), `v8-${process.versions.v8}-${process.arch}`) };
}

/** The text form: one `name  value` line each. */
export function formatVersionInfo(i: VersionInfo): string {
  const sqlite =
    'error' in i.sqlite
      ? t('version.unavailable', i.sqlite.error)
      : `${i.sqlite.driver}${i.sqlite.driver === 'node:sqlite' ? '' : ` ${i.sqlite.driverVersion}`} (SQLite ${i.sqlite.version})`;
  const rows: Array<[string, string]> = [
    ['paycli', i.paycli],
    ['node', `${i.node.version}${i.node.lts ? ` (LTS ${i.node.lts})` : ''} ${i.node.platform}-${i.node.arch}, ${i.node.path}`],
    ['sqlite', sqlite],
    [t('version.ledger'), i.ledger],
    [t('version.config'), i.config],
    [t('version.cache'), i.cache],
    [t('version.codeCache'), i.codeCache.by === 'off' ? t('version.off') : `${t('version.codeCacheBy', i.codeCache.by)}, ${i.codeCache.dir}`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 1;
  return `${rows.map(([k, v]) => `${k.padEnd(width)}${v}`).join('\n')}\n`;
}

/** Prints {@link versionInfo} on the run's stdout, as text or one JSON document. */
export function printVersionInfo(json: boolean, stdout: NodeJS.WritableStream): void {
  const info = versionInfo();
  stdout.write(json ? `${JSON.stringify(info)}\n` : formatVersionInfo(info));
}
