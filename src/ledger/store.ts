/**
 * Which ledger a command uses (docs/ledger-and-safety.md, "Team ledger"): the local SQLite ledger
 * (src/ledger/ledger.ts) unless the profile's `ledger-url` (or `PAYCLI_LEDGER_URL`) names a team
 * ledger on PostgreSQL (src/ledger/pg/ledger.ts). Callers above src/ledger/ open either as the
 * ledger contract (src/ledger/async-store.ts `openContract`), so the commands that pay, list and
 * settle do not tell them apart. Each store's modules load only when it is opened: a local
 * ledger's command never loads the driver's side, a team ledger's never loads SQLite (docs/speed.md).
 */
import { closeAtEnd } from '../core/at-end.js';
import { LedgerKeeper } from './keeper.js';
import type { Ledger } from './ledger.js';
import type { PgOpening } from './pg/opening.js';
import { takePrepared, type TeamLedger } from './team.js';

let sharedTeam: Promise<LedgerKeeper> | undefined;
/** src/ledger/ledger.ts, once a local ledger was opened by this process. */
let localModule: typeof import('./ledger.js') | undefined;

export { prepareLedger, teamLedger, type TeamLedger } from './team.js';

/**
 * The team ledger of this process for the commands that send (opened once, closed at the end of
 * the command: src/core/at-end.ts). A team ledger src/ledger/team.ts `prepareLedger` started for
 * the same address and password is finished; any other is let go.
 * @throws LedgerUnavailableError (exit 2, nothing was sent), InterruptedError (Ctrl-C while it connects)
 */
export function openTeamLedger(team: TeamLedger): Promise<LedgerKeeper> {
  const prepared = takePrepared();
  // The team ledger's modules load here, not with the local ledger's commands (docs/speed.md).
  const pgLedger = import('./pg/ledger.js');
  const discard = (p: PgOpening | undefined) => {
    if (p) void pgLedger.then(({ PgLedger }) => PgLedger.discard(p));
  };
  if (sharedTeam) {
    void prepared?.then(discard);
    return sharedTeam;
  }
  const opened = Promise.all([pgLedger, prepared])
    .then(([{ PgLedger }, p]) => {
      const usable = p && p.url === team.url && p.password === team.password ? p : undefined;
      if (!usable) discard(p);
      const opening: PgOpening = usable ?? PgLedger.start(team.url, { ...(team.password ? { password: team.password } : {}), beforeSend: true });
      return PgLedger.finish(opening);
    })
    .then((pg) => new LedgerKeeper(pg));
  sharedTeam = opened;
  opened.catch(() => {
    if (sharedTeam === opened) sharedTeam = undefined;
  });
  closeAtEnd(closeLedgers);
  return opened;
}

/** src/ledger/ledger.ts, loaded on first use. */
async function local(): Promise<typeof import('./ledger.js')> {
  localModule ??= await import('./ledger.js');
  return localModule;
}

/**
 * The local ledger of this process for the commands that send (created when missing). Only for a
 * profile without a team ledger (src/ledger/async-store.ts `openContract` checks).
 * @throws LedgerUnavailableError (exit 2, nothing was sent), LedgerBusyError
 */
export async function openLocalLedger(): Promise<Ledger> {
  return (await local()).openLedger();
}

/** Closes the ledgers this process keeps open (the local and the team one): a run in a test's process ends with it. */
export async function closeLedgers(): Promise<void> {
  const team = sharedTeam;
  sharedTeam = undefined;
  localModule?.closeLedger();
  await (await team?.catch(() => undefined))?.close();
}

/** The local ledger for reading and settling, or undefined when nothing was recorded on this machine yet. @throws LedgerUnavailableError (exit 2) */
export async function openLocalToRead(): Promise<Ledger | undefined> {
  return (await local()).Ledger.open({ create: false });
}
