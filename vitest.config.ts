import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/helpers/summary-reporter.js';

// End-to-end tests spawn the built paycli (npm test builds first); they share nothing but the
// dist folder, and each uses its own temporary config and data folders.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: ['default', new SummaryReporter()],
  },
});
