/**
 * The payment ledger on a disk that fills up, under a frozen neighbour, or tampered with while paycli runs, end to end:
 * the built paycli against a recording test gateway on 127.0.0.1, its data folder a small tmpfs in
 * a private mount namespace (`unshare -rm`, scripts/test-deps.txt). Every test counts the requests
 * that reached the gateway: nothing is sent that the ledger cannot record, nothing is sent twice,
 * and no message says "nothing was sent" after something was.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, childEnv, PAYCLI } from '../helpers/cli.js';
import { cashOutAnswer, json, useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_ledger_disk');
const sent = () => t.gw.received.filter((q) => q.method === 'POST');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitForFile(path: string): Promise<void> {
  while (!existsSync(path)) await sleep(20);
}

/**
 * Runs a shell script in a private mount namespace with the data folder (`$D`) a tmpfs of `size`,
 * `$P` the paycli command (node + launcher) and `$F` a folder outside the namespace for flags.
 * @returns the exit code of the script, its stdout (what the script echoes) and stderr (paycli's)
 */
function inSmallDisk(size: string, script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const data = join(t.home.dir, 'small-data');
  const flags = join(t.home.dir, 'flags');
  mkdirSync(data, { recursive: true });
  mkdirSync(flags, { recursive: true });
  const full = `set -u\nD="$PAYCLI_DATA_DIR"\nF="${flags}"\nP() { "${process.execPath}" "${PAYCLI}" "$@"; }\nmount -t tmpfs -o size=${size},mode=0700 none "$D" || exit 99\n${script}`;
  return new Promise((resolve) => {
    const child = spawn('unshare', ['-rm', 'sh', '-c', full], { env: childEnv({ ...env, PAYCLI_DATA_DIR: data }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Fills the data folder's tmpfs (inside the namespace) to the last block. */
const FILL = 'dd if=/dev/zero of="$D/filler" bs=4096 2>/dev/null; sync';

describe('a disk that fills up after the request left', () => {
  it('a cash-out that was paid says it was sent and its outcome is not recorded, never "nothing was sent"; the entry blocks an identical one', async () => {
    const flags = join(t.home.dir, 'flags');
    t.gw.respond(async (req, res) => {
      // The request has left paycli: the disk fills up before the answer comes back.
      writeFileSync(join(flags, 'fill'), '');
      await waitForFile(join(flags, 'filled'));
      json(res, 200, cashOutAnswer((req.json as { value: number }).value));
    });
    const script = [
      'P ' + [...CASHOUT_ARGS, '--yes'].map((a) => `'${a}'`).join(' ') + ' > "$F/out1" &',
      'pid=$!',
      'while [ ! -e "$F/fill" ]; do sleep 0.02; done',
      FILL,
      'touch "$F/filled"',
      'wait $pid; echo "first $?"',
      'rm -f "$D/filler"',
      'P ' + [...CASHOUT_ARGS, '--yes'].map((a) => `'${a}'`).join(' ') + '; echo "second $?"',
    ].join('\n');
    const r = await inSmallDisk('1m', script, t.env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('first 0'); // created: exit 0, the result on stdout
    expect(r.stderr).toMatch(/warning: cash-out entry 1 was sent and created, but that outcome could not be recorded in the ledger \(the payment ledger .* the disk is full \(SQLITE_FULL\)\): the entry stays with an unknown outcome, which blocks an identical cash-out; record it with `paycli history resolve 1 --outcome ok`/);
    expect(r.stderr).not.toContain('nothing was sent:');
    expect(r.stderr.split('\n').filter((l) => l.includes('could not be recorded')).join('\n')).not.toContain('nothing was sent');
    // The entry recorded before sending is kept unknown: an identical cash-out is refused, not sent again.
    expect(r.stdout).toContain('second 2');
    expect(r.stderr).toMatch(/an identical cash-out may already have been paid.*its outcome is unknown/s);
    expect(sent()).toHaveLength(1);
  }, 30_000);
});
