/**
 * The worker thread that owns the team ledger's PostgreSQL connection (src/ledger/pg/bridge.ts is the
 * caller's side; docs/ledger-and-safety.md, "Team ledger"). It loads the `pg` driver, so a paycli on the
 * local ledger never does. Every request is answered exactly once, with a value or an error's
 * message and code; the driver's own time limits (connecting, each query) keep a call from
 * hanging on a database that no longer answers.
 */
// First: what the driver reads as it loads (src/ledger/pg/runtime.ts).
import './runtime.js';
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { PG_CHECK_AND_INSERT, PG_CHECK_AND_INSERT_MANY, PG_END_MANY, PG_ENDPOINT_LOCK, PG_RUN_REGISTER } from './schema.js';

/** How the connection is made: the URL (its password, if any, inside), a password from the config, time limits. */
export interface ConnectArgs {
  url: string;
  password?: string;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
  applicationName: string;
}

/** What {@link begin} does in one transaction: the check (cash-outs), the order reference check, the insert. */
export interface BeginArgs {
  endpoint: string;
  /** Cash-outs: the fingerprint to check; undefined for a cash-in (never refused). */
  fingerprint?: string;
  windowOn: boolean;
  sinceMs: number;
  allowDuplicate: boolean;
  orderId: string | null;
  /** The values of src/ledger/pg/schema.ts `PG_INSERT_COLUMNS`, in order. */
  values: unknown[];
  /** Inside a transaction already (a group): no BEGIN/COMMIT here. */
  inTransaction: boolean;
}

/** What {@link beginMany} does: {@link begin} of each row, in order, in the caller's transaction (or one of its own). */
export interface BeginManyArgs {
  rows: BeginArgs[];
  inTransaction: boolean;
}

/** What {@link begin} answers: the new entry (and the earlier one it overrides), or the row that refuses it. */
export type BeginAnswer = { id: number; earlier?: Record<string, unknown> } | { blocked: Record<string, unknown> } | { taken: Record<string, unknown> };

const { port, events, flag } = workerData as { port: MessagePort; events: MessagePort; flag: Int32Array };
let closing = false;

/** The connection ended without paycli closing it: raise the shared flag and tell the caller once. */
function connectionLost(err: Error | undefined): void {
  if (closing || Atomics.load(flag, 1) === 1) return;
  Atomics.store(flag, 1, 1);
  events.postMessage({ lost: err?.message ?? '' }); // empty: the server closed it (worded by the main thread)
}

// int8 (entry numbers, epoch milliseconds, cents) as numbers: every value paycli writes fits.
pg.types.setTypeParser(20, (v: string) => Number(v));

let client: pg.Client | undefined;
let lost: Error | undefined;

/** What a password file line is matched against. */
type ConnInfo = { host?: string; port?: number; database?: string; user?: string };

/**
 * The password when the server asks for one and neither the URL nor the config gave it, in
 * libpq's order (docs/configuration.md "The team ledger's password"): `PGPASSWORD` (empty counts as unset), then
 * the password file (`PGPASSFILE`, else `~/.pgpass`; ignored with group or other access, as libpq
 * does). Throws an error with code `NO_PASSWORD` when neither has one for this host, port,
 * database and user.
 */
async function passwordFromEnvironment(p: ConnInfo): Promise<string> {
  const env = process.env.PGPASSWORD;
  if (env) return env;
  // The file reader skips the file whenever PGPASSWORD is present, even empty; libpq reads it then.
  if (env === '') delete process.env.PGPASSWORD; // this worker's own copy of the environment
  // Loaded here, when a password is asked for: most connections never need the file reader.
  const pgPass = require('pgpass') as { default?: typeof import('pgpass').default } & typeof import('pgpass').default;
  const read = pgPass.default ?? pgPass;
  const fromFile = await new Promise<string | undefined>((resolve) => read(p, resolve));
  if (fromFile !== undefined) return fromFile;
  // The worker has no language: the main thread words it (pgFailure in ./ledger.ts).
  throw Object.assign(new Error('NO_PASSWORD'), { code: 'NO_PASSWORD' });
}

async function connect(a: ConnectArgs): Promise<void> {
  // The URL's password first, then the config's, then PGPASSWORD and the password file, read only
  // when the server asks (the driver's own reading of them is deprecated and warns on stderr).
  const params = parseIntoClientConfig(a.url);
  const c: pg.Client = new pg.Client({
    ...params,
    // The host, port, database and user the driver settled on (its defaults and PG* variables
    // included), which the password file is matched against, as the driver itself does.
    password: params.password || a.password || ((): Promise<string> => passwordFromEnvironment((c as unknown as { connectionParameters: ConnInfo }).connectionParameters)),
    connectionTimeoutMillis: a.connectTimeoutMs,
    query_timeout: a.queryTimeoutMs,
    keepAlive: true,
    application_name: a.applicationName,
  });
  c.on('error', (err: Error) => {
    lost = err;
    connectionLost(err);
  });
  c.on('end', () => {
    lost ??= new Error(''); // the server closed it: the main thread says so in its language
    connectionLost(lost);
  });
  await c.connect();
  client = c;
}

