/**
 * `paycli cashout`: gathers the cash-out body (flags, `--input`, prompts), validates it, asks
 * for confirmation (or `--yes`; required when not interactive), sends it and prints the result.
 * A cash-out moves money: it is never retried, and a failure after sending says the outcome is
 * unknown.
 */
import { cashOutAnswerProblems } from '../../gateway/answers.js';
import { NeedsAttentionError, UsageError } from '../../core/errors.js';
import { CASHOUT_FIELDS } from '../../gateway/fields.js';
import { formatReais } from '../../pix/money.js';
import { formatCashOut } from '../../payment/format.js';
import { logger, printResult } from '../../core/logger.js';
import { sanitizeJson } from '../../core/sanitize.js';
import { cashOutRequestSchema, cashOutResponseSchema, type CashOutRequest } from '../../gateway/schemas.js';
import { CASHOUT_PATH } from '../../gateway/contract.js';
import { endpointHost, endpointTarget, isSandbox } from '../../gateway/endpoint.js';
import { openLedger } from '../../ledger/ledger.js';
import { witnessCashOut } from '../../gateway/lookup.js';
import { withOrderId } from '../../gateway/order-id.js';
import { settingsFor, type Settings } from '../../config/settings.js';
import { PIX_KEY_TYPES } from '../../pix/pixkey.js';
import { canPrompt, interruptSignal } from '../../core/terminal.js';
import { announceSandbox, refuseBatchOnlyFlags, bodyFromFlags, printDryRun, send, validateBody, type RequestFlags } from '../../payment/request.js';
import { settleFailedSend } from '../../payment/settle.js';
import type { CashoutFlags } from '../commands/cashout.js';

/** Options of a cash-out run: the command's flags plus the globals. */
/** The run options of `cashout`, derived from its definition (src/cli/commands/cashout.ts). */
export type CashoutOptions = CashoutFlags;

/** The summary shown before a cash-out is confirmed. */
export function cashOutSummary(body: CashOutRequest, settings: Pick<Settings, 'endpoint' | 'profile'>): string {
  const type = PIX_KEY_TYPES[body.pixKeyType];
  return [
    `Gateway     ${isSandbox(settings.endpoint) ? 'SANDBOX - no money moves' : `${endpointHost(settings.endpoint)} (profile ${settings.profile})`}`,
    `Amount      ${formatReais(body.value)}`,
    `PIX key     ${body.pixKey} (${type.name})`,
    `Recipient   ${body.person.name} <${body.person.email}>, ${body.person.phone}`,
    ...(body.cpfCnpj ? [`CPF/CNPJ    ${body.cpfCnpj}`] : []),
    ...(body.orderId ? [`Order ID    ${body.orderId}`] : []),
  ].join('\n');
}

/** Runs a cash-out. @throws the typed errors of src/core/errors.ts */
export async function run(opts: CashoutOptions): Promise<void> {
  refuseBatchOnlyFlags(opts);
  // Settings and credential first: no question is asked of someone who cannot send anyway.
  const settings = settingsFor(opts, 'cashout');
  if (!opts.dryRun) announceSandbox(settings);
  const input = bodyFromFlags(CASHOUT_FIELDS, opts);
  const validated: CashOutRequest = await validateBody(CASHOUT_FIELDS, cashOutRequestSchema, input, opts);
  // Order reference (docs/order-references.md): the caller's, else a fresh one (order-id auto).
  const callerOrderId = validated.orderId;
  const { body } = withOrderId(validated, settings.orderId);
  if (opts.dryRun) return printDryRun(settings, CASHOUT_PATH, body, Boolean(opts.json));

  // Duplicate guard (docs/ledger-and-safety.md "Duplicate cash-outs"): the ledger must be usable (else nothing is
  // sent), and an identical cash-out is refused early, before asking.
  const target = endpointTarget(settings.endpoint, CASHOUT_PATH);
  const ledger = openLedger();
  if (!opts.allowDuplicate) ledger.checkCashOut(target, body, settings.duplicateWindowMin);
  // The gateway as second witness: a reference the caller chose may already be there (another
  // machine, another HOME). A fresh generated one cannot be, so it is not asked about.
  if (callerOrderId !== undefined && !isSandbox(settings.endpoint)) await witnessCashOut(settingsFor(opts, 'lookup', 'cashout'), callerOrderId);

  if (!opts.yes) {
    if (!canPrompt(opts)) {
      throw new UsageError('a cash-out moves money: pass --yes to confirm it when not running interactively; nothing was sent', { field: '--yes', hint: 'add --yes (or check the request first with --dry-run)' }, 'confirmation_required');
    }
    const { confirmCashOut } = await import('../../payment/prompts.js');
    if (!(await confirmCashOut(cashOutSummary(body, settings)))) {
      throw new UsageError('cash-out not confirmed; nothing was sent', {}, 'confirmation_required');
    }
  }

  const interrupt = interruptSignal();
  let entry: number | undefined;
  let result;
  try {
    // Check again and record in one BEGIN IMMEDIATE transaction, on disk before anything is sent.
    const begun = ledger.begin(
      { kind: 'cashout', value: body.value, target, sandbox: isSandbox(settings.endpoint), profile: settings.profile, pixKeyType: body.pixKeyType, pixKey: body.pixKey, recipient: body.person.name, orderId: body.orderId },
      { windowMin: settings.duplicateWindowMin, allowDuplicate: Boolean(opts.allowDuplicate) },
    );
    entry = begun.id;
    if (begun.earlier) logger.warn(`--allow-duplicate: sending although an identical cash-out (entry ${begun.earlier.id}, ${formatReais(begun.earlier.value)}, ${begun.earlier.time}, outcome ${begun.earlier.outcome}) is in the ledger; recorded as entry ${entry}`);
    result = await send(settings, CASHOUT_PATH, body, cashOutResponseSchema, 'check the cash-out at the gateway before sending it again', interrupt.signal);
  } catch (err) {
    interrupt.dispose();
    if (entry === undefined) throw err;
    // Unknown outcome: ask the gateway by orderId once (src/payment/settle.ts); returns when it holds it.
    const id = entry;
    return settleFailedSend({ kind: 'cashout', err, orderId: body.orderId, value: body.value, flags: opts, record: (outcome, extra) => recordEnd(id, () => ledger.end(id, outcome, extra)) });
  } finally {
    interrupt.dispose();
  }
  const id = entry!;
  recordEnd(id, () => ledger.end(id, 'ok', { transactionId: result.data.transactionId, status: result.data.status }));
  const res = result.data;
  // An answer wrong about money (src/gateway/answers.ts): printed and recorded as created, then exit 6.
  const problems = cashOutAnswerProblems(body.value, res);
  printResult(opts.json ? { json: sanitizeJson(result.raw) } : formatCashOut(res, result.sandbox, body.orderId), { created: `cash-out ${res.transactionId}` });
  if (problems.length) throw new NeedsAttentionError(problems, { hint: `the cash-out exists at the gateway (transaction ${res.transactionId}); check it there before anything else` });
}

/** Records the outcome; a failure there only warns (the recorded entry already blocks a retry). */
function recordEnd(id: number, write: () => void): void {
  try {
    write();
  } catch (err) {
    logger.warn(`${(err as Error).message}: the ledger keeps cash-out entry ${id} with an unknown outcome`);
  }
}
