/** Local time (src/core/local-time.ts) and local days in time bounds (src/cli/time-bound.ts), with injected clocks and zones. */
import { describe, expect, it } from 'vitest';
import { formatLocalTime, formatOffset, LOCAL_ZONE, localDayStart, localParts, localTimeColumn, offsetMinutes } from '../../src/core/local-time.js';
import { parseTimeBound } from '../../src/cli/time-bound.js';

const SP = 'America/Sao_Paulo';

describe('formatLocalTime', () => {
  const at = '2026-11-25T15:04:15.969Z';
  it('Portuguese: day/month/year, 24 h, offset', () => {
    expect(formatLocalTime(at, { portuguese: true, timeZone: SP })).toBe('25/11/2026 12:04:15 -03:00');
    expect(formatLocalTime(at, { portuguese: true, timeZone: SP, minutes: true })).toBe('25/11/2026 12:04 -03:00');
  });
  it('English: ISO 8601 with the offset', () => {
    expect(formatLocalTime(at, { portuguese: false, timeZone: SP })).toBe('2026-11-25T12:04:15-03:00');
    expect(formatLocalTime(at, { portuguese: false, timeZone: 'UTC' })).toBe('2026-11-25T15:04:15+00:00');
    expect(formatLocalTime(at, { portuguese: false, timeZone: 'Asia/Kolkata' })).toBe('2026-11-25T20:34:15+05:30');
  });
  it('midnight is 00, not 24; a text that is not a time is kept', () => {
    expect(formatLocalTime('2026-11-25T03:00:00Z', { portuguese: true, timeZone: SP })).toBe('25/11/2026 00:00:00 -03:00');
    expect(formatLocalTime('soon', { portuguese: true, timeZone: SP })).toBe('soon');
    // no zone said: kept as written rather than guessed
    expect(formatLocalTime('2025-09-03T10:14:18.768543', { portuguese: true, timeZone: SP })).toBe('2025-09-03T10:14:18.768543');
    expect(formatLocalTime('2026-11-25T15:04:15.9690000Z', { portuguese: true, timeZone: SP })).toBe('25/11/2026 12:04:15 -03:00');
  });
  it('historic daylight saving time in São Paulo (-02:00 in the summer of 2018)', () => {
    expect(offsetMinutes(Date.parse('2018-12-01T12:00:00Z'), SP)).toBe(-120);
    expect(offsetMinutes(Date.parse('2018-07-01T12:00:00Z'), SP)).toBe(-180);
    expect(formatOffset(-120)).toBe('-02:00');
    expect(formatLocalTime('2018-12-01T12:00:00Z', { portuguese: true, timeZone: SP })).toBe('01/12/2018 10:00:00 -02:00');
  });
});

describe('localDayStart', () => {
  it('a day without a change starts at its midnight', () => {
    expect(localDayStart({ year: 2026, month: 11, day: 24 }, SP)).toBe(Date.parse('2026-11-24T03:00:00Z'));
    expect(localDayStart({ year: 2026, month: 11, day: 24 }, 'UTC')).toBe(Date.parse('2026-11-24T00:00:00Z'));
    expect(localDayStart({ year: 2026, month: 11, day: 24 }, 'Asia/Tokyo')).toBe(Date.parse('2026-11-23T15:00:00Z'));
  });
  it('São Paulo, 4 Nov 2018: midnight was skipped (00:00 -03 became 01:00 -02); the day starts then', () => {
    expect(localDayStart({ year: 2018, month: 11, day: 4 }, SP)).toBe(Date.parse('2018-11-04T03:00:00Z'));
  });
  it('São Paulo, 17 Feb 2019: 23:00-00:00 of the 16th happened twice; the 17th starts after the second', () => {
    expect(localDayStart({ year: 2019, month: 2, day: 17 }, SP)).toBe(Date.parse('2019-02-17T03:00:00Z'));
    expect(localDayStart({ year: 2019, month: 2, day: 16 }, SP)).toBe(Date.parse('2019-02-16T02:00:00Z'));
  });
  it('New York (daylight saving at 02:00): both kinds of day', () => {
    expect(localDayStart({ year: 2026, month: 3, day: 8 }, 'America/New_York')).toBe(Date.parse('2026-03-08T05:00:00Z'));
    expect(localDayStart({ year: 2026, month: 3, day: 9 }, 'America/New_York')).toBe(Date.parse('2026-03-09T04:00:00Z'));
  });
});

