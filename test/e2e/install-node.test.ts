/**
 * `npm install -g --ignore-scripts <tarball>` on the Node that runs this test, and what it compiles
 * (docs/node-versions.md, "Installing: what compiles"): `npm test` runs it on the machine's Node,
 * `npm run test:node-matrix` on every other line. better-sqlite3, the only native addon, is an
 * optional dependency that only Node 20 (and 22 before 22.16) needs; npm cannot leave it out by
 * Node version by itself, and `--omit=optional` does not apply to a global install (docs/node-versions.md
 * says why); `--ignore-scripts` keeps its build from running.
 * - A Node whose ledger driver is `node:sqlite` (22.16 and later): the install compiles nothing (no
 *   install script or node-gyp in the install log, no `.node` file under the prefix), and the
 *   installed paycli makes a cash-out with `node:sqlite`, has its man page and completions.
 * - A Node that needs better-sqlite3 (Node 20): without it, a cash-out is exit 2, nothing sent, with
 *   the hint that says what to do (test/e2e/install.test.ts installs it the normal way).
 * The tarball is packed from the built checkout (`npm pack --ignore-scripts`: the build already ran).
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { childEnv } from '../helpers/cli.js';
import { complete } from '../helpers/shells.js';
import { chooseDriver } from '../../src/core/sqlite/connect.js';

const ROOT = resolve(__dirname, '../..');
const SLOW = 600_000;
const NODE_BIN = dirname(process.execPath);
let dir: string;
let prefix: string;

/** A user's shell on this Node: it first in PATH, a fresh HOME, npm's own cache kept (offline machines have only that). */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = join(dir, 'home');
  const env = childEnv(
    {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      PATH: `${NODE_BIN}:${process.env.PATH}`,
      ...extra,
    },
    /^(npm_|INIT_CWD$|NODE$|PAYCLI_CACHE_DIR$)/i,
  );
  env.npm_config_cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env: { ...process.env } }).trim();
  // Headers of this Node for any native build (the official binary packages hold include/node beside bin/).
  env.npm_config_nodedir = dirname(NODE_BIN);
  return env;
}

function sh(command: string, env: NodeJS.ProcessEnv = userEnv()): SpawnSyncReturns<string> {
  return spawnSync('bash', ['-c', command], { cwd: dir, env, encoding: 'utf8', timeout: SLOW, maxBuffer: 64 * 1024 * 1024 });
}

/**
 * Compiled addons under `root`: `.node` files that an install built (node-gyp's `build/` folders), not
 * the prebuilt binaries a registry package ships as they are (`@napi-rs/keyring-<platform>`, the
 * keychain library of `paycli auth`; `@resvg/resvg-js-<platform>`, the PNG renderer of `paycli receipt`).
 */
function addons(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath?: string; path?: string; isFile(): boolean }>)
    .filter((e) => e.isFile() && e.name.endsWith('.node'))
    .map((e) => join(e.parentPath ?? e.path ?? '', e.name))
    .filter((f) => /[\\/]build[\\/]/.test(f) || !/[\\/]node_modules[\\/]@(napi-rs|resvg)[\\/][\w.-]+[\\/][\w.-]+\.node$/.test(f));
}

let install: SpawnSyncReturns<string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-install-node-'));
  mkdirSync(join(dir, 'home'));
  prefix = join(dir, 'prefix');
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env: userEnv(), encoding: 'utf8', timeout: SLOW });
  expect(pack.status, pack.stderr.slice(-2000)).toBe(0);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string }>;
  // --loglevel=info logs every install script npm runs (`npm info run <package> install ...`)
  install = sh(
    `node --version && npm install -g --ignore-scripts --prefix ${JSON.stringify(prefix)} --loglevel=info --no-audit --no-fund ${JSON.stringify(join(dir, info!.filename))} 2>&1`,
  );
}, SLOW);
afterAll(() => rmSync(dir, { recursive: true, force: true }), SLOW);

