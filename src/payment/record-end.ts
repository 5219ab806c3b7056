/**
 * Recording how a payment ended, after it was sent (src/cli/run/cashout.ts, cashin.ts): a ledger
 * that cannot be written then only warns, and the warning tells the truth about the payment.
 */
import type { Outcome } from '../ledger/rules.js';
import { logger } from '../core/logger.js';
import { t } from '../core/i18n/index.js';

/**
 * Runs `write` (the caller's ledger call recording how entry `id` ended, synchronous or not); a failure there only
 * warns, since the entry recorded before sending already blocks an identical cash-out. The warning
 * says what happened to the payment (sent, not sent, refused), never "nothing was sent" after a
 * send, and what to do: the entry stays unknown until `paycli history resolve` (docs/ledger-and-safety.md).
 */
export async function recordEnd(kind: 'cashin' | 'cashout', id: number, outcome: Outcome, write: () => unknown): Promise<void> {
  try {
    await write();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const ending = `; ${t('common.nothingSent')}`;
    const reason = message.endsWith(ending) ? message.slice(0, -ending.length) : message;
    logger.warn(t('recordEnd.notRecorded', kind, id, outcome, reason));
  }
}
