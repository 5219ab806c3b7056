/**
 * Help as a new user meets it (README "Getting help"), paycli run in process (test/helpers/run.ts):
 * `paycli help <command> [<subcommand>]` for every command, a suggestion and exit 2 for an unknown
 * name, bare `paycli` printing the root help on stdout (exit 0), the global options in every
 * subcommand's help. Prompts in a real terminal and an unbuilt checkout: test/e2e/help.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, mapLimit } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { json, useGatewayFixture } from '../helpers/gateway.js';

/** Every command path of the tree, from the root help and each group's help (walked once per file). */
let paths: Promise<string[][]> | undefined;
function commandPaths(): Promise<string[][]> {
  const walk = async (path: string[]): Promise<string[][]> => {
    const r = await runPaycli([...path, '--help']);
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
  it("help <command> [<subcommand>] prints exactly that command's help, for every command", async () => {
    const paths = await commandPaths();
    expect(paths).toContainEqual(['config', 'set']);
    expect(paths).toContainEqual(['sandbox', 'pay']);
    const runs = await mapLimit(paths, 2, async (path) => [path, await runPaycli(['help', ...path]), await runPaycli([...path, '--help'])] as const);
    for (const [path, viaHelp, viaFlag] of runs) {
      expect(viaHelp.code, path.join(' ')).toBe(0);
      expect(viaHelp.stdout, path.join(' ')).toMatch(new RegExp(`^Usage: paycli ${path.join(' ')} `));
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
  });

  it('every subcommand names the global options it accepts in one line, described once in paycli --help', async () => {
    const paths = await commandPaths();
    const runs = await mapLimit(paths, 2, (path) => runPaycli([...path, '--help']));
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
  });

  it('bare paycli prints the root help on stdout and exits 0', async () => {
    const bare = await runPaycli([]);
    expect(bare.code).toBe(0);
    expect(bare.stderr).toBe('');
    expect(bare.stdout).toMatch(/^Usage: paycli \[options\] \[command\]/);
    expect(bare.stdout).toContain('Exit codes:');
    expect((await runPaycli(['--help'])).stdout).toBe(bare.stdout);
    expect((await runPaycli(['help'])).stdout).toBe(bare.stdout);
  });

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
    for (const args of [
      ['--json', 'help', 'cashn'],
      ['--json', 'cashn'],
      ['--json', 'config', 'lst'],
    ]) {
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

describe('usage answers that tell the truth', () => {
  const g = useGatewayFixture('sk_test_help_0123456789');
  it('a mistyped command with --help is an unknown command: exit 2, "did you mean", not the root help', async () => {
    for (const args of [
      ['cashot', '--help'],
      ['--json', 'cashot', '-h'],
      ['--profile', 'x', 'cashot', '--help'],
    ]) {
      const r = await runPaycli(args, { env: g.home.env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/unknown command 'cashot'[\s\S]*cashout/);
    }
    expect((await runPaycli(['cashout', '--help'])).code).toBe(0);
    expect((await runPaycli(['help', 'cashout'])).code).toBe(0);
  });
  it('history --csv hints at --format csv (both languages)', async () => {
    const r = await runPaycli(['history', '--csv'], { env: g.home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown option '--csv'\n\(did you mean --format csv\?\)/);
    const pt = await runPaycli(['--lang', 'pt-BR', 'history', '--csv'], { env: g.home.env });
    expect(pt.stderr).toMatch(/^erro: opção desconhecida '--csv'\n\(você quis dizer --format csv\?\)/);
  });
  it('--json --version is one JSON document; --version alone the bare version', async () => {
    for (const args of [
      ['--json', '--version'],
      ['--version', '--json'],
      ['--json', '-V'],
    ]) {
      const r = await runPaycli(args);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    }
    expect((await runPaycli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
  it('--verbose prints no stack trace for an ordinary error (a refused key): the trace is for bugs only', async () => {
    g.gw.respond((_req, res) => json(res, 401, { message: 'Unauthorized' }));
    const r = await runPaycli(['--verbose', ...CASHIN_ARGS, '--no-qr'], { env: g.env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: the gateway refused the credential');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).toContain('< HTTP 401'); // the request trace stays
  });
  it('NO_COLOR: the terminal QR code is drawn without escape sequences', async () => {
    const r = await runPaycli(['--base-url', 'sandbox', ...CASHIN_ARGS, '--qr'], { env: { ...g.home.env, NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('█');
    expect(r.stdout).not.toMatch(/\x1b/);
    const coloured = await runPaycli(['--base-url', 'sandbox', ...CASHIN_ARGS, '--qr', '--value', '1001'], { env: g.home.env });
    expect(coloured.stdout).toMatch(/\x1b\[47m/);
  });
});
