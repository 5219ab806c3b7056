/**
 * `npm run bench` (scripts/bench.sh, docs/speed.md) ends with exit 0 when it ran, and leaves
 * nothing behind: its temporary folder (config, data, code cache, the standalone sandbox's log)
 * is gone and its sandbox stopped, for the start-up and ledger rows (scripts/bench.sh) and the batch
 * part (scripts/bench-batch.sh) alike. Run with the fewest samples; nothing here looks at the times.
 * The scripts source their shared set-up from scripts/bench-lib.sh; shellcheck lints them all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { childEnv, measureStartMs, startBudget } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');

it('shellcheck finds nothing in the bench scripts and their shared library (every severity)', () => {
  // -x follows `. scripts/bench-lib.sh`, so the library is checked as each script uses it
  const r = spawnSync(
    'shellcheck',
    ['-x', '--severity=style', 'scripts/bench.sh', 'scripts/bench-batch.sh', 'scripts/bench-team.sh', 'scripts/bench-history.sh', 'scripts/bench-lib.sh'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  if (r.error) throw new Error(`shellcheck could not run (scripts/test-deps.txt installs it): ${r.error.message}`);
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it("the benches' timer (scripts/bench-interleave.mjs) runs every command once an iteration, --prepare before each run, and stops at a failing command", () => {
  const dir = mkdtempSync(join(tmpdir(), 'paycli-interleave-'));
  try {
    const log = join(dir, 'log');
    const out = join(dir, 'times.json');
    const mark = (word: string) => `${process.execPath} -e require("fs").appendFileSync(process.argv[1],"${word}\\n") ${log}`;
    const timer = (...rest: string[]) =>
      spawnSync(process.execPath, ['scripts/bench-interleave.mjs', '--warmup', '1', '--runs', '4', '--prepare', `echo p >> ${log}`, '--export-json', out, ...rest], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const r = timer('-n', 'first', mark('a'), '-n', 'second', mark('b'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^first: [\d.]+ ms \(median of 4\)\nsecond: [\d.]+ ms \(median of 4\)\n$/);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(20); // 5 runs (1 warm-up) of each command, each after its --prepare
    for (let i = 0; i < lines.length; i += 2) expect(lines[i]).toBe('p');
    const order = lines.filter((l) => l !== 'p');
    for (let i = 0; i < order.length; i += 2) expect([order[i], order[i + 1]].sort()).toEqual(['a', 'b']); // each iteration runs both
    const json = JSON.parse(readFileSync(out, 'utf8')) as { results: Array<{ command: string; times: number[]; exit_codes: number[] }> };
    expect(json.results.map((c) => [c.command, c.times.length, c.exit_codes])).toEqual([
      ['first', 4, [0, 0, 0, 0]],
      ['second', 4, [0, 0, 0, 0]],
    ]);
    for (const c of json.results) for (const t of c.times) expect(t).toBeGreaterThan(0);
    const bad = timer('-n', 'fine', mark('c'), '-n', 'broken', `${process.execPath} -e process.exit(3)`);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('bench-interleave: broken exited with 3');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('the bench exits 0 and removes everything it made', async () => {
  // Its time limit follows this machine's speed now (4 min on an idle machine, where a start takes
  // ~50 ms), not a fixed number: on a busy machine the bench's hundreds of paycli starts are slower.
  const limit = Math.max(240_000, startBudget(await measureStartMs(), 480));
  const tmp = mkdtempSync(join(tmpdir(), 'paycli-bench-'));
  try {
    const r = spawnSync('bash', [join(ROOT, 'scripts/bench.sh')], {
      cwd: ROOT,
      // a ledger of 20,000 generated payments instead of 1,000,000: same rows, a fraction of the time
      env: childEnv({
        TMPDIR: tmp,
        BENCH_RUNS: '2',
        BENCH_ROUNDS: '1',
        BENCH_BATCH_RUNS: '1',
        BENCH_BATCH_ROWS: '100',
        BENCH_BATCH_SMALL: '50',
        BENCH_BATCH_BIG: '200',
        BENCH_LEDGER_PAYMENTS: '20000',
        BENCH_TEAM_RUNS: '2',
        BENCH_TEAM_ROUNDS: '1',
        BENCH_TEAM_ROWS: '50',
      }),
      encoding: 'utf8',
      timeout: limit,
    });
    expect(r.error, `the bench did not end within ${limit} ms`).toBeUndefined();
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    expect(r.stdout).toMatch(/^\| paycli --version \|/m);
    expect(r.stdout).toMatch(/^\| paycli cashin --json \|/m);
    expect(r.stdout).toMatch(/^\| paycli cashout --json, empty ledger \|/m);
    expect(r.stdout).toMatch(/^\| paycli cashout --json, 1,000,000 payments \|/m);
    expect(r.stdout).toMatch(/^\| node -e 0, via env \|/m);
    expect(r.stdout).toMatch(/^\| paycli history --limit 20, 1,000,000 payments \| .* \| ≤ 1\.3× node -e 0 via env \(\d+\.\d{2}\): (met|MISSED) \|$/m);
    expect(r.stderr).toMatch(/bench: 20000 payments written into /);
    expect(r.stdout).toMatch(/peak memory/);
    // the batch part (scripts/bench-batch.sh, its own sandbox and table)
    expect(r.stdout).toMatch(/^Batch runs \(commit \S+, 1 interleaved rounds, median ratio of each round; load [0-9. ]+\)$/m);
    expect(r.stdout).toMatch(/^\| send 100 rows, concurrency 8, gateway 50 ms: wall vs rows \/ 8 x 50 ms \| \d+\.\d{2} s \| \d+\.\d{2} \| ≤ 1\.10 \|$/m);
    expect(r.stdout).toMatch(/^\| same: CPU vs the node:http script \| \d+\.\d{2} s \| \d+\.\d{2} \| ≤ 1\.5 \|$/m);
    expect(r.stdout).toMatch(/^\| disk written per row \(send\) \| \d+\.\d\d KiB \([\d,]+ bytes\) \| \| ≤ 4 KiB \|$/m);
    expect(r.stdout).toMatch(/^\| resume of the finished file vs node reading and hashing it \| \d+\.\d{3} s \| \d+\.\d{2} \| ≤ 1\.5 \|$/m);
    expect(r.stdout).toMatch(/^\| peak RSS 200 vs 50 rows, gateway 0 ms \| \d+\.\d MiB \| \d+\.\d{2} \| ≤ 1\.2 \|$/m);
    expect(r.stdout).toMatch(/^\| peak RSS 200 vs 50 rows, gateway 50 ms \| \d+\.\d MiB \| \d+\.\d{2} \| ≤ 1\.2 \|$/m);
    // the team ledger part (scripts/bench-team.sh) and the start-up targets, each with its Node and load
    expect(r.stdout).toMatch(/^Team ledger \(commit \S+, node v\d+\.\d+\.\d+, 2 runs a command in interleaved rounds, pooled medians; load [0-9. ]+\)$/m);
    expect(r.stdout).toMatch(/^\| paycli cashout --json, team ledger on loopback \| \d+\.\d ms \| \d+\.\d{2} \| ≤ 1\.10: (met|MISSED) \|$/m);
    expect(r.stdout).toMatch(/^Start-up targets \(commit \S+, node v\d+\.\d+\.\d+; load [0-9. ]+\)$/m);
    expect(r.stdout).toMatch(/^\| team-ledger cash-out ÷ local-ledger cash-out \| \d+\.\d{2} \| ≤ 1\.10: (met|MISSED) \|$/m);
    expect(r.stdout).toMatch(/^\| local-ledger cash-out ÷ minimal node:http cash-out \| \d+\.\d{2} \| ≤ 1\.4: (met|MISSED) \|$/m);
    expect(r.stdout).toMatch(/^\| history --limit 20, 1,000,000 payments ÷ node -e 0 \(both through env\) \| \d+\.\d{2} \| ≤ 1\.3: (met|MISSED) \|$/m);
    expect(r.stderr).not.toMatch(/cannot remove|No such file/);
    expect(readdirSync(tmp)).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}, 3_600_000); // bounded by `limit` above
