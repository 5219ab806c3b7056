/**
 * Recording how a payment ended, after it was sent (src/cli/run/cashout.ts, cashin.ts): a ledger
 * that cannot be written then only warns, and the warning tells the truth about the payment.
 */
import type { Outcome } from '../ledger/rules.js';
import { logger } from '../core/logger.js';

const KIND_WORD = { cashin: 'cash-in', cashout: 'cash-out' } as const;

/**
 * Runs `write` (the caller's ledger call recording how entry `id` ended); a failure there only
 * warns, since the entry recorded before sending already blocks an identical cash-out. The warning
 * says what happened to the payment (sent, not sent, refused), never "nothing was sent" after a
 * send, and what to do: the entry stays unknown until `paycli history resolve` (docs/ledger-and-safety.md).
 */
export function recordEnd(kind: 'cashin' | 'cashout', id: number, outcome: Outcome, write: () => void): void {
  try {
    write();
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).replace(/; nothing was sent$/, '');
    const what = outcome === 'not_sent' ? 'was not sent' : outcome === 'refused' ? 'was refused by the gateway' : outcome === 'ok' ? 'was sent and created' : 'was sent';
    const blocks = kind === 'cashout' ? ', which blocks an identical cash-out' : '';
    const next = outcome === 'unknown' ? `\`paycli reconcile\` asks the gateway later, or check it there and record what happened with \`paycli history resolve ${id} --outcome ok|not_sent\`` : `record it with \`paycli history resolve ${id} --outcome ${outcome}\` once the ledger can be written`;
    logger.warn(`${KIND_WORD[kind]} entry ${id} ${what}, but that outcome could not be recorded in the ledger (${reason}): the entry stays with an unknown outcome${blocks}; ${next}`);
  }
}

