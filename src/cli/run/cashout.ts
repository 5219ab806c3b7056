/**
 * `paycli cashout`: a cash-out through the payment pipeline (src/payment/pipeline.ts). What is
 * particular to a cash-out is data here: its fields and schemas, what the ledger keeps, that an
 * identical one is refused and that it must be confirmed, its summary and its output. A cash-out
 * moves money: it is never retried, and a failure after sending says the outcome is unknown.
 */
import { cashOutAnswerProblems } from '../../gateway/answers.js';
import { CASHOUT_FIELDS } from '../../gateway/fields.js';
import { formatReais } from '../../pix/money.js';
import { formatCashOut, formatLookup } from '../../payment/format.js';
import { output, type Output } from '../../core/output.js';
import { cashOutDoc, transactionDoc } from '../output/documents.js';
import type { CommandContext } from '../context.js';
import type { CashOutRequest, CashOutResponse } from '../../gateway/schemas.js';
import { PAYMENT_SCHEMAS } from '../../gateway/payment-schemas.js';
import { CASHOUT_PATH } from '../../gateway/contract.js';
import { endpointHost, isSandbox } from '../../gateway/endpoint.js';
import type { Settings } from '../../config/settings.js';
import { PIX_KEY_TYPES } from '../../pix/pixkey.js';
import type { PaymentSpec } from '../../payment/pipeline.js';
import { pay } from './payment.js';
import type { CashoutFlags } from '../commands/cashout.js';
import { t } from '../../core/i18n/index.js';

/** The run options of `cashout`, derived from its definition (src/cli/commands/cashout.ts). */
export type CashoutOptions = CashoutFlags;

const row = (label: string, value: string) => `${label.padEnd(12)}${value}`;

/** The summary shown before a cash-out is confirmed. */
export function cashOutSummary(body: CashOutRequest, settings: Pick<Settings, 'endpoint' | 'profile'>): string {
  const type = PIX_KEY_TYPES[body.pixKeyType];
  return [
    row(t('summary.gateway'), isSandbox(settings.endpoint) ? t('summary.sandbox') : t('summary.profile', endpointHost(settings.endpoint), settings.profile)),
    row(t('summary.amount'), formatReais(body.value)),
    row(t('summary.pixKey'), `${body.pixKey} (${t(`pixkey.shown.${type.name}`)})`),
    row(t('summary.recipient'), `${body.person.name} <${body.person.email}>, ${body.person.phone}`),
    ...(body.cpfCnpj ? [row('CPF/CNPJ', body.cpfCnpj)] : []),
    ...(body.orderId ? [row(t('summary.orderId'), body.orderId)] : []),
  ].join('\n');
}

/** A cash-out as the payment pipeline runs it. */
export const CASHOUT: PaymentSpec<CashOutRequest, CashOutResponse> = {
  kind: 'cashout',
  noun: 'cash-out',
  path: CASHOUT_PATH,
  fields: CASHOUT_FIELDS,
  // zod is loaded only for a body or an answer its check without zod does not accept (docs/speed.md "A cash-out without zod").
  requestSchema: PAYMENT_SCHEMAS.cashout.request,
  responseSchema: PAYMENT_SCHEMAS.cashout.response,
  ledgerFacts: (body) => ({ pixKeyType: body.pixKeyType, pixKey: body.pixKey, recipient: body.person.name }),
  guarded: true,
  summary: cashOutSummary,
  get unknownAdvice() {
    return t('advice.cashout');
  },
  async print({ body, data, raw, sandbox, entry }) {
    // An answer wrong about money (src/gateway/answers.ts): printed and recorded as created, then exit 6.
    const problems = cashOutAnswerProblems(body.value, data);
    return output(
      cashOutDoc(data, raw, { ...(body.orderId !== undefined ? { orderId: body.orderId } : {}), sandbox, ledgerEntry: entry }),
      () => formatCashOut(data, sandbox, body.orderId),
      {
        created: `cash-out ${data.transactionId}`,
        ...(problems.length ? { attention: { problems, hint: t('cashout.attentionHint', String(data.transactionId)) } } : {}),
      },
    );
  },
  printFound({ body, settled, answer, entry }) {
    const doc = settled.found;
    const problems: string[] = [];
    if (doc.object && doc.object !== 'transfer') problems.push(`the gateway says order ${body.orderId} is a ${doc.object}, not a transfer`);
    if (doc.value !== body.value) problems.push(`the gateway holds ${formatReais(doc.value)} for it, not the ${formatReais(body.value)} sent`);
    return output(
      transactionDoc(doc, settled.raw, { foundByOrderId: true, ledgerEntry: entry }),
      () => formatLookup(doc, `Cash-out created (${answer}; found at the gateway by its order reference)`),
      {
        created: `cash-out ${doc.transactionId}`,
        ...(problems.length ? { attention: { problems } } : {}),
      },
    );
  },
};

/**
 * Runs a cash-out: its command line narrowed into a typed request and settings (src/cli/run/payment.ts),
 * then the pipeline. @throws the typed errors of src/core/errors.ts
 */
export async function run(opts: CashoutOptions, ctx: CommandContext): Promise<Output> {
  return pay(CASHOUT, opts, await ctx.payments());
}
