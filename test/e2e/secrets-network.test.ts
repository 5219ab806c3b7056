/**
 * Secrets (config file modes, masking, redaction, plain http refused)
 * and the network (proxy variables honoured, Ctrl-C says whether the request was sent).
 * Here only what needs a process of its own (a terminal, a signal, another process, faketime, the
 * built package); the rest runs in process: test/inprocess/secrets-network.test.ts.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, childEnv, PAYCLI, runPaycli } from '../helpers/cli.js';
import { json, useGatewayFixture } from '../helpers/gateway.js';
import { ledgerRows } from '../helpers/ledger.js';
import { startProxy } from '../helpers/proxy.js';

const KEY = 'sk_live_TOPSECRET_0123456789abcdef';
const t = useGatewayFixture(KEY);

describe('network', () => {
  it('Ctrl-C while the proxy holds the connection: exit 130, "before the request was sent", and a retry is not blocked', async () => {
    const proxy = await startProxy({ answerConnect: false });
    try {
      const child = spawn(process.execPath, [PAYCLI, ...CASHOUT_ARGS, '--yes'], { env: childEnv(t.env({ HTTP_PROXY: proxy.url })) });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const closed = new Promise<number | null>((r) => child.on('close', r));
      for (let i = 0; i < 500 && proxy.connects.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(proxy.connects).toHaveLength(1);
      child.kill('SIGINT');
      expect(await closed).toBe(130);
      expect(stderr).toMatch(/interrupted before the request was sent: nothing reached the gateway/);
      expect(t.gw.received).toHaveLength(0);
    } finally {
      await proxy.close();
    }
    const retry = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(retry.code).toBe(0);
  });

  /** Starts a cash-out against a gateway that never answers and sends `signal` once the request has arrived (Ctrl-C: twice). */
  async function interruptAfterSending(signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
    t.gw.respond(() => undefined);
    const child = spawn(process.execPath, [PAYCLI, ...CASHOUT_ARGS, '--yes'], { env: childEnv(t.env()) });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 500 && t.gw.received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    child.kill(signal);
    if (signal === 'SIGINT') {
      // The first Ctrl-C after sending only says it keeps waiting for the answer; the second stops the wait.
      for (let i = 0; i < 1500 && !stderr.includes("waiting for the gateway's answer"); i++) await new Promise((r) => setTimeout(r, 20));
      child.kill(signal);
    }
    return { code: await closed, stderr };
  }

  it('Ctrl-C twice after sending: exit 130, "after the request was sent", and the ledger blocks an identical retry', async () => {
    const r = await interruptAfterSending('SIGINT');
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted after the request was sent: the outcome is unknown/);
    t.gw.respond((_req, res) => json(res, 200, {}));
    const retry = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() });
    expect(retry.code).toBe(2);
    expect(retry.stderr).toMatch(/outcome is unknown/);
  });

  it('SIGTERM after sending (a cancelled CI job): exit 130, "after the request was sent", the ledger records it', async () => {
    const r = await interruptAfterSending('SIGTERM');
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted after the request was sent: the outcome is unknown/);
    const entries = ledgerRows(t.home.env.PAYCLI_DATA_DIR!);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'cashout', outcome: 'unknown' });
  });
});
