/**
 * Shell completion. The committed completions/ must be what the generator makes now,
 * and the scripts are driven in real bash, zsh and fish (installed by .ci/run; a missing shell
 * fails these tests). Completing commands and flags must not start Node.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { complete, COMPLETION_FILES, COMPLETIONS_DIR, type TestShell } from '../helpers/shells.js';

const SHELLS: TestShell[] = ['bash', 'zsh', 'fish'];
const CONFIG_KEYS = [
  'allow-insecure-http',
  'api-key',
  'api-key-store',
  'auth-header',
  'balance-path',
  'base-url',
  'cashin-base-url',
  'cashout-base-url',
  'duplicate-window',
  'header.',
  'lang',
  'ledger-password',
  'ledger-url',
  'lookup',
  'lookup-base-url',
  'order-id',
  'settle-after',
  'status-by-order-path',
  'status-path',
  'timeout',
];

let home: Home;
let env: Record<string, string>;
let marker: string;
let work: string;

beforeAll(async () => {
  home = makeHome();
  // A PATH where node, paycli, npm and npx leave a trace when run: Tab must not start them.
  const fakeBin = join(home.dir, 'fake-bin');
  marker = join(home.dir, 'node-was-run');
  mkdirSync(fakeBin);
  for (const name of ['node', 'nodejs', 'paycli', 'npm', 'npx']) {
    writeFileSync(join(fakeBin, name), `#!/bin/sh\necho "$0" >> '${marker}'\nexit 1\n`);
    chmodSync(join(fakeBin, name), 0o755);
  }
  env = { ...home.env, PATH: `${fakeBin}:${process.env.PATH ?? '/usr/bin:/bin'}`, TERM: 'xterm', LANG: 'C.UTF-8' };
  // Profiles "default" and "prod" in the config file (isolated by PAYCLI_CONFIG_DIR).
  expect((await runPaycli(['config', 'set', 'base-url', 'sandbox', '--profile', 'prod', '--create'], { env: home.env })).code).toBe(0);
  expect((await runPaycli(['config', 'set', 'timeout', '5000'], { env: home.env })).code).toBe(0);
  // A folder to complete file paths in.
  work = join(home.dir, 'work');
  mkdirSync(join(work, 'sub'), { recursive: true });
  writeFileSync(join(work, 'order.json'), '{}');
  writeFileSync(join(work, 'qr.png'), '');
});
afterAll(() => home.cleanup());

describe('paycli completion', () => {
  it.each(SHELLS)('the committed completions/ script for %s is what `paycli completion` prints now (run `npm run completions`)', async (shell) => {
    const r = await runPaycli(['completion', shell], { env: home.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.length).toBeGreaterThan(1000);
    expect(readFileSync(join(COMPLETIONS_DIR, COMPLETION_FILES[shell]), 'utf8')).toBe(r.stdout);
  });

  it('--json prints the script in one JSON document', async () => {
    const r = await runPaycli(['--json', 'completion', 'fish'], { env: home.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ shell: 'fish', script: readFileSync(join(COMPLETIONS_DIR, 'paycli.fish'), 'utf8') });
  });

  it('--help gives the install line for each shell', async () => {
    const r = await runPaycli(['completion', '--help'], { env: home.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: paycli completion \[options\] <shell>$/m);
    expect(r.stdout).toContain('paycli completion bash > ~/.local/share/bash-completion/completions/paycli');
    expect(r.stdout).toContain("paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc");
    expect(r.stdout).toContain('mkdir -p ~/.zfunc && paycli completion zsh > ~/.zfunc/_paycli');
    expect(r.stdout).toContain('fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit');
    expect(r.stdout).toContain('paycli completion fish > ~/.config/fish/completions/paycli.fish');
    expect((await runPaycli(['--help'], { env: home.env })).stdout).toMatch(/^ {2}completion <shell> +print the shell completion script/m);
  });

  it('an unknown shell is a usage error: exit 2, nothing on stdout', async () => {
    const r = await runPaycli(['completion', 'powershell'], { env: home.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/'powershell' is invalid.*bash, zsh, fish/);
    const missing = await runPaycli(['completion'], { env: home.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'shell'/);
  });
});

describe.each(SHELLS)('Tab in %s', (shell) => {
  const cases: Array<[string, string[]]> = [
    ['paycli ca', ['cashin', 'cashout']],
    ['paycli cashout --pix', ['--pix-key', '--pix-key-type']],
    ['paycli cashout --pix-key-type ', ['cnpj', 'cpf', 'email', 'phone', 'random']],
    ['paycli config set ', CONFIG_KEYS],
    ['paycli config ', ['get', 'list', 'path', 'profiles', 'set', 'unset']],
    ['paycli config unset cash', ['cashin-base-url', 'cashout-base-url']],
    ['paycli completion ', ['bash', 'fish', 'zsh']],
    ['paycli --json --timeout 100 cashout --pix-key-type em', ['email']],
    ['paycli cashin --no-', ['--no-color', '--no-input', '--no-qr']],
    [
      'paycli sandbox --port 4010 --',
      [
        '--allow-insecure-http',
        '--api-key',
        '--auto-pay',
        '--base-url',
        '--data-dir',
        '--drop-after-create',
        '--failure',
        '--help',
        '--host',
        '--jq',
        '--json',
        '--keep-events',
        '--lang',
        '--no-acquirer',
        '--no-color',
        '--no-dashboard',
        '--no-input',
        '--open',
        '--opening-balance',
        '--port',
        '--postback-secret',
        '--profile',
        '--retry-for',
        '--retry-schedule',
        '--strict',
        '--template',
        '--timeout',
        '--verbose',
        '--version',
        '--webhook-url',
      ],
    ],
    ['paycli help co', ['completion', 'config']],
  ];

  it.each(cases)('%j offers exactly the expected candidates, without starting Node', (line, expected) => {
    expect(complete(shell, line, { env }).candidates).toEqual(expected);
    expect(existsSync(marker), `Tab ran ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`).toBe(false);
  });

  // --json FIELDS: the fields of the command's document, in the --json= form, in every shell
  it.each([
    ['paycli cashout --json=trans', ['transactionId']],
    ['paycli history --json=out', ['outcome']],
    ['paycli --json=st', []],
  ] as Array<[string, string[]]>)('%j completes the fields of the document', (line, expected) => {
    expect(complete(shell, line, { env }).candidates.map((c) => c.replace(/^--json=/, ''))).toEqual(expected);
  });

  if (shell === 'fish')
    it('fish: after a comma, the fields not given yet, each as the whole word', () => {
      expect(complete(shell, 'paycli history --json=id,out', { env }).candidates).toEqual(['--json=id,outcome']);
      const rest = complete(shell, 'paycli cashout --json=transactionId,', { env }).candidates;
      expect(rest).toContain('--json=transactionId,status');
      expect(rest).not.toContain('--json=transactionId,transactionId');
      expect(complete(shell, 'paycli history --jso', { env }).candidates).toEqual(['--json']);
    });

  it('--profile completes the profile names in the config file', () => {
    expect(complete(shell, 'paycli --profile ', { env }).candidates).toEqual(['default', 'prod']);
    expect(complete(shell, 'paycli cashout --amount 10 --profile p', { env }).candidates).toEqual(['prod']);
    expect(existsSync(marker)).toBe(false);
  });

  it('--profile offers nothing (and fails nowhere) when there is no config file', () => {
    expect(complete(shell, 'paycli --profile ', { env: { ...env, PAYCLI_CONFIG_DIR: join(home.dir, 'none') } }).candidates).toEqual([]);
  });

  it('--input and --qr-file complete file paths', () => {
    const files = (line: string) => complete(shell, line, { env, cwd: work }).candidates.map((c) => c.replace(/\/$/, ''));
    expect(files('paycli cashin --qr-file ')).toEqual(['order.json', 'qr.png', 'sub']);
    expect(files('paycli cashout --input o')).toEqual(['order.json']);
  });
});

describe('Tab in zsh edits the line as expected', () => {
  it('completes a unique candidate with a space, and the header. prefix without one', () => {
    expect(complete('zsh', 'paycli cashout --pix-key-t', { env }).buffer).toBe('paycli cashout --pix-key-type ');
    expect(complete('zsh', 'paycli config set hea', { env }).buffer).toBe('paycli config set header.');
    expect(complete('zsh', 'paycli cashout --pix-key-type=ra', { env }).buffer).toBe('paycli cashout --pix-key-type=random ');
  });
});

/** Flags listed in the Options section of a help text. */
function helpFlags(help: string): string[] {
  const section = help.split(/^Options:$/m)[1]?.split(/^\S/m)[0] ?? '';
  return section
    .split('\n')
    .filter((l) => /^ {2}-/.test(l))
    .flatMap((l) => (l.trim().split(/ {2,}/)[0] ?? '').replace(/<[^>]*>|\[[^\]]*\]/g, '').match(/--?[A-Za-z][\w-]*/g) ?? []);
}

