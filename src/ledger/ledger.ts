/**
 * The payment ledger (docs/ledger-and-safety.md "Payment ledger"): every cash-out and cash-in this machine sends is
 * recorded in `<data dir>/ledger.db` *before* it is sent, and completed with its outcome
 * afterwards. It is what stops a retried CI job from paying the same payout twice, and what
 * `paycli history` lists.
 *
 * Storage: SQLite through the driver seam of src/ledger/driver.ts (`node:sqlite`, or better-sqlite3 on
 * Node 20; docs/node-versions.md), in WAL mode with `synchronous = FULL` (a recorded
 * payment is on disk before the request leaves). The file is created 0600 in a 0700 folder.
 *
 * Concurrency: the duplicate check of a cash-out and the record of the new one are ONE
 * `BEGIN IMMEDIATE` transaction. SQLite's write lock is a kernel (fcntl) lock: it stays held by
 * its process while that process is paused (`kill -STOP`, a suspended VM) and is released by the
 * kernel when it dies, so no second identical cash-out can pass the check meanwhile, and nothing
 * is ever "taken over" from a live process. A paycli that waits for the lock gives up after
 * {@link BUSY_TIMEOUT_MS} with exit 2 `ledger_busy`, nothing sent.
 *
 * Fail closed: when the ledger cannot be opened, read or written (damaged or truncated, not a
 * database, read-only, disk full, a symbolic link, owned by another user), paycli sends nothing:
 * {@link LedgerUnavailableError} (exit 2, `journal_unavailable`) names the file.
 *
 * The first time a ledger is created in a data folder that holds a `journal.jsonl` (the format of
 * paycli before the ledger), its payments are imported into the new database before it is put in
 * place, so the import happens exactly once; the journal file is kept untouched.
 *
 * The API (used by cash-in, cash-out, history, order lookups and batches):
 * - {@link openLedger} / {@link Ledger.open}: open (creating it when asked); `close()`.
 * - {@link Ledger.blockingCashOut}: the earlier identical cash-out that blocks a new one (read only;
 *   lets paycli refuse before asking for confirmation).
 * - {@link Ledger.begin}: check for a duplicate and record the payment, in one `BEGIN IMMEDIATE`;
 *   returns the entry number.
 * - {@link Ledger.end}: record how a payment ended.
 * - {@link Ledger.group}: several begins and ends in one transaction (batch runs).
 * - {@link Ledger.get}, {@link Ledger.findByOrderId}, {@link Ledger.batchRows},
 *   {@link Ledger.listUnknown}: look entries up.
 * - {@link Ledger.resolve}: settle an entry whose outcome is unknown (`ok`, `not_sent`, `refused`),
 *   by hand (`paycli history resolve`) or from the gateway's answer to a lookup, with a note.
 * - {@link Ledger.query}: what `paycli history` shows, newest first, reading only those rows.
 * The API key is never written here; texts that came from a gateway or an error are redacted.
 */
