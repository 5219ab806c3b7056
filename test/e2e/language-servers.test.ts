/**
 * Portuguese and English in `history`, `brcode`, the `sandbox` and `listen` servers and the select
 * list of a prompt (docs/portugues.md): with LANG=pt_BR.UTF-8 their texts for people are in
 * Portuguese, in English otherwise; what scripts read (`--json` stdout, the `listening on` line,
 * exit codes) is the same in both.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/language-servers.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, type Home } from '../helpers/cli.js';
import { type ListenProcess } from '../helpers/listen.js';
import { type SandboxProcess } from '../helpers/sandbox.js';
import { startTty, type TtySession } from '../helpers/tty.js';

const PT = { LANG: 'pt_BR.UTF-8' };

let home: Home;
const running: Array<SandboxProcess | ListenProcess> = [];
beforeAll(() => {
  home = makeHome();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});
afterAll(() => home.cleanup());

describe('a select list in a terminal', () => {
  let tty: TtySession | undefined;
  afterEach(() => {
    tty?.kill();
    tty = undefined;
  });

  for (const [lang, env, label, keysLine] of [
    ['Portuguese', PT, '? Tipo de chave Pix', '↑↓ navegar • ⏎ selecionar'],
    ['English', {}, '? Pix key type', '↑↓ navigate • ⏎ select'],
  ] as const) {
    it(`its keys line is in ${lang}`, async () => {
      const own = makeHome();
      try {
        tty = startTty(['cashout', '--value', '1550'], { ...own.env, ...env }, own.dir);
        const screen = await tty.waitFor(label);
        await tty.waitFor(keysLine);
        expect(screen).toContain(label);
      } finally {
        tty?.kill();
        tty = undefined;
        own.cleanup();
      }
    });
  }
});
