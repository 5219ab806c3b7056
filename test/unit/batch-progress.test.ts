/** Batch progress (src/cli/batch/progress.ts): rate and time left count only the rows this run sent; a resumed run says how many it skipped. */
import { describe, expect, it } from 'vitest';
import { eta, progressLine, type BatchCounters } from '../../src/cli/batch/progress.js';

const counters = (over: Partial<BatchCounters>): BatchCounters => ({ total: 200, done: 0, skipped: 0, ok: 0, refused: 0, unknown: 0, sentCents: 0, ...over });

describe('progress of a batch run', () => {
  it('a fresh run: 40 rows sent in 10 s is 4 rows/s, 160 left take 40 s', () => {
    expect(eta(counters({ done: 40, ok: 40 }), 0, 10_000)).toEqual({ rate: 4, left: 40 });
  });
  it('a resumed run: 120 rows skipped at once and 20 sent in 10 s is 2 rows/s, 60 left take 30 s (not 140 rows/s and 5 s)', () => {
    expect(eta(counters({ done: 140, skipped: 120, ok: 20 }), 0, 10_000)).toEqual({ rate: 2, left: 30 });
  });
  it('only skipped rows so far: no rate and no time left promised', () => {
    expect(eta(counters({ done: 120, skipped: 120 }), 0, 10_000)).toEqual({ rate: 0, left: 0 });
  });
  it('the progress line says how many rows were skipped, only when some were', () => {
    expect(progressLine(counters({ done: 140, skipped: 120, ok: 20, sentCents: 2000 }), 2, 30)).toMatch(
      /140\/200 rows .*2\.0\/s, about 30 s left; 120 skipped \(done by an earlier run of the file; not in the rate\)$/,
    );
    expect(progressLine(counters({ done: 40, ok: 40 }), 4, 40)).not.toMatch(/skipped/);
  });
});