import { randomFillSync, randomUUID } from 'node:crypto';
import { chmodSync, closeSync, constants, existsSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { ExitCode, PaycliError, UsageError, type ErrorDetails } from '../core/errors.js';
import { blocks, cashInFingerprint, cashOutFingerprint, checkClock, displayTarget, duplicateError, endpointIdentity, orderTakenError, type Outcome, type PaymentKind } from './rules.js';
import { currentRun, currentRunId, forgetRunLock, runState, type RunRecord } from './runs.js';
import type { InFlightFacts, OwnerState } from './settle-rule.js';
import { MAX_TIMEOUT_MS } from '../config/settings.js';
import { VERSION } from '../core/version.js';
import { logger } from '../core/logger.js';
import { sanitizeText } from '../core/sanitize.js';
import { dataDir } from '../core/paths.js';
import { redact } from '../core/secrets.js';
import { openConnection } from './connect.js';
import type { Connection, Statement } from './driver.js';

export { cashOutFingerprint, endpointIdentity, outcomeOfError, type Outcome, type PaymentKind } from './rules.js';

/** Name of the ledger inside {@link dataDir}. */
export const LEDGER_NAME = 'ledger.db';
/** Name of the journal of paycli before the ledger, imported once (docs/ledger-and-safety.md "Payment ledger"). */
export const JOURNAL_NAME = 'journal.jsonl';
/** How long a paycli waits for another one's write lock before giving up with `ledger_busy` (ms). */
export const BUSY_TIMEOUT_MS = 10_000;
/** Default duplicate window in minutes (the profile's `duplicate-window` overrides it). */
export const DEFAULT_WINDOW_MIN = 10;
/** `meta.format` of a paycli ledger; a database without it is not one. */
const FORMAT = 'paycli-ledger';
/** One entry of a batch as {@link Ledger.batchOutcomes} gives it: row, order reference, cents, outcome, transaction id, status. */
export type BatchOutcome = [row: number, orderId: string, value: number, outcome: Outcome | null, transactionId: number | string | null, status: string | null];

/**
 * `PRAGMA user_version` of the schema below; a newer one is refused (written by a newer paycli),
 * an older one is brought up to date when opened ({@link MIGRATIONS}).
 */
const SCHEMA_VERSION = 2;

/** The runs (src/ledger/runs.ts): one row per paycli process that recorded payments. */
const RUNS_TABLE = `CREATE TABLE runs (
  id TEXT PRIMARY KEY NOT NULL,        -- random UUID of the run
  pid INTEGER NOT NULL,
  proc_start INTEGER,                  -- the process's start time as the kernel counts it (Linux), to tell a reused pid
  host TEXT NOT NULL,
  boot_id TEXT,
  user TEXT,
  version TEXT,
  started_ms INTEGER NOT NULL,
  batch_id TEXT,                       -- a batch run: the file (batch id) and gateway (endpoint identity) it owns
  endpoint TEXT,
  ended_ms INTEGER,                    -- it ended and let the file go
  gone_ms INTEGER                      -- the first time another process found it gone
);
CREATE INDEX runs_by_batch ON runs (batch_id, endpoint) WHERE batch_id IS NOT NULL;`;

/**
 * One row per payment. `outcome` NULL means no outcome was recorded: paycli is still sending, or
 * stopped after recording it (the outcome is unknown). Times are compared as integer epoch
 * milliseconds (`time_ms`, `deadline_ms`); the ISO 8601 UTC text beside them is for people.
 * Amounts are integer cents. `runs` holds the paycli processes that recorded payments
 * (src/ledger/runs.ts): who owns an entry, and which run owns a batch file.
 */
const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
CREATE TABLE payments (
  id INTEGER PRIMARY KEY,              -- entry number (paycli history, history resolve)
  uuid TEXT NOT NULL UNIQUE,           -- global id: a time-first UUID v7 (uuidV7), or the journal's id for imported entries
  time TEXT NOT NULL,                  -- recorded, just before sending
  kind TEXT NOT NULL CHECK (kind IN ('cashout', 'cashin')),
  fingerprint TEXT NOT NULL,           -- sha256 of what makes two payments identical
  value INTEGER NOT NULL CHECK (typeof(value) = 'integer'),
  target TEXT NOT NULL,                -- endpoint URL as configured (no credentials), or sandbox
  endpoint TEXT NOT NULL,              -- its normalised identity
  sandbox INTEGER NOT NULL DEFAULT 0,
  profile TEXT NOT NULL,
  pix_key_type INTEGER,
  pix_key TEXT,
  recipient TEXT,
  payer TEXT,
  product TEXT,
  order_id TEXT,                       -- the orderId sent
  batch_id TEXT,                       -- NULL for a single payment
  batch_row INTEGER,
  allow_duplicate INTEGER NOT NULL DEFAULT 0,
  overrides INTEGER,                   -- the earlier identical entry --allow-duplicate overrode
  pid INTEGER,
  source TEXT,                         -- NULL, or 'journal.jsonl' for imported entries
  outcome TEXT CHECK (outcome IN ('ok', 'refused', 'unknown', 'not_sent')),
  end_time TEXT,
  transaction_id,
  status TEXT,
  http_status INTEGER,
  message TEXT,
  resolved_by TEXT CHECK (resolved_by IN ('hand', 'gateway')),
  resolved_time TEXT,
  note TEXT,
  time_ms INTEGER,                     -- recorded, epoch milliseconds (what is compared)
  deadline_ms INTEGER,                 -- the latest its request may have left, plus its timeout (epoch ms)
  run_id TEXT                          -- the run (table runs) that recorded and sends it
);
CREATE INDEX payments_by_fingerprint ON payments (fingerprint);
CREATE INDEX payments_by_time ON payments (time);
CREATE INDEX payments_by_time_ms ON payments (time_ms);
CREATE INDEX payments_by_order_id ON payments (order_id);
CREATE INDEX payments_by_batch ON payments (batch_id, batch_row) WHERE batch_id IS NOT NULL;
CREATE INDEX payments_unresolved ON payments (id) WHERE outcome IS NULL OR outcome = 'unknown';
INSERT INTO meta (key, value) VALUES ('format', '${FORMAT}');
${RUNS_TABLE}
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/**
 * The steps from each older schema to the next, run in one `BEGIN IMMEDIATE` when a ledger is
 * opened (index 0: from version 1 to 2). Version 2 adds the times as numbers, the deadlines and
 * the runs; entries of version 1 get `time_ms` from their ISO text (NULL where it cannot be read,
 * which then counts as recent: it blocks, never lets through) and no deadline (taken as their time
 * plus the longest timeout, src/ledger/ledger.ts `inFlight`).
 */
const MIGRATIONS: readonly string[] = [
  `ALTER TABLE payments ADD COLUMN time_ms INTEGER;
   ALTER TABLE payments ADD COLUMN deadline_ms INTEGER;
   ALTER TABLE payments ADD COLUMN run_id TEXT;
   UPDATE payments SET time_ms = CAST(round((julianday(time) - 2440587.5) * 86400000) AS INTEGER) WHERE time GLOB '[0-9][0-9][0-9][0-9]-*';
   CREATE INDEX payments_by_time_ms ON payments (time_ms);
   ${RUNS_TABLE}`,
];

/** What the caller knows about a payment before sending it. */
export interface BeginInfo {
  kind: PaymentKind;
  /** Amount in cents. */
  value: number;
  /** Full endpoint URL the request goes to (e.g. `https://gw.example/transaction/cashout`), or `sandbox`. */
  target: string;
  /** True for the built-in sandbox (no money moves). */
  sandbox: boolean;
  /** Config profile in use. */
  profile: string;
  /** Cash-out: destination key type (interface §2.3 number), key (normalised), recipient's name. */
  pixKeyType?: number;
  pixKey?: string;
  recipient?: string;
  /** Cash-in: payer's name and product. */
  payer?: string;
  product?: string;
  /** The `orderId` sent, if any. */
  orderId?: string;
  /** Batch id and row number (from 1) for a payment of a batch run. */
  batchId?: string;
  batchRow?: number;
  /** The request's timeout, in milliseconds (its deadline is when it may last leave, plus this). */
  timeoutMs: number;
  /**
   * How long after it is recorded the request may still be started, in milliseconds (default 0: at
   * once, as a single payment is). A batch records rows in groups ahead of sending them; a row not
   * started by then has its deadline moved on first ({@link Ledger.extendDeadlines}).
   */
  startWithinMs?: number;
}

/** Who settled an unknown outcome: a person (`history resolve`) or the gateway's lookup. */
export type ResolvedBy = 'hand' | 'gateway';

/** A payment as the ledger holds it. */
export interface LedgerEntry {
  /** Entry number (what `paycli history resolve` takes). */
  id: number;
  /** Global id (random UUID; the journal's id for imported entries). */
  uuid: string;
  /** ISO 8601 UTC time it was recorded, just before sending. */
  time: string;
  kind: PaymentKind;
  /** Amount in cents. */
  value: number;
  /** Endpoint URL as configured (no credentials, query or fragment), or `sandbox`. */
  target: string;
  /** Its normalised identity (src/ledger/rules.ts `endpointIdentity`). */
  endpoint: string;
  sandbox: boolean;
  profile: string;
  pixKeyType?: number;
  pixKey?: string;
  recipient?: string;
  payer?: string;
  product?: string;
  orderId?: string;
  batchId?: string;
  batchRow?: number;
  /** Sent with `--allow-duplicate` over an earlier identical entry ({@link overrides}). */
  allowDuplicate: boolean;
  overrides?: number;
  /** The outcome; `unknown` (with `completed: false`) while none is recorded. */
  outcome: Outcome;
  /** False when no outcome was recorded (paycli killed after recording it, or still sending). */
  completed: boolean;
  endTime?: string;
  /** The gateway's transaction id. */
  transactionId?: number | string;
  /** The gateway's status (cash-out status digit, interface §3). */
  status?: string;
  httpStatus?: number;
  /** Short, redacted error text of a failure. */
  message?: string;
  resolvedBy?: ResolvedBy;
  resolvedTime?: string;
  note?: string;
  /** sha256 hex (src/ledger/rules.ts); internal, not shown by history. */
  fingerprint: string;
  /** When it was recorded, epoch milliseconds (undefined for an old entry whose time cannot be read). */
  timeMs?: number;
  /** The latest its request may have left plus its timeout, epoch milliseconds (src/ledger/settle-rule.ts). */
  deadlineMs?: number;
  /** The run that recorded it (src/ledger/runs.ts). */
  runId?: string;
  /** Its process id. */
  pid?: number;
  /** `journal.jsonl` for an entry imported from the old journal. */
  source?: string;
}

/** Filters of {@link Ledger.query} (`paycli history`). */
export interface LedgerQuery {
  /** ISO time, inclusive. */
  since?: string;
  /** ISO time, exclusive. */
  until?: string;
  kind?: PaymentKind;
  /** `unknown` includes entries without a recorded outcome. */
  outcome?: Outcome;
  profile?: string;
  orderId?: string;
  batchId?: string;
  /** At most this many, newest first. */
  limit: number;
}

/** The ledger cannot be used (exit 2, `journal_unavailable`): nothing is sent. */
export class LedgerUnavailableError extends PaycliError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('journal_unavailable', ExitCode.USAGE, message, details);
  }
}

