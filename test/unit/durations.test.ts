/**
 * One duration syntax everywhere (src/core/duration.ts, docs/configuration.md "Durations"): `1h`,
 * `90s`, `500ms` in `--timeout` / `timeout`, `duplicate-window`, `settle-after`, `history --since`,
 * `sandbox --retry-for`; a plain number keeps the unit its setting always had.
 */
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/core/duration.js';
import { settingsFrom, settleAfterMs, timeoutMs, windowMinutes } from '../../src/config/settings.js';
import { parseTimeBound } from '../../src/cli/time-bound.js';
import { parseDuration as retryFor } from '../../src/sandbox/delivery.js';

describe('the one duration syntax', () => {
  it("a number and a unit; a plain number only with its setting's unit", () => {
    expect([
      parseDuration('500ms'),
      parseDuration('90s'),
      parseDuration('2m'),
      parseDuration('5min'),
      parseDuration('1h'),
      parseDuration('1.5h'),
      parseDuration('2d'),
      parseDuration('1w'),
    ]).toEqual([500, 90_000, 120_000, 300_000, 3_600_000, 5_400_000, 172_800_000, 604_800_000]);
    expect(parseDuration('30000')).toBeUndefined();
    expect([parseDuration('30000', 'ms'), parseDuration('10', 'm'), parseDuration('120', 's')]).toEqual([30_000, 600_000, 120_000]);
    for (const bad of ['', 'h', '1x', '-1s', '1 hour', '1e3']) expect(parseDuration(bad, 'ms'), bad).toBeUndefined();
  });
  it('every setting and flag reads it, plain numbers keeping their unit', () => {
    expect([timeoutMs('30000', '--timeout'), timeoutMs('30s', '--timeout'), timeoutMs('500ms', 'timeout'), timeoutMs('1h', '--timeout')]).toEqual([30_000, 30_000, 500, 3_600_000]);
    expect(() => timeoutMs('2h', '--timeout')).toThrow(/--timeout: the timeout must be a duration from 1ms to 1h/);
    expect([
      windowMinutes('10', 'duplicate-window'),
      windowMinutes('1h', 'duplicate-window'),
      windowMinutes('30m', 'duplicate-window'),
      windowMinutes('0', 'duplicate-window'),
    ]).toEqual([10, 60, 30, 0]);
    expect(() => windowMinutes('90s', 'duplicate-window')).toThrow(/whole minutes/);
    expect([settleAfterMs('120', 'settle-after'), settleAfterMs('2m', 'settle-after'), settleAfterMs('500ms', 'settle-after')]).toEqual([120_000, 120_000, 500]);
    const now = Date.UTC(2026, 10, 26, 12);
    expect([now - parseTimeBound('24h', '--since', { now }), now - parseTimeBound('90s', '--since', { now }), now - parseTimeBound('1w', '--since', { now })]).toEqual([
      86_400_000, 90_000, 604_800_000,
    ]);
    expect([retryFor('30m'), retryFor('1.5h'), retryFor('2d')]).toEqual([1_800_000, 5_400_000, 172_800_000]);
    const s = settingsFrom({
      flags: { timeout: '45s' },
      env: {},
      config: { profiles: { default: { 'base-url': 'https://gw.example', 'duplicate-window': '1h' } } },
      op: 'cashout',
    });
    expect([s.timeoutMs, s.duplicateWindowMin]).toEqual([45_000, 60]);
  });
});
