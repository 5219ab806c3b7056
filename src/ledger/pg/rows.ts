/**
 * The team ledger's rows as paycli's values (src/ledger/pg/ledger.ts): entries, runs, and the
 * columns of its many-row statements.
 */
import type { RunRecord } from '../runs.js';
import { factsJson, toEntry, type LedgerEntry, type LedgerQuery, type Row } from '../schema.js';
import type { Checked, EndRow, NewPayment } from '../statements.js';
import type { BeginAnswer, BeginArgs } from './connection.js';
import { PG_COLUMN_TYPES } from './schema.js';

/** Outcomes as the columns of src/ledger/pg/schema.ts `PG_END_MANY` (one array each). */
export function endColumns(rows: readonly unknown[][]): unknown[][] {
  return Array.from({ length: 8 }, (_, j) => rows.map((r) => r[j] ?? null));
}

/** A team ledger row as an entry (src/ledger/schema.ts `toEntry`, with who sent it). */
export function toPgEntry(r: Row): LedgerEntry {
  return toEntry({ ...r, run_user: r.os_user, run_host: r.host, run_version: r.version });
}

/** A row of `paycli.runs` as a run. */
export function toPgRun(r: Row): RunRecord & { goneMs?: number } {
  return {
    id: r.id as string,
    pid: r.pid as number,
    procStart: null,
    host: r.host as string,
    bootId: null,
    startedMs: r.started_ms as number,
    user: (r.os_user as string | null) ?? 'unknown',
    version: (r.version as string | null) ?? '?',
    ...(r.gone_ms !== null && r.gone_ms !== undefined ? { goneMs: r.gone_ms as number } : {}),
  };
}

/** The columns `ledger push` writes, in order. */
export const PUSH_COLUMNS = [
  'uuid',
  'time',
  'kind',
  'fingerprint',
  'value',
  'target',
  'endpoint',
  'sandbox',
  'profile',
  'pix_key_type',
  'pix_key',
  'recipient',
  'payer',
  'product',
  'order_id',
  'batch_id',
  'batch_row',
  'allow_duplicate',
  'pid',
  'source',
  'outcome',
  'end_time',
  'transaction_id',
  'status',
  'http_status',
  'message',
  'resolved_by',
  'resolved_time',
  'note',
  'time_ms',
  'deadline_ms',
  'run_id',
  'os_user',
  'host',
  'version',
  'answer',
];

/** The PostgreSQL types of {@link PUSH_COLUMNS}, in order (src/ledger/pg/schema.ts `PG_COLUMN_TYPES`). */
export const PUSH_TYPES = PUSH_COLUMNS.map((c) => PG_COLUMN_TYPES[c]!);

/**
 * What `ledger push` writes of a chunk of local entries: their rows ({@link PUSH_COLUMNS}) and the
 * rows of the runs they name that `seenRuns` does not hold yet (added to it).
 */
export function pushRows(chunk: readonly LedgerEntry[], runs: (id: string) => RunRecord | undefined, seenRuns: Set<string>): { runRows: unknown[][]; rows: unknown[][] } {
  const runRows: unknown[][] = [];
  for (const e of chunk) {
    if (!e.runId || seenRuns.has(e.runId)) continue;
    seenRuns.add(e.runId);
    const r = runs(e.runId);
    if (r) runRows.push([r.id, r.pid, r.host, r.user, r.version, r.startedMs, Date.now()]);
  }
  const rows = chunk.map((e) => {
    const r = e.runId ? runs(e.runId) : undefined;
    return [
      e.uuid,
      e.time,
      e.kind,
      e.fingerprint,
      e.value,
      e.target,
      e.endpoint,
      e.sandbox ? 1 : 0,
      e.profile,
      e.pixKeyType ?? null,
      e.pixKey ?? null,
      e.recipient ?? null,
      e.payer ?? null,
      e.product ?? null,
      e.orderId ?? null,
      e.batchId ?? null,
      e.batchRow ?? null,
      e.allowDuplicate ? 1 : 0,
      e.pid ?? null,
      e.source ?? 'push',
      e.completed ? e.outcome : null,
      e.endTime ?? null,
      e.transactionId === undefined ? null : JSON.stringify(e.transactionId),
      e.status ?? null,
      e.httpStatus ?? null,
      e.message ?? null,
      e.resolvedBy ?? null,
      e.resolvedTime ?? null,
      e.note ?? null,
      e.timeMs ?? null,
      e.deadlineMs ?? null,
      e.runId ?? null,
      e.user ?? r?.user ?? null,
      e.host ?? r?.host ?? null,
      e.version ?? r?.version ?? null,
      factsJson(e.answer),
    ];
  });
  return { runRows, rows };
}

