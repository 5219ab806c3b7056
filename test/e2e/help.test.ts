/**
 * Help where a process matters: `--no-color` turning the colour of the prompts off in a real
 * terminal (tmux), and a checkout that was never built. The rest of help runs in process:
 * test/inprocess/help.test.ts.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHome } from '../helpers/cli.js';
import { startTty, type TtySession } from '../helpers/tty.js';

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

describe('usage answers that tell the truth', () => {
  it('a checkout that was never built: exit 2 (nothing ran), one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paycli-unbuilt-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(resolve(__dirname, '../../bin/paycli.cjs'), join(dir, 'bin', 'paycli.cjs'));
      copyFileSync(resolve(__dirname, '../../package.json'), join(dir, 'package.json'));
      const { spawnSync } = await import('node:child_process');
      const r = spawnSync(process.execPath, [join(dir, 'bin', 'paycli.cjs'), 'cashin'], { encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`error: paycli is not built (no ${dir}/dist): run \`npm ci && npm run build\` in ${dir}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
