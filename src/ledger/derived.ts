/**
 * Columns of a batch row left empty when they can be derived from others (schema version 10; docs/ledger-and-safety.md
 * "How the ledger lies on disk"): the display target when it is the endpoint identity itself (the common case: a URL
 * without credentials, query, fragment or capitals in its path), and the ISO text time when it is `time_ms` as
 * `Date.toISOString` writes it. About 66 bytes less a row, so that two rows of a batch, with the gateway's answer, still
 * share a 1 KiB page (a row over about 500 bytes takes a page of its own: docs/speed.md "Disk written per batch row").
 * A single payment's row keeps both in full. Every reader of a row goes through src/ledger/schema.ts `toEntry`, which
 * gives back the same text; the team ledger keeps both in full.
 */

/** The `target` column's value: for a batch row, '' when `target` is `endpoint` (no target is empty: a URL or `sandbox`). */
export function targetColumn(target: string, endpoint: string, batchRow: boolean): string {
  return batchRow && target === endpoint ? '' : target;
}

/** The `time` column's value: for a batch row, '' when `time` is `timeMs` as ISO 8601 UTC text. */
export function timeColumn(time: string, timeMs: number | null, batchRow: boolean): string {
  return batchRow && timeMs !== null && Number.isFinite(timeMs) && new Date(timeMs).toISOString() === time ? '' : time;
}

/** A stored `target` as it was recorded ({@link targetColumn}). */
export function storedTarget(target: unknown, endpoint: unknown): string {
  return (target as string) || (endpoint as string);
}

/** A stored `time` as it was recorded ({@link timeColumn}). */
export function storedTime(time: unknown, timeMs: unknown): string {
  return (time as string) || new Date(timeMs as number).toISOString();
}
