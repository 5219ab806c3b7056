/**
 * What `cashin` and `cashout` do when sending failed: record the outcome in the ledger, and when
 * that outcome is unknown (timeout, reset, 5xx, a wrong answer, Ctrl-C after sending), first ask
 * the gateway once by the payment's `orderId` (src/gateway/lookup.ts; docs/order-references.md):
 * - the gateway holds it: the payment was created; it is recorded `ok` with the gateway's
 *   transaction id and reported like a success (exit 0), or exit 6 when something needs a person
 *   (a cash-in's BR Code is lost with the answer; an amount or kind that differs);
 * - "Transaction not found": nothing was created; recorded `not_sent`, and the error says so;
 * - anything else: it stays unknown (exit 4/5/130 as the error says); `paycli reconcile` asks later.
 */
import { ExitCode, NeedsAttentionError, PaycliError } from '../core/errors.js';
import { outcomeOfError, type Outcome } from '../ledger/rules.js';
import { describeFound, resolveByOrder, whyNoLookup, type Resolution } from '../gateway/lookup.js';
import { formatReais } from '../pix/money.js';
import { formatLookup } from './format.js';
import { logger, printResult } from '../core/logger.js';
import { redact, sanitizeJson } from '../core/sanitize.js';
import type { TransactionLookup } from '../gateway/schemas.js';
import type { GlobalFlags } from '../config/settings.js';
import { interruptSignal } from '../core/terminal.js';
import { settingsFor } from '../config/settings.js';

/** Writes how a ledger entry ended (the caller's ledger call; a failure there only warns). */
export type RecordOutcome = (outcome: Outcome, extra: { transactionId?: number; status?: string; httpStatus?: number; message?: string }) => void;

/** A failed send, and what is needed to settle it. */
export interface FailedSend {
  kind: 'cashin' | 'cashout';
  /** The error the send ended with. */
  err: unknown;
  /** The `orderId` that was sent, if any. */
  orderId?: string;
  /** Amount sent, in cents. */
  value: number;
  flags: GlobalFlags;
  /** Records the outcome in the ledger entry of this payment. */
  record: RecordOutcome;
}

const KIND_WORD = { cashin: 'cash-in', cashout: 'cash-out' } as const;

/**
 * Settles a failed send. Returns only when the gateway turned out to hold the payment (after
 * printing it on stdout and recording it `ok`); otherwise throws.
 * @throws the original error (outcome known, or still unknown); a reworded one with the same exit
 *   code when the gateway has no such order (recorded `not_sent`); NeedsAttentionError (exit 6)
 *   when it was created but a person must look at it
 */
export async function settleFailedSend(f: FailedSend): Promise<void> {
  const outcome = outcomeOfError(f.err);
  const fields = { httpStatus: f.err instanceof PaycliError ? f.err.details.status : undefined, message: redact(f.err instanceof Error ? f.err.message : String(f.err)) };
  if (outcome !== 'unknown') {
    f.record(outcome, fields);
    throw f.err;
  }
  const resolution = await ask(f);
  if (resolution.kind === 'unresolved') {
    f.record('unknown', fields);
    if (f.orderId !== undefined) logger.warn(`the ${KIND_WORD[f.kind]} could not be settled by asking the gateway (${resolution.why}); \`paycli reconcile\` asks again later`);
    throw f.err;
  }
  if (resolution.kind === 'not_found') {
    f.record('not_sent', { ...fields, message: `${fields.message} — then the gateway had no order ${f.orderId} (lookup): not created` });
    const e = f.err as PaycliError;
    throw new PaycliError(
      e.code,
      e.exitCode,
      `the ${KIND_WORD[f.kind]} failed (${e.message}); asked by its order reference ${f.orderId}, the gateway has no such transaction: nothing was created, recorded as not sent`,
      { ...e.details, maybeSent: false, hint: `to try again safely, send it with --order-id ${f.orderId}: the gateway is asked first, so a late creation is not paid twice` },
    );
  }
  reportFound(f, resolution.data, resolution.raw);
}

async function ask(f: FailedSend): Promise<Resolution> {
  let settings;
  try {
    settings = settingsFor(f.flags, 'lookup', f.kind);
  } catch (err) {
    return { kind: 'unresolved', why: (err as Error).message };
  }
  const after = f.err instanceof PaycliError ? (f.err.exitCode === ExitCode.INTERRUPTED ? 'interrupt' : f.err.code === 'timeout' ? 'timeout' : undefined) : undefined;
  if (f.orderId === undefined) return { kind: 'unresolved', why: 'it has no order reference to ask the gateway about' };
  const why = whyNoLookup(settings);
  if (why) return { kind: 'unresolved', why };
  logger.notice(`the outcome is unknown: asking the gateway for order ${f.orderId}${after === 'interrupt' ? ' (Ctrl-C again to stop)' : ''}`);
  const interrupt = interruptSignal();
  try {
    return await resolveByOrder(settings, f.orderId, { signal: interrupt.signal, after });
  } finally {
    interrupt.dispose();
  }
}

/** Records and prints a payment found at the gateway; throws NeedsAttentionError when a person must look. */
function reportFound(f: FailedSend, doc: TransactionLookup, raw: unknown): void {
  const problems: string[] = [];
  const expectedObject = f.kind === 'cashout' ? 'transfer' : 'cashin';
  if (doc.object && doc.object !== expectedObject) problems.push(`the gateway says order ${f.orderId} is a ${doc.object}, not a ${expectedObject}`);
  if (doc.value !== f.value) problems.push(`the gateway holds ${formatReais(doc.value)} for it, not the ${formatReais(f.value)} sent`);
  if (f.kind === 'cashin') problems.push(`its BR Code was lost with the answer (a lookup does not return it): create a new cash-in for the payer`);
  f.record('ok', { transactionId: doc.transactionId, status: String(doc.status), message: `answer lost; found by order reference ${f.orderId}: ${describeFound(doc)}` });
  logger.notice(`the gateway holds it: ${describeFound(doc)}; recorded as created`);
  printResult(f.flags.json ? { json: sanitizeJson(raw) } : formatLookup(doc, `${f.kind === 'cashout' ? 'Cash-out' : 'Cash-in'} created (the answer was lost; found at the gateway by its order reference)`));
  if (problems.length) throw new NeedsAttentionError(problems);
}
