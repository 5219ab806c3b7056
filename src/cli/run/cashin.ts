/**
 * `paycli cashin`: gathers the cash-in body (flags, `--input`, prompts), validates it, sends it
 * (or prints it with `--dry-run`) and prints the result: ids, BR Code, and the QR code drawn in
 * the terminal when stdout is one (`--qr`/`--no-qr` force it), the PNG with `--qr-file`.
 */
import { writeFileSync } from 'node:fs';
import { GatewayError, NeedsAttentionError, UsageError } from '../../core/errors.js';
import { CASHIN_PATH } from '../../gateway/contract.js';
import { endpointTarget, isSandbox } from '../../gateway/endpoint.js';
import { openLedger } from '../../ledger/ledger.js';
import { withOrderId } from '../../gateway/order-id.js';
import { CASHIN_FIELDS } from '../../gateway/fields.js';
import { formatCashIn } from '../../payment/format.js';
import { logger, printResult } from '../../core/logger.js';
import { sanitizeJson, sanitizeText } from '../../core/sanitize.js';
import { cashInRequestSchema, cashInResponseSchema, type CashInRequest, type CashInResponse } from '../../gateway/schemas.js';
import { interruptSignal, processContext, qrColumns, type RunContext } from '../../core/terminal.js';
import { settingsFor } from '../../config/settings.js';
import { announceSandbox, refuseBatchOnlyFlags, checkWritable, bodyFromFlags, printDryRun, send, validateBody, type RequestFlags } from '../../payment/request.js';

/** Options of a cash-in run: the command's flags plus the globals. */
/** The run options of `cashin`, derived from its definition (src/cli/commands/cashin.ts). */
export type CashinOptions = CashinFlags;

export { decodeQrImage } from '../../pix/qr-image.js';
import { decodeQrImage } from '../../pix/qr-image.js';
import type { CashinFlags } from '../commands/cashin.js';

/** Runs a cash-in. @throws the typed errors of src/core/errors.ts */
export async function run(opts: CashinOptions, ctx: RunContext = processContext()): Promise<void> {
  refuseBatchOnlyFlags(opts);
  // Settings and credential first: no question is asked of someone who cannot send anyway.
  const settings = settingsFor(opts, 'cashin');
  if (!opts.dryRun) announceSandbox(settings);
  if (opts.qrFile) checkWritable(opts.qrFile, '--qr-file');
  const input = bodyFromFlags(CASHIN_FIELDS, opts);
  const validated: CashInRequest = await validateBody(CASHIN_FIELDS, cashInRequestSchema(), input, opts);
  // Order reference (docs/order-references.md): the caller's, else a fresh one (order-id auto).
  const { body } = withOrderId(validated, settings.orderId);
  if (opts.dryRun) return printDryRun(settings, CASHIN_PATH, body, Boolean(opts.json));

  // Recorded in the ledger before it is sent (cash-ins are never refused as duplicates); a ledger
  // that cannot record it stops it: nothing is sent that the ledger does not know of.
  const ledger = openLedger();
  const entry = ledger.begin({ kind: 'cashin', value: body.value, target: endpointTarget(settings.endpoint, CASHIN_PATH), sandbox: isSandbox(settings.endpoint), profile: settings.profile, payer: body.payerName, product: body.productName, orderId: body.orderId }).id;
  const interrupt = interruptSignal();
  let result;
  try {
    result = await send(settings, CASHIN_PATH, body, cashInResponseSchema(), 'look the cash-in up at the gateway before creating another', interrupt.signal);
  } catch (err) {
    interrupt.dispose();
    // Unknown outcome: ask the gateway by orderId once; returns when it holds it (exit 6: the BR Code is lost).
    const { settleFailedSend } = await import('../../payment/settle.js');
    return settleFailedSend({ kind: 'cashin', err, orderId: body.orderId, value: body.value, flags: opts, record: (outcome, extra) => recordEnd(entry, () => ledger.end(entry, outcome, extra)) });
  } finally {
    interrupt.dispose();
  }
  recordEnd(entry, () => ledger.end(entry, 'ok', { transactionId: result.data.transactionId }));
  await printCashIn(result.data, result.raw, body, opts, result.sandbox, ctx);
}

async function printCashIn(res: CashInResponse, raw: unknown, body: CashInRequest, opts: CashinOptions, sandbox: boolean, ctx: RunContext): Promise<void> {
  const { checkCashInBrCode } = await import('../../pix/brcode-check.js');
  const check = checkCashInBrCode(res.qrCode, body.value);
  for (const w of check.warnings) logger.warn(w);
  if (opts.json) printResult({ json: sanitizeJson(raw) }, { created: `cash-in ${res.transactionId}` });
  else {
    let text = formatCashIn(res, body.value, sandbox, body.orderId);
    if (check.note) text += `\n(${check.note})`;
    const draw = opts.qr ?? ctx.isTTY.stdout;
    if (draw && check.decoded.valid) {
      const { drawQr } = await import('../output/qr-terminal.js');
      const qr = drawQr(sanitizeText(res.qrCode, true), qrColumns(ctx));
      if (qr) text += `\n\n${qr}`;
      else logger.notice(`the terminal is too narrow (${process.stdout.columns} columns) to draw this QR code readably: use --qr-file qr.png, or \`paycli brcode qr --png qr.png <code>\``);
    }
    printResult(text, { created: `cash-in ${res.transactionId}` });
  }
  if (opts.qrFile) {
    const png = decodeQrImage(res.qrCodeBase64);
    if (!png) throw new GatewayError(`the cash-in was created (transaction ${res.transactionId}), but qrCodeBase64 is not a base64 PNG image; nothing was written to ${opts.qrFile}`, { field: 'qrCodeBase64' }, 'bad_response');
    try {
      writeFileSync(opts.qrFile, png);
    } catch (err) {
      throw new UsageError(`the cash-in was created (transaction ${res.transactionId}), but ${opts.qrFile} could not be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { field: '--qr-file' });
    }
    logger.notice(`QR code image written to ${opts.qrFile}`);
  }
  if (check.attention.length) throw new NeedsAttentionError(check.attention, { hint: `the cash-in exists at the gateway (transaction ${res.transactionId}); do not hand its BR Code to a payer until it is checked` });
}

/** Records the outcome of a cash-in that was sent; a failure only warns (the entry stays unknown). */
function recordEnd(id: number, write: () => void): void {
  try {
    write();
  } catch (err) {
    logger.warn(`${(err as Error).message}: the ledger keeps cash-in entry ${id} with an unknown outcome`);
  }
}