/**
 * Connects and reads the schema version in one call (0: no paycli schema yet), so that a paycli
 * can start this while it still reads its flags (src/ledger/store.ts `prepareLedger`).
 */
async function open(a: ConnectArgs): Promise<{ version: number }> {
  await connect(a);
  try {
    const r = await live().query(`SELECT value FROM paycli.meta WHERE key = 'schema_version'`);
    return { version: r.rows[0] ? Number(r.rows[0].value) : 0 };
  } catch (err) {
    // No schema (3F000) or no table (42P01): nothing of paycli's there yet.
    const code = (err as { code?: unknown }).code;
    if (code === '42P01' || code === '3F000') return { version: 0 };
    throw err;
  }
}

function live(): pg.Client {
  if (lost) throw Object.assign(new Error(lost.message), { code: 'CONNECTION_LOST' });
  if (!client) throw Object.assign(new Error('not connected'), { code: 'NOT_CONNECTED' });
  return client;
}

async function query(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  // A transaction's end forgets the endpoint locks it held.
  if (/^(BEGIN|COMMIT|ROLLBACK)\b/.test(sql)) lockedInTransaction.clear();
  return (await live().query(sql, params)).rows;
}

/** The endpoints whose lock the open transaction holds already (a group records many rows of one endpoint). */
const lockedInTransaction = new Set<string>();

