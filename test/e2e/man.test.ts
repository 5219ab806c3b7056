/**
 * The manual page man/paycli.1 (and man/pt_BR/man1/paycli.1 in Portuguese), generated from the command tree by the build (src/cli/man.ts): it is
 * listed in package.json `man`, renders with `man -l` without a single groff warning, and holds
 * every command and every flag that `--help` shows, with the examples and exit codes.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/man.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const PAGE = join(ROOT, 'man/paycli.1');

function render(): { stdout: string; stderr: string; status: number | null } {
  return spawnSync('man', ['--warnings', '-l', PAGE], {
    encoding: 'utf8',
    env: { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '200', MAN_KEEP_FORMATTING: '' },
    timeout: 15_000,
  });
}

describe('man paycli', () => {
  it('exists in Portuguese too: man/pt_BR/man1/paycli.1, found by man -L pt_BR, without warnings', () => {
    const env = { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '200', MAN_KEEP_FORMATTING: '', MANPATH: join(ROOT, 'man') };
    const r = spawnSync('man', ['--warnings', '-L', 'pt_BR', 'paycli'], { encoding: 'utf8', env, timeout: 15_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.replace(/^man: can't set the locale.*\n/m, '')).toBe('');
    expect(r.stdout).toMatch(/^PAYCLI\(1\)\s+Comandos do usuário\s+PAYCLI\(1\)/);
    for (const section of ['NOME', 'SINOPSE', 'DESCRIÇÃO', 'OPÇÕES GLOBAIS', 'COMANDOS', 'EXEMPLOS', 'STATUS DE SAÍDA', 'AMBIENTE', 'VEJA TAMBÉM'])
      expect(r.stdout).toMatch(new RegExp(`^${section}$`, 'm'));
    expect(r.stdout).toMatch(/^ +6 +criado, mas precisa de atenção/m);
    expect(r.stdout).toContain('envia um saque Pix (um pagamento) para uma chave Pix');
    // the same commands and flags as the English page
    const flags = (page: string) =>
      [...page.matchAll(/^ {7}(--[a-z-]+)/gm)]
        .map((m) => m[1])
        .sort()
        .join(' ');
    expect(flags(r.stdout)).toBe(flags(render().stdout));
  });
});