describe('time bounds are local days', () => {
  // 22:30 in São Paulo on the 24th is 01:30 UTC on the 25th
  const now = Date.parse('2026-11-25T01:30:00Z');
  const sp = { now, timeZone: SP };
  const dayStart = Date.parse('2026-11-24T03:00:00Z');
  const nextStart = Date.parse('2026-11-25T03:00:00Z');
  it('2026-11-24, 24/11/2026, today, hoje: the local 24th', () => {
    for (const text of ['2026-11-24', '24/11/2026', 'today', 'hoje', 'HOJE', ' Today ']) {
      expect(parseTimeBound(text, '--since', sp), text).toBe(dayStart);
      expect(parseTimeBound(text, '--until', { ...sp, endOfDay: true }), text).toBe(nextStart);
    }
  });
  it('yesterday, ontem: the day before the local today', () => {
    expect(parseTimeBound('ontem', '--since', sp)).toBe(Date.parse('2026-11-23T03:00:00Z'));
    expect(parseTimeBound('yesterday', '--until', { ...sp, endOfDay: true })).toBe(dayStart);
    // the same instant is already the 25th in UTC
    expect(parseTimeBound('today', '--since', { now, timeZone: 'UTC' })).toBe(Date.parse('2026-11-25T00:00:00Z'));
  });
  it('a payout at 22:30 -03:00 on the 24th falls inside --since 24 --until 24', () => {
    const payout = Date.parse('2026-11-24T22:30:00-03:00');
    expect(payout).toBeGreaterThanOrEqual(parseTimeBound('2026-11-24', '--since', sp));
    expect(payout).toBeLessThan(parseTimeBound('2026-11-24', '--until', { ...sp, endOfDay: true }));
  });
  it('a time without an offset is local; with one it is exact; durations ignore the zone', () => {
    expect(parseTimeBound('2026-11-24 22:30', '--since', sp)).toBe(Date.parse('2026-11-25T01:30:00Z'));
    expect(parseTimeBound('2018-12-01T10:00', '--since', sp)).toBe(Date.parse('2018-12-01T12:00:00Z'));
    expect(parseTimeBound('2026-11-24T22:30:00Z', '--since', sp)).toBe(Date.parse('2026-11-24T22:30:00Z'));
    expect(parseTimeBound('24h', '--since', sp)).toBe(now - 86_400_000);
  });
  it('a day in a historic daylight saving change', () => {
    expect(parseTimeBound('04/11/2018', '--since', { now, timeZone: SP })).toBe(Date.parse('2018-11-04T03:00:00Z'));
    expect(parseTimeBound('2018-11-03', '--until', { now, timeZone: SP, endOfDay: true })).toBe(Date.parse('2018-11-04T03:00:00Z'));
  });
  it.each(['31/02/2026', '24/13/2026', 'anteontem', '2026-11-24T25:00'])('%j is refused', (text) => {
    expect(() => parseTimeBound(text, '--since', sp)).toThrow(/--since: use a duration/);
  });
});

describe('localTimeColumn', () => {
  it('one offset: in the header, cells without it; mixed offsets (daylight saving): in every cell', () => {
    expect(localTimeColumn(['2026-11-25T01:30:00.000Z'], { portuguese: true, timeZone: SP, label: 'TIME' })).toEqual({ header: 'TIME (UTC-03:00)', cells: ['24/11/2026 22:30'] });
    expect(localTimeColumn(['2026-11-25T01:30:00.000Z'], { portuguese: false, timeZone: 'UTC', label: 'TIME', seconds: true })).toEqual({
      header: 'TIME (UTC)',
      cells: ['2026-11-25 01:30:00'],
    });
    expect(localTimeColumn(['2018-12-01T12:00:00Z', '2018-07-01T12:00:00Z'], { portuguese: false, timeZone: SP, label: 'TIME' })).toEqual({
      header: 'TIME',
      cells: ['2018-12-01 10:00 -02:00', '2018-07-01 09:00 -03:00'],
    });
  });
});

describe('the local zone (TZ, read through Date)', () => {
  const withTz = (tz: string | undefined, fn: () => void) => {
    const before = process.env.TZ;
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
    try {
      fn();
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  };
  const at = Date.UTC(2026, 10, 25, 1, 30, 5); // 22:30:05 on the 24th in São Paulo

  it('is the same as the named zone TZ gives, in both languages and for day starts', () => {
    for (const zone of ['America/Sao_Paulo', 'America/Noronha', 'America/Manaus', 'Asia/Kolkata', 'UTC']) {
      withTz(zone, () => {
        expect(localParts(at, LOCAL_ZONE)).toEqual(localParts(at, zone));
        expect(offsetMinutes(at, LOCAL_ZONE)).toBe(offsetMinutes(at, zone));
        expect(formatLocalTime(at, { portuguese: true })).toBe(formatLocalTime(at, { portuguese: true, timeZone: zone }));
        expect(formatLocalTime(at, { portuguese: false })).toBe(formatLocalTime(at, { portuguese: false, timeZone: zone }));
        expect(localDayStart({ year: 2026, month: 11, day: 24 }, LOCAL_ZONE)).toBe(localDayStart({ year: 2026, month: 11, day: 24 }, zone));
      });
    }
    withTz('America/Sao_Paulo', () => expect(formatLocalTime(at, { portuguese: true })).toBe('24/11/2026 22:30:05 -03:00'));
  });

  it('is UTC for an empty or unknown TZ, never an error', () => {
    for (const tz of ['', 'Nowhere/Atlantis']) {
      withTz(tz, () => {
        expect(formatLocalTime(at, { portuguese: false })).toBe('2026-11-25T01:30:05+00:00');
        expect(offsetMinutes(at, LOCAL_ZONE)).toBe(0);
      });
    }
  });

  it("follows Brazil's old daylight saving time (São Paulo, January 2018: -02:00; a day that began at 01:00)", () => {
    withTz('America/Sao_Paulo', () => {
      expect(formatLocalTime(Date.UTC(2018, 0, 15, 12), { portuguese: false })).toBe('2018-01-15T10:00:00-02:00');
      expect(localDayStart({ year: 2017, month: 10, day: 15 }, LOCAL_ZONE)).toBe(localDayStart({ year: 2017, month: 10, day: 15 }, 'America/Sao_Paulo'));
    });
  });
});
