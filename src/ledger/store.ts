/**
 * Which ledger a command uses (docs/ledger-and-safety.md, "Team ledger"): the local SQLite ledger
 * (src/ledger/ledger.ts) unless the profile's `ledger-url` (or `PAYCLI_LEDGER_URL`) names a team
 * ledger on PostgreSQL (src/ledger/pg/ledger.ts). Both offer the same synchronous methods,
 * {@link LedgerStore}, so the commands that pay, list and settle do not tell them apart.
 */
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { shownUrlInput } from '../core/secrets.js';
import { profileName, readConfigFile } from '../config/settings.js';
import { Ledger, openLedger as openLocalLedger } from './ledger.js';
import { PgLedger, type PgOpening } from './pg/ledger.js';
import type { BeginInfo, LedgerEntry } from './schema.js';

/** The methods every ledger offers (those of the local one; the team ledger implements the same). */
export type LedgerStore = Pick<
  Ledger,
  | 'file'
  | 'close'
  | 'blockingCashOut'
  | 'checkCashOut'
  | 'begin'
  | 'extendDeadlines'
  | 'inFlight'
  | 'run'
  | 'claimBatch'
  | 'releaseBatch'
  | 'end'
  | 'group'
  | 'reusableOrderId'
  | 'get'
  | 'findByOrderId'
  | 'batchOutcomes'
  | 'batchRows'
  | 'listUnknown'
  | 'resolve'
  | 'query'
  | 'iterate'
  | 'meta'
  | 'setMeta'
> & {
  /**
   * {@link Ledger.findByOrderId} for many references in one round trip (the team ledger; the local
   * ledger has none and is asked one reference at a time).
   */
  findByOrderIds?(orderIds: readonly string[]): Map<string, LedgerEntry[]>;
  /**
   * {@link Ledger.begin} of many payments in one round trip (the team ledger; src/payment/pipeline.ts
   * `steps.recordMany` asks the local ledger one payment at a time instead).
   */
  beginMany?(infos: readonly BeginInfo[], opts: { windowMin?: number; allowDuplicate?: boolean }): Array<{ id: number; uuid: string; earlier?: LedgerEntry } | UsageError>;
};

/** A team ledger's address and the password from the config (the URL's own, PGPASSWORD or ~/.pgpass otherwise). */
export interface TeamLedger {
  /** `postgres://user@host:port/database?...` (may hold a password: a secret). */
  url: string;
  /** Config key `ledger-password`. */
  password?: string;
}

/**
 * The team ledger of a profile: `PAYCLI_LEDGER_URL`, else the profile's `ledger-url`; undefined for
 * the local ledger.
 * @param profile the profile in use (default: `PAYCLI_PROFILE`, else `default`)
 * @throws UsageError (exit 2) when the URL is not a `postgres://` or `postgresql://` URL
 */
export function teamLedger(profile?: string, env: NodeJS.ProcessEnv = process.env): TeamLedger | undefined {
  const config = readConfigFile();
  const name = profile ?? profileName({}, env);
  const keys = config.profiles?.[name] ?? {};
  const url = env.PAYCLI_LEDGER_URL || keys['ledger-url'];
  if (!url) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(url) || !URL.canParse(url)) {
    throw new UsageError(t('team.urlInvalid', env.PAYCLI_LEDGER_URL ? 'PAYCLI_LEDGER_URL' : t('settings.configKey', 'ledger-url', name), shownUrlInput(url)), { field: 'ledger-url' });
  }
  const password = keys['ledger-password'];
  return { url, ...(password ? { password } : {}) };
}

let sharedTeam: PgLedger | undefined;
/** The team ledger {@link prepareLedger} started opening, not finished yet. */
let preparing: PgOpening | undefined;

/**
 * Starts opening the team ledger of `profile`, when one is configured, without waiting: its
 * worker starts, loads the driver and connects while the caller goes on (a single cash-out loads
 * its code and checks its flags meanwhile); {@link openLedger} takes it over. Nothing is sent or
 * recorded here, and nothing thrown: any problem shows when the ledger is opened.
 */
export function prepareLedger(profile?: string): void {
  if (sharedTeam || preparing) return;
  try {
    const team = teamLedger(profile);
    if (team) preparing = PgLedger.start(team.url, { ...(team.password ? { password: team.password } : {}), beforeSend: true });
  } catch {
    /* said by openLedger */
  }
}

/**
 * The ledger of this process for the commands that send (opened once): the team ledger when one
 * is configured, else the local one (created when missing). A team ledger {@link prepareLedger}
 * started for the same address and password is finished; any other is let go.
 * @param profile the profile in use
 * @throws LedgerUnavailableError (exit 2, nothing was sent), LedgerBusyError
 */
export function openLedger(profile?: string): LedgerStore {
  const team = teamLedger(profile);
  const prepared = preparing;
  preparing = undefined;
  const usable = prepared && team && prepared.url === team.url && prepared.password === team.password ? prepared : undefined;
  if (prepared && !usable) PgLedger.discard(prepared);
  if (!team) return openLocalLedger();
  sharedTeam ??= usable ? PgLedger.finish(usable) : PgLedger.open(team.url, { ...(team.password ? { password: team.password } : {}), beforeSend: true });
  return sharedTeam;
}

/**
 * The ledger for reading and settling (`history`, `reconcile`): the team ledger when one is
 * configured, else the local one, or undefined when nothing was recorded on this machine yet.
 * @throws LedgerUnavailableError (exit 2)
 */
export function openLedgerToRead(profile?: string): LedgerStore | undefined {
  const team = teamLedger(profile);
  if (!team) return Ledger.open({ create: false });
  return PgLedger.open(team.url, team.password ? { password: team.password } : {});
}
