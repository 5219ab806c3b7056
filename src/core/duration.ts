/** The one reader of a duration flag (`--retry-for`, `--watch-timeout`): `90s`, `10m`, `24h`, `2d`. */

/**
 * Reads a duration: a number and a unit, `ms`, `s`, `m`, `h` or `d` (`90s`, `30m`, `24h`, `2d`);
 * from 1 ms to 30 days. @returns ms, or undefined when it is not one
 */
export function parseDuration(text: string): number | undefined {
  const m = /^([0-9]{1,9}(?:\.[0-9]{1,3})?)\s*(ms|s|m|h|d)$/.exec(text.trim());
  if (!m) return undefined;
  const ms = Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms']);
  return ms >= 1 && ms <= 30 * 86_400_000 ? ms : undefined;
}
