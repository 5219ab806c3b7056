/**
 * Columns of a batch row left empty when they can be derived from others (schema version 10; docs/ledger-and-safety.md
 * "How the ledger lies on disk"): the display target when it is the endpoint identity itself (the common case: a URL
 * without credentials, query, fragment or capitals in its path), and the ISO text time when it is `time_ms` as
 * `Date.toISOString` writes it. About 66 bytes less a row, so that two rows of a batch, with the gateway's answer, still
 * share a 1 KiB page (a row over about 500 bytes takes a page of its own: docs/speed.md "Disk written per batch row").
 * A single payment's row keeps both in full. Every reader of a row goes through src/ledger/schema.ts `toEntry`, which
 * gives back the same text; the team ledger keeps both in full.
 */
import type { EndRow } from './statements.js';

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

/**
 * Schema version 11 (docs/speed.md "Disk written per batch row"): a batch row's end time and the gateway's answer kept
 * in a shorter form where they can be given back exactly, so that three rows share a 1 KiB page instead of two. Both
 * forms start with `~`, which neither an ISO time nor a JSON object does; the readers get the same text and the same
 * object back through src/ledger/schema.ts `toEntry` ({@link storedEndTime}, {@link storedFacts}). `~` + the
 * milliseconds since `time_ms` for the end time; for the answer `~<createdAt>;<gross>;<tax>;<liquid>`, where
 * `<createdAt>` is the milliseconds since `time_ms` when it is `Date.toISOString`'s text of a time (then `.` and the
 * fraction's further digits when it has more than 3), else `"` and the text, and empty when absent, `<gross>` is `=`
 * when it is the row's value, `<liquid>` `=` when it is gross − tax; an answer with other facts (a BR Code, an
 * external id, what needs attention) stays JSON, so `ATTENTION_SQL`'s test of the text is unchanged. A single
 * payment's row keeps both in full; the team ledger keeps both in full.
 */
const SHORT = '~';

/** The end time's value in epoch milliseconds when `end` is `Date.toISOString`'s text of it, else null (kept as text). */
export function endMs(end: string): number | null {
  const ms = Date.parse(end);
  return Number.isFinite(ms) && new Date(ms).toISOString() === end ? ms : null;
}

/** A stored `end_time` as it was recorded (the short form, or the text itself). */
export function storedEndTime(end: unknown, timeMs: unknown): unknown {
  return typeof end === 'string' && end.startsWith(SHORT) ? new Date((timeMs as number) + Number(end.slice(1))).toISOString() : end;
}

/** The parameters of {@link END_ROW}'s short answer; `tail` null when the answer stays JSON. */
interface ShortFacts {
  /** The createdAt part when it is not a time in milliseconds since `time_ms`: '' when absent, else `"` and the text. */
  head: string | null;
  /** createdAt in epoch milliseconds, and the digits of its fraction beyond the milliseconds ('' or `.` and the digits). */
  createdMs: number | null;
  createdMore: string;
  /** `;<gross>;<tax>;<liquid>`, and the same with `=` for a gross that is the row's value. */
  tail: string | null;
  tailAtValue: string | null;
  gross: number | null;
}

/** createdAt as milliseconds and the fraction's further digits, when it is `Date.toISOString`'s text with more digits or none. */
function createdParts(created: string): { ms: number; more: string } | null {
  const ms = Date.parse(created);
  if (!Number.isFinite(ms)) return null;
  const base = new Date(ms).toISOString().slice(0, -1);
  if (created === `${base}Z`) return { ms, more: '' };
  const more = created.slice(base.length, -1);
  return created.startsWith(base) && created.endsWith('Z') && /^[0-9]+$/.test(more) ? { ms, more: `.${more}` } : null;
}

/**
 * The parameters of a batch row's short answer, from the answer's JSON text (src/ledger/schema.ts `factsJson`). The
 * statement writes `~` + (head, or createdMs − time_ms and createdMore) + (tailAtValue when gross is the row's value, else tail).
 */
export function shortFacts(json: string | null): ShortFacts {
  const none = { head: null, createdMs: null, createdMore: '', tail: null, tailAtValue: null, gross: null };
  if (json === null) return none;
  const f = JSON.parse(json) as Record<string, unknown>;
  const keys = Object.keys(f);
  const order = ['createdAt', 'gross', 'tax', 'liquid'].filter((k) => k in f);
  if (keys.length === 0 || keys.join() !== order.join()) return none;
  const created = f.createdAt as string | undefined;
  if (created?.includes(';')) return none;
  const parts = created === undefined ? null : createdParts(created);
  const head = created === undefined ? '' : parts === null ? `"${created}` : null;
  const num = (v: unknown) => (v === undefined ? '' : String(v));
  const { gross, tax, liquid } = f as { gross?: number; tax?: number; liquid?: number };
  const rest = `;${num(tax)};${liquid !== undefined && gross !== undefined && tax !== undefined && liquid === gross - tax ? '=' : num(liquid)}`;
  return {
    ...{ head, createdMs: parts?.ms ?? null, createdMore: parts?.more ?? '', gross: gross ?? null },
    ...{ tail: `;${num(gross)}${rest}`, tailAtValue: gross === undefined ? null : `;=${rest}` },
  };
}

