/**
 * The one parser of time bounds given on the command line (`history --since/--until`, and any
 * command that looks back in the ledger): a duration back from now, or a date or time.
 */
import { UsageError } from '../core/errors.js';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/**
 * Parses a time bound:
 * - a duration back from `now`: `30m`, `24h`, `7d`, `2w` (minutes, hours, days, weeks);
 * - a date `2026-11-01` (UTC, as `history` shows times): its start, or with `endOfDay` the start
 *   of the next day, so that `--until 2026-11-01` includes that whole day;
 * - an ISO 8601 time `2026-11-01T12:00:00Z` (or with an offset, `-03:00`; no offset means UTC).
 * @param flag the flag's name, for the error
 * @returns epoch milliseconds
 * @throws UsageError (exit 2)
 */
export function parseTimeBound(text: string, flag: string, opts: { now?: number; endOfDay?: boolean } = {}): number {
  const t = text.trim();
  const now = opts.now ?? Date.now();
  const m = /^([0-9]{1,6})\s*([mhdw])$/i.exec(t);
  if (m) return now - Number(m[1]) * UNIT_MS[m[2]!.toLowerCase() as keyof typeof UNIT_MS];
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const ms = Date.parse(`${t}T00:00:00Z`);
    if (Number.isFinite(ms) && new Date(ms).toISOString().startsWith(t)) return opts.endOfDay ? ms + UNIT_MS.d : ms;
  } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(t)) {
    const iso = t.replace(' ', 'T');
    const ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(iso) ? iso : `${iso}Z`);
    if (Number.isFinite(ms)) return ms;
  }
  throw new UsageError(`${flag}: use a duration such as 30m, 24h, 7d or 2w, or a date such as 2026-11-01 (UTC) or 2026-11-01T12:00:00-03:00; got "${text}"`, { field: flag });
}
