/**
 * The ledger's schema (docs/ledger-and-safety.md): the tables, the migrations from older versions, the entries' shapes
 * and how rows become them, and the SQL of the ledger's hot paths. src/ledger/ledger.ts is the store that uses them.
 */
import { sanitizeText } from '../core/sanitize.js';
import { redact } from '../core/secrets.js';
import type { Connection } from '../core/sqlite/driver.js';
import { blockingSql, orderHeldSql } from './blocking.js';
import type { Outcome, PaymentKind } from './rules.js';
import type { RunRecord } from './runs.js';
import { BATCH_TEXTS } from './kept-texts.js';
import { ORDER_INDEX, orderIs } from './order-key.js';
import { FORMAT, OUTSIDE_FILES, opt, SCHEMA_VERSION } from './entries.js';
import { BATCH_FINGERPRINTS, BLOCKING_FILE_ROWS, FINGERPRINT_INDEX, MIGRATIONS_FROM_8, RUN_INDEX, TIME_INDEX, WINDOW } from './batch-fingerprints.js';

// What a read needs (the ledger's marks, rows as entries, history's query) is src/ledger/entries.ts.
export { ATTENTION_SQL, ENTRIES_WITH_RUN, fingerprintText, FORMAT, historyQuery, parseFacts, SCHEMA_VERSION, toEntry } from './entries.js';

/**
 * One entry of a batch as {@link Ledger.batchOutcomes} gives it: row, order reference, cents, outcome, transaction id, status,
 * and 1 when its create answer needs attention that no `history resolve` settled yet (else 0).
 */
export type BatchOutcome = [row: number, orderId: string, value: number, outcome: Outcome | null, transactionId: number | string | null, status: string | null, attention: number];

/** Whether an entry was created with an answer that needs attention, not yet settled by `history resolve`. */
export const needsAttention = (e: Pick<LedgerEntry, 'outcome' | 'completed' | 'answer' | 'resolvedBy'>): boolean =>
  e.completed && e.outcome === 'ok' && Boolean(e.answer?.attention?.length) && e.resolvedBy === undefined;

