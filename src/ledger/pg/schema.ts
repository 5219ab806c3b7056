/**
 * The team ledger's schema on PostgreSQL (docs/ledger-and-safety.md, "Team ledger"): everything lives in
 * the schema `paycli` of the database the `ledger-url` names, beside whatever else that database
 * holds. Versioned: `paycli.meta` holds `schema_version`; {@link PG_MIGRATIONS} brings an older one
 * up to {@link PG_SCHEMA_VERSION}, and only `paycli ledger migrate` applies them (a payment
 * command refuses a team ledger that is not at its version, exit 2).
 *
 * The tables mirror the local ledger's (src/ledger/schema.ts): the same columns, with who sent each
 * payment (operating-system user, host name, paycli version) on the entry itself.
 */
import { blockingSql, orderHeldSql, refusesSql } from '../blocking.js';

/** The schema version this paycli reads and writes. */
export const PG_SCHEMA_VERSION = 2;

/** The migrations: index 0 makes version 1 from nothing, index n makes version n + 1 from version n. */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE SCHEMA IF NOT EXISTS paycli;
CREATE TABLE paycli.meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE paycli.runs (
  id text PRIMARY KEY,
  pid integer NOT NULL,
  host text NOT NULL,
  os_user text,
  version text,
  started_ms bigint NOT NULL,
  batch_id text,
  endpoint text,
  ended_ms bigint,
  gone_ms bigint
);
CREATE INDEX runs_by_batch ON paycli.runs (batch_id, endpoint) WHERE batch_id IS NOT NULL;
CREATE TABLE paycli.payments (
  id bigserial PRIMARY KEY,
  uuid text NOT NULL UNIQUE,
  time text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('cashout', 'cashin')),
  fingerprint text NOT NULL,
  value bigint NOT NULL,
  target text NOT NULL,
  endpoint text NOT NULL,
  sandbox smallint NOT NULL DEFAULT 0,
  profile text NOT NULL,
  pix_key_type integer,
  pix_key text,
  recipient text,
  payer text,
  product text,
  order_id text,
  batch_id text,
  batch_row integer,
  allow_duplicate smallint NOT NULL DEFAULT 0,
  overrides bigint,
  pid integer,
  source text,
  outcome text CHECK (outcome IN ('ok', 'refused', 'unknown', 'not_sent')),
  end_time text,
  transaction_id jsonb,
  status text,
  http_status integer,
  message text,
  resolved_by text CHECK (resolved_by IN ('hand', 'gateway')),
  resolved_time text,
  note text,
  time_ms bigint,
  deadline_ms bigint,
  run_id text,
  os_user text,
  host text,
  version text
);
CREATE INDEX payments_by_fingerprint ON paycli.payments (fingerprint);
CREATE INDEX payments_by_time_ms ON paycli.payments (time_ms);
CREATE INDEX payments_by_order_id ON paycli.payments (order_id);
CREATE INDEX payments_by_batch ON paycli.payments (batch_id, batch_row) WHERE batch_id IS NOT NULL;
CREATE INDEX payments_unresolved ON paycli.payments (id) WHERE outcome IS NULL OR outcome = 'unknown';
CREATE INDEX payments_by_sender ON paycli.payments (os_user, host);
INSERT INTO paycli.meta (key, value) VALUES ('format', 'paycli-ledger');`,
  // version 2: what the gateway's create answer said (src/ledger/schema.ts PaymentFacts, as JSON text), for receipts
  `ALTER TABLE paycli.payments ADD COLUMN answer text;`,
];

/** The columns of an insert, in order (the values come as $1...$n). */
export const PG_INSERT_COLUMNS = [
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
  'overrides',
  'pid',
  'source',
  'time_ms',
  'deadline_ms',
  'run_id',
  'os_user',
  'host',
  'version',
] as const;

/** The PostgreSQL type of each column of `paycli.payments` that paycli writes (inserts and `ledger push`). */
export const PG_COLUMN_TYPES: Readonly<Record<string, string>> = {
  uuid: 'text',
  time: 'text',
  kind: 'text',
  fingerprint: 'text',
  value: 'bigint',
  target: 'text',
  endpoint: 'text',
  sandbox: 'smallint',
  profile: 'text',
  pix_key_type: 'integer',
  pix_key: 'text',
  recipient: 'text',
  payer: 'text',
  product: 'text',
  order_id: 'text',
  batch_id: 'text',
  batch_row: 'integer',
  allow_duplicate: 'smallint',
  overrides: 'bigint',
  pid: 'integer',
  source: 'text',
  outcome: 'text',
  end_time: 'text',
  transaction_id: 'jsonb',
  status: 'text',
  http_status: 'integer',
  message: 'text',
  resolved_by: 'text',
  resolved_time: 'text',
  note: 'text',
  time_ms: 'bigint',
  deadline_ms: 'bigint',
  run_id: 'text',
  os_user: 'text',
  host: 'text',
  version: 'text',
  answer: 'text',
};

/** The PostgreSQL types of {@link PG_INSERT_COLUMNS}, in order. */
const PG_INSERT_TYPES = PG_INSERT_COLUMNS.map((c) => PG_COLUMN_TYPES[c]!);

/**
 * Check and record in one statement (run after {@link PG_ENDPOINT_LOCK}, so its snapshot holds what
 * the lock's previous holder committed): the blocking cash-out ({@link PG_BLOCKING}: $28 fingerprint
 * or NULL for a cash-in, $29 window on, $30 since), the open entry with the same order reference
 * ({@link PG_ORDER_TAKEN}), and the insert ($1...$27, `overrides` from the blocking one) when neither
 * refuses it ($31 allow duplicate). Answers the blocking row, the taken row (as JSON) and the new id.
 */
export const PG_CHECK_AND_INSERT = `WITH b AS (
    SELECT * FROM paycli.payments WHERE $28::text IS NOT NULL AND fingerprint = $28::text AND kind = 'cashout'
      AND ${blockingSql({ windowOn: '$29::boolean', since: '$30::bigint' })} ORDER BY id DESC LIMIT 1),
  t AS (
    SELECT * FROM paycli.payments WHERE $15::text IS NOT NULL AND order_id = $15::text AND endpoint = $7::text AND ${orderHeldSql()} ORDER BY id DESC LIMIT 1),
  ins AS (
    INSERT INTO paycli.payments (${PG_INSERT_COLUMNS.join(', ')})
    SELECT ${PG_INSERT_COLUMNS.map((c, i) => (c === 'overrides' ? `coalesce($${i + 1}::bigint, (SELECT id FROM b))` : `$${i + 1}::${PG_INSERT_TYPES[i]}`)).join(', ')}
    WHERE NOT ${refusesSql({ blocked: 'EXISTS (SELECT 1 FROM b)', allowDuplicate: '$31::boolean', taken: 'EXISTS (SELECT 1 FROM t)' })}
    RETURNING id)
