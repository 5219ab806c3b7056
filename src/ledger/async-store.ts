/**
 * Where callers above src/ledger/ open their ledger, as the contract (src/ledger/contract.ts): the
 * rules of src/ledger/keeper.ts over the store the profile names, the local SQLite ledger
 * (src/ledger/ledger.ts) or the team ledger on PostgreSQL (src/ledger/pg/ledger.ts).
 */
import { closeAtEnd } from '../core/at-end.js';
import type { LedgerContract } from './contract.js';
import { LedgerKeeper } from './keeper.js';
import type { Ledger } from './ledger.js';
import { openLocalLedger, openLocalToRead, openTeamLedger, teamLedger } from './store.js';

/**
 * The contract of a local ledger: the rules of src/ledger/keeper.ts over its store.
 * @param store an open local ledger (src/ledger/ledger.ts `Ledger`)
 */
export function asContract(store: Ledger): LedgerContract {
  return new LedgerKeeper(store);
}

/**
 * The ledger of this process for the commands that send (opened once): the team ledger when the
 * profile names one (src/ledger/store.ts `openTeamLedger`: connecting may have started already),
 * else the local one (created when missing).
 * @throws LedgerUnavailableError (exit 2, nothing sent), LedgerBusyError, InterruptedError (Ctrl-C while it waits)
 */
export async function openContract(profile?: string): Promise<LedgerContract> {
  const team = teamLedger(profile);
  if (team) return openTeamLedger(team);
  return asContract(await openLocalLedger());
}

/**
 * The ledger for reading and settling (`history`, `reconcile`, `receipt`): the team ledger when
 * the profile names one, else the local one, or undefined when nothing was recorded on this
 * machine yet. A team ledger is closed when the command ends (src/core/at-end.ts).
 * @throws LedgerUnavailableError (exit 2), InterruptedError (Ctrl-C while it waits)
 */
export async function openContractToRead(profile?: string): Promise<LedgerContract | undefined> {
  const team = teamLedger(profile);
  if (team) {
    const { PgLedger } = await import('./pg/ledger.js');
    const ledger = new LedgerKeeper(await PgLedger.open(team.url, team.password ? { password: team.password } : {}));
    closeAtEnd(() => ledger.close());
    return ledger;
  }
  const s = await openLocalToRead();
  return s ? asContract(s) : undefined;
}
