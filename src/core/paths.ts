/**
 * Where paycli keeps its files. Defaults follow the platform's conventions (the rules of the
 * env-paths package, which `conf` uses too): on Linux `~/.config/paycli/config.json` and
 * `~/.local/share/paycli/`. `PAYCLI_CONFIG_DIR`, `PAYCLI_DATA_DIR` and `PAYCLI_CACHE_DIR` override them
 * (tests and CI use these). The rules are written here rather than taken from env-paths, which loads
 * `node:os` and `node:process` on every start for a home folder that `HOME` gives on POSIX systems
 * (docs/speed.md "History's start-up: the folders, the table's rows, the catalog's groups").
 */
import { join } from 'node:path';

type Folders = { config: string; data: string; cache: string };

let cached: Folders | undefined;
function base(): Folders {
  cached ??= platformFolders('paycli');
  return cached;
}

/**
 * The home folder as `os.homedir()` gives it: on POSIX systems `HOME` whenever it is set (libuv's
 * `uv_os_homedir` reads it first, an empty value included), so `node:os` loads only without it and on Windows.
 */
function homeFolder(): string {
  const home = process.env.HOME;
  if (process.platform !== 'win32' && home !== undefined) return home;
  return (require('node:os') as typeof import('node:os')).homedir();
}

/** The folders of application `name`: macOS's Library, Windows' AppData, elsewhere the XDG base directories. */
function platformFolders(name: string): Folders {
  const env = process.env;
  const home = homeFolder();
  if (process.platform === 'darwin') {
    const library = join(home, 'Library');
    return { data: join(library, 'Application Support', name), config: join(library, 'Preferences', name), cache: join(library, 'Caches', name) };
  }
  if (process.platform === 'win32') {
    const appData = env.APPDATA || join(home, 'AppData', 'Roaming');
    const localAppData = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
    return { data: join(localAppData, name, 'Data'), config: join(appData, name, 'Config'), cache: join(localAppData, name, 'Cache') };
  }
  return {
    data: join(env.XDG_DATA_HOME || join(home, '.local', 'share'), name),
    config: join(env.XDG_CONFIG_HOME || join(home, '.config'), name),
    cache: join(env.XDG_CACHE_HOME || join(home, '.cache'), name),
  };
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