/** A stored `answer` as JSON text as it was recorded: the short form given back as `factsJson` wrote it (`value` the row's, in cents). */
export function storedFacts(answer: unknown, timeMs: unknown, value: unknown): unknown {
  if (typeof answer !== 'string' || !answer.startsWith(SHORT)) return answer;
  const [c, g, x, l] = answer.slice(1).split(';') as [string, string, string, string];
  const out: Record<string, unknown> = {};
  if (c !== '') out.createdAt = c.startsWith('"') ? c.slice(1) : createdText(c, timeMs as number);
  const gross = g === '=' ? (value as number) : Number(g);
  if (g !== '') out.gross = gross;
  if (x !== '') out.tax = Number(x);
  if (l !== '') out.liquid = l === '=' ? gross - Number(x) : Number(l);
  return JSON.stringify(out);
}

/** createdAt from its short form: milliseconds since `timeMs`, then `.` and further digits of the fraction if any. */
function createdText(c: string, timeMs: number): string {
  const dot = c.indexOf('.');
  const iso = new Date(timeMs + Number(dot < 0 ? c : c.slice(0, dot))).toISOString();
  return dot < 0 ? iso : `${iso.slice(0, -1)}${c.slice(dot + 1)}Z`;
}

/** A batch row (the rows whose end time and answer may be kept short), in SQL. */
const SHORT_ROW = 'batch_id IS NOT NULL AND batch_row IS NOT NULL AND time_ms IS NOT NULL';

/** Writes an outcome ({@link endRowParams}): a batch row's end time and answer in their short forms where they can be given back exactly. */
export const END_ROW = `UPDATE payments SET outcome = @outcome, end_time = CASE WHEN ${SHORT_ROW} AND @end_ms IS NOT NULL THEN '${SHORT}' || CAST(@end_ms - time_ms AS INTEGER) ELSE @end END,
  transaction_id = coalesce(@transaction_id, transaction_id), status = coalesce(@status, status), http_status = @http_status, message = @message,
  answer = coalesce(CASE WHEN ${SHORT_ROW} AND @tail IS NOT NULL THEN '${SHORT}' || coalesce(@head, CAST(@created_ms - time_ms AS INTEGER) || @created_more)
    || CASE WHEN value = @gross THEN @tail_at_value ELSE @tail END ELSE @answer END, answer) WHERE id = @id`;

/** The named parameters of {@link END_ROW} for an outcome. */
export function endRowParams(e: EndRow): Record<string, unknown> {
  const short = shortFacts(e.answer);
  return {
    ...{ id: e.id, outcome: e.outcome, end: e.endTime, end_ms: endMs(e.endTime), transaction_id: e.transactionId, status: e.status },
    ...{ http_status: e.httpStatus, message: e.message, answer: e.answer, head: short.head, created_ms: short.createdMs, created_more: short.createdMore },
    ...{ gross: short.gross, tail: short.tail, tail_at_value: short.tailAtValue },
  };
}

/** From schema version 10 to 11: nothing to rewrite (older rows keep their full forms, which every reader takes); the version tells an older paycli to stay out. */
export const MIGRATE_TO_11 = 'SELECT 1;';

/** A UUID's text as {@link uuidV7} writes it (lowercase). */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The `uuid` column's value (schema version 12, docs/speed.md "Disk written per batch row"): for a batch row, a UUID's 16
 * bytes instead of its 36 characters, so that the unique index of uuids holds about twice the entries a page and its
 * waves split its leaves half as often; a single payment's row, and any other text, keep the text.
 * @param uuid src/ledger/uuid.ts `uuidV7`'s text, or another id (an imported entry's)
 */
export function uuidColumn(uuid: string, batchRow: boolean): string | Uint8Array {
  return batchRow && UUID_TEXT.test(uuid) ? Buffer.from(uuid.replaceAll('-', ''), 'hex') : uuid;
}

/** A stored `uuid` as it was recorded ({@link uuidColumn}): 16 bytes as the UUID's lowercase text. */
export function storedUuid(stored: unknown): string {
  if (!(stored instanceof Uint8Array) || stored.byteLength !== 16) return stored as string;
  const h = Buffer.from(stored.buffer, stored.byteOffset, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** SQL: the entries whose uuid is `@uuid` (a UUID's text), stored either way ({@link uuidColumn}). Bind `uuid_bytes` to `uuidColumn(uuid, true)`. */
export const UUID_IS = 'uuid IN (@uuid, @uuid_bytes)';
