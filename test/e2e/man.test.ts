/**
 * The manual page man/paycli.1 (and in Portuguese man/paycli-pt_BR.1, and man/pt_BR/man1/paycli.1 for
 * `man -L pt_BR`), generated from the command tree by the build (src/cli/man.ts): both names are
 * listed in package.json `man`, `paycli help --man` opens the one of the language in use; it renders with `man -l` without a single groff warning, and holds
 * every command and every flag that `--help` shows, with the examples and exit codes.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/man.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPaycli } from '../helpers/cli.js';

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

  it('man/paycli-pt_BR.1 is the Portuguese page under the name npm links, named so in NOME, without warnings', () => {
    const env = { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '200', MAN_KEEP_FORMATTING: '' };
    const r = spawnSync('man', ['--warnings', '-l', join(ROOT, 'man/paycli-pt_BR.1')], { encoding: 'utf8', env, timeout: 15_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.replace(/^man: can't set the locale.*\n/m, '')).toBe('');
    expect(r.stdout).toMatch(/^PAYCLI\(1\)\s+Comandos do usuário\s+PAYCLI\(1\)/);
    expect(r.stdout).toMatch(/^NOME\n +paycli, paycli-pt_BR - Cobranças Pix/m);
    const same = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/^paycli(, paycli\\-pt_BR)? \\- .*$/m, '');
    expect(same('man/paycli-pt_BR.1')).toBe(same('man/pt_BR/man1/paycli.1'));
  });

  it('paycli help --man shows the page of the language in use (man -l), as text when stdout is no terminal', async () => {
    const env = { MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '200' };
    const en = await runPaycli(['help', '--man'], { env });
    expect(en.code, en.stderr).toBe(0);
    expect(en.stdout).toMatch(/^PAYCLI\(1\)\s+User Commands/);
    const pt = await runPaycli(['--lang', 'pt-BR', 'help', '--man'], { env });
    expect(pt.code, pt.stderr).toBe(0);
    expect(pt.stdout).toMatch(/^PAYCLI\(1\)\s+Comandos do usuário/);
    expect(pt.stdout).toContain('paycli cashout [opções]');
    // the language from LANG (where this machine has no pt_BR locale, man writes the page in ASCII)
    const lang = await runPaycli(['help', '--man'], { env: { ...env, LANG: 'pt_BR.UTF-8' } });
    expect(lang.code, lang.stderr).toBe(0);
    expect(lang.stdout).toMatch(/^PAYCLI\(1\)\s+Comandos do usu/);
    expect(lang.stdout).toMatch(/^SINOPSE$/m);
    // an unknown command is exit 2 with a suggestion, before man starts
    const typo = await runPaycli(['help', '--man', 'cashot'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toContain('cashout');
  });

  it('paycli help --man without a man program is exit 2 naming the page to read', async () => {
    const r = await runPaycli(['help', '--man'], { env: { PATH: '/nonexistent', LANG: 'C.UTF-8' } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`man could not show the manual page; read ${join(ROOT, 'man/paycli.1')}`);
  });
});
