/**
 * `paycli brcode decode|qr|create` and the BR Code check of a cash-in's answer, end to end: the
 * built paycli against files, stdin, a test gateway on 127.0.0.1 that answers chosen BR Codes, and
 * a real terminal (tmux) for the QR drawing (docs/brcodes.md).
 * Here only what needs a process of its own: a terminal (the QR code drawn or not by its width); the rest runs in process:
 * test/inprocess/brcode.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { startTty, type TtySession } from '../helpers/tty.js';

let home: Home;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => home.cleanup());

describe('the QR code in a terminal', () => {
  let tty: TtySession | undefined;
  afterEach(() => tty?.kill());
  const cashin = [...CASHIN_ARGS.slice(0, 1), '--base-url', 'sandbox', ...CASHIN_ARGS.slice(1)];
  it('is drawn with its quiet zone in a wide terminal', async () => {
    tty = startTty(cashin, home.env, home.dir, { cols: 120, rows: 60 });
    expect(await tty.exitCode()).toBe(0);
    expect(tty.screen()).toMatch(/ {4}█▀▀▀▀▀█/);
  });
  it('is not drawn in a terminal narrower than the code: says so and points to --qr-file', async () => {
    tty = startTty(cashin, home.env, home.dir, { cols: 40, rows: 40 });
    expect(await tty.exitCode()).toBe(0);
    const screen = tty.screen();
    expect(screen).toMatch(/too narrow \(40 columns\)/);
    expect(screen).toMatch(/--qr-file/);
    expect(screen).not.toContain('█');
  });
});
