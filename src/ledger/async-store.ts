/**
 * The ledger contract (src/ledger/contract.ts) of either store, and where callers above
 * src/ledger/ open their ledger. The team ledger (src/ledger/pg/ledger.ts) is the contract itself;
 * the local SQLite ledger is synchronous underneath and wrapped here ({@link asContract}): each
 * call of the contract is one call of the store, so a call is atomic with respect to the event
 * loop (no other ledger call runs in the middle of it), and the group operations are one
 * transaction of the store (`group`).
 */
import { UsageError } from '../core/errors.js';
import { closeAtEnd } from '../core/at-end.js';
import type { LedgerContract, Recorded } from './contract.js';
import { PgLedger } from './pg/ledger.js';
import { openLedger, openLocalToRead, openTeamLedger, teamLedger, type LedgerStore } from './store.js';

/**
 * The contract of a store.
 * @param store an open store (src/ledger/ledger.ts `Ledger` or src/ledger/pg/ledger.ts `PgLedger`)
 */
export function asContract(store: LedgerStore): LedgerContract {
  const s = store;
  return {
    file: s.file,
    close: async () => s.close(),
    usable: () => (s as { assertConnected?: () => void }).assertConnected?.(),
    blockingCashOut: async (fingerprint, windowMin, now) => s.blockingCashOut(fingerprint, windowMin, now),
    checkCashOut: async (target, body, windowMin) => s.checkCashOut(target, body, windowMin),
    begin: async (info, opts) => s.begin(info, opts),
    recordMany: async (infos, opts = {}, ends = []) =>
      s.group(() => {
        for (const [id, outcome, details] of ends) s.end(id, outcome, details);
        if (!infos.length) return [];
        if (s.beginMany) return s.beginMany(infos, opts);
        return infos.map((info): Recorded | UsageError => {
          try {
            return s.begin(info, opts);
          } catch (err) {
            if (err instanceof UsageError) return err;
            throw err;
          }
        });
      }),
    end: async (id, outcome, extra) => s.end(id, outcome, extra),
    endMany: async (ends) => {
      if (!ends.length) return;
      s.group(() => {
        for (const [id, outcome, details] of ends) s.end(id, outcome, details);
      });
    },
    extendDeadlines: async (ids, deadlineMs) => s.extendDeadlines(ids, deadlineMs),
    inFlight: async (e) => s.inFlight(e),
    run: async (id) => s.run(id),
    claimBatch: async (batchId, endpoint) => s.claimBatch(batchId, endpoint),
    releaseBatch: async () => s.releaseBatch(),
    reusableOrderId: async (fingerprint, sinceMs) => s.reusableOrderId(fingerprint, sinceMs),
    get: async (id) => s.get(id),
    findByOrderId: async (orderId) => s.findByOrderId(orderId),
    findManyByOrderId: async (orderIds) => {
      if (s.findByOrderIds) return s.findByOrderIds(orderIds);
      const out = new Map<string, ReturnType<LedgerStore['findByOrderId']>>();
      for (const orderId of new Set(orderIds)) {
        const found = s.findByOrderId(orderId);
        if (found.length) out.set(orderId, found);
      }
      return out;
    },
    batchOutcomes: async (batchId, endpoint) => s.batchOutcomes(batchId, endpoint),
    batchRows: async (batchId) => s.batchRows(batchId),
    listUnknown: async (opts) => s.listUnknown(opts),
    resolve: async (id, outcome, opts) => s.resolve(id, outcome, opts),
    query: async (q) => s.query(q),
    iterate: async function* (q) {
      yield* s.iterate(q);
    },
    noteStatus: async (id, status) => s.noteStatus(id, status),
    meta: async (key) => s.meta(key),
    setMeta: async (key, value) => s.setMeta(key, value),
  };
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
  return asContract(openLedger(profile));
}

/**
 * The ledger for reading and settling (`history`, `reconcile`, `receipt`): the team ledger when
 * the profile names one, else the local one, or undefined when nothing was recorded on this
 * machine yet. The caller closes it.
 * @throws LedgerUnavailableError (exit 2), InterruptedError (Ctrl-C while it waits)
 */
export async function openContractToRead(profile?: string): Promise<LedgerContract | undefined> {
  const team = teamLedger(profile);
  if (team) {
    const ledger = await PgLedger.open(team.url, team.password ? { password: team.password } : {});
    closeAtEnd(() => ledger.close());
    return ledger;
  }
  const s = openLocalToRead();
  return s ? asContract(s) : undefined;
}
