/**
 * The settle step of a payment (docs/order-references.md, "Unknown outcomes are settled by asking"): the one
 * place where a ledger entry whose outcome is unknown is settled by asking the gateway for its
 * order reference. A single payment's own failed send, an identical payment about to be sent
 * again, a batch row left unknown by an earlier run, and `paycli reconcile` all come here.
 * - The gateway holds it: recorded `ok` (found), whenever it is asked.
 * - "Transaction not found": recorded `not_sent` only when the in-flight rule allows it
 *   (src/ledger/settle-rule.ts: the run that sent it is gone, and its deadline plus
 *   `settle-after` has passed); before that it proves nothing and the entry stays unknown.
 * - Anything else (no reference, lookups off, the lookup failed): it stays unknown.
 * An entry whose run is alive (running or stopped) is not asked about at all: that run settles it.
 */
import type { LedgerEntry, ResolvedBy, EndDetails } from '../ledger/ledger.js';
import type { Outcome } from '../ledger/rules.js';
import { t } from '../core/i18n/index.js';
import { notFoundSettles, verdictWords, type InFlightFacts } from '../ledger/settle-rule.js';
import { describeFound, resolveByOrder, type Resolution } from '../gateway/lookup.js';
import type { Settings } from '../gateway/connection.js';
import { statusWord } from '../gateway/status-words.js';
import type { TransactionLookup } from '../gateway/schemas.js';

/**
 * What the settle step needs of the ledger: the ledger contract's `inFlight` and `resolve`
 * (src/ledger/contract.ts; a synchronous store's answers are taken as they are; tests pass one in memory).
 */
export interface SettleLedger {
  inFlight(e: LedgerEntry): InFlightFacts | Promise<InFlightFacts>;
  resolve(id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: ResolvedBy; note?: string } & EndDetails): LedgerEntry | Promise<LedgerEntry>;
}

/** How asking about an entry ended. */
export type Settled =
  /** The gateway holds it: recorded `ok`. */
  | { state: 'ok'; found: TransactionLookup; raw: unknown }
  /** The gateway has not got it, and can no longer get it: recorded `not_sent`. */
  | { state: 'not_sent' }
  /** Still unknown: `why` in words; `decidableAt` (epoch ms) when only time is missing. */
  | { state: 'unknown'; why: string; decidableAt?: number; ownerAlive?: boolean };

/** How the gateway is asked (src/gateway/lookup.ts `resolveByOrder`; tests pass a fake gateway). */
export type AskByOrder = (settings: Settings, orderId: string, opts: { signal?: AbortSignal; after?: 'timeout' | 'interrupt' }) => Promise<Resolution>;

/**
 * Settles one entry whose outcome is unknown, and records what was learnt.
 * @param lookup the lookup settings of the entry's profile, or why there are none
 * @param opts.selfOpen for an entry of this very process: true while its request may still be answered
 * @param opts.note prefix of the ledger note (`reconcile`, `batch <id>`, ...)
 * @param now epoch milliseconds (tests pass a fake clock)
 * @returns never throws for a lookup that fails (it stays unknown); the ledger's errors propagate
 */
export async function settleEntry(
  ledger: SettleLedger,
  e: LedgerEntry,
  lookup: Settings | { problem: string },
  opts: { signal?: AbortSignal; after?: 'timeout' | 'interrupt'; selfOpen?: boolean; note: string; ask?: AskByOrder; now?: () => number },
): Promise<Settled> {
  const now = opts.now ?? Date.now;
  const facts = { ...(await ledger.inFlight(e)), ...(opts.selfOpen !== undefined ? { selfOpen: opts.selfOpen } : {}) };
  if (facts.owner === 'alive' || facts.owner === 'unknown') {
    return { state: 'unknown', why: verdictWords({ settle: false, why: 'owner_alive' }), ownerAlive: true };
  }
  if (!e.orderId) return { state: 'unknown', why: t('settle.noOrderRef') };
  if ('problem' in lookup) return { state: 'unknown', why: lookup.problem };
  const ask = opts.ask ?? ((s, o, a) => resolveByOrder(s, o, a));
  const r = await ask(lookup, e.orderId, { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.after ? { after: opts.after } : {}) });
  if (r.kind === 'unresolved') return { state: 'unknown', why: r.why };
  if (r.kind === 'found') {
    await ledger.resolve(e.id, 'ok', {
      by: 'gateway',
      note: `${opts.note}: found by order reference: ${describeFound(r.data)}`,
      transactionId: r.data.transactionId,
      status: statusWord(r.data.status),
    });
    return { state: 'ok', found: r.data, raw: r.raw };
  }
  const verdict = notFoundSettles(facts, lookup.settleAfterMs, now());
  if (!verdict.settle)
    return { state: 'unknown', why: t('settle.notFoundYet', e.orderId, verdictWords(verdict)), ...(verdict.decidableAt !== undefined ? { decidableAt: verdict.decidableAt } : {}) };
  await ledger.resolve(e.id, 'not_sent', { by: 'gateway', note: `${opts.note}: the gateway has no order ${e.orderId}, asked after its deadline: not created` });
  return { state: 'not_sent' };
}
