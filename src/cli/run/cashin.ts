/**
 * `paycli cashin`: gathers the cash-in body (flags, `--input`, prompts), validates it, sends it
 * (or prints it with `--dry-run`) and prints the result: ids, BR Code, and the QR code drawn in
 * the terminal when stdout is one (`--qr`/`--no-qr` force it), the PNG with `--qr-file`.
 */
import { writeFileSync } from 'node:fs';
import { GatewayError, UsageError } from '../../core/errors.js';
import { CASHIN_PATH } from '../../gateway/contract.js';
import { CASHIN_FIELDS } from '../../gateway/fields.js';
import { formatCashIn, formatLookup } from '../../payment/format.js';
import { formatReais } from '../../pix/money.js';
import type { PaymentSpec } from '../../payment/pipeline.js';
import { pay } from './payment.js';
import { logger } from '../../core/logger.js';
import { sanitizeText } from '../../core/sanitize.js';
import { output, type Output } from '../../core/output.js';
import { cashInDoc, transactionDoc } from '../output/documents.js';
import type { CommandContext } from '../context.js';
import type { CashInRequest, CashInResponse } from '../../gateway/schemas.js';
import { PAYMENT_SCHEMAS } from '../../gateway/payment-schemas.js';
import { processContext, qrColumns, type RunContext } from '../../core/terminal.js';
import { checkWritable } from '../../payment/request.js';

/** The run options of `cashin`, derived from its definition (src/cli/commands/cashin.ts). */
export type CashinOptions = CashinFlags;

/** How a created cash-in is shown, narrowed from its flags: `--qr`/`--no-qr`, `--no-color`, `--qr-file`. */
export interface CashInShow {
  /** Draw the QR code in the terminal: true/false forced, undefined when stdout is a terminal. */
  qr?: boolean;
  /** `--no-color` gives false. */
  color?: boolean;
  /** Where the QR code's PNG is written, once the result is out. */
  qrFile?: string;
}

export { decodeQrImage } from '../../pix/qr-image.js';
import { decodeQrImage } from '../../pix/qr-image.js';
import type { CashinFlags } from '../commands/cashin.js';
import { t } from '../../core/i18n/index.js';
import { renderNow, watchOne, watchPlan, type WatchPlan } from './watch.js';

/** A cash-in as the payment pipeline runs it (src/payment/pipeline.ts): recorded, never refused as a duplicate. */
export const CASHIN: PaymentSpec<CashInRequest, CashInResponse> = {
  kind: 'cashin',
  noun: 'cash-in',
  path: CASHIN_PATH,
  fields: CASHIN_FIELDS,
  requestSchema: PAYMENT_SCHEMAS.cashin.request,
  responseSchema: PAYMENT_SCHEMAS.cashin.response,
  ledgerFacts: (body) => ({ payer: body.payerName, product: body.productName }),
  guarded: false,
  get unknownAdvice() {
    return t('advice.cashin');
  },
  print: ({ body, data, raw, sandbox, entry }) => printCashIn({ res: data, raw, body, sandbox, entry }, {}, processContext()),
  printFound({ body, settled, answer, entry }) {
    const doc = settled.found;
    const problems: string[] = [];
    if (doc.object && doc.object !== 'cashin') problems.push(`the gateway says order ${body.orderId} is a ${doc.object}, not a cashin`);
    if (doc.value !== body.value) problems.push(`the gateway holds ${formatReais(doc.value)} for it, not the ${formatReais(body.value)} sent`);
    problems.push('its BR Code was lost with the answer (a lookup does not return it): create a new cash-in for the payer');
    return output(
      transactionDoc(doc, settled.raw, { foundByOrderId: true, ledgerEntry: entry }),
      () => formatLookup(doc, `Cash-in created (${answer}; found at the gateway by its order reference)`),
      {
        created: `cash-in ${doc.transactionId}`,
        attention: { problems },
      },
    );
  },
};

/**
 * Runs a cash-in: its command line narrowed into a typed request and settings (src/cli/run/payment.ts),
 * then the pipeline; how the result is shown is narrowed here ({@link CashInShow}).
 * @throws the typed errors of src/core/errors.ts
 */
