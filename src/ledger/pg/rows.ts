/**
 * The team ledger's rows as paycli's values and back (src/ledger/pg/ledger.ts): entries, runs, the
 * values of a payment recorded and of an outcome, and the columns of its many-row statements.
 */
import { VERSION } from '../../core/version.js';
import type { EndRecord, RecordOptions } from '../contract.js';
import { cashInFingerprint, cashOutFingerprint, DEFAULT_WINDOW_MIN, displayTarget, endpointIdentity } from '../rules.js';
import type { RunRecord } from '../runs.js';
import { clean, clip, factsJson, toEntry, type BeginInfo, type LedgerEntry, type Row } from '../schema.js';
import { uuidV7 } from '../uuid.js';
import type { BeginArgs } from './connection.js';

/** Outcomes as the columns of src/ledger/pg/schema.ts `PG_END_MANY` (one array each). */
export function endColumns(rows: readonly unknown[][]): unknown[][] {
  return Array.from({ length: 8 }, (_, j) => rows.map((r) => r[j] ?? null));
}

/** The PostgreSQL types of the columns `ledger push` writes, in its order. */
export const PUSH_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'bigint',
  'text',
  'text',
  'smallint',
  'text',
  'integer',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'integer',
  'smallint',
  'integer',
  'text',
  'text',
  'text',
  'jsonb',
  'text',
  'integer',
  'text',
  'text',
  'text',
  'text',
  'bigint',
  'bigint',
  'text',
  'text',
  'text',
  'text',
  'text',
];

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

/** The columns `ledger push` writes, in the order of {@link PUSH_TYPES}. */
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

/**
 * What src/ledger/pg/connection.ts `begin` needs to check and record one payment for run `run`:
 * its uuid, endpoint, fingerprint, window and the values of src/ledger/pg/schema.ts `PG_INSERT_COLUMNS`.
 * @throws TypeError when a cash-out lacks its Pix key (a bug of the caller)
 */
export function beginArgs(info: BeginInfo, opts: RecordOptions, now: number, run: RunRecord, inTransaction: boolean): BeginArgs & { uuid: string } {
  const windowMin = opts.windowMin ?? DEFAULT_WINDOW_MIN;
  if (info.kind === 'cashout' && (info.pixKeyType === undefined || info.pixKey === undefined)) throw new TypeError('a cash-out needs pixKeyType and pixKey');
  const fingerprint =
    info.kind === 'cashout'
      ? cashOutFingerprint(info.target, { value: info.value, pixKeyType: info.pixKeyType!, pixKey: info.pixKey! })
      : cashInFingerprint(info.target, { value: info.value, payer: info.payer });
  const uuid = uuidV7(now);
  const endpoint = endpointIdentity(info.target);
  const orderId = clip(info.orderId, 200);
  const values = [
    uuid,
    new Date(now).toISOString(),
    info.kind,
    fingerprint,
    info.value,
    displayTarget(info.target),
    endpoint,
    info.sandbox ? 1 : 0,
    clip(info.profile, 100),
    info.pixKeyType ?? null,
    clip(info.pixKey, 200),
    clip(info.recipient, 200),
    clip(info.payer, 200),
    clip(info.product, 200),
    orderId,
    clip(info.batchId, 200),
    info.batchRow ?? null,
    opts.allowDuplicate ? 1 : 0,
    null,
    process.pid,
    null,
    now,
    now + Math.max(0, info.startWithinMs ?? 0) + info.timeoutMs,
    run.id,
    clip(run.user, 100),
    clip(run.host, 200),
    VERSION,
  ];
  return {
    uuid,
    endpoint,
    ...(info.kind === 'cashout' ? { fingerprint } : {}),
    windowOn: windowMin > 0,
    sinceMs: now - Math.max(0, windowMin) * 60_000,
    allowDuplicate: Boolean(opts.allowDuplicate),
    orderId,
    values,
    inTransaction,
  };
}

/** The values of one outcome, as src/ledger/pg/rows.ts `endColumns` takes them. */
export function endValues([id, outcome, extra]: EndRecord): unknown[] {
  return [
    id,
    outcome,
    new Date().toISOString(),
    extra.transactionId === undefined ? null : JSON.stringify(extra.transactionId),
    clean(extra.status, 20),
    extra.httpStatus ?? null,
    clean(extra.message, 500),
    factsJson(extra.answer),
  ];
}
