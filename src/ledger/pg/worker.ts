/**
 * The worker thread that owns the team ledger's PostgreSQL connection (src/ledger/pg/bridge.ts is the
 * caller's side; docs/ledger-and-safety.md, "Team ledger"). It loads the `pg` driver, so a paycli on the
 * local ledger never does. Every request is answered exactly once, with a value or an error's
 * message and code; the driver's own time limits (connecting, each query) keep a call from
 * hanging on a database that no longer answers.
 */
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import pgPass from 'pgpass';
import { PG_CHECK_AND_INSERT, PG_ENDPOINT_LOCK } from './schema.js';

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
  const fromFile = await new Promise<string | undefined>((resolve) => pgPass(p, resolve));
  if (fromFile !== undefined) return fromFile;
  // The worker has no language: the main thread words it (pgFailure in ./ledger.ts).
  throw Object.assign(new Error('NO_PASSWORD'), { code: 'NO_PASSWORD' });
}

async function connect(a: ConnectArgs): Promise<{ server: string }> {
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
  const r = await c.query('SHOW server_version');
  return { server: String(r.rows[0]?.server_version ?? '?') };
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
  if (!a.inTransaction) {
    lockedInTransaction.clear();
    await c.query('BEGIN');
  }
  try {
    // The lock first, in a statement of its own: the checks after it read what the previous holder committed.
    if (!lockedInTransaction.has(a.endpoint)) {
      await c.query(PG_ENDPOINT_LOCK, [a.endpoint]);
      if (a.inTransaction) lockedInTransaction.add(a.endpoint);
    }
    const values = [...a.values, a.fingerprint ?? null, a.windowOn, a.sinceMs, a.allowDuplicate];
    values[18] = null; // overrides: the blocking entry's, set by the statement
    const r = (await c.query({ name: 'paycli_check_and_insert', text: PG_CHECK_AND_INSERT, values })).rows[0]!;
    const earlier = (r.blocked as Record<string, unknown> | null) ?? undefined;
    const taken = (r.taken as Record<string, unknown> | null) ?? undefined;
    const refusal: BeginAnswer | undefined = earlier && !a.allowDuplicate ? { blocked: earlier } : taken ? { taken } : undefined;
    if (refusal || r.id === null) {
      if (!a.inTransaction) await c.query('ROLLBACK');
      return refusal ?? { taken: taken! };
    }
    if (!a.inTransaction) await c.query('COMMIT');
    return { id: Number(r.id), ...(earlier ? { earlier } : {}) };
  } catch (err) {
    if (!a.inTransaction) await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
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

const ops: Record<string, (...args: never[]) => Promise<unknown>> = { connect, query, begin, insertMany, close };

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
