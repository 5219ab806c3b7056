/**
 * The first half of opening a team ledger (src/ledger/pg/ledger.ts `PgLedger.finish` is the second):
 * connecting started (src/ledger/pg/connection.ts), not waited for, so that a command connects
 * while it does its other work (reads its flags, validates, prompts: src/ledger/team.ts
 * `prepareLedger`), and the time limits of connecting (`PGCONNECT_TIMEOUT`) and of each call.
 */
import { registerSecret } from '../../core/secrets.js';
import { VERSION } from '../../core/version.js';
import { PgConnection, type ConnectArgs } from './connection.js';

/** How long connecting may take before the team ledger counts as unreachable (ms), unless `PGCONNECT_TIMEOUT` says otherwise. */
export const PG_CONNECT_TIMEOUT_MS = 10_000;

/**
 * How long connecting may take (ms): libpq's `PGCONNECT_TIMEOUT` (whole seconds, at least 2, as libpq
 * rounds it) when it holds a positive integer, else {@link PG_CONNECT_TIMEOUT_MS}. Never unlimited: a
 * 0 (libpq's "wait forever") or anything else keeps the default, so a dead host still fails closed
 * (docs/ledger-and-safety.md "Team ledger").
 */
export function connectTimeoutMs(env: string | undefined = process.env.PGCONNECT_TIMEOUT): number {
  if (env === undefined || !/^\s*[0-9]{1,6}\s*$/.test(env) || Number(env) <= 0) return PG_CONNECT_TIMEOUT_MS;
  return Math.max(2, Number(env)) * 1000;
}
/** How long one statement may take (ms): a lock held by a stopped paycli is waited for this long at most. */
export const PG_QUERY_TIMEOUT_MS = 30_000;

/** A team ledger being opened: connecting and reading its schema version, not waited for yet. */
export interface PgOpening {
  url: string;
  password: string | undefined;
  beforeSend: boolean;
  /** The connection, connecting: its `ready` says how it went, its `close` lets it go. */
  connection: PgConnection;
}

/**
 * Starts connecting (the driver loads, the connection is made, the schema version read) without
 * waiting; registers the password (the URL's, the config's) as a secret first. Nothing is thrown
 * here: a failure shows when the opening is awaited (src/ledger/pg/ledger.ts `PgLedger.finish`).
 */
export function startOpening(url: string, opts: { password?: string; beforeSend?: boolean } = {}): PgOpening {
  // The password is the secret (the URL's, the config's); the user name is shown, as libpq's tools do.
  try {
    const pw = new URL(url).password;
    registerSecret(pw);
    registerSecret(decodeURIComponent(pw));
  } catch {
    /* not a URL: teamLedger checked it already */
  }
  registerSecret(opts.password);
  const args: ConnectArgs = {
    url,
    ...(opts.password ? { password: opts.password } : {}),
    connectTimeoutMs: connectTimeoutMs(),
    queryTimeoutMs: PG_QUERY_TIMEOUT_MS,
    applicationName: `paycli ${VERSION}`,
  };
  return { url, password: opts.password, beforeSend: Boolean(opts.beforeSend), connection: PgConnection.start(args) };
}