/** Another paycli held the ledger's write lock for longer than {@link BUSY_TIMEOUT_MS} (exit 2, `ledger_busy`). */
export class LedgerBusyError extends PaycliError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('ledger_busy', ExitCode.USAGE, message, details);
  }
}

/** Path of the ledger: `<data dir>/ledger.db` (`PAYCLI_DATA_DIR` moves it). */
export function ledgerPath(): string {
  return join(dataDir(), LEDGER_NAME);
}

/** Path of the old journal, imported once. */
export function journalPath(): string {
  return join(dataDir(), JOURNAL_NAME);
}

/**
 * Opens a connection for paycli (src/ledger/driver.ts): the file must exist, busy timeout {@link BUSY_TIMEOUT_MS}.
 * @throws SqliteError; Error (MODULE_NOT_FOUND) when better-sqlite3's addon is needed and missing
 */
const connect = (file: string): Connection => openConnection(file, { busyTimeoutMs: BUSY_TIMEOUT_MS, mustExist: true });

const clip = (s: string | undefined | null, max: number): string | null => (s === undefined || s === null ? null : s.length > max ? `${s.slice(0, max - 1)}…` : s);
const clean = (s: string | undefined, max: number): string | null => (s === undefined ? null : clip(sanitizeText(redact(s), true), max));
const myUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Why a SQLite error code makes the ledger unusable, in words. */
function sqliteReason(code: string, message: string): string {
  if (code.startsWith('SQLITE_CORRUPT')) return `it is damaged or truncated (${code}: ${message})`;
  if (code === 'SQLITE_NOTADB') return `it is not a database (${code})`;
  if (code === 'SQLITE_FULL') return `the disk is full (${code})`;
  if (code.startsWith('SQLITE_READONLY')) return `it cannot be written (${code}: ${message})`;
  if (code.startsWith('SQLITE_CANTOPEN')) return `it cannot be opened (${code})`;
  if (code.startsWith('SQLITE_IOERR')) return `an I/O error (${code}: ${message})`;
  return `${code}: ${message}`;
}

const UNUSABLE_HINT = (file: string) =>
  `paycli sends nothing it cannot record. Fix the file or its folder; if it is damaged, move ${file} aside (keep it: it records what was paid) only after checking recent payments at the gateway, since a new ledger knows nothing of them`;

/**
 * Checks a file of the ledger before SQLite opens it: a regular file (not a symbolic link),
 * owned by this user, writable by its owner; a mode looser than 0600 is tightened.
 * @returns its stats, or undefined when it does not exist
 * @throws LedgerUnavailableError
 */
function inspectFile(file: string, note: string): Stats | undefined {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LedgerUnavailableError(`the payment ledger ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})${note}`, { cause: err, hint: UNUSABLE_HINT(file) });
  }
  const fail = (why: string, hint = UNUSABLE_HINT(file)) => new LedgerUnavailableError(`the payment ledger ${file} ${why}${note}`, { hint });
  if (st.isSymbolicLink()) throw fail('is a symbolic link; paycli does not follow links for its ledger', `replace the link with the file itself (or point PAYCLI_DATA_DIR at the folder that holds it)`);
  if (!st.isFile()) throw fail('is not a regular file');
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) throw fail(`belongs to another user (uid ${st.uid}); paycli uses only a ledger of its own user (uid ${uid})`, `run paycli as the user who owns it, or give it to this user (chown)`);
  if ((st.mode & 0o200) === 0) throw fail('is read-only', `make it writable by its owner (chmod 600 ${file})`);
  if ((st.mode & 0o077) !== 0) {
    try {
      chmodSync(file, 0o600);
    } catch {
      /* ours, so this works; if not, SQLite still opens it */
    }
  }
  return st;
}

/**
 * The data folder, created 0700 (tightened if looser), owned by this user and writable.
 * @throws LedgerUnavailableError
 */
