/**
 * `paycli balance`: `GET` the balance path (beyond the interface; config key `balance-path`) and
 * show balance, retention, to-anticipate and final balance in reais; `--json` as received.
 */
import { lookupGateway } from '../../gateway/client.js';
import { builtInSandboxError } from '../../gateway/lookup.js';
import { formatBalance } from '../../payment/format.js';
import { output, type Output } from '../../core/output.js';
import { balanceDoc, type BalanceDoc } from '../output/documents.js';
import type { CommandContext } from '../context.js';
import { balanceSchema } from '../../gateway/schemas.js';
import { isSandbox } from '../../gateway/endpoint.js';
import type { GlobalFlags } from '../../config/settings.js';
import { interruptSignal } from '../../core/terminal.js';

/** Runs `balance`. @throws the typed errors of src/core/errors.ts */
export async function run(opts: GlobalFlags, ctx: CommandContext): Promise<Output<BalanceDoc>> {
  const settings = await ctx.settings(opts, 'lookup');
  if (isSandbox(settings.endpoint)) throw builtInSandboxError();
  const interrupt = interruptSignal();
  let result;
  try {
    result = await lookupGateway({ path: settings.balancePath, schema: balanceSchema(), settings, baseUrl: settings.endpoint.url, signal: interrupt.signal });
  } finally {
    interrupt.dispose();
  }
  return output(balanceDoc(result.data, result.raw), () => formatBalance(result.data));
}