const installed = () =>
  userEnv({
    PATH: `${join(prefix, 'bin')}:${NODE_BIN}:${process.env.PATH}`,
    PAYCLI_CONFIG_DIR: join(dir, 'home/cfg'),
    PAYCLI_DATA_DIR: join(dir, 'home/data'),
    MANPAGER: 'cat',
    PAGER: 'cat',
  });
const CASHOUT =
  'paycli --json cashout --value 1550 --pix-key-type email --pix-key fulano@example.com --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321 --yes';

if (chooseDriver() === 'node:sqlite') {
  it(
    `on Node ${process.versions.node} (node:sqlite) the install compiles nothing, and the installed paycli pays, has its man page and completions`,
    () => {
      const log = install.stdout;
      expect(install.status, log.slice(-3000)).toBe(0);
      expect(log.split('\n')[0]).toBe(process.version);
      console.info(
        `npm install -g --ignore-scripts on Node ${process.versions.node}:\n${log
          .split('\n')
          .filter((l) => !/^npm http /.test(l))
          .join('\n')}`,
      );
      expect(log, 'the install log').toMatch(/^added \d+ packages/m);
      const shown = log
        .split('\n')
        .filter((l) => !/^npm http /.test(l))
        .join('\n'); // fetches name every package, better-sqlite3 too
      expect(shown, 'the install log').not.toMatch(/^npm info run |gyp|prebuild-install/im);
      expect(addons(prefix), 'compiled addons under the prefix').toEqual([]);

      const env = installed();
      const version = sh('paycli --version --verbose', env);
      expect(version.status, version.stderr).toBe(0);
      expect(version.stdout).toMatch(/\nsqlite +node:sqlite \(SQLite 3\.\d+\.\d+\)\n/);
      expect(version.stdout).toContain(`node       ${process.version}`);
      const cashout = sh(CASHOUT, env);
      expect(cashout.status, cashout.stderr).toBe(0);
      expect(JSON.parse(cashout.stdout)).toMatchObject({ transactionId: expect.any(Number) });
      expect(cashout.stderr).not.toMatch(/Warning|Assertion/);

      const man = sh('man paycli', env);
      expect(man.status, man.stderr).toBe(0);
      expect(man.stdout).toMatch(/^PAYCLI\(1\)/);
      const completions = join(prefix, 'lib/node_modules/paycli/completions');
      for (const shell of ['bash', 'zsh', 'fish'] as const)
        expect(complete(shell, 'paycli cash', { env: env as Record<string, string>, dir: completions }).candidates, shell).toEqual(['cashin', 'cashout']);
    },
    SLOW,
  );
} else {
  it(
    `on Node ${process.versions.node} (better-sqlite3) an install without install scripts has no better-sqlite3 addon, and a cash-out is exit 2, nothing sent, naming what to do`,
    () => {
      expect(install.status, install.stdout.slice(-3000)).toBe(0);
      expect(addons(prefix).filter((f) => f.endsWith('better_sqlite3.node'))).toEqual([]);
      const env = installed();
      const cashout = sh(CASHOUT, env);
      expect(cashout.status).toBe(2);
      expect(cashout.stdout).toBe('');
      const error = JSON.parse(cashout.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string; hint: string } };
      expect(error.error.code).toBe('journal_unavailable');
      expect(error.error.message).toMatch(/needs better-sqlite3's compiled addon, which is not installed; nothing was sent/);
      expect(error.error.hint).toMatch(/without --ignore-scripts.*--allow-scripts=better-sqlite3.*Node 22\.16 or later/);
      const version = sh('paycli --version --verbose', env);
      expect(version.status).toBe(0);
      expect(version.stdout).toMatch(/\nsqlite +unavailable: on Node [\d.]+ the ledger needs better-sqlite3's compiled addon/);
    },
    SLOW,
  );
}
