/**
 * Asks the gateway about one `orderId` (the lookup path of the gateway family, README "Batch
 * runs"): how a batch run settles a row that an earlier run left with an unknown outcome.
 */
import type { Agent } from 'node:http';
import type { Settings } from '../settings.js';

/** What the gateway says of an `orderId`. */
export type LookupResult =
  | { state: 'found'; transactionId?: number; status?: string }
  | { state: 'not_found' }
  | { state: 'unavailable'; reason: string };

/** Looks an `orderId` up; never throws for an answer, only for a bug. */
export async function lookupOrder(_settings: Settings, _baseUrl: string, _orderId: string, _opts: { agent: Agent; direct: boolean; signal: AbortSignal }): Promise<LookupResult> {
  return { state: 'unavailable', reason: 'this paycli has no gateway lookup' };
}
