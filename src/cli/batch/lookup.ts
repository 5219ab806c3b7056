/**
 * Asks the gateway about one `orderId` (its lookup by order reference, src/gateway/lookup.ts): how a
 * batch run settles a row that an earlier run left with an unknown outcome.
 */
import { resolveByOrder } from '../../gateway/lookup.js';
import type { Settings } from '../../config/settings.js';

/** What the gateway says of an `orderId`. */
export type LookupResult =
  | { state: 'found'; transactionId?: number; status?: string }
  | { state: 'not_found' }
  | { state: 'unavailable'; reason: string };

/** Looks an `orderId` up at the profile's gateway; never throws (a failed lookup is `unavailable`). */
export async function lookupOrder(settings: Settings, orderId: string, signal: AbortSignal): Promise<LookupResult> {
  const r = await resolveByOrder(settings, orderId, { signal });
  if (r.kind === 'found') return { state: 'found', transactionId: typeof r.data.transactionId === 'number' ? r.data.transactionId : undefined, status: r.data.status === undefined ? undefined : String(r.data.status) };
  if (r.kind === 'not_found') return { state: 'not_found' };
  return { state: 'unavailable', reason: r.why };
}
