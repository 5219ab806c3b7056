/**
 * `paycli cashout`: gathers the cash-out body (flags, `--input`, prompts), validates it, asks
 * for confirmation (or `--yes`; required when not interactive), sends it and prints the result.
 * A cash-out moves money: it is never retried, and a failure after sending says the outcome is
 * unknown.
 */
import { PaycliError, UsageError } from '../errors.js';
import { CASHOUT_FIELDS } from '../fields.js';
import { formatReais } from '../money.js';
import { formatCashOut } from '../output/format.js';
import { logger, printResult } from '../output/logger.js';
import { redact, sanitizeJson } from '../output/sanitize.js';
import { cashOutRequestSchema, cashOutResponseSchema, type CashOutRequest } from '../schemas.js';
import { joinUrl } from '../client.js';
import { beginCashOut, cashOutFingerprint, checkDuplicate, endPayment, journalTarget, outcomeOfError } from '../journal.js';
import { SANDBOX } from '../settings.js';
import { PIX_KEY_TYPES } from '../validate/pixkey.js';
import { bodyFromFlags, canPrompt, interruptSignal, printDryRun, send, settingsFor, validateBody, type RequestFlags } from './request.js';

/** Interface §4.2. */
export const CASHOUT_PATH = '/transaction/cashout';

/** Options of a cash-out run: the command's flags plus the globals. */
export type CashoutOptions = RequestFlags & { yes?: boolean; allowDuplicate?: boolean };

/** The summary shown before a cash-out is confirmed. */
export function cashOutSummary(body: CashOutRequest): string {
  const type = PIX_KEY_TYPES[body.pixKeyType];
  return [
    `Amount      ${formatReais(body.value)}`,
    `PIX key     ${body.pixKey} (${type.name})`,
    `Recipient   ${body.person.name} <${body.person.email}>, ${body.person.phone}`,
    ...(body.cpfCnpj ? [`CPF/CNPJ    ${body.cpfCnpj}`] : []),
  ].join('\n');
}

/** Runs a cash-out. @throws the typed errors of src/errors.ts */
export async function run(opts: CashoutOptions): Promise<void> {
  const input = bodyFromFlags(CASHOUT_FIELDS, opts);
  const body: CashOutRequest = await validateBody(CASHOUT_FIELDS, cashOutRequestSchema, input, opts);
  const settings = settingsFor(opts, 'cashout');
  if (opts.dryRun) return printDryRun(settings, CASHOUT_PATH, body, Boolean(opts.json));

  // Duplicate guard (README "Duplicate cash-outs"): refuse early, before asking.
  const target = journalTarget(settings.baseUrl === SANDBOX ? SANDBOX : joinUrl(settings.baseUrl, CASHOUT_PATH));
  if (!opts.allowDuplicate) checkDuplicate(cashOutFingerprint(target, body), settings.duplicateWindowMin);

  if (!opts.yes) {
    if (!canPrompt(opts)) {
      throw new UsageError('a cash-out moves money: pass --yes to confirm it when not running interactively; nothing was sent', { field: '--yes', hint: 'add --yes (or check the request first with --dry-run)' }, 'confirmation_required');
    }
    const { confirmCashOut } = await import('./prompts.js');
    if (!(await confirmCashOut(cashOutSummary(body)))) {
      throw new UsageError('cash-out not confirmed; nothing was sent', {}, 'confirmation_required');
    }
  }

  const interrupt = interruptSignal();
  let journalId: string | undefined;
  let result;
  try {
    // Check again and record under the journal lock, fsync'd, before anything is sent.
    const begun = beginCashOut(
      { kind: 'cashout', value: body.value, target, sandbox: settings.baseUrl === SANDBOX, profile: settings.profile, pixKeyType: body.pixKeyType, pixKey: body.pixKey, recipient: body.person.name },
      settings.duplicateWindowMin,
      Boolean(opts.allowDuplicate),
    );
    journalId = begun.id;
    if (begun.earlier) logger.warn(`--allow-duplicate: sending although an identical cash-out (${formatReais(begun.earlier.value)}, ${begun.earlier.time}, outcome ${begun.earlier.outcome}) is in the journal`);
    result = await send(settings, CASHOUT_PATH, body, cashOutResponseSchema, 'check the cash-out at the gateway before sending it again', interrupt.signal);
  } catch (err) {
    if (journalId) recordEnd(journalId, () => endPayment(journalId!, outcomeOfError(err), { httpStatus: err instanceof PaycliError ? err.details.status : undefined, message: redact(err instanceof Error ? err.message : String(err)) }));
    throw err;
  } finally {
    interrupt.dispose();
  }
  recordEnd(journalId, () => endPayment(journalId!, 'ok', { transactionId: result.data.transactionId, status: result.data.status }));
  const res = result.data;
  if (BigInt(res.gross) - BigInt(res.tax) !== BigInt(res.liquid)) {
    logger.warn(`the gateway's net amount (${res.liquid}) is not gross (${res.gross}) minus fee (${res.tax})`);
  }
  if (res.gross !== body.value) logger.warn(`the gateway's gross amount (${formatReais(res.gross)}) differs from the requested ${formatReais(body.value)}`);
  printResult(opts.json ? { json: sanitizeJson(result.raw) } : formatCashOut(res, result.sandbox));
}

/** Writes a journal `end`; a failure there only warns (the `begin` already blocks a retry). */
function recordEnd(id: string, write: () => void): void {
  try {
    write();
  } catch (err) {
    logger.warn(`${(err as Error).message}: the journal keeps cash-out ${id} with an unknown outcome`);
  }
}
