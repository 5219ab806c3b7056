/**
 * Money safety from structure (docs/output-for-scripts.md "Exit codes", docs/configuration.md), end to end:
 * the built paycli against a test gateway on 127.0.0.1, asserting stdout, stderr, the exit code
 * and how many requests reached the gateway.
 * - a profile that does not exist, or one half set up (a base URL for the other operation only),
 *   never falls back to the sandbox;
 * - an answer wrong about money, or a result that cannot be written out, ends with exit 6 after
 *   the payment is printed and recorded;
 * - what can be checked before sending (the --qr-file path, the timeout) is checked before sending;
 * - the confirmation says where the money goes; nothing is asked of someone who cannot send.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/safety.test.ts.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, childEnv, PAYCLI } from '../helpers/cli.js';
import { useGatewayFixture } from '../helpers/gateway.js';
import { startTty, type TtySession } from '../helpers/tty.js';

const t = useGatewayFixture('sk_test_safety');

describe('exit codes that tell the truth', () => {
  it('stdout on a full disk after the payout: exit 6, no stack trace, the payout recorded', async () => {
    // Asynchronous: the test gateway answers from this process.
    const child = spawn('sh', ['-c', `"${process.execPath}" "${PAYCLI}" --json ${CASHOUT_ARGS.map((a) => `'${a}'`).join(' ')} --yes > /dev/full`], {
      env: childEnv(t.env()),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const r = { status, stderr };
    expect(r.status).toBe(6);
    expect(t.gw.received).toHaveLength(1);
    expect(r.stderr).toMatch(/"code":"needs_attention".*the gateway created cash-out 77, but its result could not be written to stdout \(ENOSPC\)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('in a terminal', () => {
  let tty: TtySession | undefined;
  afterEach(() => tty?.kill());
  it('the confirmation names the gateway host and the profile', async () => {
    tty = startTty(CASHOUT_ARGS, t.env(), t.home.dir);
    await tty.waitFor('Send this cash-out?');
    expect(tty.screen()).toMatch(new RegExp(`Gateway +${new URL(t.gw.url).host} \\(profile default\\)`));
    tty.answer('n');
    expect(await tty.exitCode()).toBe(2);
    expect(t.gw.received).toHaveLength(0);
  });
  it('in the sandbox: the notice comes before the first question', async () => {
    tty = startTty(['--base-url', 'sandbox', 'cashout'], t.home.env, t.home.dir);
    const screen = await tty.waitFor('?');
    expect(screen.indexOf('no money moves')).toBeGreaterThanOrEqual(0);
    expect(screen.indexOf('no money moves')).toBeLessThan(screen.indexOf('?'));
  });
  it('no API key for a remote gateway: exit 3 before any question', async () => {
    tty = startTty(['cashin'], { ...t.home.env, PAYCLI_BASE_URL: 'https://gw.example' }, t.home.dir);
    expect(await tty.exitCode()).toBe(3);
    expect(tty.screen()).not.toContain('?');
  });
});
