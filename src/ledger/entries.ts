/**
 * The ledger's entries as a read sees them (docs/ledger-and-safety.md): the marks of a paycli ledger
 * (its format and schema version), how a row of `payments` becomes a {@link LedgerEntry}, and
 * `history`'s query. Apart from src/ledger/schema.ts (the tables, migrations and the statements of
 * the hot paths, which re-exports all of this) so that `history`'s listing (src/ledger/read.ts) loads
 * none of the schema's statements or the batches' fingerprints (docs/speed.md "History's start-up").
 */
import { storedEndTime, storedFacts, storedTime, storedTarget, storedUuid } from './derived.js';
import { orderIs } from './order-key.js';
import type { Outcome, PaymentKind } from './rules.js';
import type { LedgerEntry, LedgerQuery, PaymentFacts, Row } from './schema.js';

/** `meta.format` of a paycli ledger; a database without it is not one. */
export const FORMAT = 'paycli-ledger';
/**
 * `PRAGMA user_version` of the schema below; a newer one is refused (written by a newer paycli),
 * an older one is brought up to date when opened (src/ledger/schema.ts `MIGRATIONS`).
 */
export const SCHEMA_VERSION = 12;

/** SQL: 1 when an entry's create answer needs attention (`PaymentFacts` `attention`) not yet settled by `history resolve`. */
export const ATTENTION_SQL = `CASE WHEN resolved_by IS NULL AND answer LIKE '%"attention":%' THEN 1 ELSE 0 END`;

/** Which payments `payments_by_fingerprint8` holds (and every query through it names): those outside batch files. */
export const OUTSIDE_FILES = '(batch_id IS NULL OR batch_row IS NULL)';

/**
 * SQL: a condition on `p` (a row of `payments`) true for every payment recorded from `@since` to before `@until` (epoch ms),
 * and for others too: a caller keeps its own exact conditions on `p.time_ms`. It lets SQLite find those payments through
 * `payments_by_time_ms` (src/ledger/batch-fingerprints.ts `TIME_INDEX`) and, for the rows of batch files, through the files recorded since `@since` (`batch_files.last_ms`,
 * kept by the triggers of src/ledger/batch-fingerprints.ts for every batch row however recorded) and the index of their rows (`payments_by_batch`).
 */
export const IN_TIME_RANGE = `p.id IN (SELECT id FROM payments WHERE ${OUTSIDE_FILES} AND time_ms >= @since AND time_ms < @until
  UNION ALL SELECT q.id FROM batch_files AS f CROSS JOIN payments AS q ON q.batch_id = f.batch_id AND q.batch_row IS NOT NULL
  WHERE f.last_ms >= @since AND q.endpoint = f.endpoint AND q.time_ms >= @since AND q.time_ms < @until)`;

/** A stored fingerprint ({@link fingerprintValue}) as its hex text, as paycli compares it outside SQL. */
export function fingerprintText(stored: unknown): string {
  return stored instanceof Uint8Array ? Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).toString('hex') : String(stored);
}

/** Reads {@link PaymentFacts} kept as JSON text; anything else (an older row, bad JSON) is none. */
export function parseFacts(text: unknown): PaymentFacts | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as PaymentFacts) : undefined;
  } catch {
    return undefined;
  }
}

/** A column's value, or undefined for SQL's NULL. */
export const opt = <T>(v: unknown): T | undefined => (v === null || v === undefined ? undefined : (v as T));

/** The optional fields of a {@link LedgerEntry}, in their order, and the column (or the value of a row) each is read from: set when not NULL. */
const OPTIONAL_FIELDS: readonly [keyof LedgerEntry, string | ((r: Row) => unknown)][] = [
  ['pixKeyType', 'pix_key_type'],
  ['pixKey', 'pix_key'],
  ['recipient', 'recipient'],
  ['payer', 'payer'],
  ['product', 'product'],
  ['orderId', 'order_id'],
  ['batchId', 'batch_id'],
  ['batchRow', 'batch_row'],
  ['overrides', 'overrides'],
  ['endTime', (r) => storedEndTime(r.end_time, r.time_ms)],
  ['transactionId', 'transaction_id'],
  ['status', 'status'],
  ['httpStatus', 'http_status'],
  ['message', 'message'],
  ['resolvedBy', 'resolved_by'],
  ['resolvedTime', 'resolved_time'],
  ['note', 'note'],
  ['source', 'source'],
  ['timeMs', 'time_ms'],
  ['deadlineMs', 'deadline_ms'],
  ['runId', 'run_id'],
  ['pid', 'pid'],
  ['user', 'run_user'],
  ['host', 'run_host'],
  ['version', 'run_version'],
];

