/**
 * The payment ledger on a disk that fills up, under a frozen neighbour, or tampered with while paycli runs, end to end:
 * the built paycli against a recording test gateway on 127.0.0.1, its data folder a small tmpfs in
 * a private mount namespace (`unshare -rm`, scripts/test-deps.txt). Every test counts the requests
 * that reached the gateway: nothing is sent that the ledger cannot record, nothing is sent twice,
 * and no message says "nothing was sent" after something was.
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/ledger-faults.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, runPaycli } from '../helpers/cli.js';
import { useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_ledger_disk');
const sent = () => t.gw.received.filter((q) => q.method === 'POST');

describe('a frozen neighbour is a busy ledger, not a broken one', () => {
  it('SQLITE_PROTOCOL (a paycli stopped while it holds a lock of the write-ahead log) is ledger_busy with the hint to resume it, nothing sent; the next run sends', async () => {
    const hook = join(__dirname, '../helpers/ledger-protocol.cjs');
    const r = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env(), nodeArgs: ['-r', hook] });
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string; hint: string } };
    expect(doc.error.code).toBe('ledger_busy');
    expect(doc.error.message).toMatch(/ledger\.db is busy: another paycli holds a lock on its write-ahead log \(it may be stopped\) \(SQLITE_PROTOCOL\); nothing was sent$/);
    expect(doc.error.hint).toMatch(/kill -CONT/);
    expect(r.stderr).not.toMatch(/aside|damaged|cannot be used/);
    expect(sent()).toHaveLength(0);
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(again.code, again.stderr).toBe(0);
    expect(sent()).toHaveLength(1);
  });
});
