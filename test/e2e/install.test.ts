/**
 * paycli as a new user gets it (README, first lines and "Install"), from a clean clone
 * of this repository in a temporary folder:
 * - the README's first set-up command, run verbatim in a terminal: the cash-in on the built-in
 *   sandbox with its QR code drawn;
 * - `npm pack` builds what it needs (prepare) and the tarball holds only what runs;
 * - that tarball installed globally into a temporary prefix: `paycli --version`, a cash-in on the
 *   sandbox, `man paycli`, the Portuguese page (`man paycli-pt_BR`, `paycli help --man`) and the
 *   completion scripts in bash, zsh and fish;
 * - `npm install -g <checkout>` of a fresh clone (no node_modules) builds it and works.
 * Slow (npm ci, two builds, two installs), so generous time limits; nothing leaves the temp folder.
 * The README's `npm ci` compiles better-sqlite3's addon from source, as on a machine that cannot
 * download its prebuilt binary; the two global installs run the same install script, which finds
 * the addon this checkout compiled as a local prebuilt binary ({@link localPrebuilds}) instead of
 * compiling it twice more (minutes each on a 2-core machine: docs/contributing.md, "Suite time").
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/cli.js';
import { complete } from '../helpers/shells.js';

const ROOT = resolve(__dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SLOW = 600_000;

let dir: string;
let clone: string;
let home: string;
let prebuilds: string | undefined;

/** Environment of a new user's shell: no npm settings of the `npm test` around us, no PAYCLI_*, a fresh HOME. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = childEnv(
    { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share'), XDG_CACHE_HOME: join(home, '.cache'), ...extra },
    /^(npm_|INIT_CWD$|NODE$|PAYCLI_CACHE_DIR$)/i,
  );
  // npm must keep its own cache (offline machines have only that); HOME is fresh, so say where it is.
  env.npm_config_cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env: { ...process.env } }).trim();
  // Likewise the Node headers node-gyp builds better-sqlite3 against when no prebuilt binary can be
  // downloaded (an offline machine sets `nodedir` in its npm config; elsewhere it is not set).
  const nodedir = execFileSync('npm', ['config', 'get', 'nodedir'], { encoding: 'utf8', env: { ...process.env } }).trim();
  if (nodedir && nodedir !== 'undefined' && nodedir !== 'null') env.npm_config_nodedir = nodedir;
  return env;
}

/**
 * A folder holding better-sqlite3's addon as the prebuilt binary its install script (prebuild-install)
 * looks for before it compiles one: `better-sqlite3-v<version>-node-v<ABI>-<platform>-<arch>.tar.gz` with
 * `build/Release/better_sqlite3.node`, packed from this checkout's node_modules (the same version, built
 * for this Node by its `npm ci`). A global install given it as `npm_config_better_sqlite3_local_prebuilds`
 * runs the install script as usual and unpacks that instead of compiling; prebuild-install loads the
 * addon to check it and compiles when that fails or the version differs. Undefined when this checkout
 * has no compiled addon (a Node that uses node:sqlite): then the installs compile as before.
 */
function localPrebuilds(): string | undefined {
  const pkg = join(ROOT, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'))) return undefined;
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const out = join(dir, 'prebuilds');
  mkdirSync(out);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(out, name), '-C', pkg, 'build/Release/better_sqlite3.node']);
  return out;
}

/** {@link userEnv} for a global install: better-sqlite3's install script finds {@link localPrebuilds}. */
function installEnv(): NodeJS.ProcessEnv {
  return prebuilds ? userEnv({ npm_config_better_sqlite3_local_prebuilds: prebuilds }) : userEnv();
}

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv = userEnv()): SpawnSyncReturns<string> {
  return spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', timeout: SLOW, maxBuffer: 64 * 1024 * 1024 });
}

/** The first set-up command of a README: the first line of its first ```sh block. */
export function readmeSetupCommands(readme: string): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  return block.split('\n').filter((l) => l.trim() !== '');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-install-'));
  home = join(dir, 'home');
  mkdirSync(home);
  clone = join(dir, 'clone');
  execFileSync('git', ['clone', '-q', ROOT, clone], { env: userEnv() });
  prebuilds = localPrebuilds();
}, SLOW);
// A clone with node_modules and two builds: removing it may take longer than the default hook timeout.
afterAll(() => rmSync(dir, { recursive: true, force: true }), SLOW);

