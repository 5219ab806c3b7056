/**
 * The team ledger's one PostgreSQL connection (docs/ledger-and-safety.md, "Team ledger"), on the main
 * thread, through the `pg` driver's own asynchronous API. It loads the driver on first use, so a
 * paycli on the local ledger never does. Every call is bounded: connecting by
 * src/ledger/pg/opening.ts `connectTimeoutMs`, each round trip by `PG_QUERY_TIMEOUT_MS`; a call
 * past its limit fails with code `NO_ANSWER` and the connection is let go (its socket destroyed:
 * a one-shot paycli never waits for a database that stopped answering). While a call waits, the
 * event loop runs: Ctrl-C, timers and progress keep working ({@link patiently}).
 *
 * Longer than 500 lines: the connection's operations and how each puts its statements into as few
 * round trips as it can (a run's registration with the next statement, a single payment's check
 * and record in one) read in one file.
 */
import type pg from 'pg';
import { InterruptedError } from '../../core/errors.js';
import { t } from '../../core/i18n/index.js';
import { logger } from '../../core/logger.js';
import { PG_CHECK_AND_INSERT, PG_CHECK_AND_INSERT_MANY, PG_END_MANY, PG_ENDPOINT_LOCK, PG_RUN_REGISTER } from './schema.js';

/** An error of the driver or the database: its text, and its code (a SQLSTATE like `28P01`, `ECONNREFUSED`, `NO_ANSWER`). */
export class PgCallError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'PgCallError';
    this.code = code;
  }
}

/** How the connection is made: the URL (its password, if any, inside), a password from the config, time limits (ms). */
export interface ConnectArgs {
  url: string;
  password?: string;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
  applicationName: string;
}

/** What {@link PgConnection.begin} does in one transaction: the check (cash-outs), the order reference check, the insert. */
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

/** What {@link PgConnection.beginMany} does: `begin` of each row, in order, in the caller's transaction (or one of its own). */
export interface BeginManyArgs {
  rows: BeginArgs[];
  inTransaction: boolean;
}

/** What `begin` answers: the new entry (and the earlier one it overrides), or the row that refuses it. */
export type BeginAnswer = { id: number; earlier?: Record<string, unknown> } | { blocked: Record<string, unknown> } | { taken: Record<string, unknown> };

/** A row as the driver gives it. */
type Row = Record<string, unknown>;
/** A statement and its values (`$1`...`$n`). */
export type Statement = [sql: string, params: readonly unknown[]];
/** One call of {@link PgConnection.call}: its operation and arguments. */
export type Step = { op: string; args: unknown[] };

/** How long closing waits for the server to close its side of the connection before the socket is destroyed (ms). */
const CLOSE_WAIT_MS = 2000;

/** How long a call waits before paycli says on stderr that it is waiting for the team ledger (ms). */
export const WAIT_NOTICE_MS = 1000;

type Driver = typeof import('pg');
let driver: Promise<Driver> | undefined;
/** The driver, loaded once; int8 (entry numbers, epoch milliseconds, cents) read as numbers: every value paycli writes fits. */
function loadDriver(): Promise<Driver> {
  driver ??= import('pg').then((m) => {
    const d = ((m as unknown as { default?: Driver }).default ?? m) as Driver;
    d.types.setTypeParser(20, (v: string) => Number(v));
    return d;
  });
  return driver;
}

/**
 * Waits for `work` (a team-ledger call) without blocking anything: after {@link WAIT_NOTICE_MS} it
 * says once on stderr that it is waiting for the team ledger at `where`. While nothing else in the
 * process handles Ctrl-C (a command that does, such as a batch finishing the rows it sent, keeps
 * its own way, and the call its time limit), Ctrl-C (SIGINT) or SIGTERM stops the wait with an
 * InterruptedError (exit 130) whose message ends with `note` ("nothing was sent" before a send),
 * after `onInterrupt` (which lets the connection go).
 * @throws what `work` throws; InterruptedError
 */
