import { spawnSync } from 'node:child_process';
import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/helpers/summary-reporter.js';

/**
 * The time limit of a test or hook, from how fast this machine starts a Node process now: the
 * median of three `node bin/paycli.cjs --version` (answered by the launcher, no build needed), times
 * 400, and never under 20 s (the limit on an idle machine, where a start takes ~50 ms). On a busy
 * machine every paycli a test starts is slower by the same factor, so the limit follows it instead
 * of failing tests that are merely slow (docs/contributing.md). A test that starts paycli many times
 * sets its own budget (test/helpers/cli.ts `startBudget`).
 */
function timeLimitMs(): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['bin/paycli.cjs', '--version'], { stdio: 'ignore', timeout: 60_000 });
    times.push(performance.now() - t0);
  }
  const start = times.sort((a, b) => a - b)[1]!;
  return Math.max(20_000, Math.round(start * 400));
}
const LIMIT = timeLimitMs();

// End-to-end tests spawn the built paycli (npm test builds first); they share nothing but the
// dist folder, and each uses its own temporary config and data folders.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: LIMIT,
    hookTimeout: LIMIT,
    // test/helpers/cli.ts runPaycli kills a paycli after 15 s by default, or 3/4 of this limit when longer.
    env: { VITEST_TIME_LIMIT_MS: String(LIMIT) },
    pool: 'forks',
    reporters: ['default', new SummaryReporter()],
  },
});