describe('a clean clone', () => {
  it('the README opens with exactly two set-up commands: the sandbox cash-in and the tests', () => {
    const commands = readmeSetupCommands(readFileSync(join(clone, 'README.md'), 'utf8'));
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatch(/^npm ci && .*paycli\.cjs cashin /);
    expect(commands[1]).toBe('npm ci && npm test');
  });

  it(
    "runs the README's first set-up command verbatim: a cash-in on the sandbox, QR code in the terminal",
    () => {
      const [first] = readmeSetupCommands(readFileSync(join(clone, 'README.md'), 'utf8'));
      // `script` gives the command a terminal, as a person typing it has.
      const r = spawnSync('script', ['-qefc', first!, '/dev/null'], {
        cwd: clone,
        env: userEnv({ TERM: 'xterm-256color' }),
        encoding: 'utf8',
        timeout: SLOW,
        maxBuffer: 64 * 1024 * 1024,
      });
      const out = r.stdout.replace(/\r/g, '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
      expect(r.status, out.slice(-3000)).toBe(0);
      expect(out).toContain('sandbox: this runs against the built-in sandbox; no money moves');
      expect(out).toContain('Cash-in created (sandbox: no money moves)');
      expect(out).toMatch(/Transaction ID\s+\d+/);
      expect(out).toMatch(/Amount\s+R\$ 10,00/);
      expect(out).toMatch(/^000201.+6304[0-9A-F]{4}$/m); // the BR Code
      const qrRows = out.split('\n').filter((l) => /[▀▄█]{5}/.test(l));
      expect(qrRows.length).toBeGreaterThan(10); // the QR code, drawn with half blocks
      expect(out).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      // it builds once (`npm ci` runs `prepare`, which builds), with no npm or build warning
      expect(out.match(/^> paycli@[\d.]+ build$/gm) ?? []).toHaveLength(1);
      expect(out).not.toMatch(/npm warn|WARN|is using named and default exports/i);
    },
    SLOW,
  );
});

describe('npm pack and a global install', () => {
  let tarball: string;
  let prefix: string;
  const installedEnv = () => userEnv({ PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, PAYCLI_CONFIG_DIR: join(home, 'cfg'), PAYCLI_DATA_DIR: join(home, 'data') });

  it(
    'npm pack builds what it needs and packs only what runs',
    () => {
      rmSync(join(clone, 'dist'), { recursive: true, force: true });
      rmSync(join(clone, 'man'), { recursive: true, force: true });
      const r = sh('npm pack --json --pack-destination ..', clone);
      expect(r.status, r.stderr.slice(-3000)).toBe(0);
      const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
      tarball = join(dir, info!.filename);
      const files = info!.files.map((f) => f.path).sort();
      const runs = [
        /^package\.json$/,
        /^README\.md$/,
        /^LICENSE$/,
        /^bin\/paycli\.cjs$/,
        /^dist\/[\w.-]+\.cjs$/,
        /^completions\/(_paycli|paycli\.bash|paycli\.fish)$/,
        /^man\/paycli\.1$/,
        /^man\/paycli-pt_BR\.1$/,
        /^man\/pt_BR\/man1\/paycli\.1$/,
        /^schemas\/[\w.-]+\.schema\.json$/,
        /^examples\/[\w.-]+\.(json|csv)$/,
        /^dashboard\/app\.(js|css)$/,
      ];
      expect(files.filter((f) => !runs.some((re) => re.test(f)))).toEqual([]);
      for (const f of [
        'bin/paycli.cjs',
        'dist/boot.cjs',
        'man/paycli.1',
        'man/paycli-pt_BR.1',
        'man/pt_BR/man1/paycli.1',
        'completions/paycli.bash',
        'completions/_paycli',
        'completions/paycli.fish',
        'examples/order.json',
        'examples/payout.json',
        'examples/charges.csv',
        'examples/payouts.csv',
        'dashboard/app.js',
        'dashboard/app.css',
      ])
        expect(files).toContain(f);
    },
    SLOW,
  );

  it(
    'installed globally into a temporary prefix: --version, a cash-in, man paycli, completions',
    () => {
      prefix = join(dir, 'prefix');
      // npm 11 runs dependencies' install scripts only when allowed: better-sqlite3 (the ledger) builds its addon
      const install = sh(`npm install -g --prefix ${JSON.stringify(prefix)} --allow-scripts=better-sqlite3 --no-audit --no-fund ${JSON.stringify(tarball)}`, dir, installEnv());
      expect(install.status, install.stderr.slice(-3000)).toBe(0);
      const env = installedEnv();

      const version = sh('command -v paycli && paycli --version', home, env);
      expect(version.stdout).toBe(`${join(prefix, 'bin', 'paycli')}\n${VERSION}\n`);

      const cashin = sh(
        'paycli --json cashin --value 1000 --payer-name "Fulano de Tal" --payer-document 123.456.789-09 --payer-email fulano@example.com --payer-phone 11987654321 --product-name Camiseta --product-description "Camiseta azul M"',
        home,
        env,
      );
      expect(cashin.status, cashin.stderr).toBe(0);
      expect(JSON.parse(cashin.stdout)).toMatchObject({ transactionId: expect.any(Number), qrCode: expect.stringMatching(/^000201/) });

      // the example files ship, where `paycli help examples` says, and the --help examples use them as printed
      const examples = sh('paycli help examples && paycli --json cashout --input "$(paycli help examples)/payout.json" --dry-run >/dev/null', home, env);
      expect(examples.status, examples.stderr).toBe(0);
      expect(examples.stdout).toBe(`${join(prefix, 'lib/node_modules/paycli/examples')}\n`);

      const man = sh('man paycli', home, { ...env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '100' });
      expect(man.status, man.stderr).toBe(0);
      expect(man.stdout).toMatch(/^PAYCLI\(1\)/);
      expect(man.stdout).toContain('paycli cashout [options]');

      // the Portuguese page, linked by npm under a name of its own beside the English one
      const manPath = join(prefix, 'share/man');
      const pages = { ...env, MANPATH: manPath, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '100' };
      const where = sh('man -w paycli-pt_BR && man -w paycli', home, pages);
      expect(where.status, where.stderr).toBe(0);
      // npm's links in share/man/man1, which man -w shows resolved: the package's two pages
      const linked = ['paycli-pt_BR.1', 'paycli.1'].map((f) => join(manPath, 'man1', f));
      for (const link of linked) expect(lstatSync(link).isSymbolicLink(), link).toBe(true);
      expect(where.stdout).toBe(`${linked.map((l) => realpathSync(l)).join('\n')}\n`);
      expect(realpathSync(linked[0]!)).toBe(join(prefix, 'lib/node_modules/paycli/man/paycli-pt_BR.1'));
      const pt = sh('man paycli-pt_BR', home, pages);
      expect(pt.status, pt.stderr).toBe(0);
      expect(pt.stdout).toMatch(/^PAYCLI\(1\) +Comandos do usuário/);
      expect(pt.stdout).toContain('SINOPSE');
      expect(pt.stdout).toContain('paycli cashout [opções]');
      expect(pt.stdout).toContain('Cobranças Pix');
      // `paycli help --man` opens the page of the language in use, wherever the package is
      const helpMan = sh('paycli help --man && paycli --lang pt-BR help --man && LANG=pt_BR.UTF-8 paycli help --man', home, pages);
      expect(helpMan.status, helpMan.stderr).toBe(0);
      const shown = helpMan.stdout.split(/(?=^PAYCLI\(1\))/m);
      expect(shown).toHaveLength(3);
      expect(shown[0]).toContain('paycli cashout [options]');
      expect(shown[1]).toContain('paycli cashout [opções]');
      // from LANG too (without a pt_BR locale on the machine, man writes it in ASCII)
      expect(shown[2]).toMatch(/^SINOPSE$/m);

      const completions = join(prefix, 'lib/node_modules/paycli/completions');
      for (const shell of ['bash', 'zsh', 'fish'] as const) {
        expect(complete(shell, 'paycli cash', { env: env as Record<string, string>, dir: completions }).candidates, shell).toEqual(['cashin', 'cashout']);
      }
      // and the same script from the installed command
      const viaCommand = sh('source <(paycli completion bash) && complete -p paycli', home, env);
      expect(viaCommand.status, viaCommand.stderr).toBe(0);
    },
    SLOW,
  );

  it(
    'npm install -g <fresh checkout> installs its dependencies, builds, and works',
    () => {
      const fresh = join(dir, 'fresh');
      execFileSync('git', ['clone', '-q', ROOT, fresh], { env: userEnv() });
      prefix = join(dir, 'prefix-checkout');
      const install = sh(`npm install -g --prefix ${JSON.stringify(prefix)} --allow-scripts=paycli --no-audit --no-fund ${JSON.stringify(fresh)}`, dir, installEnv());
      expect(install.status, install.stderr.slice(-3000)).toBe(0);
      expect(existsSync(join(fresh, 'dist/boot.cjs'))).toBe(true);
      const env = installedEnv();
      const help = sh('paycli help cashin && paycli --version && MANPAGER=cat man paycli | head -1', home, env);
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^Usage: paycli cashin /);
      expect(help.stdout).toContain(`\n${VERSION}\n`);
      expect(help.stdout).toMatch(/PAYCLI\(1\)/);
    },
    SLOW,
  );

  it('a checkout that was never built says so in one line (exit 2: nothing ran), no stack trace', () => {
    const r = sh(`node ${JSON.stringify(join(dir, 'clone', 'bin', 'paycli.cjs'))} --help`, home, userEnv());
    expect(r.status).toBe(0); // built above by npm pack
    const bare = join(dir, 'bare');
    execFileSync('git', ['clone', '-q', ROOT, bare], { env: userEnv() });
    const unbuilt = sh(`node ${JSON.stringify(join(bare, 'bin', 'paycli.cjs'))} cashin`, home, userEnv());
    expect(unbuilt.status).toBe(2);
    expect(unbuilt.stderr).toBe(`error: paycli is not built (no ${bare}/dist): run \`npm ci && npm run build\` in ${bare}\n`);
  });
});