SELECT (SELECT row_to_json(b) FROM b) AS blocked, (SELECT row_to_json(t) FROM t) AS taken, (SELECT id FROM ins) AS id`;

/**
 * {@link PG_CHECK_AND_INSERT} for many rows in one statement (a batch's group; run after the
 * endpoint locks): one array per column of {@link PG_INSERT_COLUMNS} ($1...$27), then per row the
 * fingerprint or NULL ($28), window on ($29), since ($30) and allow duplicate ($31). Each row is
 * checked against what was committed before the statement, not against the other rows of the
 * statement: the caller sends only rows that cannot refuse each other (src/ledger/pg/connection.ts
 * `beginMany`). Answers one row per input row, in their order: blocked, taken, new id.
 */
export const PG_CHECK_AND_INSERT_MANY = `WITH u AS (
    SELECT * FROM unnest(${PG_INSERT_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}, $28::text[], $29::boolean[], $30::bigint[], $31::boolean[])
      WITH ORDINALITY AS u(${PG_INSERT_COLUMNS.map((_, i) => `c${i + 1}`).join(', ')}, fp, window_on, since, allow_dup, k)),
  c AS (
    SELECT u.*,
      (SELECT row_to_json(b) FROM paycli.payments AS b WHERE u.fp IS NOT NULL AND b.fingerprint = u.fp AND b.kind = 'cashout'
        AND ${blockingSql({ windowOn: 'u.window_on', since: 'u.since' }, (c) => `b.${c}`)} ORDER BY b.id DESC LIMIT 1) AS blocked,
      (SELECT row_to_json(t) FROM paycli.payments AS t WHERE u.c15 IS NOT NULL AND t.order_id = u.c15 AND t.endpoint = u.c7 AND ${orderHeldSql((c) => `t.${c}`)} ORDER BY t.id DESC LIMIT 1) AS taken
    FROM u),
  ins AS (
    INSERT INTO paycli.payments (${PG_INSERT_COLUMNS.join(', ')})
    SELECT ${PG_INSERT_COLUMNS.map((col, i) => (col === 'overrides' ? `coalesce(c.c${i + 1}, (c.blocked->>'id')::bigint)` : `c.c${i + 1}`)).join(', ')}
    FROM c WHERE NOT ${refusesSql({ blocked: 'c.blocked IS NOT NULL', allowDuplicate: 'c.allow_dup', taken: 'c.taken IS NOT NULL' })} ORDER BY c.k
    RETURNING id, uuid)