export async function patiently<T>(work: Promise<T>, where: string, note: string, onInterrupt: () => void): Promise<T> {
  let notice: NodeJS.Timeout | undefined;
  let onSignal: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onSignal = () => {
      onInterrupt();
      reject(new InterruptedError(t('team.interrupted', where, note)));
    };
  });
  const listen = process.listenerCount('SIGINT') === 0;
  if (listen) {
    process.once('SIGINT', onSignal!);
    process.once('SIGTERM', onSignal!);
  }
  stopped.catch(() => undefined);
  notice = setTimeout(() => logger.notice(t('team.waiting', where)), WAIT_NOTICE_MS);
  notice.unref();
  try {
    return await Promise.race([work, stopped]);
  } finally {
    clearTimeout(notice);
    notice = undefined;
    process.off('SIGINT', onSignal!);
    process.off('SIGTERM', onSignal!);
  }
}

/** `promise`, or a PgCallError `code` with `message` once `ms` have passed (then `onLate` runs). */
function bounded<T>(promise: Promise<T>, ms: number, code: string, message: string, onLate: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onLate();
      reject(new PgCallError(message, code));
    }, ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** What a password file line is matched against. */
type ConnInfo = { host?: string; port?: number; database?: string; user?: string };

/**
 * The password when the server asks for one and neither the URL nor the config gave it, in
 * libpq's order (docs/configuration.md "The team ledger's password"): `PGPASSWORD` (empty counts as
 * unset), then the password file (`PGPASSFILE`, else `~/.pgpass`; ignored with group or other
 * access, as libpq does).
 * @throws PgCallError `NO_PASSWORD` when neither has one for this host, port, database and user
 */
async function passwordFromEnvironment(p: ConnInfo): Promise<string> {
  const env = process.env.PGPASSWORD;
  if (env) return env;
  // Loaded here, when a password is asked for: most connections never need the file reader.
  const mod = (await import('pgpass')) as { default?: typeof import('pgpass').default } & typeof import('pgpass').default;
  const read = mod.default ?? mod;
  // The file reader skips the file whenever PGPASSWORD is present, even empty; libpq reads it then.
  const saved = process.env.PGPASSWORD;
  if (saved === '') delete process.env.PGPASSWORD;
  let fromFile: string | undefined;
  try {
    fromFile = await new Promise<string | undefined>((resolve) => read(p, resolve));
  } finally {
    if (saved === '') process.env.PGPASSWORD = saved;
  }
  if (fromFile !== undefined) return fromFile;
  throw new PgCallError('', 'NO_PASSWORD'); // worded by src/ledger/pg/failure.ts
}

/** The one connection of a team ledger. Calls run one at a time (the caller serializes them: src/ledger/pg/ledger.ts). */
export class PgConnection {
  private client: pg.Client | undefined;
  private lostError: Error | undefined;
  private closing = false;
  /** True once {@link ready} has settled (connected, or failed to). */
  private settled = false;
  /** The endpoints whose lock the open transaction holds already (a group records many rows of one endpoint). */
  private readonly lockedInTransaction = new Set<string>();
  /** Called once when the connection ends without paycli closing it (empty: the server closed it). */
  onLost: ((why: string) => void) | undefined;

  private constructor(private readonly queryTimeoutMs: number) {}

  /**
   * Starts connecting and reading the schema version, within `a.connectTimeoutMs`, without waiting:
   * {@link ready} says how it went; {@link close} before then lets the attempt go.
   */
  static start(a: ConnectArgs): PgConnection {
    const conn = new PgConnection(a.queryTimeoutMs);
    const seconds = Math.ceil(a.connectTimeoutMs / 1000);
    conn.ready = bounded(conn.connect(a), a.connectTimeoutMs, 'NO_ANSWER', t('team.noAnswerWithin', seconds), () => conn.destroy()).catch((err: unknown) => {
      conn.destroy();
      throw asCallError(err);
    });
    conn.ready.then(
      () => (conn.settled = true),
      () => (conn.settled = true), // said when awaited; an attempt nobody takes fails quietly
    );
    return conn;
  }

  /** The schema version the connection found (0: no paycli schema yet). @throws PgCallError (`NO_ANSWER` past the connect limit) */
  ready: Promise<number> = Promise.resolve(0);

  /** True once the connection ended without paycli closing it (no round trip). */
  get lost(): boolean {
    return this.lostError !== undefined && !this.closing;
  }

