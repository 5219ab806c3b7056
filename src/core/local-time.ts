/**
 * Times in the local time zone, through `Date`'s local-time methods and Node's `Intl` for a named zone (no time-zone library): the zone of the
 * machine (the `TZ` environment variable, else the system's), its offset at an instant, an
 * instant as people read it (`25/11/2026 12:04:15 -03:00` in Portuguese,
 * `2026-11-25T12:04:15-03:00` in English) and the start of a local calendar day. JSON and CSV
 * keep ISO 8601 UTC (`…Z`); see docs/output-for-scripts.md "Times". Every function takes the
 * zone as a parameter so that tests can inject one.
 */

/**
 * The machine's own time zone as the functions here take it (`TZ` honoured, else the system's; an
 * empty or unknown `TZ` is UTC, as the C library reads it). Read through `Date`'s local-time methods,
 * not `Intl`: asking `Intl` for the default zone costs about 30 ms of ICU set-up on every start that
 * shows a time (docs/speed.md), and answers `Etc/Unknown`, which `Intl` then refuses, for `TZ=`.
 */
export const LOCAL_ZONE = 'local';

/** The local time zone, as {@link LOCAL_ZONE}; any other zone the functions here take is an IANA name (`America/Sao_Paulo`). */
export function localTimeZone(): string {
  return LOCAL_ZONE;
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    partsFormats.set(timeZone, f);
  }
  return f;
}

/** A calendar date and wall-clock time in a zone (month 1-12). */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The wall-clock date and time of an instant in `timeZone` ({@link LOCAL_ZONE} or an IANA name).
 * @param ms epoch milliseconds
 * @throws RangeError when the zone is not one `Intl` knows
 */
export function localParts(ms: number, timeZone: string): LocalParts {
  if (timeZone === LOCAL_ZONE) {
    const d = new Date(ms);
    return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes(), second: d.getSeconds() };
  }
  const p: Record<string, number> = {};
  for (const part of partsFormat(timeZone).formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour! % 24, minute: p.minute!, second: p.second! };
}

/**
 * The offset of `timeZone` from UTC at an instant, in minutes (`-180` for São Paulo today).
 * @param ms epoch milliseconds
 */
export function offsetMinutes(ms: number, timeZone: string): number {
  // Whole minutes, as the IANA zones below give them (old local mean times had seconds).
  if (timeZone === LOCAL_ZONE) return -Math.trunc(new Date(ms).getTimezoneOffset()) || 0;
  let f = offsetFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, f);
  }
  const name = f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(name);
  if (!m) return 0; // "GMT": UTC itself
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

const two = (n: number) => String(n).padStart(2, '0');

/** An offset in minutes as ISO 8601 writes it: `-180` → `-03:00`, `0` → `+00:00`. */
export function formatOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/**
 * An instant as a person reads it, in `timeZone` with its offset: `25/11/2026 12:04:15 -03:00`
 * (`portuguese`) or `2026-11-25T12:04:15-03:00` (ISO 8601). With `minutes`, without the seconds.
 * A text that is not an ISO 8601 time with `Z` or an offset (a gateway's odd answer, or a time
 * whose zone it does not say) is returned as it is.
 * @param at epoch milliseconds or an ISO 8601 text
 */
export function formatLocalTime(at: number | string, opts: { portuguese: boolean; timeZone?: string; minutes?: boolean }): string {
  const shown = localTimeParts(at, opts);
  if (typeof shown === 'string') return shown;
  return opts.portuguese ? `${shown.date} ${shown.time} ${shown.offset}` : `${shown.date}T${shown.time}${shown.offset}`;
}

/**
 * The pieces of {@link formatLocalTime}: the date (`25/11/2026` or `2026-11-25`), the time and the
 * offset (`-03:00`); or the text as it is when it is not an ISO 8601 time with `Z` or an offset.
 */
