/**
 * `paycli ledger push` (src/cli/run/ledger.ts, docs/ledger-and-safety.md "Team ledger"): a local ledger of
 * 100,000 payments (one made by a cash-out, the rest copied from it in SQL) pushed twice into a
 * team ledger on a private PostgreSQL cluster holds 100,000 entries: the second push adds nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CASHOUT_ARGS, makeHome } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { startGateway } from '../helpers/gateway.js';
import { ledgerRun } from '../helpers/ledger.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

let pg: PgCluster;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.destroy();
});

it('a local ledger of 100,000 payments pushed twice: the team ledger holds 100,000 entries, with who sent them', async () => {
  const home = makeHome();
  const gw = await startGateway();
  try {
    const local = { ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: 'sk_test_push_0123456789' };
    const paid = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: local });
    expect(paid.code, paid.stderr).toBe(0);
    // 99,999 more, each its own uuid, order reference, amount and fingerprint (32 bytes, as paycli records them: a
    // fingerprint made by concatenating text could hold a NUL byte, which PostgreSQL's text refuses).
    ledgerRun(
      home.env.PAYCLI_DATA_DIR!,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
       INSERT INTO payments (uuid, time, kind, fingerprint, value, target, endpoint, sandbox, profile, pix_key_type, pix_key, recipient, order_id, allow_duplicate, pid, outcome, end_time, transaction_id, status, time_ms, deadline_ms, run_id)
       SELECT printf('00000000-0000-7000-8000-%012d', i), p.time, p.kind, randomblob(32), p.value + i, p.target, p.endpoint, p.sandbox, p.profile, p.pix_key_type, p.pix_key, p.recipient, 'push-' || i, 0, p.pid, 'ok', p.end_time, 1000 + i, p.status, p.time_ms, p.deadline_ms, p.run_id
       FROM n, (SELECT * FROM payments WHERE id = 1) AS p`,
    );
    const team = { ...local, PAYCLI_LEDGER_URL: pg.urlWithPassword };
    expect((await runPaycli(['ledger', 'migrate'], { env: team })).code).toBe(0);
    const first = await runPaycli(['ledger', 'push', '--json'], { env: team, timeoutMs: 300_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ entries: 100_000, added: 100_000 });
    const second = await runPaycli(['ledger', 'push', '--json'], { env: team, timeoutMs: 300_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ entries: 100_000, added: 0 });
    expect(pg.sql('SELECT count(*), count(DISTINCT uuid), sum(value) FROM paycli.payments')).toBe(`100000|100000|${1550 * 100_000 + (99_999 * 100_000) / 2}`);
    // Who sent them: the run of the local ledger, with its user, host and version.
    expect(pg.sql('SELECT count(*) FROM paycli.payments WHERE host IS NOT NULL AND os_user IS NOT NULL')).toBe('100000');
    // what the gateway answered (fee and net, for the receipt) goes with the entry
    expect(pg.sql(`SELECT answer::jsonb->>'tax', answer::jsonb->>'liquid' FROM paycli.payments WHERE order_id NOT LIKE 'push-%'`)).toBe('65|1485');
    // The pushed entries guard the team: the cash-out already paid is refused from the team ledger.
    const again = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: team });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already sent');
    expect(gw.received.filter((r) => r.method === 'POST')).toHaveLength(1);
  } finally {
    await gw.close();
    home.cleanup();
  }
}, 600_000);
