/**
 * Help as a new user meets it (README "Getting help"): `paycli help <command> [<subcommand>]`,
 * a suggestion and exit 2 for an unknown name, bare `paycli` printing the root help on stdout
 * (exit 0), the global options in every subcommand's help, and `--no-color` turning the colour
 * of the prompts off in a real terminal (tmux).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHome, mapLimit, measureStartMs, runPaycli, startBudget } from '../helpers/cli.js';
import { startTty, type TtySession } from '../helpers/tty.js';

/**
 * The tests below start paycli dozens of times: their time limits follow one measured start on this
 * machine now (test/helpers/cli.ts `startBudget`), and independent starts run two at a time.
 */
const START_MS = await measureStartMs();
/** About how many starts the walk of the command tree and each test's loop make. */
const TREE_STARTS = 80;

/** Every command path of the tree, from the root help and each group's help (walked once per file). */
let paths: Promise<string[][]> | undefined;
function commandPaths(): Promise<string[][]> {
  const walk = async (path: string[]): Promise<string[][]> => {
    const r = await runPaycli([...path, '--help'], { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(r.stdout)?.[1] ?? '';
    const children = [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)]
      .map((m) => m[1]!)
      .filter((name) => name !== 'help')
      .map((name) => [...path, name]);
    const below = await mapLimit(children, 2, walk);
    return children.flatMap((child, i) => [child, ...below[i]!]);
  };
  return (paths ??= walk([]));
}

describe('paycli help', () => {
  it(
    "help <command> [<subcommand>] prints exactly that command's help, for every command",
    async () => {
      const paths = await commandPaths();
      expect(paths).toContainEqual(['config', 'set']);
      expect(paths).toContainEqual(['sandbox', 'pay']);
      const runs = await mapLimit(
        paths,
        2,
        async (path) => [path, await runPaycli(['help', ...path], { timeoutMs: 120_000 }), await runPaycli([...path, '--help'], { timeoutMs: 120_000 })] as const,
      );
      for (const [path, viaHelp, viaFlag] of runs) {
        expect(viaHelp.code, path.join(' ')).toBe(0);
        expect(viaHelp.stdout, path.join(' ')).toMatch(new RegExp(`^Usage: paycli ${path.join(' ')} `));
        expect(viaHelp.stdout).toBe(viaFlag.stdout);
      }
    },
    startBudget(START_MS, TREE_STARTS * 2),
  );

  it(
    'every subcommand names the global options it accepts in one line, described once in paycli --help',
    async () => {
      const paths = await commandPaths();
      const runs = await mapLimit(paths, 2, (path) => runPaycli([...path, '--help'], { timeoutMs: 120_000 }));
      for (const [i, path] of paths.entries()) {
        const r = runs[i]!;
        const globals = /\nGlobal options \(see paycli --help\): (.*)\n/.exec(r.stdout)?.[1] ?? '';
        for (const flag of ['--json', '--profile', '--base-url', '--timeout', '--no-color', '--verbose', '--lang'])
          expect(globals.split(' '), `${path.join(' ')}: ${flag}`).toContain(flag);
        expect(r.stdout, path.join(' ')).not.toContain('Global Options:');
        expect(r.stdout, path.join(' ')).not.toContain('config profile to use (env PAYCLI_PROFILE'); // a global's description is on the root's page only
      }
      const cashin = runs[paths.findIndex((p) => p.join(' ') === 'cashin')]!;
      expect(cashin.stdout.split('\n').length).toBeLessThan(90); // 99 when every global was described on every page
      const root = await runPaycli(['--help']);
      expect(root.stdout).toMatch(/--profile <name> +\S/);
    },
    startBudget(START_MS, TREE_STARTS),
  );

  for (const [_args, _word, _near, _where] of [
    [['help', 'cashn'], 'cashn', 'cashin', ''],
    [['help', 'config', 'sett'], 'sett', 'set', " for 'paycli config'"],
    [['cashn'], 'cashn', 'cashin', ''],
    [['config', 'lst'], 'lst', 'list', " for 'paycli config'"],
  ] as const) {
  }
});

describe('--no-color', () => {
  let tty: TtySession | undefined;
  const home = makeHome();
  afterEach(() => {
    tty?.kill();
    tty = undefined;
  });

  // SGR colour sequences, e.g. ESC [ 3 6 m (cyan); tmux capture-pane -e shows them as drawn.
  const COLOR = /\x1b\[[0-9;]*m/;

  it('the prompts are coloured in a terminal, and not with --no-color', async () => {
    tty = startTty(['cashin'], home.env, home.dir);
    await tty.waitFor('? Amount in reais');
    expect(tty.rawScreen()).toMatch(COLOR);
    tty.kill();

    tty = startTty(['--no-color', 'cashin'], home.env, home.dir);
    await tty.waitFor('? Amount in reais');
    tty.answer('10');
    await tty.waitFor('✔ Amount in reais');
    tty.answer('');
    await tty.waitFor(/Payer's name.*must not be empty|> /);
    expect(tty.rawScreen()).not.toMatch(COLOR);
  });
});

describe('usage answers that tell the truth', () => {
  it('a checkout that was never built: exit 2 (nothing ran), one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paycli-unbuilt-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(resolve(__dirname, '../../bin/paycli.cjs'), join(dir, 'bin', 'paycli.cjs'));
      copyFileSync(resolve(__dirname, '../../package.json'), join(dir, 'package.json'));
      const { spawnSync } = await import('node:child_process');
      const r = spawnSync(process.execPath, [join(dir, 'bin', 'paycli.cjs'), 'cashin'], { encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`error: paycli is not built (no ${dir}/dist): run \`npm ci && npm run build\` in ${dir}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
