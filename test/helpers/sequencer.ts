/**
 * The order in which vitest starts the test files: the longest first, so that no long file starts
 * last and runs alone while the other workers are idle (docs/contributing.md, "Suite time"). vitest's
 * own order puts the files that took longest in its last run first, but a fresh clone (`npm ci &&
 * npm test`, CI) has no such record and would start by file size; {@link SLOW_FIRST} names the files
 * that take longest, in that order, and the rest follow vitest's own order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files, relative to the repository, that take longest, in the order they start. First the one
 * that mostly waits (1,000 charges watched under a gateway's limit of 40 requests a second: about a
 * minute of waiting, little CPU), so that it waits beside the others instead of alone at the end; then
 * install builds and compiles, long waits, and the longest in-process files.
 */
export const SLOW_FIRST = [
  'test/e2e/watch-load.test.ts',
  'test/e2e/install.test.ts',
  'test/e2e/in-flight.test.ts',
  'test/e2e/node-runtime.test.ts',
  'test/e2e/examples.test.ts',
  'test/e2e/bench.test.ts',
  'test/inprocess/postback-events.test.ts',
  'test/e2e/team-ledger-batch.test.ts',
  'test/e2e/batch.test.ts',
  'test/e2e/ledger.test.ts',
  'test/e2e/watch.test.ts',
  'test/inprocess/batch.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.indexOf(relative(this.ctx.config.root, f.moduleId).split('\\').join('/'));
      return i === -1 ? SLOW_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
