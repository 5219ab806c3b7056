import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/sequencer.js';
import SummaryReporter from './test/helpers/summary-reporter.js';

/**
 * How many test files run at once: one more than the machine has cores. Most of an end-to-end file's
 * time is spent waiting (on a paycli it started, a gateway's delayed answer, a deadline), so more
 * files than cores keep the cores busy; vitest's own default (cores - 1) runs one file at a time on
 * a 2-core machine. `npx vitest run --maxWorkers=N` overrides it.
 */
const CORES = availableParallelism();
const WORKERS = CORES + 1;

/**
 * The time limit of a test or hook, from how fast this machine starts a Node process now: the
 * median of three `node bin/paycli.cjs --version` (answered by the launcher, no build needed), times
 * 400, and never under 20 s (the limit on an idle machine, where a start takes ~50 ms); then times
 * {@link WORKERS} / cores when more files run at once than there are cores, since that start was
 * measured before the files share the cores. On a busy machine every paycli a test starts is slower
 * by the same factor, so the limit follows it instead of failing tests that are merely slow
 * (docs/contributing.md). A test that starts paycli many times sets its own budget (test/helpers/cli.ts
 * `startBudget`, measured in the file while the others run).
 */
function timeLimitMs(): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['bin/paycli.cjs', '--version'], { stdio: 'ignore', timeout: 60_000 });
    times.push(performance.now() - t0);
  }
  const start = times.sort((a, b) => a - b)[1]!;
  return Math.round(Math.max(20_000, start * 400) * Math.max(1, WORKERS / CORES));
}
const LIMIT = timeLimitMs();

// End-to-end tests spawn the built paycli (npm test builds first); they share nothing but the
// dist folder, and each uses its own temporary config and data folders.
/** paycli's version, as the build stamps it (tsup.config.ts), for the commands that in-process tests run. */
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __PAYCLI_VERSION__: JSON.stringify(version) },
  // The completion scripts' static bodies are imported as text (tsup.config.ts loads them the same way),
  // so that in-process tests can run `paycli completion`.
  plugins: [
    {
      name: 'paycli-text-assets',
      transform: (code: string, id: string) => (/\.(bash|zsh|fish|awk)$/.test(id) ? { code: `export default ${JSON.stringify(code)};`, map: null } : undefined),
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: LIMIT,
    hookTimeout: LIMIT,
    // test/helpers/cli.ts runPaycli kills a paycli after 15 s by default, or 3/4 of this limit when longer.
    env: { VITEST_TIME_LIMIT_MS: String(LIMIT) },
    pool: 'forks',
    maxWorkers: WORKERS,
    // the longest files first, also in a fresh clone that has no record of the last run
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ['default', new SummaryReporter()],
  },
});
