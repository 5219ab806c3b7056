/**
 * Drives paycli's completion scripts (completions/) in the real shells, as Tab would: bash calls
 * the function registered with `complete -F`, zsh runs the full completion system (compinit,
 * _main_complete) in a pseudo-terminal (zsh/zpty) and records what reaches `compadd`, fish
 * answers `complete -C`. Each returns the candidates, sorted. The bash and zsh drivers are
 * test/helpers/bash-complete.sh and test/helpers/zsh-complete.zsh.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The folder of the committed completion scripts. */
export const COMPLETIONS_DIR = resolve(__dirname, '../../completions');

/** The file each shell's script is committed as. */
export const COMPLETION_FILES = { bash: 'paycli.bash', zsh: '_paycli', fish: 'paycli.fish' } as const;

/** A shell the tests drive. */
export type TestShell = keyof typeof COMPLETION_FILES;

/** Completion options: the environment of the shell (HOME, PAYCLI_CONFIG_DIR, PATH...). */
export interface CompleteOptions {
  env: Record<string, string>;
  /** Working directory of the shell (file completion is relative to it). */
  cwd?: string;
  /** Folder of the completion scripts (default: the committed completions/, e.g. an installed copy instead). */
  dir?: string;
}

const HELPERS = __dirname;

function run(cmd: string, args: string[], opts: CompleteOptions): string {
  const r = spawnSync(cmd, args, { env: opts.env, cwd: opts.cwd, encoding: 'utf8', timeout: 15_000 });
  if (r.error) throw new Error(`${cmd} could not run (is it installed? .ci/run installs it): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} exited ${r.status ?? r.signal}: ${r.stderr}`);
  return r.stdout;
}

function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

/** What completing `line` (the cursor at its end) offers in `shell`, sorted; zsh also gives the line after Tab. */
export function complete(shell: TestShell, line: string, opts: CompleteOptions): { candidates: string[]; buffer?: string } {
  const dir = opts.dir ?? COMPLETIONS_DIR;
  const script = join(dir, COMPLETION_FILES[shell]);
  if (shell === 'bash') return { candidates: lines(run('bash', ['--norc', '--noprofile', join(HELPERS, 'bash-complete.sh'), script, line], opts)).sort() };
  if (shell === 'fish') {
    const out = run('fish', ['--no-config', '-c', 'source $argv[1]; or exit 3; complete -C $argv[2]', script, line], opts);
    return {
      candidates: lines(out)
        .map((l) => l.split('\t')[0]!)
        .sort(),
    };
  }
  const tmp = mkdtempSync(join(tmpdir(), 'paycli-zsh-'));
  try {
    const capture = join(tmp, 'capture');
    run('zsh', ['-f', join(HELPERS, 'zsh-complete.zsh'), dir, capture, line], opts);
    return { candidates: [...new Set(lines(readFileSync(capture, 'utf8')))].sort(), buffer: readFileSync(`${capture}.buffer`, 'utf8').replace(/\n$/, '') };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