/** Subcommands listed in the Commands section of a help text (without `help`). */
function helpCommands(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
  return section
    .split('\n')
    .map((l) => /^ {2}([a-z][\w-]*)/.exec(l)?.[1])
    .filter((c): c is string => Boolean(c) && c !== 'help');
}

describe('completion knows every command and flag that --help shows', () => {
  it('for every command, bash completes exactly its flags and the global ones', async () => {
    const rootHelp = (await runPaycli(['--help'], { env: home.env })).stdout;
    const globals = helpFlags(rootHelp);
    expect(globals).toContain('--profile');
    const paths: string[][] = [[]];
    // commander accepts an ancestor's options after a subcommand, so those complete too
    const flagsOf = new Map<string, string[]>();
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i]!;
      const help = (await runPaycli([...path, '--help'], { env: home.env })).stdout;
      flagsOf.set(path.join(' '), helpFlags(help));
      const inherited = path.flatMap((_, n) => flagsOf.get(path.slice(0, n).join(' ')) ?? []);
      const subs = helpCommands(help);
      paths.push(...subs.map((s) => [...path, s]));
      const line = ['paycli', ...path, ''].join(' ');
      // `help [command...]` is a subcommand of the root only (src/cli/help.ts)
      const withHelp = /^ {2}help (\[options\] )?\[command\.\.\.\]/m.test(help) ? ['help'] : [];
      if (subs.length) expect(complete('bash', line, { env }).candidates, line).toEqual([...subs, ...withHelp].sort());
      expect(complete('bash', `${line}-`, { env }).candidates, `${line}-`).toEqual([...new Set([...helpFlags(help), ...globals, ...inherited])].sort());
    }
    expect(paths.map((p) => p.join(' '))).toEqual(expect.arrayContaining(['cashin', 'cashout', 'config set', 'sandbox', 'completion']));
  });
});
