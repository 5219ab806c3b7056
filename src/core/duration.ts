/**
 * The one duration syntax of paycli (docs/configuration.md "Durations"), for every setting and flag
 * that takes a length of time (`--timeout`, `timeout`, `duplicate-window`, `settle-after`,
 * `sandbox --retry-for`, `history --since`): a number and a unit, `500ms`, `90s`, `5m` (or `min`),
 * `1h`, `2d`, `1w`, up to 3 decimals (`1.5h`); a plain number keeps the unit its setting always had
 * (`timeout 30000` is milliseconds, `duplicate-window 10` minutes, `settle-after 120` seconds).
 */

/** Milliseconds per unit. */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** A duration's unit. */
export type DurationUnit = keyof typeof UNIT_MS;

/**
 * Reads a duration.
 * @param plainUnit the unit of a plain number (`30000` with `ms`); without it a plain number is not a duration
 * @returns whole milliseconds (rounded), or undefined when `text` is not a duration
 */
export function parseDuration(text: string, plainUnit?: DurationUnit): number | undefined {
  const m = /^\s*([0-9]{1,9}(?:\.[0-9]{1,3})?)\s*(ms|s|min|m|h|d|w)?\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = (m[2]?.toLowerCase() ?? plainUnit) as DurationUnit | undefined;
  if (unit === undefined) return undefined;
  return Math.round(Number(m[1]) * UNIT_MS[unit]);
}