async function begin(a: BeginArgs): Promise<BeginAnswer> {
  const c = live();
  const values = [...a.values, a.fingerprint ?? null, a.windowOn, a.sinceMs, a.allowDuplicate];
  values[18] = null; // overrides: the blocking entry's, set by the statement
  if (!a.inTransaction) {
    // One round trip: BEGIN, the lock, check-and-record, COMMIT as the statements of one simple
    // query (values as literals), each statement with its own snapshot, so the check reads what
    // the lock's previous holder committed. A refusal inserts nothing, so the COMMIT records nothing.
    lockedInTransaction.clear();
    try {
      const results = (await c.query(`BEGIN; ${lockSql(c, a.endpoint)}; ${inline(c, PG_CHECK_AND_INSERT, values)}; COMMIT`)) as unknown as pg.QueryResult[];
      return beginAnswer(results[2]!.rows[0]!, a);
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
  // Inside a group: the lock first (once a transaction), in a statement of its own, so the check after it reads what the previous holder committed.
  await lockEndpoints(c, [a.endpoint]);
  return beginAnswer((await c.query({ name: 'paycli_check_and_insert', text: PG_CHECK_AND_INSERT, values })).rows[0]!, a);
}

/** What a row of {@link PG_CHECK_AND_INSERT} answers for `a`: its refusal, or the new entry. */
function beginAnswer(r: Record<string, unknown>, a: Pick<BeginArgs, 'allowDuplicate'>): BeginAnswer {
  const earlier = (r.blocked as Record<string, unknown> | null) ?? undefined;
  const taken = (r.taken as Record<string, unknown> | null) ?? undefined;
  if (earlier && !a.allowDuplicate) return { blocked: earlier };
  if (taken || r.id === null) return { taken: taken! };
  return { id: Number(r.id), ...(earlier ? { earlier } : {}) };
}

/**
 * `sql` with its parameters `$1`...`$n` as literals, for a simple query of several statements (one
 * round trip): strings through the driver's `escapeLiteral`, numbers, booleans, NULL, and arrays
 * of them; the statement's own casts give the types.
 */
export function inline(c: Pick<pg.Client, 'escapeLiteral'>, sql: string, params: readonly unknown[]): string {
  const literal = (v: unknown): string => {
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number' && Number.isFinite(v)) return v < 0 ? `(${v})` : String(v);
    if (typeof v === 'string') return c.escapeLiteral(v);
    if (Array.isArray(v)) return v.length ? `ARRAY[${v.map(literal).join(', ')}]` : `'{}'`;
    throw new TypeError(`a value of type ${typeof v} cannot be written as a literal`);
  };
  return sql.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

/** {@link PG_ENDPOINT_LOCK} with the endpoint as a literal (for a simple query of several statements). */
function lockSql(c: pg.Client, endpoint: string): string {
  return PG_ENDPOINT_LOCK.replace('$1', () => c.escapeLiteral(endpoint));
}

/** Takes the endpoint locks the open transaction does not hold yet (in a fixed order: two paycli never wait on each other crosswise). */
async function lockEndpoints(c: pg.Client, endpoints: readonly string[]): Promise<void> {
  const missing = [...new Set(endpoints)].filter((e) => !lockedInTransaction.has(e)).sort();
  if (!missing.length) return;
  await c.query(missing.map((e) => lockSql(c, e)).join('; '));
  for (const e of missing) lockedInTransaction.add(e);
}

/**
 * {@link begin} of many rows (a batch's group), with the same answers in the same order. The
 * endpoint locks first, then one statement checks and records every row
 * ({@link PG_CHECK_AND_INSERT_MANY}): its snapshot holds what the locks' previous holders
 * committed. Rows of the group that could refuse each other (the same fingerprint, or the same
 * order reference at the same endpoint) are checked one after the other instead, as {@link begin}
 * does, so that each sees the ones before it.
 */
async function beginMany(a: BeginManyArgs): Promise<BeginAnswer[]> {
  const c = live();
  if (!a.rows.length) return [];
  if (!a.inTransaction) {
    lockedInTransaction.clear();
    await c.query('BEGIN');
  }
  try {
    await lockEndpoints(
      c,
      a.rows.map((r) => r.endpoint),
    );
    let answers: BeginAnswer[];
    if (collide(a.rows)) {
      answers = [];
      for (const r of a.rows) answers.push(await begin({ ...r, inTransaction: true }));
    } else {
      const cols = a.rows[0]!.values.map((_, j) => a.rows.map((r) => r.values[j] ?? null));
      const params = [...cols, a.rows.map((r) => r.fingerprint ?? null), a.rows.map((r) => r.windowOn), a.rows.map((r) => r.sinceMs), a.rows.map((r) => r.allowDuplicate)];
      const out = (await c.query({ name: 'paycli_check_and_insert_many', text: PG_CHECK_AND_INSERT_MANY, values: params })).rows;
      answers = a.rows.map((r, i) => beginAnswer(out[i]!, r));
    }
    if (!a.inTransaction) await c.query('COMMIT');
    return answers;
  } catch (err) {
    if (!a.inTransaction) await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Whether two rows of a group could refuse each other: the same fingerprint, or the same order reference at one endpoint. */
function collide(rows: readonly BeginArgs[]): boolean {
  const seen = new Set<string>();
  for (const r of rows) {
    const keys = [`f ${String(r.values[3])}`, ...(r.orderId !== null ? [`o ${r.endpoint} ${r.orderId}`] : [])];
    for (const k of keys) {
      if (seen.has(k)) return true;
      seen.add(k);
    }
  }
  return false;
}

/**
 * Writes outcomes (the columns of {@link PG_END_MANY}). Outside a transaction, in one of its own
 * whose commit does not wait for the disk (`synchronous_commit` off): an outcome lost to a crash
 * of the database server leaves its entry unknown, which the rules settle later; every record
 * made before a send keeps waiting for the disk.
 */
async function endMany(columns: unknown[][], inTransaction: boolean): Promise<void> {
  const c = live();
  if (inTransaction) {
    await c.query(PG_END_MANY, columns);
    return;
  }
  await unhurried(c, inline(c, PG_END_MANY, columns));
}

/**
 * Runs `statement` in a transaction of its own whose commit does not wait for the disk, in one
 * round trip. Only for writes whose loss to a database crash is safe: an outcome (its entry then
 * stays unknown), a run's row (the commit of any entry naming it waits for the disk, and so
 * writes it first: the log is written in order).
 */
async function unhurried(c: pg.Client, statement: string): Promise<void> {
  try {
    await c.query(`BEGIN; SET LOCAL synchronous_commit TO off; ${statement}; COMMIT`);
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Registers a run: its session lock, then its row, in one statement (src/ledger/pg/schema.ts `PG_RUN_REGISTER`). */
async function register(values: unknown[]): Promise<void> {
  const c = live();
  await unhurried(c, inline(c, PG_RUN_REGISTER, values));
}

/**
 * Several calls in one trip across the bridge, in order (what a ledger kept pending, then the call
 * it waits on): the answers in the same order; the first error stops the rest and is the answer.
 */
async function many(steps: Array<{ op: string; args: unknown[] }>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const s of steps) {
    const fn = ops[s.op];
    if (!fn || s.op === 'many') throw new Error(`no such operation: ${s.op}`);
    out.push(await (fn as (...a: unknown[]) => Promise<unknown>)(...s.args));
  }
  return out;
}

/** Copies rows into `paycli.payments`, skipping uuids it holds (ledger push). @returns how many were added */
async function insertMany(sql: string, rows: unknown[][]): Promise<number> {
  const c = live();
  let added = 0;
  for (const values of rows) added += (await c.query(sql, values)).rowCount ?? 0;
  return added;
}

async function close(): Promise<void> {
  closing = true;
  const c = client;
  client = undefined;
  await c?.end().catch(() => undefined);
}

const ops: Record<string, (...args: never[]) => Promise<unknown>> = { connect, open, query, begin, beginMany, endMany, register, many, insertMany, close };

port.on('message', async (msg: { op: string; args: unknown[] }) => {
  let answer: unknown;
  try {
    const fn = ops[msg.op];
    if (!fn) throw new Error(`no such operation: ${msg.op}`);
    answer = { ok: true, value: await (fn as (...a: unknown[]) => Promise<unknown>)(...msg.args) };
  } catch (err) {
    const e = err as { message?: unknown; code?: unknown };
    answer = { ok: false, message: String(e?.message ?? err), ...(typeof e?.code === 'string' ? { code: e.code } : {}) };
  }
  port.postMessage(answer);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
