/**
 * Which ledger a command uses (docs/ledger-and-safety.md, "Team ledger"): the local SQLite ledger
 * (src/ledger/ledger.ts) unless the profile's `ledger-url` (or `PAYCLI_LEDGER_URL`) names a team
 * ledger on PostgreSQL (src/ledger/pg/ledger.ts). Both offer the same synchronous methods,
 * {@link LedgerStore}, so the commands that pay, list and settle do not tell them apart.
 */
import type { UsageError } from '../core/errors.js';
import { closeLedger as closeLocalLedger, Ledger, openLedger as openLocalLedger } from './ledger.js';
import { PgLedger } from './pg/ledger.js';
import { takePrepared, teamLedger } from './team.js';
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
  | 'noteStatus'
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

let sharedTeam: PgLedger | undefined;

export { prepareLedger, teamLedger, type TeamLedger } from './team.js';

/**
 * The ledger of this process for the commands that send (opened once): the team ledger when one
 * is configured, else the local one (created when missing). A team ledger src/ledger/team.ts `prepareLedger`
 * started for the same address and password is finished; any other is let go.
 * @param profile the profile in use
 * @throws LedgerUnavailableError (exit 2, nothing was sent), LedgerBusyError
 */
export function openLedger(profile?: string): LedgerStore {
  const team = teamLedger(profile);
  const prepared = takePrepared();
  const usable = prepared && team && prepared.url === team.url && prepared.password === team.password ? prepared : undefined;
  if (prepared && !usable) PgLedger.discard(prepared);
  if (!team) return openLocalLedger();
  sharedTeam ??= usable ? PgLedger.finish(usable) : PgLedger.open(team.url, { ...(team.password ? { password: team.password } : {}), beforeSend: true });
  return sharedTeam;
}

/** Closes the ledgers this process keeps open (the local and the team one): a run in a test's process ends with it. */
export function closeLedgers(): void {
  sharedTeam?.close();
  sharedTeam = undefined;
  closeLocalLedger();
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
