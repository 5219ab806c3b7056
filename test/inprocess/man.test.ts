/**
 * The manual page man/paycli.1 (and man/pt_BR/man1/paycli.1 in Portuguese), generated from the command tree by the build (src/cli/man.ts): it is
 * listed in package.json `man`, renders with `man -l` without a single groff warning, and holds
 * every command and every flag that `--help` shows, with the examples and exit codes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';

const ROOT = resolve(__dirname, '../..');
const PAGE = join(ROOT, 'man/paycli.1');

function render(): { stdout: string; stderr: string; status: number | null } {
  return spawnSync('man', ['--warnings', '-l', PAGE], {
    encoding: 'utf8',
    env: { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '200', MAN_KEEP_FORMATTING: '' },
    timeout: 15_000,
  });
}

/** Every command path, from the help texts. */
async function commandPaths(): Promise<string[][]> {
  const out: string[][] = [[]];
  for (let i = 0; i < out.length; i++) {
    const help = (await runPaycli([...out[i]!, '--help'])).stdout;
    const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(help)?.[1] ?? '';
    for (const m of section.matchAll(/^ {2}([a-z][\w-]*)/gm)) if (m[1] !== 'help') out.push([...out[i]!, m[1]!]);
  }
  return out;
}

describe('man paycli', () => {
  it('is listed in package.json "man"', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
    // npm links each entry to <prefix>/share/man/man1/<file name>: the Portuguese page needs a name of its own
    expect(pkg.man).toEqual(['./man/paycli.1', './man/paycli-pt_BR.1']);
    expect(pkg.files).toContain('man');
  });

  it('renders with man -l, without warnings', () => {
    const r = render();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^PAYCLI\(1\)\s+User Commands\s+PAYCLI\(1\)/);
    for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'GLOBAL OPTIONS', 'COMMANDS', 'EXAMPLES', 'EXIT STATUS', 'ENVIRONMENT'])
      expect(r.stdout).toMatch(new RegExp(`^${section}$`, 'm'));
    expect(r.stdout).toMatch(/^ +6 +created, but needs attention/m);
  });

  it('holds every command with every flag its --help shows, and its examples', async () => {
    const page = render().stdout;
    for (const path of await commandPaths()) {
      const help = (await runPaycli([...path, '--help'])).stdout;
      if (path.length) expect(page, path.join(' ')).toContain(/^Usage: (.*)$/m.exec(help)![1]!);
      const options = help.split(/^Options:$/m)[1]?.split(/^\S/m)[0] ?? '';
      for (const m of options.matchAll(/^ {2}(-[^ ].*?)(?: {2,}|$)/gm)) expect(page, `${path.join(' ')} ${m[1]}`).toContain(m[1]!);
      for (const m of help.matchAll(/^ +\$ (paycli .*)$/gm)) expect(page, path.join(' ')).toContain(m[1]!);
    }
  });
});
