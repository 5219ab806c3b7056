/**
 * `paycli status <transactionId>` / `paycli status --order-id <ref>`: one lookup at the gateway
 * (src/gateway/lookup.ts), shown as text (src/cli/output/format.ts) or, with `--json`, the gateway's document
 * as received. "Transaction not found" is exit 1 with the gateway's message; the other failures
 * map to exit codes as for the POSTs (src/gateway/client.ts).
 */
import { GatewayRefusedError, UsageError } from '../../core/errors.js';
import { describeKey, findTransaction, rememberUnsupported, type LookupKey } from '../../gateway/lookup.js';
import { orderIdProblem } from '../../gateway/order-id.js';
import { formatLookup } from '../../payment/format.js';
import { output, type Output } from '../../core/output.js';
import { transactionDoc, type TransactionDoc } from '../output/documents.js';
import type { CommandContext } from '../context.js';
import type { GlobalFlags } from '../../config/settings.js';
import { interruptSignal } from '../../core/terminal.js';
import { t } from '../../core/i18n/index.js';
import { watchOne, watchPlan, type WatchFlags } from './watch.js';

/** Options of `status`: its flags plus the globals. */
export type StatusOptions = GlobalFlags & WatchFlags & { orderId?: string };

/**
 * The lookup key from the argument or `--order-id` (exactly one).
 * @throws UsageError (exit 2) when both or neither are given, or one is malformed
 */
export function statusKey(transactionId: string | undefined, orderId: string | undefined): LookupKey {
  if (transactionId !== undefined && orderId !== undefined) throw new UsageError(t('status.both'), { field: '--order-id' });
  if (orderId !== undefined) {
    const ref = orderId.trim();
    const problem = orderIdProblem(ref);
    if (problem) throw new UsageError(t('status.orderIdProblem', problem), { field: '--order-id' });
    return { orderId: ref };
  }
  if (transactionId === undefined) throw new UsageError(t('status.none'), { field: 'transactionId', hint: t('status.noneHint') });
  const id = transactionId.trim();
  if (!/^[0-9]{1,15}$/.test(id)) throw new UsageError(t('status.notNumber', transactionId), { field: 'transactionId' });
  return { transactionId: Number(id) };
}

/** Runs `status`. @throws the typed errors of src/core/errors.ts */
export async function run(opts: StatusOptions, ctx: CommandContext): Promise<Output<TransactionDoc> | Output> {
  const key = statusKey(ctx.args[0], opts.orderId);
  const plan = await watchPlan(opts, ctx);
  const settings = await ctx.settings(opts, 'lookup');
  const interrupt = interruptSignal();
  let result;
  try {
    result = await findTransaction(settings, key, { signal: interrupt.signal });
  } finally {
    interrupt.dispose();
  }
  if (result.kind === 'unsupported') {
    throw new GatewayRefusedError(t('status.noLookup', result.answer), { hint: t('status.noLookupHint') });
  }
  // The gateway answers lookups: forget an earlier "no lookup path" for this profile.
  rememberUnsupported(settings, false);
  if (result.kind === 'not_found') throw new GatewayRefusedError(t('status.notFound', result.message, describeKey(key)), { status: 404 }, 'not_found');
  const { data, raw } = result;
  if (plan) return watchOne(key, plan, ctx, { first: { data, raw } });
  return output(transactionDoc(data, raw), () => formatLookup(data));
}
