/**
 * Help as a new user meets it (README "Getting help"): `paycli help <command> [<subcommand>]`,
 * a suggestion and exit 2 for an unknown name, bare `paycli` printing the root help on stdout
 * (exit 0), the global options in every subcommand's help, and `--no-color` turning the colour
 * of the prompts off in a real terminal (tmux).
 */
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
    const children = [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help').map((name) => [...path, name]);
    const below = await mapLimit(children, 2, walk);
    return children.flatMap((child, i) => [child, ...below[i]!]);
  };
  return (paths ??= walk([]));
}

describe('paycli help', () => {
  it('bare paycli prints the root help on stdout and exits 0', async () => {
    const bare = await runPaycli([]);
    expect(bare.code).toBe(0);
    expect(bare.stderr).toBe('');
    expect(bare.stdout).toMatch(/^Usage: paycli \[options\] \[command\]/);
    expect(bare.stdout).toContain('Exit codes:');
    expect((await runPaycli(['--help'])).stdout).toBe(bare.stdout);
    expect((await runPaycli(['help'])).stdout).toBe(bare.stdout);
  });

  it('help <command> [<subcommand>] prints exactly that command\'s help, for every command', async () => {
    const paths = await commandPaths();
    expect(paths).toContainEqual(['config', 'set']);
    expect(paths).toContainEqual(['sandbox', 'pay']);
    const runs = await mapLimit(paths, 2, async (path) => [path, await runPaycli(['help', ...path], { timeoutMs: 120_000 }), await runPaycli([...path, '--help'], { timeoutMs: 120_000 })] as const);
    for (const [path, viaHelp, viaFlag] of runs) {
      expect(viaHelp.code, path.join(' ')).toBe(0);
      expect(viaHelp.stdout, path.join(' ')).toMatch(new RegExp(`^Usage: paycli ${path.join(' ')} `));
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
  }, startBudget(START_MS, TREE_STARTS * 2));

  it('every subcommand lists the global options it accepts', async () => {
    const paths = await commandPaths();
    const runs = await mapLimit(paths, 2, (path) => runPaycli([...path, '--help'], { timeoutMs: 120_000 }));
    for (const [i, path] of paths.entries()) {
      const r = runs[i]!;
      const globals = /\nGlobal Options:\n([\s\S]*?)\n\n/.exec(r.stdout)?.[1] ?? '';
      for (const flag of ['--json', '--profile <name>', '--base-url <url>', '--no-color', '--verbose']) expect(globals, `${path.join(' ')}: ${flag}`).toContain(flag);
    }
  }, startBudget(START_MS, TREE_STARTS));

  it('sandbox control subcommands take --api-key (and PAYCLI_API_KEY)', async () => {
    const r = await runPaycli(['help', 'sandbox', 'pay']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('--api-key <key> the key the sandbox was started with (--api-key) (env: PAYCLI_API_KEY)');
  });

  for (const [args, word, near, where] of [
    [['help', 'cashn'], 'cashn', 'cashin', ''],
    [['help', 'config', 'sett'], 'sett', 'set', " for 'paycli config'"],
    [['cashn'], 'cashn', 'cashin', ''],
    [['config', 'lst'], 'lst', 'list', " for 'paycli config'"],
  ] as const) {
    it(`paycli ${args.join(' ')}: unknown, suggests ${near}, exit 2`, async () => {
      const r = await runPaycli([...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`error: unknown command '${word}'${where}\n(Did you mean ${near}?)`);
    });
  }

  it('with --json the error is one JSON document, and nothing else on stderr', async () => {
    for (const args of [['--json', 'help', 'cashn'], ['--json', 'cashn'], ['--json', 'config', 'lst']]) {
      const r = await runPaycli(args);
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ error: { code: 'usage', message: expect.stringMatching(/unknown command .*\n\(Did you mean (cashin|list)\?\)/) } });
    }
  });

  it('an unknown name with nothing near lists the known commands', async () => {
    const r = await runPaycli(['help', 'zzzzzz']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'zzzzzz'\n\(known commands: cashin, cashout, config/);
  });

  it('a command group without its subcommand prints its help on stdout, exit 0', async () => {
    const r = await runPaycli(['config']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: paycli config /);
  });
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