SELECT c.blocked, c.taken, ins.id FROM c LEFT JOIN ins ON ins.uuid = c.c1 ORDER BY c.k`;

/**
 * Outcomes of many entries in one statement, one array per column: $1 entry numbers, $2 outcomes,
 * $3 end times, $4 transaction ids (JSON text or NULL), $5 statuses, $6 HTTP statuses, $7 messages,
 * $8 what the create answer said (JSON text or NULL, src/ledger/schema.ts `PaymentFacts`).
 */
export const PG_END_MANY = `UPDATE paycli.payments AS p SET outcome = u.outcome, end_time = u.end_time, transaction_id = coalesce(u.transaction_id::jsonb, p.transaction_id), status = coalesce(u.status, p.status), http_status = u.http_status, message = u.message, answer = coalesce(u.answer, p.answer)
  FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::text[], $8::text[]) AS u(id, outcome, end_time, transaction_id, status, http_status, message, answer) WHERE p.id = u.id`;

/** `INSERT` of one payment, returning its entry number. */
export const PG_INSERT = `INSERT INTO paycli.payments (${PG_INSERT_COLUMNS.join(', ')}) VALUES (${PG_INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`;

/** The latest earlier cash-out that blocks a new one (src/ledger/rules.ts `blockingSql`): $1 fingerprint, $2 window on (boolean), $3 since (epoch ms). */
export const PG_BLOCKING = `SELECT * FROM paycli.payments WHERE fingerprint = $1 AND kind = 'cashout'
  AND ${blockingSql({ windowOn: '$2::boolean', since: '$3::bigint' })} ORDER BY id DESC LIMIT 1`;

/** At most how many attempts {@link PG_REUSABLE} answers. */
export const PG_REUSABLE_LIMIT = 20;

/**
 * The attempts of a payment whose order reference can be used again, newest first (the gateway
 * said it never got them, and no later entry took their reference): $1 fingerprint, $2 since
 * (epoch ms; NULL: any time, for a read ahead that filters by time itself). The first one is
 * the reference to reuse (src/payment/pipeline.ts).
 */
export const PG_REUSABLE = `SELECT order_id, time_ms FROM paycli.payments AS p WHERE fingerprint = $1::text AND outcome = 'not_sent' AND resolved_by = 'gateway' AND order_id IS NOT NULL
  AND ($2::bigint IS NULL OR time_ms >= $2::bigint) AND NOT EXISTS (SELECT 1 FROM paycli.payments AS q WHERE q.order_id = p.order_id AND q.id > p.id) ORDER BY id DESC LIMIT ${PG_REUSABLE_LIMIT}`;

/** The latest open or created entry with an order reference at a gateway: $1 order reference, $2 endpoint. */
export const PG_ORDER_TAKEN = `SELECT * FROM paycli.payments WHERE order_id = $1 AND endpoint = $2 AND ${orderHeldSql()} ORDER BY id DESC LIMIT 1`;

/**
 * The advisory lock that serialises check-and-record per gateway endpoint (held to the end of the
 * transaction): two paycli on two machines paying the same endpoint record one after the other.
 */
export const PG_ENDPOINT_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`;

/**
 * The advisory lock a run holds on its session for its whole life (two keys: 1 and the hash of its
 * id, a key space apart from the endpoint locks): PostgreSQL releases it when the connection ends,
 * however the process ended; a stopped process keeps its connection, and so its lock.
 */
export const PG_RUN_LOCK = `SELECT pg_advisory_lock(1, hashtext($1))`;

/**
 * Registers a run in one statement: its lock ({@link PG_RUN_LOCK}) is taken before its row is
 * written, so a run that others can see is a locked one while it lives. $1 id, $2 pid, $3 host,
 * $4 operating-system user, $5 paycli version, $6 start (epoch ms).
 */
export const PG_RUN_REGISTER = `WITH l AS (${PG_RUN_LOCK})
  INSERT INTO paycli.runs (id, pid, host, os_user, version, started_ms) SELECT $1::text, $2::integer, $3::text, $4::text, $5::text, $6::bigint FROM l`;

/** Whether a run's lock is free (its run gone): tried, and let go again at once when taken. */
export const PG_RUN_PROBE = `SELECT CASE WHEN pg_try_advisory_lock(1, hashtext($1)) THEN pg_advisory_unlock(1, hashtext($1)) ELSE false END AS free`;