/** Runs one statement of the team ledger and answers its rows. */
type Statement = (sql: string, params: unknown[]) => Promise<Row[]>;

/**
 * One INSERT of many payments, one array parameter per column (`unnest`): a statement of as many
 * parameters as columns whatever the number of rows; entries whose uuid is held already are skipped.
 * @returns the rows inserted
 */
export async function insertColumns(q: Statement, cols: readonly string[], types: readonly string[], rows: unknown[][]): Promise<number> {
  const arrays = cols.map((_, j) => rows.map((r) => r[j]));
  const select = cols.map((c, j) => (types[j] === 'jsonb' ? `u.${c}::jsonb` : `u.${c}`)).join(', ');
  const args = cols.map((_, j) => `$${j + 1}::${types[j] === 'jsonb' ? 'text' : types[j]}[]`).join(', ');
  const out = await q(
    `WITH ins AS (INSERT INTO paycli.payments (${cols.join(', ')}) SELECT ${select} FROM unnest(${args}) AS u(${cols.join(', ')}) ON CONFLICT (uuid) DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM ins`,
    arrays,
  );
  return Number(out[0]?.n ?? 0);
}

/** One multi-row INSERT (`ncols` per row). @returns the rows inserted */
export async function insertRows(q: Statement, into: string, ncols: number, rows: unknown[][], conflict: string): Promise<number> {
  const values = rows.map((_, i) => `(${Array.from({ length: ncols }, (_, j) => `$${i * ncols + j + 1}`).join(', ')})`).join(', ');
  const out = await q(`WITH ins AS (INSERT INTO ${into} VALUES ${values} ${conflict} RETURNING 1) SELECT count(*)::int AS n FROM ins`, rows.flat());
  return Number(out[0]?.n ?? 0);
}

/** The values of one outcome, as src/ledger/pg/rows.ts `endColumns` takes them. */
export function endValues(e: EndRow): unknown[] {
  return [e.id, e.outcome, e.endTime, e.transactionId === null ? null : JSON.stringify(e.transactionId), e.status, e.httpStatus, e.message, e.answer];
}

/** What the connection needs to check and record one payment (the values of src/ledger/pg/schema.ts `PG_INSERT_COLUMNS`, in order). */
export function beginArgs(r: NewPayment, inTransaction: boolean): BeginArgs {
  const values = [
    r.uuid,
    r.time,
    r.kind,
    r.fingerprint,
    r.value,
    r.target,
    r.endpoint,
    r.sandbox ? 1 : 0,
    r.profile,
    r.pixKeyType,
    r.pixKey,
    r.recipient,
    r.payer,
    r.product,
    r.orderId,
    r.batchId,
    r.batchRow,
    r.allowDuplicate ? 1 : 0,
    null,
    r.pid,
    null,
    r.timeMs,
    r.deadlineMs,
    r.run.id,
    r.run.user,
    r.run.host,
    r.run.version,
  ];
  const check = r.check ?? { windowOn: false, sinceMs: 0 };
  return {
    endpoint: r.endpoint,
    ...(r.check ? { fingerprint: r.fingerprint } : {}),
    windowOn: check.windowOn,
    sinceMs: check.sinceMs,
    allowDuplicate: r.allowDuplicate,
    orderId: r.orderId,
    values,
    inTransaction,
  };
}

/** The connection's answer as what the check found. */
export function checkedOf(a: BeginAnswer): Checked {
  if ('blocked' in a) return { blocked: toPgEntry(a.blocked) };
  if ('taken' in a) return { taken: toPgEntry(a.taken) };
  return { id: a.id, ...(a.earlier ? { blocked: toPgEntry(a.earlier) } : {}) };
}

/** `history`'s filters as conditions on `paycli.payments` and their parameters ($1...$n). */
export function queryWhere(q: LedgerQuery): [string[], unknown[]] {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  add('time_ms >= ?', q.since === undefined ? undefined : Date.parse(q.since));
  add('time_ms < ?', q.until === undefined ? undefined : Date.parse(q.until));
  add('kind = ?', q.kind);
  if (q.outcome === 'unknown') where.push(`(outcome IS NULL OR outcome = 'unknown')`);
  else add('outcome = ?', q.outcome);
  add('profile = ?', q.profile);
  add('order_id = ?', q.orderId);
  add(`transaction_id #>> '{}' = ?`, q.transactionId);
  add('batch_id = ?', q.batchId);
  add('os_user = ?', q.by?.user);
  add('lower(host) = lower(?)', q.by?.host);
  return [where, params];
}