/** The runs (src/ledger/runs.ts): one row per paycli process that recorded payments. */
const RUNS_TABLE = `CREATE TABLE runs (
  id TEXT PRIMARY KEY NOT NULL,        -- random id of the run (src/ledger/runs.ts)
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
export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
CREATE TABLE payments (
  id INTEGER PRIMARY KEY,              -- entry number (paycli history, history resolve)
  uuid TEXT NOT NULL UNIQUE,           -- global id: a time-first UUID v7 (uuidV7), or the journal's id for imported entries
  time TEXT NOT NULL,                  -- recorded, just before sending
  kind TEXT NOT NULL CHECK (kind IN ('cashout', 'cashin')),
  fingerprint BLOB NOT NULL,           -- sha256 of what makes two payments identical: its 32 bytes (fingerprintValue)
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
  run_id TEXT,                         -- the run (table runs) that recorded and sends it
  answer TEXT                          -- what the gateway's answer said of a created payment (JSON, PaymentFacts)
);
${FINGERPRINT_INDEX}
${TIME_INDEX}
${ORDER_INDEX}
CREATE INDEX payments_by_batch ON payments (batch_id, batch_row) WHERE batch_id IS NOT NULL;
CREATE INDEX payments_unresolved ON payments (id) WHERE outcome IS NULL OR outcome = 'unknown';
${RUN_INDEX}
INSERT INTO meta (key, value) VALUES ('format', '${FORMAT}');
${RUNS_TABLE}
${BATCH_TEXTS}
${BATCH_FINGERPRINTS}
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/**
 * The steps from each older schema to the next, run in one `BEGIN IMMEDIATE` when a ledger is opened (index 0: from version 1 to 2). Version 2 adds the
 * times as numbers, the deadlines and the runs; entries of version 1 get `time_ms` from their ISO text (NULL where it cannot be read, which then counts
 * as recent: it blocks, never lets through) and no deadline (taken as their time plus the longest timeout, src/ledger/ledger.ts `inFlight`). Version 3
 * adds what the gateway's answer said of a created payment ({@link PaymentFacts}), which `paycli receipt` prints. Version 4 indexes the entries by run,
 * so that pruning `runs` finds the runs no entry names. Version 5 drops the index on the ISO text `time`, which no query reads (they compare `time_ms`):
 * one index fewer for every payment to write (docs/speed.md "Disk written per batch row"). Version 6 keeps each fingerprint as its 32 bytes instead of
 * 64 hex characters ({@link fingerprintValue}): a smaller row and a smaller `payments_by_fingerprint`, whose pages a batch's waves write at random.
 * Version 7 keeps the results lines of a finished batch for its re-runs ({@link BATCH_TEXTS}, docs/speed.md "Re-running a finished file"). Version 8
 * indexes only the first 8 bytes of the fingerprint and of the run id ({@link FINGERPRINT_KEY}, {@link RUN_KEY}): smaller keys, fewer pages for a
 * batch's waves to write (docs/speed.md "Disk written per batch row"); queries compare the whole value. Versions 9 and 10 index the fingerprints and the
 * times outside batch files only and list each file's rows (src/ledger/batch-fingerprints.ts); 10 also leaves a batch row's target and text time empty
 * where they can be derived (src/ledger/derived.ts); 11 keeps a batch row's end time and answer shorter (the same file); 12 keys order references.
 */
export const MIGRATIONS: readonly string[] = [
  `ALTER TABLE payments ADD COLUMN time_ms INTEGER;
   ALTER TABLE payments ADD COLUMN deadline_ms INTEGER;
   ALTER TABLE payments ADD COLUMN run_id TEXT;
   UPDATE payments SET time_ms = CAST(round((julianday(time) - 2440587.5) * 86400000) AS INTEGER) WHERE time GLOB '[0-9][0-9][0-9][0-9]-*';
   CREATE INDEX payments_by_time_ms ON payments (time_ms);
   ${RUNS_TABLE}`,
  `ALTER TABLE payments ADD COLUMN answer TEXT;`,
  `CREATE INDEX IF NOT EXISTS payments_by_run ON payments (run_id);`,
  `DROP INDEX IF EXISTS payments_by_time;`,
  `UPDATE payments SET fingerprint = unhex(fingerprint) WHERE typeof(fingerprint) = 'text' AND length(fingerprint) = 64 AND unhex(fingerprint) IS NOT NULL;`,
  BATCH_TEXTS,
  `DROP INDEX IF EXISTS payments_by_fingerprint;
   CREATE INDEX IF NOT EXISTS payments_by_fingerprint8 ON payments (substr(fingerprint, 1, 8));
   DROP INDEX IF EXISTS payments_by_run;
   CREATE INDEX IF NOT EXISTS payments_by_run8 ON payments (substr(run_id, 1, 8));`,
  ...MIGRATIONS_FROM_8,
];

/** SQL: entries by the first 8 bytes of the fingerprint or run id (schema 8's indexes), then the whole value. @param param its placeholder or column */
export const FINGERPRINT_KEY = (param: string): string => `substr(fingerprint, 1, 8) = substr(${param}, 1, 8) AND fingerprint = ${param}`;
export const RUN_KEY = (param: string): string => `substr(run_id, 1, 8) = substr(${param}, 1, 8) AND run_id = ${param} AND ${OUTSIDE_FILES}`;

/**
 * A fingerprint (64 lowercase hex characters, src/ledger/rules.ts) as the ledger stores and compares it
 * since schema version 6: its 32 bytes. A text of another shape (never made by paycli) is kept as it is.
 */
export function fingerprintValue(hex: string): Uint8Array | string {
  return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : hex;
}

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
  /**
   * Who sent it: the operating-system user, host name and paycli version of the run that recorded
   * it (table `runs`). Absent for an entry imported from the journal or recorded by a paycli from
   * before the runs were recorded (schema version 1). Only {@link Ledger.get}, {@link Ledger.query}
   * and {@link Ledger.iterate} read them.
   */
  user?: string;
  host?: string;
  version?: string;
  /** `journal.jsonl` for an entry imported from the old journal. */
  source?: string;
  /** What the gateway's create answer said (BR Code, fee, net…), when it was recorded ({@link PaymentFacts}). */
  answer?: PaymentFacts;
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
  /** The gateway's transaction id (compared as text: `9029` matches a number or a string). */
  transactionId?: string;
  batchId?: string;
  /**
   * Who sent it (`history --by user@host`, `--by user`, `--by @host`): entries whose run's
   * operating-system user equals `user` (exactly) and whose host name equals `host` (without regard
   * to case, as host names are); a part left out matches any. An entry without a run (imported
   * from the journal, or older than the runs) matches no `by`.
   */
  by?: { user?: string; host?: string };
  /** At most this many, newest first. */
  limit: number;
}

/**
 * What the gateway's answer to a create said of the payment, kept for its receipt
 * (docs/receipts-and-statements.md): the BR Code of a cash-in (interface §2.2 `qrCode`), its
 * `externalId`; the gross, fee and net of a cash-out in integer cents (interface §2.4 `gross`,
 * `tax`, `liquid`) and its `createdAt` (ISO 8601 UTC).
 */
export interface PaymentFacts {
  qrCode?: string;
  externalId?: string;
  gross?: number;
  tax?: number;
  liquid?: number;
  createdAt?: string;
  /**
   * What was wrong in the create answer (src/gateway/answers.ts, src/pix/brcode-check.ts): the
   * payment needs a person until `paycli history resolve` settles it (a batch re-run reports it
   * `needs_attention` until then, never `already_ok`).
   */
  attention?: string[];
}

/** {@link PaymentFacts} as the ledger keeps them: JSON, its texts redacted and cleaned of control characters, or null for none. */
export function factsJson(facts: PaymentFacts | undefined): string | null {
  if (!facts) return null;
  const out: PaymentFacts = {};
  if (facts.qrCode !== undefined) out.qrCode = clean(facts.qrCode, 1000)!;
  if (facts.externalId !== undefined) out.externalId = clean(facts.externalId, 100)!;
  if (facts.createdAt !== undefined) out.createdAt = clean(facts.createdAt, 40)!;
  for (const k of ['gross', 'tax', 'liquid'] as const) if (Number.isSafeInteger(facts[k])) out[k] = facts[k];
  if (facts.attention?.length) out.attention = facts.attention.slice(0, 10).map((p) => clean(p, 300)!);
  return Object.keys(out).length ? JSON.stringify(out) : null;
}

/** What {@link Ledger.end} and {@link Ledger.resolve} may record besides the outcome. */
export interface EndDetails {
  /** What the create answer said ({@link PaymentFacts}), for a created payment. */
  answer?: PaymentFacts;
  transactionId?: number | string;
  status?: string;
  httpStatus?: number;
  /** Error text; redacted and shortened here too. */
  message?: string;
}

export const clip = (s: string | undefined | null, max: number): string | null => (s === undefined || s === null ? null : s.length > max ? `${s.slice(0, max - 1)}…` : s);
export const clean = (s: string | undefined, max: number): string | null => (s === undefined ? null : clip(sanitizeText(redact(s), true), max));

export type Row = Record<string, unknown>;
/** A row of `runs` as a {@link RunRecord} (with the time it was first found gone, if it was). */
export function toRun(r: Row): RunRecord & { goneMs?: number; batchId?: string } {
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

/** Columns of an insert, as named parameters. */
export interface InsertRow {
  uuid: string | Uint8Array;
  time: string;
  kind: PaymentKind;
  /** {@link fingerprintValue} */
  fingerprint: Uint8Array | string;
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

export const INSERT = `INSERT INTO payments (uuid, time, kind, fingerprint, value, target, endpoint, sandbox, profile, pix_key_type, pix_key, recipient, payer, product, order_id, batch_id, batch_row, allow_duplicate, overrides, pid, source, time_ms, deadline_ms, run_id)
  VALUES (@uuid, @time, @kind, @fingerprint, @value, @target, @endpoint, @sandbox, @profile, @pix_key_type, @pix_key, @recipient, @payer, @product, @order_id, @batch_id, @batch_row, @allow_duplicate, @overrides, @pid, @source, @time_ms, @deadline_ms, @run_id)`;
/** The latest earlier cash-out with this fingerprint that blocks a new one (src/ledger/rules.ts `blockingSql`), outside batch files or in one of `fileRows`'s (src/ledger/batch-fingerprints.ts `fileRowsWith`). */
export const blockingOver = (fileRows: string): string => `SELECT * FROM (SELECT * FROM payments WHERE ${FINGERPRINT_KEY('@fingerprint')}
  AND ${OUTSIDE_FILES} AND kind = 'cashout' AND ${blockingSql(WINDOW)} UNION ALL ${fileRows} AND p.kind = 'cashout' AND ${blockingSql(WINDOW, (c) => `p.${c}`)}) ORDER BY id DESC LIMIT 1`;
export const BLOCKING = blockingOver(BLOCKING_FILE_ROWS); // over the files that may block a payment now (a wave's own list: src/ledger/wave-files.ts)

/** The latest entry that holds an order reference at a gateway (src/ledger/rules.ts `orderHeldSql`). */
export const ORDER_TAKEN = `SELECT * FROM payments WHERE ${orderIs('order_id', '@order_id')} AND endpoint = @endpoint AND ${orderHeldSql()} ORDER BY id DESC LIMIT 1`;

/**
 * Brings an older ledger up to {@link SCHEMA_VERSION}, in one `BEGIN IMMEDIATE` (the version is read
 * again inside it: two paycli opening an old ledger at once migrate it once).
 */
export function migrate(db: Connection): void {
  db.immediate(() => {
    const from = db.pragma('user_version') as number;
    for (let v = Math.max(1, from); v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v - 1]!);
    if (from < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
}