  private async connect(a: ConnectArgs): Promise<number> {
    const d = await loadDriver();
    const { parseIntoClientConfig } = await import('pg-connection-string');
    if (this.closing) throw new PgCallError(t('team.closed'), 'CONNECTION_LOST');
    // The URL's password first, then the config's, then PGPASSWORD and the password file, read only
    // when the server asks (the driver's own reading of them is deprecated and warns on stderr).
    const params = parseIntoClientConfig(a.url);
    const c: pg.Client = new d.Client({
      ...params,
      // The host, port, database and user the driver settled on (its defaults and PG* variables
      // included), which the password file is matched against, as the driver itself does.
      password: params.password || a.password || ((): Promise<string> => passwordFromEnvironment((c as unknown as { connectionParameters: ConnInfo }).connectionParameters)),
      connectionTimeoutMillis: a.connectTimeoutMs,
      keepAlive: true,
      application_name: a.applicationName,
    });
    this.client = c;
    c.on('error', (err: Error) => this.ended(err));
    c.on('end', () => this.ended(new Error(''))); // empty: the server closed it, worded by the ledger
    await c.connect();
    try {
      const r = await c.query(`SELECT value FROM paycli.meta WHERE key = 'schema_version'`);
      return r.rows[0] ? Number(r.rows[0].value) : 0;
    } catch (err) {
      // No schema (3F000) or no table (42P01): nothing of paycli's there yet.
      const code = (err as { code?: unknown }).code;
      if (code === '42P01' || code === '3F000') return 0;
      throw err;
    }
  }

  /** The connection ended without paycli closing it: said once. */
  private ended(err: Error): void {
    if (this.closing || this.lostError) return;
    this.lostError = err;
    this.onLost?.(err.message);
  }

  private live(): pg.Client {
    if (this.lostError) throw new PgCallError(this.lostError.message, 'CONNECTION_LOST');
    if (!this.client) throw new PgCallError(t('team.closed'), 'NOT_CONNECTED');
    return this.client;
  }

  /**
   * Runs one operation (`query`, `queries`, `begin`, `beginMany`, `endMany`, `register`, `insertMany`, `many`)
   * within the time limit of one call; past it, the connection is let go.
   * @throws PgCallError (a database error keeps its SQLSTATE; `NO_ANSWER` past the limit)
   */
  async call<T>(op: string, ...args: unknown[]): Promise<T> {
    const seconds = Math.ceil(this.queryTimeoutMs / 1000);
    try {
      return await bounded(this.run(op, args) as Promise<T>, this.queryTimeoutMs, 'NO_ANSWER', t('team.noAnswerWithin', seconds), () => this.destroy());
    } catch (err) {
      throw asCallError(err);
    }
  }

  private run(op: string, args: unknown[]): Promise<unknown> {
    switch (op) {
      case 'query':
        return this.query(args[0] as string, args[1] as unknown[] | undefined);
      case 'queries':
        return this.queries(args[0] as Statement[]);
      case 'begin':
        return this.begin(args[0] as BeginArgs);
      case 'beginMany':
        return this.beginMany(args[0] as BeginManyArgs);
      case 'endMany':
        return this.endMany(args[0] as unknown[][], args[1] as boolean);
      case 'register':
        return this.register(args[0] as unknown[]);
      case 'insertMany':
        return this.insertMany(args[0] as string, args[1] as unknown[][]);
      case 'many':
        return this.many(args[0] as Step[]);
      default:
        return Promise.reject(new Error(`no such operation: ${op}`));
    }
  }

  private async query(sql: string, params: unknown[] = []): Promise<Row[]> {
    // A transaction's end forgets the endpoint locks it held.
    if (/^(BEGIN|COMMIT|ROLLBACK)\b/.test(sql)) this.lockedInTransaction.clear();
    return (await this.live().query(sql, params)).rows;
  }

  /**
   * Several statements that only read, in one round trip: one simple query of the statements with
   * their values as literals ({@link inline}), run in order; the first error stops the rest.
   * @returns each statement's rows, in order
   */
  private async queries(list: readonly Statement[]): Promise<Row[][]> {
    const c = this.live();
    return rowsOf(await c.query(list.map(([sql, params]) => inline(c, sql, params)).join('; ')), list.length);
  }

