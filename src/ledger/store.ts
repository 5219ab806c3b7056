/**
 * Which ledger a command uses (docs/ledger-and-safety.md, "Team ledger"): the local SQLite ledger
 * (src/ledger/ledger.ts, synchronous: {@link LedgerStore}) unless the profile's `ledger-url` (or
 * `PAYCLI_LEDGER_URL`) names a team ledger on PostgreSQL (src/ledger/pg/ledger.ts, asynchronous).
 * Callers above src/ledger/ open either as the ledger contract (src/ledger/async-store.ts
 * `openContract`), so the commands that pay, list and settle do not tell them apart.
 */
import { closeAtEnd } from '../core/at-end.js';
import { t } from '../core/i18n/index.js';
import { LedgerUnavailableError } from './errors.js';
import { closeLedger as closeLocalLedger, Ledger, openLedger as openLocalLedger } from './ledger.js';
import { LedgerKeeper } from './keeper.js';
import type { PgOpening } from './pg/opening.js';
import { ledgerWhere } from './pg/failure.js';
import { takePrepared, teamLedger, type TeamLedger } from './team.js';
import { SyncLedger } from './sync-ledger.js';

/** The local ledger for a synchronous caller (the batch engine, until it is on the contract): src/ledger/sync-ledger.ts. */
export type LedgerStore = SyncLedger;

let sharedTeam: Promise<LedgerKeeper> | undefined;

export { prepareLedger, teamLedger, type TeamLedger } from './team.js';

/**
 * The team ledger of this process for the commands that send (opened once, closed at the end of
 * the command: src/core/at-end.ts). A team ledger src/ledger/team.ts `prepareLedger` started for
 * the same address and password is finished; any other is let go.
 * @throws LedgerUnavailableError (exit 2, nothing was sent), InterruptedError (Ctrl-C while it connects)
 */
export function openTeamLedger(team: TeamLedger): Promise<LedgerKeeper> {
  const prepared = takePrepared();
  const usable = prepared && prepared.url === team.url && prepared.password === team.password ? prepared : undefined;
  // The team ledger's modules load here, not with the local ledger's commands (docs/speed.md).
  const pgLedger = import('./pg/ledger.js');
  if (prepared && !usable) void pgLedger.then(({ PgLedger }) => PgLedger.discard(prepared));
  if (!sharedTeam) {
    const opened = pgLedger
      .then(({ PgLedger }) => {
        const opening: PgOpening = usable ?? PgLedger.start(team.url, { ...(team.password ? { password: team.password } : {}), beforeSend: true });
        return PgLedger.finish(opening);
      })
      .then((pg) => new LedgerKeeper(pg));
    sharedTeam = opened;
    opened.catch(() => {
      if (sharedTeam === opened) sharedTeam = undefined;
    });
    closeAtEnd(closeLedgers);
  }
  return sharedTeam;
}

/**
 * The local ledger of this process for a synchronous caller (created when missing).
 * @param profile the profile in use: a team ledger configured for it is refused (only the
 *   ledger contract, src/ledger/async-store.ts `openContract`, reaches it): never the local ledger in its place
 * @throws LedgerUnavailableError (exit 2, nothing was sent), LedgerBusyError
 */
export function openLedger(profile?: string): LedgerStore {
  const team = teamLedger(profile);
  if (team) throw new LedgerUnavailableError(t('team.needsContract', ledgerWhere(team.url)));
  return new SyncLedger(openLocalLedger());
}

/** Closes the ledgers this process keeps open (the local and the team one): a run in a test's process ends with it. */
export async function closeLedgers(): Promise<void> {
  const team = sharedTeam;
  sharedTeam = undefined;
  closeLocalLedger();
  await (await team?.catch(() => undefined))?.close();
}

/** The local ledger for reading and settling, or undefined when nothing was recorded on this machine yet. @throws LedgerUnavailableError (exit 2) */
export function openLocalToRead(): LedgerStore | undefined {
  const local = Ledger.open({ create: false });
  return local ? new SyncLedger(local) : undefined;
}
