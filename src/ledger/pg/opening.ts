/**
 * The first half of opening a team ledger (src/ledger/pg/ledger.ts `PgLedger.finish` is the second):
 * the worker thread started (src/ledger/pg/bridge.ts) and asked to connect and read the schema
 * version, without waiting. Apart from the ledger class, with little to load, so that a single
 * payment can start it before the command tree loads (src/cli/early-ledger.ts, src/ledger/team.ts `prepareLedger`).
 */
import { join } from 'node:path';
import { registerSecret } from '../../core/secrets.js';
import { VERSION } from '../../core/version.js';
import { SyncWorker } from './bridge.js';
import type { ConnectArgs } from './worker.js';

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

/** A team ledger being opened: its worker asked to connect; the ledger that takes it over hooks itself to `onEvent`. */
export interface PgOpening {
  url: string;
  password: string | undefined;
  beforeSend: boolean;
  bridge: SyncWorker;
  /** Where the worker's events (a lost connection) go, once a ledger has the worker. */
  onEvent: { handler?: (event: unknown) => void };
}

/**
 * Starts the worker (dist/pg-worker.cjs, beside the bundle) and posts its `open` call; registers
 * the password (the URL's, the config's) as a secret first. Nothing is waited for, nothing thrown
 * about the database.
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
  const onEvent: PgOpening['onEvent'] = {};
  const bridge = new SyncWorker(join(__dirname, 'pg-worker.cjs'), {}, (event) => onEvent.handler?.(event));
  const args: ConnectArgs = {
    url,
    ...(opts.password ? { password: opts.password } : {}),
    connectTimeoutMs: connectTimeoutMs(),
    queryTimeoutMs: PG_QUERY_TIMEOUT_MS,
    applicationName: `paycli ${VERSION}`,
  };
  bridge.post('open', args);
  return { url, password: opts.password, beforeSend: Boolean(opts.beforeSend), bridge, onEvent };
}