function localTimeParts(at: number | string, opts: { portuguese: boolean; timeZone?: string; minutes?: boolean }): { date: string; time: string; offset: string } | string {
  if (typeof at === 'string' && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(at.trim())) return at;
  const ms = typeof at === 'number' ? at : Date.parse(at.trim());
  if (!Number.isFinite(ms)) return String(at);
  const zone = opts.timeZone ?? localTimeZone();
  const p = localParts(ms, zone);
  const offset = formatOffset(offsetMinutes(ms, zone));
  const time = `${two(p.hour)}:${two(p.minute)}${opts.minutes ? '' : `:${two(p.second)}`}`;
  return { date: opts.portuguese ? `${two(p.day)}/${two(p.month)}/${p.year}` : `${p.year}-${two(p.month)}-${two(p.day)}`, time, offset };
}

/** A calendar date (month 1-12). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The date `days` after (or before, negative) `date`, by the calendar. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The local calendar date of an instant in `timeZone`. */
export function localDate(ms: number, timeZone: string): CalendarDate {
  const { year, month, day } = localParts(ms, timeZone);
  return { year, month, day };
}

/**
 * The first instant of a local calendar day in `timeZone`: its midnight, or, where a daylight
 * saving change skips midnight (Brazil until 2019), the first instant that has that date.
 * @returns epoch milliseconds
 */
export function localDayStart(date: CalendarDate, timeZone: string): number {
  const utcMidnight = Date.UTC(date.year, date.month - 1, date.day);
  const t1 = utcMidnight - offsetMinutes(utcMidnight, timeZone) * 60_000;
  const t2 = utcMidnight - offsetMinutes(t1, timeZone) * 60_000;
  const same = (ms: number) => {
    const d = localDate(ms, timeZone);
    return d.year === date.year && d.month === date.month && d.day === date.day;
  };
  const candidates = [t1, t2].filter(same).sort((a, b) => a - b);
  // Each candidate on the day is at or after its start; the earlier one is it (t1 is the change itself in a gap).
  return candidates[0] ?? t1;
}

/**
 * A column of times for a table: when every time has the same offset, the offset goes in the
 * header (`TIME (UTC-03:00)`, `TIME (UTC)`) and each cell is the local date and time alone
 * (`2026-11-24 22:30` in English, `24/11/2026 22:30` in Portuguese), which keeps a table within
 * 80 columns; else each cell carries its own offset (`2026-11-24 22:30 -03:00`) under `TIME`.
 * @param times ISO 8601 texts (a text that is not one is shown as it is)
 * @param label the column's name (`TIME`)
 */
export function localTimeColumn(times: readonly string[], opts: { portuguese: boolean; timeZone?: string; label: string; seconds?: boolean }): { header: string; cells: string[] } {
  const zone = opts.timeZone ?? localTimeZone();
  const offsets = new Set(times.map((t) => offsetMinutes(Date.parse(t), zone)));
  const one = offsets.size <= 1;
  // a time's pieces joined by spaces (`2026-11-24 22:30 -03:00`), the offset left to the header when every time has the
  // same; anything else (a text that is not a time, a year not of four digits) through the two rewrites of its text
  const cells = times.map((t) => {
    const p = localTimeParts(t, { portuguese: opts.portuguese, timeZone: zone, minutes: !opts.seconds });
    if (typeof p !== 'string' && (opts.portuguese || p.date.length === 10)) return one ? `${p.date} ${p.time}` : `${p.date} ${p.time} ${p.offset}`;
    const spaced = (typeof p === 'string' ? p : `${p.date}T${p.time}${p.offset}`).replace(/^(\d{4}-\d\d-\d\d)T(\S+?)([+-]\d\d:\d\d)$/, '$1 $2 $3');
    return one ? spaced.replace(/ [+-]\d\d:\d\d$/, '') : spaced;
  });
  if (!one) return { header: opts.label, cells };
  const only = [...offsets][0] ?? offsetMinutes(Date.now(), zone);
  return { header: `${opts.label} (UTC${only === 0 ? '' : formatOffset(only)})`, cells };
}