/** A row of `payments` (with its run's `run_user`, `run_host`, `run_version`) as a {@link LedgerEntry}. */
export function toEntry(r: Row): LedgerEntry {
  const outcome = opt<Outcome>(r.outcome);
  const e: LedgerEntry = {
    id: r.id as number,
    uuid: storedUuid(r.uuid),
    time: storedTime(r.time, r.time_ms),
    kind: r.kind as PaymentKind,
    value: r.value as number,
    target: storedTarget(r.target, r.endpoint),
    endpoint: r.endpoint as string,
    sandbox: r.sandbox === 1,
    profile: r.profile as string,
    allowDuplicate: r.allow_duplicate === 1,
    outcome: outcome ?? 'unknown',
    completed: outcome !== undefined,
    fingerprint: fingerprintText(r.fingerprint),
  };
  for (const [k, column] of OPTIONAL_FIELDS) {
    const v = typeof column === 'string' ? r[column] : column(r);
    if (v !== null && v !== undefined) (e as unknown as Record<string, unknown>)[k] = v;
  }
  const answer = parseFacts(storedFacts(r.answer, r.time_ms, r.value));
  if (answer) e.answer = answer;
  return e;
}

/**
 * The entries with who sent them ({@link LedgerEntry} `user`, `host`, `version`): each payment
 * with its run's columns as `run_user`, `run_host`, `run_version`. Conditions name the payment's
 * columns as `p.<column>` (both tables have `id`, `pid`, `host`, `batch_id`, `endpoint`).
 */
export const ENTRIES_WITH_RUN = `SELECT p.*, r.user AS run_user, r.host AS run_host, r.version AS run_version FROM payments AS p LEFT JOIN runs AS r ON r.id = p.run_id`;

/** What `history`'s table shows of an entry (src/cli/run/history.ts `formatHistory`). */
export type TableEntry = Pick<LedgerEntry, 'id' | 'time' | 'kind' | 'value' | 'sandbox' | 'outcome' | 'pixKey' | 'payer' | 'user' | 'host'>;

/**
 * The columns of {@link TableEntry}, joined as in {@link ENTRIES_WITH_RUN}: the table's listing reads 11 columns a
 * row instead of 38 (node:sqlite builds each row as an object with a property a column; docs/speed.md
 * "History's start-up: the table's rows, the catalog's groups").
 */
export const TABLE_ROWS = `SELECT p.id, p.time, p.time_ms, p.kind, p.value, p.sandbox, p.outcome, p.pix_key, p.payer, r.user AS run_user, r.host AS run_host FROM payments AS p LEFT JOIN runs AS r ON r.id = p.run_id`;

/** The optional fields of a {@link TableEntry} and their columns, as {@link toEntry} reads them. */
const TABLE_OPTIONAL_FIELDS: readonly [keyof TableEntry, string][] = [
  ['pixKey', 'pix_key'],
  ['payer', 'payer'],
  ['user', 'run_user'],
  ['host', 'run_host'],
];

/** A row of {@link TABLE_ROWS} as a {@link TableEntry}: each field as {@link toEntry} makes it. */
export function toTableEntry(r: Row): TableEntry {
  const e: TableEntry = {
    id: r.id as number,
    time: storedTime(r.time, r.time_ms),
    kind: r.kind as PaymentKind,
    value: r.value as number,
    sandbox: r.sandbox === 1,
    outcome: opt<Outcome>(r.outcome) ?? 'unknown',
  };
  for (const [k, column] of TABLE_OPTIONAL_FIELDS) {
    const v = r[column];
    if (v !== null && v !== undefined) (e as Record<string, unknown>)[k] = v;
  }
  return e;
}

/**
 * `history`'s query: its SQL and named parameters.
 * @param select the columns read and the join (default {@link ENTRIES_WITH_RUN}; {@link TABLE_ROWS} for the table)
 */
export function historyQuery(q: LedgerQuery, select = ENTRIES_WITH_RUN): [string, Record<string, unknown>] {
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: q.limit };
  const add = (sql: string, name: string, value: unknown) => {
    if (value === undefined) return;
    where.push(sql);
    params[name] = value;
  };
  add('p.time_ms >= @since', 'since', q.since === undefined ? undefined : Date.parse(q.since));
  add('p.time_ms < @until', 'until', q.until === undefined ? undefined : Date.parse(q.until));
  if (q.since !== undefined && q.until !== undefined) where.push(IN_TIME_RANGE); // the index of times, as before schema 10
  add('p.kind = @kind', 'kind', q.kind);
  if (q.outcome === 'unknown') where.push(`(p.outcome IS NULL OR p.outcome = 'unknown')`);
  else add('p.outcome = @outcome', 'outcome', q.outcome);
  add('p.profile = @profile', 'profile', q.profile);
  add(orderIs('p.order_id', '@order_id'), 'order_id', q.orderId);
  // an id kept as a number may be stored as a REAL (500.0): compared as a number too
  add('(CAST(p.transaction_id AS TEXT) = @transaction_id OR p.transaction_id = CAST(@transaction_id AS REAL))', 'transaction_id', q.transactionId);
  add('p.batch_id = @batch_id', 'batch_id', q.batchId);
  add('r.user = @by_user', 'by_user', q.by?.user);
  add('r.host = @by_host COLLATE NOCASE', 'by_host', q.by?.host);
  return [`${select}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY p.id DESC LIMIT @limit`, params];
}
