/**
 * The completion scripts' static bodies live in files the shells' own tools read
 * (src/cli/completion/paycli.bash, paycli.zsh, paycli.fish, profiles.awk). shellcheck (installed by
 * `npm test` from scripts/test-deps.txt) lints the bash body and the whole generated bash script;
 * shellcheck does not read zsh or fish, so their syntax is checked by `zsh -n` and
 * `fish --no-execute`, and the awk program by awk itself.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHome, runPaycli } from '../helpers/cli.js';

const SRC = resolve(__dirname, '../../src/cli/completion');

function tool(cmd: string, args: string[], input?: string) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', input, timeout: 30_000 });
  if (r.error) throw new Error(`${cmd} could not run (scripts/test-deps.txt installs it): ${r.error.message}`);
  return r;
}

async function script(shell: 'bash' | 'zsh' | 'fish'): Promise<string> {
  const home = makeHome();
  try {
    const r = await runPaycli(['completion', shell], { env: home.env });
    expect(r.code).toBe(0);
    return r.stdout;
  } finally {
    home.cleanup();
  }
}

describe('completion bodies are linted', () => {
  it('shellcheck finds nothing in the bash body (every severity)', () => {
    const r = tool('shellcheck', ['--severity=style', join(SRC, 'paycli.bash')]);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('shellcheck finds nothing in the generated bash script', async () => {
    const r = tool('shellcheck', ['--severity=style', '--shell=bash', '-'], await script('bash'));
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('zsh -n and fish --no-execute accept the bodies and the generated scripts', async () => {
    for (const [cmd, args, file, shell] of [
      ['zsh', ['-n'], 'paycli.zsh', 'zsh'],
      ['fish', ['--no-execute'], 'paycli.fish', 'fish'],
    ] as const) {
      const body = tool(cmd, [...args, join(SRC, file)]);
      expect(body.stderr).toBe('');
      expect(body.status).toBe(0);
      const file2 = join(mkdtempSync(join(tmpdir(), 'paycli-lint-')), `script.${shell}`);
      writeFileSync(file2, await script(shell));
      const whole = tool(cmd, [...args, file2]);
      rmSync(dirname(file2), { recursive: true, force: true });
      expect(whole.stderr).toBe('');
      expect(whole.status).toBe(0);
    }
  });

  it('the awk program lists profile names and nothing else', () => {
    const r = tool('awk', ['-f', join(SRC, 'profiles.awk')], '{"profiles": {"default": {"timeout": "1"}, "prod \\"x\\"": {}}, "other": {"a": {}}}');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('default\nprod "x"\n');
  });
});
