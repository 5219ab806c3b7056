/**
 * The one parser of time bounds given on the command line (`history --since/--until`, and any
 * command that looks back in the ledger): a duration back from now, or a date or time. Dates are
 * local calendar days (the `TZ` zone, src/core/local-time.ts), as `history` shows times.
 */
import { UsageError } from '../core/errors.js';
import { parseDuration } from '../core/duration.js';
import { addDays, localDate, localDayStart, localTimeZone, offsetMinutes, type CalendarDate } from '../core/local-time.js';
import { t as tr } from '../core/i18n/index.js';

/** Words for a day relative to today, in both languages. */
const RELATIVE_DAYS: Record<string, number> = { today: 0, hoje: 0, yesterday: -1, ontem: -1 };

function validDate(year: number, month: number, day: number): CalendarDate | undefined {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? { year, month, day } : undefined;
}

/**
 * Parses a time bound:
 * - a duration back from `now`: `30m`, `24h`, `7d`, `2w` (minutes, hours, days, weeks);
 * - a local calendar day: `2026-11-01`, `01/11/2026` (day/month/year), `today`/`hoje`,
 *   `yesterday`/`ontem`: its first instant in `timeZone`, or with `endOfDay` the first instant
 *   of the next day, so that `--until 2026-11-01` includes that whole day;
 * - an ISO 8601 time `2026-11-01T12:00:00Z` or with an offset (`-03:00`); without one it is a
 *   local time in `timeZone`.
 * @param flag the flag's name, for the error
 * @param opts `now` (epoch ms) and `timeZone` (an IANA name; the local zone by default) are
 *   injected by tests
 * @returns epoch milliseconds
 * @throws UsageError (exit 2)
 */
export function parseTimeBound(text: string, flag: string, opts: { now?: number; endOfDay?: boolean; timeZone?: string } = {}): number {
  const t = text.trim();
  const now = opts.now ?? Date.now();
  const zone = opts.timeZone ?? localTimeZone();
  const back = /[a-z]$/i.test(t) ? parseDuration(t) : undefined; // src/core/duration.ts: 90s, 30m, 24h, 7d, 2w
  if (back !== undefined) return now - back;
  let day: CalendarDate | undefined;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const br = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const word = RELATIVE_DAYS[t.toLowerCase()];
  if (iso) day = validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  else if (br) day = validDate(Number(br[3]), Number(br[2]), Number(br[1]));
  else if (word !== undefined) day = addDays(localDate(now, zone), word);
  else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(t)) {
    const text = t.replace(' ', 'T');
    if (/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) {
      const ms = Date.parse(text);
      if (Number.isFinite(ms)) return ms;
    } else {
      // A wall-clock time in the zone: read it as UTC, then move it by the zone's offset there.
      const asUtc = Date.parse(`${text}Z`);
      if (Number.isFinite(asUtc)) {
        const first = asUtc - offsetMinutes(asUtc, zone) * 60_000;
        return asUtc - offsetMinutes(first, zone) * 60_000;
      }
    }
  }
  if (day) return localDayStart(opts.endOfDay ? addDays(day, 1) : day, zone);
  throw new UsageError(tr('time.boundInvalid', flag, text), { field: flag });
}
