/**
 * `paycli help --man` in a terminal (a process boundary: the pager needs a real one, here a tmux
 * pane): the page opens in man's pager, at a command's own section when one is named (a `+/`
 * search given to `less`), in the language of the run, and `q` ends it with exit 0. Without a
 * terminal (a pipe) the same command prints the page as text: test/inprocess/man.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTty, type TtySession } from '../helpers/tty.js';

let dir: string;
let tty: TtySession | undefined;

afterEach(() => {
  tty?.kill();
  tty = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The pane's first line, where less put the top of what it shows. */
const firstLine = (screen: string): string => screen.split('\n')[0] ?? '';

describe('paycli help --man in a terminal', () => {
  it.each([
    [['help', '--man', 'config', 'set'], 'C.UTF-8', /^ +paycli config set \[options\] <key>/],
    [['--lang', 'pt-BR', 'help', '--man', 'history'], 'C.UTF-8', /^ +paycli history \[opções\]/],
    [['help', '--man'], 'C.UTF-8', /^PAYCLI\(1\) +User Commands/],
  ] as Array<[string[], string, RegExp]>)('%j opens the pager there; q ends it with exit 0', async (args, lang, top) => {
    dir = mkdtempSync(join(tmpdir(), 'paycli-man-pager-'));
    // less as the pager (man's default), with a LESS of one's own, which is kept
    tty = startTty(args, { LANG: lang, LESS: '-R', MANWIDTH: '100', MANPAGER: 'less', PAGER: 'less' }, dir);
    const screen = await tty.waitFor(top, 60_000);
    expect(firstLine(screen)).toMatch(top);
    tty.type('q');
    expect(await tty.exitCode(60_000)).toBe(0);
  });
});