export async function run(opts: CashinOptions, ctx: CommandContext): Promise<Output> {
  let plan: WatchPlan | undefined;
  const show: CashInShow = {
    ...(opts.qr !== undefined ? { qr: opts.qr } : {}),
    ...(opts.color !== undefined ? { color: opts.color } : {}),
    ...(opts.qrFile ? { qrFile: opts.qrFile } : {}),
  };
  const spec: PaymentSpec<CashInRequest, CashInResponse> = {
    ...CASHIN,
    async print({ body, data, raw, sandbox, entry }) {
      const created = await printCashIn({ res: data, raw, body, sandbox, entry }, show, ctx);
      if (!plan || created.attention) return created;
      // --watch: the charge (its QR code) is shown now, in text; the run's result is its last document
      if (ctx.output.mode === 'text') await renderNow(ctx, created);
      else created.after?.();
      const key = body.orderId ? { orderId: body.orderId } : { transactionId: data.transactionId };
      return watchOne(key, plan, ctx, {
        created: {
          label: `cash-in ${data.transactionId}`,
          result: created,
          entry,
          transactionId: data.transactionId,
          ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
        },
      });
    },
    async beforeSend(body) {
      // --watch with a postback URL on this machine: listen there before the charge exists (its postbacks hurry the wait)
      if (plan && body.postbackUrl) {
        const { listenForPostbacks } = await import('../../payment/watch-postbacks.js');
        const hints = await listenForPostbacks([body.postbackUrl]);
        if (hints) plan.postbacks = hints;
      }
    },
  };
  if (!opts.dryRun) plan = await watchPlan(opts, ctx, 'cashin');
  const precheck = () => {
    if (show.qrFile) checkWritable(show.qrFile, '--qr-file');
  };
  try {
    return await pay(spec, opts, await ctx.payments(), precheck);
  } finally {
    await plan?.postbacks?.close();
  }
}

/** A created cash-in's result: its document, and its text with the QR code drawn when stdout is a terminal (or `--qr`). */
async function printCashIn(
  created: { res: CashInResponse; raw: unknown; body: CashInRequest; sandbox: boolean; entry: number },
  opts: CashInShow,
  ctx: RunContext,
): Promise<Output> {
  const { res, raw, body, sandbox, entry } = created;
  const { checkCashInBrCode } = await import('../../pix/brcode-check.js');
  const check = checkCashInBrCode(res.qrCode, body.value);
  for (const w of check.warnings) logger.warn(w);
  const text = async () => {
    let text = formatCashIn(res, body.value, sandbox, body.orderId);
    if (check.note) text += `\n(${check.note})`;
    const draw = opts.qr ?? ctx.isTTY.stdout;
    if (draw && check.decoded.valid) {
      const { drawQr, qrInColor } = await import('../output/qr-terminal.js');
      const columns = qrColumns(ctx);
      const qr = drawQr(sanitizeText(res.qrCode, true), columns, { color: qrInColor(opts.color, ctx.env) });
      if (qr) text += `\n\n${qr}`;
      else logger.notice(t('cashin.tooNarrow', columns ?? 0));
    }
    return text;
  };
  // the PNG is written once the result is out: a file that cannot be written never hides the cash-in
  const writeQrFile = () => {
    if (!opts.qrFile) return;
    const png = decodeQrImage(res.qrCodeBase64);
    if (!png) throw new GatewayError(t('cashin.notPng', String(res.transactionId), opts.qrFile), { field: 'qrCodeBase64' }, 'bad_response');
    try {
      writeFileSync(opts.qrFile, png);
    } catch (err) {
      throw new UsageError(t('cashin.qrNotWritten', String(res.transactionId), opts.qrFile, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--qr-file' });
    }
    logger.notice(t('cashin.qrWritten', opts.qrFile));
  };
  const doc = cashInDoc(res, raw, { value: body.value, ...(body.orderId !== undefined ? { orderId: body.orderId } : {}), sandbox, ledgerEntry: entry });
  return output(doc, text, {
    created: `cash-in ${res.transactionId}`,
    after: writeQrFile,
    ...(check.attention.length ? { attention: { problems: check.attention, hint: t('cashin.attentionHint', String(res.transactionId)) } } : {}),
  });
}