function ensureDataDir(create: boolean, note: string): string | undefined {
  const dir = dataDir();
  const fail = (why: string, err?: unknown) =>
    new LedgerUnavailableError(`the payment ledger ${join(dir, LEDGER_NAME)} cannot be used: its folder ${dir} ${why}${note}`, { cause: err, hint: 'make the folder writable by this user, or point PAYCLI_DATA_DIR at one that is' });
  let st: Stats;
  try {
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    st = statSync(dir);
  } catch (err) {
    if (!create && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fail(`cannot be created or read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, err);
  }
  if (!st.isDirectory()) throw fail('is not a folder');
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) throw fail(`belongs to another user (uid ${st.uid})`);
  if ((st.mode & 0o200) === 0) throw fail('is read-only');
  if ((st.mode & 0o077) !== 0) {
    try {
      chmodSync(dir, 0o700);
    } catch {
      /* the files themselves are still 0600 */
    }
  }
  return dir;
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    /* not supported everywhere; the link itself is done */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

type Row = Record<string, unknown>;
const opt = <T>(v: unknown): T | undefined => (v === null || v === undefined ? undefined : (v as T));

/** A row of `runs` as a {@link RunRecord} (with the time it was first found gone, if it was). */
function toRun(r: Row): RunRecord & { goneMs?: number; batchId?: string } {
  return {
    id: r.id as string,
    pid: r.pid as number,
    procStart: opt<number>(r.proc_start) ?? null,
    host: r.host as string,
    bootId: opt<string>(r.boot_id) ?? null,
    startedMs: r.started_ms as number,
    user: opt<string>(r.user) ?? 'unknown',
    version: opt<string>(r.version) ?? '?',
    ...(r.gone_ms !== null && r.gone_ms !== undefined ? { goneMs: r.gone_ms as number } : {}),
    ...(r.batch_id !== null && r.batch_id !== undefined ? { batchId: r.batch_id as string } : {}),
  };
}

function toEntry(r: Row): LedgerEntry {
  const outcome = opt<Outcome>(r.outcome);
  const e: LedgerEntry = {
    id: r.id as number,
    uuid: r.uuid as string,
    time: r.time as string,
    kind: r.kind as PaymentKind,
    value: r.value as number,
    target: r.target as string,
    endpoint: r.endpoint as string,
    sandbox: r.sandbox === 1,
    profile: r.profile as string,
    allowDuplicate: r.allow_duplicate === 1,
    outcome: outcome ?? 'unknown',
    completed: outcome !== undefined,
    fingerprint: r.fingerprint as string,
  };
  const more: [keyof LedgerEntry, unknown][] = [
    ['pixKeyType', r.pix_key_type],
    ['pixKey', r.pix_key],
    ['recipient', r.recipient],
    ['payer', r.payer],
    ['product', r.product],
    ['orderId', r.order_id],
    ['batchId', r.batch_id],
    ['batchRow', r.batch_row],
    ['overrides', r.overrides],
    ['endTime', r.end_time],
    ['transactionId', r.transaction_id],
    ['status', r.status],
    ['httpStatus', r.http_status],
    ['message', r.message],
    ['resolvedBy', r.resolved_by],
    ['resolvedTime', r.resolved_time],
    ['note', r.note],
    ['source', r.source],
    ['timeMs', r.time_ms],
    ['deadlineMs', r.deadline_ms],
    ['runId', r.run_id],
    ['pid', r.pid],
  ];
  for (const [k, v] of more) if (v !== null && v !== undefined) (e as unknown as Record<string, unknown>)[k] = v;
  return e;
}

/** Columns of an insert, as named parameters. */
interface InsertRow {
  uuid: string;
  time: string;
  kind: PaymentKind;
  fingerprint: string;
  value: number;
  target: string;
  endpoint: string;
  sandbox: number;
  profile: string;
  pix_key_type: number | null;
  pix_key: string | null;
  recipient: string | null;
  payer: string | null;
  product: string | null;
  order_id: string | null;
  batch_id: string | null;
  batch_row: number | null;
  allow_duplicate: number;
  overrides: number | null;
  pid: number | null;
  source: string | null;
  time_ms: number | null;
  deadline_ms: number | null;
  run_id: string | null;
}

/** The bytes of the UUID being made (one buffer for all: a batch makes one per row). */
const UUID_BYTES = Buffer.alloc(16);

/**
 * A UUID version 7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, then 74 random bits. An
 * entry's `uuid` is unique like a version 4 one, but entries recorded one after another get
 * neighbouring keys, so the `uuid` index grows at its end instead of at random pages: a batch of
 * thousands of rows writes a fraction of the pages to the write-ahead log (docs/speed.md).
 * @param now milliseconds since the Unix epoch (tests pass their own)
 */
export function uuidV7(now = Date.now()): string {
  const b = randomFillSync(UUID_BYTES);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70; // version 7
  b[8] = (b[8]! & 0x3f) | 0x80; // variant 10
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const INSERT = `INSERT INTO payments (uuid, time, kind, fingerprint, value, target, endpoint, sandbox, profile, pix_key_type, pix_key, recipient, payer, product, order_id, batch_id, batch_row, allow_duplicate, overrides, pid, source, time_ms, deadline_ms, run_id)
  VALUES (@uuid, @time, @kind, @fingerprint, @value, @target, @endpoint, @sandbox, @profile, @pix_key_type, @pix_key, @recipient, @payer, @product, @order_id, @batch_id, @batch_row, @allow_duplicate, @overrides, @pid, @source, @time_ms, @deadline_ms, @run_id)`;

/**
 * The SQL form of the rule of src/ledger/rules.ts `blocks` (unknown: always; ok: within the
 * window, compared as epoch milliseconds; an ok entry whose time cannot be read counts as recent).
 */
const BLOCKING = `SELECT * FROM payments WHERE fingerprint = @fingerprint AND kind = 'cashout'
  AND (outcome IS NULL OR outcome = 'unknown' OR (outcome = 'ok' AND @windowOn = 1 AND (time_ms IS NULL OR time_ms >= @since)))
  ORDER BY id DESC LIMIT 1`;

/** The latest entry with an order reference at a gateway that is still open (no outcome, or unknown) or created (`ok`). */
const ORDER_TAKEN = `SELECT * FROM payments WHERE order_id = @order_id AND endpoint = @endpoint AND (outcome IS NULL OR outcome IN ('unknown', 'ok')) ORDER BY id DESC LIMIT 1`;

/** What {@link Ledger.end} and {@link Ledger.resolve} may record besides the outcome. */
export interface EndDetails {
  transactionId?: number | string;
  status?: string;
  httpStatus?: number;
  /** Error text; redacted and shortened here too. */
  message?: string;
}

/** An open ledger. Every method throws {@link LedgerUnavailableError} or {@link LedgerBusyError} when SQLite fails. */
export class Ledger {
  /** Path of the database file. */
  readonly file: string;
  private readonly db: Connection;
  private readonly note: string;
  private readonly statements = new Map<string, Statement>();
  /** The run id this connection has registered in `runs` (once per process and ledger). */
  private registered: string | undefined;

  private constructor(file: string, db: Connection, note: string) {
    this.file = file;
    this.db = db;
    this.note = note;
  }

  /**
   * Opens the ledger of the data folder, creating it (and importing an old `journal.jsonl`)
   * when it does not exist and `create` is true.
   * @param opts.create create a missing ledger (default true); false returns undefined instead,
   *   unless a `journal.jsonl` waits to be imported
   * @param opts.beforeSend the caller is about to send a payment: errors say "nothing was sent"
   * @throws LedgerUnavailableError, LedgerBusyError
   */
  static open(opts: { create?: boolean; beforeSend?: boolean } = {}): Ledger | undefined {
    const create = opts.create ?? true;
    const note = opts.beforeSend ? '; nothing was sent' : '';
    const dir = ensureDataDir(create || existsSync(join(dataDir(), JOURNAL_NAME)), note);
    if (!dir) return undefined;
    const file = join(dir, LEDGER_NAME);
    let st = inspectFile(file, note);
    if (!st) {
      if (!create && !existsSync(join(dir, JOURNAL_NAME))) return undefined;
      createLedger(dir, file, note);
      st = inspectFile(file, note);
      if (!st) throw new LedgerUnavailableError(`the payment ledger ${file} vanished while it was being created${note}`);
    }
    if (st.size === 0) throw new LedgerUnavailableError(`the payment ledger ${file} is empty: it was truncated, or is not a paycli ledger${note}`, { hint: UNUSABLE_HINT(file) });
    inspectFile(`${file}-wal`, note);
    inspectFile(`${file}-shm`, note);
    let db: Connection | undefined;
    try {
      db = connect(file);
      db.pragma('cell_size_check = ON');
      db.pragma('trusted_schema = OFF');
      if (db.pragma('journal_mode') !== 'wal') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('journal_size_limit = 4194304');
      // SQLite's own default page cache (2 MiB), also with better-sqlite3 (whose default is 16 MiB): every query of
      // the ledger goes through an index, and a batch of 100,000 rows would otherwise fill 16 MiB of
      // memory with pages it does not read again (docs/speed.md, batch memory).
      db.pragma('cache_size = -2000');
      const format = db.prepare(`SELECT value FROM meta WHERE key = 'format'`).value();
      if (format !== FORMAT) throw new LedgerUnavailableError(`the payment ledger ${file} is not a paycli ledger${note}`, { hint: UNUSABLE_HINT(file) });
      const version = db.pragma('user_version') as number;
      if (version > SCHEMA_VERSION) throw new LedgerUnavailableError(`the payment ledger ${file} was written by a newer paycli (schema ${version}); update paycli${note}`);
      if (version < SCHEMA_VERSION) migrate(db);
      return new Ledger(file, db, note);
    } catch (err) {
      try {
        db?.close();
      } catch {
        /* already failing */
      }
      throw ledgerFailure(err, file, note);
    }
  }

  /** Closes the connection (the process exiting does the same). */
  close(): void {
    this.db.close();
    if (shared === this) shared = undefined;
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Runs `fn`, turning SQLite's errors into paycli's. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw ledgerFailure(err, this.file, this.note);
    }
  }

  /**
   * The earlier identical cash-out that blocks a new one (src/ledger/rules.ts `blocks`), without
   * taking the write lock: lets paycli refuse before asking for confirmation. {@link begin}
   * checks again inside its transaction.
   * @param fingerprint src/ledger/rules.ts `cashOutFingerprint`
   * @param windowMin the profile's `duplicate-window` (0: only unknown outcomes block)
   */
  blockingCashOut(fingerprint: string, windowMin: number, now = Date.now()): LedgerEntry | undefined {
    return this.guard(() => {
      const row = this.stmt(BLOCKING).get({ fingerprint, windowOn: windowMin > 0 ? 1 : 0, since: now - Math.max(0, windowMin) * 60_000 }) as Row | undefined;
      const e = row ? toEntry(row) : undefined;
      return e && blocks(e, windowMin, now) ? e : undefined;
    });
  }

  /**
   * Refuses a cash-out that an earlier identical one blocks ({@link blockingCashOut}), before
   * anything is asked or sent.
   * @param target full endpoint URL, or `sandbox`
   * @throws UsageError `duplicate_cashout` (exit 2)
   */
  checkCashOut(target: string, body: { value: number; pixKeyType: number; pixKey: string }, windowMin: number): void {
    const now = Date.now();
    const earlier = this.blockingCashOut(cashOutFingerprint(target, body), windowMin, now);
    if (earlier) throw duplicateError(earlier, windowMin, now);
  }

  /**
   * Records a payment before it is sent. For a cash-out, in the same `BEGIN IMMEDIATE`
   * transaction, first refuses it when an earlier identical one blocks it ({@link blockingCashOut});
   * with `allowDuplicate` it is recorded anyway, with the earlier entry it overrides.
   * Cash-ins are recorded, never refused.
   * @returns the new entry's number and the earlier identical cash-out, if any
   * @throws UsageError `duplicate_cashout` (exit 2); LedgerBusyError after {@link BUSY_TIMEOUT_MS};
   *   LedgerUnavailableError
   */
  begin(info: BeginInfo, opts: { windowMin?: number; allowDuplicate?: boolean } = {}): { id: number; uuid: string; earlier?: LedgerEntry } {
    const windowMin = opts.windowMin ?? DEFAULT_WINDOW_MIN;
    if (info.kind === 'cashout' && (info.pixKeyType === undefined || info.pixKey === undefined)) throw new TypeError('a cash-out needs pixKeyType and pixKey');
    const fingerprint = info.kind === 'cashout' ? cashOutFingerprint(info.target, { value: info.value, pixKeyType: info.pixKeyType!, pixKey: info.pixKey! }) : cashInFingerprint(info.target, { value: info.value, payer: info.payer });
    const row: InsertRow = {
      uuid: '',
      time: '',
      kind: info.kind,
      fingerprint,
      value: info.value,
      target: displayTarget(info.target),
      endpoint: endpointIdentity(info.target),
      sandbox: info.sandbox ? 1 : 0,
      profile: clip(info.profile, 100)!,
      pix_key_type: info.pixKeyType ?? null,
      pix_key: clip(info.pixKey, 200),
      recipient: clip(info.recipient, 200),
      payer: clip(info.payer, 200),
      product: clip(info.product, 200),
      order_id: clip(info.orderId, 200),
      batch_id: clip(info.batchId, 200),
      batch_row: info.batchRow ?? null,
      allow_duplicate: opts.allowDuplicate ? 1 : 0,
      overrides: null,
      pid: process.pid,
      source: null,
      time_ms: null,
      deadline_ms: null,
      run_id: null,
    };
    const record = () => {
      const now = Date.now();
      checkClock(now, this.note);
      const earlier = info.kind === 'cashout' ? this.blockingCashOut(fingerprint, windowMin, now) : undefined;
      if (earlier && !opts.allowDuplicate) throw duplicateError(earlier, windowMin, now);
      // One order reference, one payment at a gateway: a second one with the same reference waits
      // for the first to be settled (docs/order-references.md).
      if (row.order_id !== null) {
        const taken = this.stmt(ORDER_TAKEN).get({ order_id: row.order_id, endpoint: row.endpoint }) as Row | undefined;
        if (taken) throw orderTakenError(toEntry(taken), this.note);
      }
      row.run_id = this.registerRun(now).id;
      row.uuid = uuidV7(now);
      row.time = new Date(now).toISOString();
      row.time_ms = now;
      row.deadline_ms = now + Math.max(0, info.startWithinMs ?? 0) + info.timeoutMs;
      row.overrides = earlier?.id ?? null;
      const id = Number(this.stmt(INSERT).run(row).lastInsertRowid);
      return { id, uuid: row.uuid, ...(earlier ? { earlier } : {}) };
    };
    // Inside a {@link group} the write lock is already held: the check and the insert run in its
    // transaction directly (a refusal writes nothing, so no savepoint is needed).
    return this.guard(() => (this.db.inTransaction ? record() : this.db.immediate(record)));
  }

  /**
   * This process's run, registered in `runs` on first use (inside the caller's transaction) with
   * its kernel lock taken (src/ledger/runs.ts).
   */
  private registerRun(now: number): RunRecord {
    const run = currentRun(dirname(this.file), VERSION, now);
    if (this.registered !== run.id) {
      this.stmt(`INSERT OR IGNORE INTO runs (id, pid, proc_start, host, boot_id, user, version, started_ms) VALUES (@id, @pid, @proc_start, @host, @boot_id, @user, @version, @started_ms)`).run({
        id: run.id,
        pid: run.pid,
        proc_start: run.procStart,
        host: clip(run.host, 200),
        boot_id: run.bootId,
        user: clip(run.user, 100),
        version: run.version,
        started_ms: run.startedMs,
      });
      this.registered = run.id;
    }
    return run;
  }

  /**
   * Moves the deadline of entries of this run that have no outcome yet to `deadlineMs` (a batch
   * about to start rows later than it planned when it recorded them: their requests may leave
   * later, so a lookup must wait longer before "not found" counts).
   */
  extendDeadlines(ids: readonly number[], deadlineMs: number): void {
    if (!ids.length) return;
    this.guard(() =>
      this.db.immediate(() => {
        const st = this.stmt('UPDATE payments SET deadline_ms = max(coalesce(deadline_ms, 0), @deadline) WHERE id = @id AND outcome IS NULL');
        for (const id of ids) st.run({ id, deadline: deadlineMs });
      }),
    );
  }

  /**
   * What the in-flight rule (src/ledger/settle-rule.ts) needs of an entry: its deadline and the
   * state of the run that recorded it. An entry of a paycli before runs were recorded has no
   * deadline (its time plus the longest timeout is taken) and is judged by its process id alone.
   * A run found gone is marked so, with the time it was first found gone.
   */
  inFlight(e: LedgerEntry): InFlightFacts & { run?: RunRecord } {
    const deadlineMs = e.deadlineMs ?? (e.timeMs ?? Date.now()) + MAX_TIMEOUT_MS;
    if (!e.runId) {
      if (e.pid === undefined || e.pid === process.pid) return { deadlineMs, owner: e.pid === process.pid ? 'alive' : 'gone' };
      try {
        process.kill(e.pid, 0);
        return { deadlineMs, owner: 'alive' };
      } catch (err) {
        return { deadlineMs, owner: (err as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'gone' };
      }
    }
    const run = this.run(e.runId);
    if (!run) return { deadlineMs, owner: 'unknown' };
    return { deadlineMs, owner: this.stateOf(run), run };
  }

  /** A run by id, as recorded. */
  run(id: string): RunRecord | undefined {
    return this.guard(() => {
      const r = this.stmt('SELECT * FROM runs WHERE id = ?').get(id) as Row | undefined;
      return r ? toRun(r) : undefined;
    });
  }

  /** Whether a run is alive (src/ledger/runs.ts `runState`); one found gone is recorded so, and its lock file removed. */
  private stateOf(run: RunRecord & { goneMs?: number }): OwnerState {
    if (run.goneMs !== undefined) return 'gone';
    const state = runState(run, dirname(this.file));
    if (state === 'gone') {
      this.guard(() => void this.stmt('UPDATE runs SET gone_ms = coalesce(gone_ms, ?) WHERE id = ?').run(Date.now(), run.id));
      forgetRunLock(dirname(this.file), run.id);
    }
    return state;
  }

  /**
   * Makes this process the one run of a batch file at a gateway (docs/batch-runs.md, "One run at a
   * time"): in one `BEGIN IMMEDIATE`, the other runs that claimed the same file and gateway are
   * checked; one that is alive (running or stopped) keeps it.
   * @returns undefined when this run now owns the file; the live run that owns it otherwise
   */
  claimBatch(batchId: string, endpoint: string): RunRecord | undefined {
    return this.guard(() =>
      this.db.immediate(() => {
          const now = Date.now();
          const me = this.registerRun(now);
          const others = (this.stmt(`SELECT * FROM runs WHERE batch_id = ? AND endpoint = ? AND id <> ? AND ended_ms IS NULL AND gone_ms IS NULL`).all(batchId, endpoint, me.id) as Row[]).map(toRun);
          for (const other of others) {
            const state = this.stateOf(other);
            if (state !== 'gone') return other;
          }
          this.stmt('UPDATE runs SET batch_id = ?, endpoint = ? WHERE id = ?').run(batchId, endpoint, me.id);
          return undefined;
      }),
    );
  }

  /** Lets the batch file this run owns go (at the end of a batch run). */
  releaseBatch(): void {
    const id = currentRunId();
    if (id === undefined) return;
    this.guard(() => void this.stmt('UPDATE runs SET ended_ms = ? WHERE id = ? AND batch_id IS NOT NULL').run(Date.now(), id));
  }

  /**
   * Records how a payment ended (the latest call wins). `message` is redacted and shortened.
   * @throws LedgerUnavailableError, LedgerBusyError
   */
  end(id: number, outcome: Outcome, extra: EndDetails = {}): void {
    this.guard(() =>
      this.stmt(`UPDATE payments SET outcome = @outcome, end_time = @end, transaction_id = coalesce(@transaction_id, transaction_id), status = coalesce(@status, status), http_status = @http_status, message = @message WHERE id = @id`).run({
        id,
        outcome,
        end: new Date().toISOString(),
        transaction_id: extra.transactionId ?? null,
        status: clean(extra.status, 20),
        http_status: extra.httpStatus ?? null,
        message: clean(extra.message, 500),
      }),
    );
  }

  /**
   * Runs `fn` in one `BEGIN IMMEDIATE` transaction: the {@link begin}s and {@link end}s inside it
   * (each then a savepoint) reach the disk together, with one sync (a batch records its rows in
   * groups). Keep `fn` short and synchronous: other paycli processes wait for it.
   */
  group<T>(fn: () => T): T {
    return this.guard(() => this.db.immediate(fn));
  }

  /**
   * The order reference of the latest identical payment (same fingerprint) recorded since
   * `sinceMs` that the gateway was found not to have (settled `not_sent` by a lookup), and that no
   * later entry has used: a payment tried again is sent under it, so the gateway sees one order.
   */
  reusableOrderId(fingerprint: string, sinceMs: number): string | undefined {
    return this.guard(
      () =>
        this.stmt(
          `SELECT order_id FROM payments AS p WHERE fingerprint = ? AND outcome = 'not_sent' AND resolved_by = 'gateway' AND order_id IS NOT NULL AND time_ms >= ?
             AND NOT EXISTS (SELECT 1 FROM payments AS q WHERE q.order_id = p.order_id AND q.id > p.id) ORDER BY id DESC LIMIT 1`,
        ).value(fingerprint, sinceMs) as string | undefined,
    );
  }

  /** One entry by number, or undefined. */
  get(id: number): LedgerEntry | undefined {
    return this.guard(() => {
      const row = this.stmt('SELECT * FROM payments WHERE id = ?').get(id) as Row | undefined;
      return row ? toEntry(row) : undefined;
    });
  }

  /** The entries sent with this `orderId`, newest first (index `payments_by_order_id`). */
  findByOrderId(orderId: string): LedgerEntry[] {
    return this.guard(() => (this.stmt('SELECT * FROM payments WHERE order_id = ? ORDER BY id DESC').all(orderId) as Row[]).map(toEntry));
  }

  /**
   * The entries of a batch sent to one endpoint, as plain tuples (no entries built: a re-run of a
   * finished file reads only this): `[row number, order reference, amount in cents, outcome or
   * null while none is recorded, transaction id or null, status or null]`, by row number and,
   * within a row, oldest first (so a row's last tuple is its latest entry).
   * @param endpoint only entries sent to this gateway (src/ledger/rules.ts `endpointIdentity`)
   */
  batchOutcomes(batchId: string, endpoint: string): BatchOutcome[] {
    return this.guard(() => this.stmt('SELECT batch_row, order_id, value, outcome, transaction_id, status FROM payments WHERE batch_id = ? AND endpoint = ? ORDER BY batch_row, id').allArrays(batchId, endpoint) as BatchOutcome[]);
  }

  /** The entries of a batch, by row number then entry number (a row sent twice appears twice). */
  batchRows(batchId: string): LedgerEntry[] {
    return this.guard(() => (this.stmt('SELECT * FROM payments WHERE batch_id = ? ORDER BY batch_row, id').all(batchId) as Row[]).map(toEntry));
  }

  /**
   * Entries whose outcome is unknown (or not recorded), oldest first.
   * @param opts.since only those recorded at or after this ISO time
   */
  listUnknown(opts: { since?: string; kind?: PaymentKind } = {}): LedgerEntry[] {
    return this.guard(() =>
      (
        this.stmt(`SELECT * FROM payments WHERE (outcome IS NULL OR outcome = 'unknown') AND (@since IS NULL OR time_ms IS NULL OR time_ms >= @since) AND (@kind IS NULL OR kind = @kind) ORDER BY id`).all({
          since: opts.since === undefined ? null : Date.parse(opts.since),
          kind: opts.kind ?? null,
        }) as Row[]
      ).map(toEntry),
    );
  }

  /**
   * Settles an entry whose outcome is unknown: `ok` (it was paid: from now on it blocks an identical
   * cash-out within the window, counted from when it was sent), `not_sent` or `refused` (it no
   * longer blocks). Recorded with who settled it, when, and the note.
   * @throws UsageError (exit 2) when there is no such entry, or its outcome is already known
   */
  resolve(id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: ResolvedBy; note?: string } & EndDetails): LedgerEntry {
    return this.guard(() =>
      this.db.immediate(() => {
          const before = this.get(id);
          if (!before) throw new UsageError(`there is no ledger entry ${id} (see \`paycli history\`)`, { field: 'entry' });
          if (before.completed && before.outcome !== 'unknown') {
            throw new UsageError(`ledger entry ${id} already has the outcome ${before.outcome}; nothing was changed`, { field: 'entry' });
          }
          const now = new Date().toISOString();
          this.stmt(
            `UPDATE payments SET outcome = @outcome, end_time = coalesce(end_time, @now), resolved_by = @by, resolved_time = @now, note = @note,
               transaction_id = coalesce(@transaction_id, transaction_id), status = coalesce(@status, status), message = coalesce(@message, message) WHERE id = @id`,
          ).run({ id, outcome, now, by: opts.by, note: clean(opts.note, 500), transaction_id: opts.transactionId ?? null, status: clean(opts.status, 20), message: clean(opts.message, 500) });
          return this.get(id)!;
        }),
    );
  }

  /** What `paycli history` shows: newest first (by entry number), at most `limit`, reading only those rows. */
  query(q: LedgerQuery): LedgerEntry[] {
    return [...this.iterate(q)];
  }

  /**
   * {@link query} one entry at a time (for exports of the whole ledger: memory stays flat). The
   * connection runs nothing else until the iteration ends.
   */
  *iterate(q: LedgerQuery): Generator<LedgerEntry> {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: q.limit };
    const add = (sql: string, name: string, value: unknown) => {
      if (value === undefined) return;
      where.push(sql);
      params[name] = value;
    };
    add('time_ms >= @since', 'since', q.since === undefined ? undefined : Date.parse(q.since));
    add('time_ms < @until', 'until', q.until === undefined ? undefined : Date.parse(q.until));
    add('kind = @kind', 'kind', q.kind);
    if (q.outcome === 'unknown') where.push(`(outcome IS NULL OR outcome = 'unknown')`);
    else add('outcome = @outcome', 'outcome', q.outcome);
    add('profile = @profile', 'profile', q.profile);
    add('order_id = @order_id', 'order_id', q.orderId);
    add('batch_id = @batch_id', 'batch_id', q.batchId);
    const sql = `SELECT * FROM payments${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
    const rows = this.guard(() => this.stmt(sql).iterate(params));
    for (;;) {
      const next = this.guard(() => rows.next());
      if (next.done) return;
      yield toEntry(next.value);
    }
  }

  /** Facts about the ledger itself, for `history --json` and support: entries imported, and when. */
  meta(key: string): string | undefined {
    return this.guard(() => this.stmt('SELECT value FROM meta WHERE key = ?').value(key) as string | undefined);
  }

  /** Records a fact (`key` → `value` text), replacing an earlier one: what a batch run learnt of its file. */
  setMeta(key: string, value: string): void {
    this.guard(() => void this.stmt('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value));
  }
}

/**
 * Brings an older ledger up to {@link SCHEMA_VERSION}, in one `BEGIN IMMEDIATE` (the version is read
 * again inside it: two paycli opening an old ledger at once migrate it once).
 */
function migrate(db: Connection): void {
  db.immediate(() => {
    const from = db.pragma('user_version') as number;
    for (let v = Math.max(1, from); v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v - 1]!);
    if (from < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
}

/** The SQLite error (or file error) `err` as a paycli error naming `file`. */
function ledgerFailure(err: unknown, file: string, note: string): unknown {
  if (err instanceof PaycliError) return err;
  const code = typeof (err as { code?: unknown })?.code === 'string' ? ((err as { code: string }).code as string) : undefined;
  const message = err instanceof Error ? err.message : String(err);
  if (code?.startsWith('SQLITE_BUSY')) {
    return new LedgerBusyError(`the payment ledger ${file} is busy: another paycli has held its lock for more than ${BUSY_TIMEOUT_MS / 1000} s${note}`, {
      cause: err,
      hint: 'run it again once the other paycli has finished; one that is stopped (Ctrl-Z, kill -STOP) keeps the lock until it is resumed (fg, kill -CONT) or ends',
    });
  }
  if (code?.startsWith('SQLITE_') || code?.startsWith('E')) {
    return new LedgerUnavailableError(`the payment ledger ${file} cannot be used: ${code.startsWith('SQLITE_') ? sqliteReason(code, message) : code}${note}`, { cause: err, hint: UNUSABLE_HINT(file) });
  }
  return err;
}

/**
 * Creates the ledger: a new database under a temporary name (0600), schema, the old journal's
 * payments, then hard-linked into place, so that the ledger's path never holds a half-made
 * database and the journal is imported exactly once (when two paycli race, one link wins and the
 * other's database is dropped).
 */
function createLedger(dir: string, file: string, note: string): void {
  const tmp = join(dir, `.${LEDGER_NAME}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  let imported: ImportResult | undefined;
  try {
    closeSync(openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600));
    const db = connect(tmp);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.immediate(() => {
        db.exec(SCHEMA);
        imported = importJournal(db, join(dir, JOURNAL_NAME), note);
        if (imported) db.prepare(`INSERT INTO meta (key, value) VALUES ('imported', ?)`).run(JSON.stringify({ from: JOURNAL_NAME, time: new Date().toISOString(), ...imported }));
      });
    } finally {
      db.close();
    }
    try {
      linkSync(tmp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') imported = undefined; // another paycli made it first: use theirs
      else if ((code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') && !existsSync(file)) renameSync(tmp, file); // no hard links here
      else throw err;
    }
    fsyncDir(dir);
  } catch (err) {
    throw ledgerFailure(err, file, note);
  } finally {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  }
  if (imported) {
    logger.notice(`imported ${imported.entries} payment(s) from ${join(dir, JOURNAL_NAME)} into the ledger ${file} (the journal file is kept as it was)`);
    if (imported.skipped) logger.warn(`${imported.skipped} line(s) of ${join(dir, JOURNAL_NAME)} are not journal events and were not imported`);
  }
}

/** What an import of `journal.jsonl` took in. */
interface ImportResult {
  entries: number;
  skipped: number;
}

/**
 * Parses one journal line. A line torn by a short write (disk full) and glued to the next
 * event is not lost whole: the events that start inside it are recovered.
 * @returns the events found, and whether part of the line was unreadable
 */
function parseJournalLine(line: string): { events: Row[]; torn: boolean } {
  try {
    const ev = JSON.parse(line) as unknown;
    return ev && typeof ev === 'object' ? { events: [ev as Row], torn: false } : { events: [], torn: true };
  } catch {
    for (let i = line.indexOf('{"event":', 1); i > 0; i = line.indexOf('{"event":', i + 1)) {
      const rest = parseJournalLine(line.slice(i));
      if (rest.events.length) return { events: rest.events, torn: true };
    }
    return { events: [], torn: true };
  }
}

const isoTime = (t: unknown): string | undefined => {
  if (typeof t !== 'string') return undefined;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
};
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Imports the journal of paycli before the ledger, streaming it (it may be hundreds of MB):
 * `begin` events become entries (fingerprints recomputed with today's endpoint identity), `end`
 * events their outcome (the latest wins); a begin without an end stays without an outcome, so it
 * blocks an identical cash-out until resolved.
 * @returns undefined when there is no journal
 * @throws LedgerUnavailableError when it exists but cannot be read (its payments would not block)
 */
function importJournal(db: Connection, path: string, note: string): ImportResult | undefined {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const uid = myUid();
  if (!st.isFile() || (uid !== undefined && st.uid !== uid)) {
    throw new LedgerUnavailableError(`the old payment journal ${path} is not a regular file of this user, so its payments cannot be imported into the ledger${note}`, { hint: `move it aside if it is not paycli's, then run again` });
  }
  const insert = db.prepare(INSERT);
  const endStmt = db.prepare(
    `UPDATE payments SET outcome = @outcome, end_time = @end_time, transaction_id = @transaction_id, status = @status, http_status = @http_status, message = @message WHERE uuid = @uuid`,
  );
  const pendingEnds: Row[] = [];
  let entries = 0;
  let skipped = 0;
  const applyEnd = (ev: Row): boolean =>
    endStmt.run({
      uuid: ev.id,
      outcome: ['ok', 'refused', 'unknown', 'not_sent'].includes(ev.outcome as string) ? ev.outcome : 'unknown',
      end_time: isoTime(ev.time) ?? null,
      transaction_id: typeof ev.transactionId === 'number' || typeof ev.transactionId === 'string' ? ev.transactionId : null,
      status: clean(text(ev.status) ?? undefined, 20),
      http_status: Number.isSafeInteger(ev.httpStatus) ? ev.httpStatus : null,
      message: clean(text(ev.message) ?? undefined, 500),
    }).changes > 0;
  const take = (ev: Row): boolean => {
    if (ev.event === 'end' && typeof ev.id === 'string') {
      if (!applyEnd(ev)) pendingEnds.push(ev);
      return true;
    }
    const time = isoTime(ev.time);
    if (ev.event !== 'begin' || typeof ev.id !== 'string' || !time || (ev.kind !== 'cashout' && ev.kind !== 'cashin') || !Number.isSafeInteger(ev.value)) return false;
    const target = typeof ev.target === 'string' ? ev.target : 'invalid-url';
    const cashout = ev.kind === 'cashout';
    if (cashout && (!Number.isSafeInteger(ev.pixKeyType) || typeof ev.pixKey !== 'string')) return false;
    const value = ev.value as number;
    insert.run({
      uuid: ev.id,
      time,
      kind: ev.kind,
      fingerprint: cashout ? cashOutFingerprint(target, { value, pixKeyType: ev.pixKeyType as number, pixKey: ev.pixKey as string }) : cashInFingerprint(target, { value, payer: text(ev.payer) ?? undefined }),
      value,
      target: clip(target, 300)!,
      endpoint: endpointIdentity(target),
      sandbox: ev.sandbox === true ? 1 : 0,
      profile: clip(text(ev.profile) ?? 'default', 100)!,
      pix_key_type: cashout ? (ev.pixKeyType as number) : null,
      pix_key: clip(text(ev.pixKey), 200),
      recipient: clip(text(ev.recipient), 200),
      payer: clip(text(ev.payer), 200),
      product: clip(text(ev.product), 200),
      order_id: clip(text(ev.orderId), 200),
      batch_id: null,
      batch_row: null,
      allow_duplicate: 0,
      overrides: null,
      pid: Number.isSafeInteger(ev.pid) ? (ev.pid as number) : null,
      source: JOURNAL_NAME,
      time_ms: Date.parse(time),
      deadline_ms: null,
      run_id: null,
    } satisfies InsertRow);
    entries++;
    return true;
  };

  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const buf = Buffer.alloc(1 << 20);
    let carry = Buffer.alloc(0);
    const line = (bytes: Buffer) => {
      const s = bytes.toString('utf8').trim();
      if (!s) return;
      const { events, torn } = parseJournalLine(s);
      if (torn) skipped++;
      for (const ev of events) {
        try {
          if (!take(ev)) skipped++;
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') skipped++; // the same begin twice
          else throw err;
        }
      }
    };
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      let chunk = Buffer.concat([carry, buf.subarray(0, n)]);
      let nl: number;
      while ((nl = chunk.indexOf(10)) >= 0) {
        line(chunk.subarray(0, nl));
        chunk = chunk.subarray(nl + 1);
      }
      carry = Buffer.from(chunk);
    }
    line(carry); // a last line without its newline
  } finally {
    closeSync(fd);
  }
  for (const ev of pendingEnds) if (!applyEnd(ev)) skipped++; // an end without its begin
  return { entries, skipped };
}

let shared: Ledger | undefined;

/**
 * The ledger of this process (opened once, created when missing), for the commands that send.
 * @throws LedgerUnavailableError (nothing was sent), LedgerBusyError
 */
export function openLedger(): Ledger {
  shared ??= Ledger.open({ create: true, beforeSend: true })!;
  return shared;
}

