/**
 * `npm run bench` (scripts/bench.sh, README "Speed") ends with exit 0 when it ran, and leaves
 * nothing behind: its temporary folder (config, data, code cache, the standalone sandbox's log)
 * is gone and its sandbox stopped. Run with the fewest samples; nothing here looks at the times.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { childEnv } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');

it('the bench exits 0 and removes everything it made', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'paycli-bench-'));
  try {
    const r = spawnSync('bash', [join(ROOT, 'scripts/bench.sh')], {
      cwd: ROOT,
      // a ledger of 20,000 generated payments instead of 1,000,000: same rows, a fraction of the time
      env: childEnv({ TMPDIR: tmp, BENCH_RUNS: '2', BENCH_ROUNDS: '1', BENCH_BATCH_RUNS: '1', BENCH_BATCH_ROWS: '100', BENCH_BATCH_SMALL: '50', BENCH_BATCH_BIG: '200', BENCH_LEDGER_PAYMENTS: '20000' }),
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    expect(r.stdout).toMatch(/^\| paycli --version \|/m);
    expect(r.stdout).toMatch(/^\| paycli cashin --json \|/m);
    expect(r.stdout).toMatch(/^\| paycli cashout --json, empty ledger \|/m);
    expect(r.stdout).toMatch(/^\| paycli cashout --json, 1,000,000 payments \|/m);
    expect(r.stdout).toMatch(/^\| paycli history --limit 20, 1,000,000 payments \|/m);
    expect(r.stderr).toMatch(/bench: 20000 payments written into /);
    expect(r.stdout).toMatch(/peak memory/);
    expect(r.stderr).not.toMatch(/cannot remove|No such file/);
    expect(readdirSync(tmp)).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}, 300_000);