  private async begin(a: BeginArgs): Promise<BeginAnswer> {
    const c = this.live();
    const values = [...a.values, a.fingerprint ?? null, a.windowOn, a.sinceMs, a.allowDuplicate];
    values[18] = null; // overrides: the blocking entry's, set by the statement
    if (!a.inTransaction) {
      // One round trip: BEGIN, the lock, check-and-record, COMMIT as the statements of one simple
      // query (values as literals), each statement with its own snapshot, so the check reads what
      // the lock's previous holder committed. A refusal inserts nothing, so the COMMIT records nothing.
      this.lockedInTransaction.clear();
      try {
        const results = (await c.query(`BEGIN; ${lockSql(c, a.endpoint)}; ${inline(c, PG_CHECK_AND_INSERT, values)}; COMMIT`)) as unknown as pg.QueryResult[];
        return beginAnswer(results[2]!.rows[0]!, a);
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    }
    // Inside a group: the lock first (once a transaction), in a statement of its own, so the check after it reads what the previous holder committed.
    await this.lockEndpoints(c, [a.endpoint]);
    return beginAnswer((await c.query({ name: 'paycli_check_and_insert', text: PG_CHECK_AND_INSERT, values })).rows[0]!, a);
  }

  /** Takes the endpoint locks the open transaction does not hold yet (in a fixed order: two paycli never wait on each other crosswise). */
  private async lockEndpoints(c: pg.Client, endpoints: readonly string[]): Promise<void> {
    const missing = [...new Set(endpoints)].filter((e) => !this.lockedInTransaction.has(e)).sort();
    if (!missing.length) return;
    await c.query(missing.map((e) => lockSql(c, e)).join('; '));
    for (const e of missing) this.lockedInTransaction.add(e);
  }

  /**
   * `begin` of many rows (a batch's group), with the same answers in the same order. The
   * endpoint locks first, then one statement checks and records every row
   * ({@link PG_CHECK_AND_INSERT_MANY}): its snapshot holds what the locks' previous holders
   * committed. Rows of the group that could refuse each other (the same fingerprint, or the same
   * order reference at the same endpoint) are checked one after the other instead, so that each
   * sees the ones before it.
   */
  private async beginMany(a: BeginManyArgs): Promise<BeginAnswer[]> {
    const c = this.live();
    if (!a.rows.length) return [];
    if (!a.inTransaction) {
      this.lockedInTransaction.clear();
      await c.query('BEGIN');
    }
    try {
      await this.lockEndpoints(
        c,
        a.rows.map((r) => r.endpoint),
      );
      let answers: BeginAnswer[];
      if (collide(a.rows)) {
        answers = [];
        for (const r of a.rows) answers.push(await this.begin({ ...r, inTransaction: true }));
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

  /**
   * Writes outcomes (the columns of {@link PG_END_MANY}). Outside a transaction, in one of its own
   * whose commit does not wait for the disk (`synchronous_commit` off): an outcome lost to a crash
   * of the database server leaves its entry unknown, which the rules settle later; every record
   * made before a send keeps waiting for the disk.
   */
  private async endMany(columns: unknown[][], inTransaction: boolean): Promise<void> {
    const c = this.live();
    if (inTransaction) {
      await c.query(PG_END_MANY, columns);
      return;
    }
    await unhurried(c, inline(c, PG_END_MANY, columns));
  }

  /** Registers a run: its session lock, then its row, in one statement (src/ledger/pg/schema.ts `PG_RUN_REGISTER`). */
  private async register(values: unknown[]): Promise<void> {
    const c = this.live();
    await unhurried(c, inline(c, PG_RUN_REGISTER, values));
  }

  /**
   * Several operations in order (what a ledger kept pending, then the call it waits on): the answers
   * in order; the first error stops the rest. A run's registration and the statements after it
   * (a payment's first look at the ledger) go in one round trip ({@link registerThen}).
   */
  private async many(steps: readonly Step[]): Promise<unknown[]> {
    const out: unknown[] = [];
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      if (s.op === 'many') throw new Error('no such operation: many inside many');
      const next = steps[i + 1];
      const reads: Statement[] | undefined =
        s.op !== 'register'
          ? undefined
          : next?.op === 'query'
            ? [[next.args[0] as string, (next.args[1] as unknown[] | undefined) ?? []]]
            : next?.op === 'queries'
              ? (next.args[0] as Statement[])
              : undefined;
      const after = reads && this.inlined(reads);
      if (after !== undefined) {
        const rows = await this.registerThen(s.args[0] as unknown[], after, reads!.length);
        out.push(undefined, next!.op === 'query' ? rows[0] : rows);
        i++;
        continue;
      }
      out.push(await this.run(s.op, s.args));
    }
    return out;
  }

  /** Statements with their parameters as literals ({@link inline}), or undefined when they cannot be (a transaction's own statement, a value of another type). */
  private inlined(list: readonly Statement[]): string | undefined {
    if (list.some(([sql]) => /^(BEGIN|COMMIT|ROLLBACK)\b/.test(sql))) return undefined;
    try {
      const c = this.live();
      return list.map(([sql, params]) => inline(c, sql, params)).join('; ');
    } catch {
      return undefined;
    }
  }

  /**
   * {@link register}, then `statements` (`count` of them, values as literals), in one round trip: a
   * simple query of several statements, run in order, the first error stopping the rest. The
   * registration's transaction commits before the statements run, as when they are sent one after the other.
   * @returns each statement's rows
   */
  private async registerThen(values: unknown[], statements: string, count: number): Promise<Row[][]> {
    const c = this.live();
    try {
      return rowsOf(await c.query(`BEGIN; SET LOCAL synchronous_commit TO off; ${inline(c, PG_RUN_REGISTER, values)}; COMMIT; ${statements}`), count);
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  /** Copies rows into `paycli.payments`, skipping uuids it holds (ledger push). @returns how many were added */
  private async insertMany(sql: string, rows: unknown[][]): Promise<number> {
    const c = this.live();
    let added = 0;
    for (const values of rows) added += (await c.query(sql, values)).rowCount ?? 0;
    return added;
  }

  /** Lets the connection go at once (its socket destroyed): after a call past its limit, or Ctrl-C. */
  destroy(): void {
    const c = this.client;
    if (!c) return;
    this.lostError ??= new PgCallError(t('team.closed'), 'CONNECTION_LOST');
    (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }

  /**
   * Closes the connection (the session ends, and its run's lock with it), or lets an attempt still
   * connecting go; never throws, never waits past the call limit.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (!this.settled) {
      this.destroy();
      await this.ready.catch(() => undefined);
      return;
    }
    const connected = await this.ready.then(
      () => true,
      () => false,
    );
    const c = this.client;
    if (!c) return;
    if (!connected || this.lostError) {
      this.destroy();
      return;
    }
    this.lostError = new PgCallError(t('team.closed'), 'CONNECTION_LOST');
    // The session ends with the Terminate message; a server that does not close its side soon after is not waited for.
    await bounded(c.end(), CLOSE_WAIT_MS, 'NO_ANSWER', '', () => this.destroy()).catch(() => this.destroy());
  }
}

/** The rows of the last `count` statements of a simple query (the driver answers one result, or an array of them for several statements). */
function rowsOf(answer: pg.QueryResult | pg.QueryResult[], count: number): Row[][] {
  const results = Array.isArray(answer) ? answer : [answer];
  return results.slice(results.length - count).map((r) => r.rows);
}

/** A driver's error as a {@link PgCallError} (its message and code kept). */
function asCallError(err: unknown): unknown {
  if (err instanceof PgCallError || !(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  return new PgCallError(err.message, typeof code === 'string' ? code : undefined);
}

/** What a row of {@link PG_CHECK_AND_INSERT} answers for `a`: its refusal, or the new entry. */
function beginAnswer(r: Row, a: Pick<BeginArgs, 'allowDuplicate'>): BeginAnswer {
  const earlier = (r.blocked as Row | null) ?? undefined;
  const taken = (r.taken as Row | null) ?? undefined;
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
