/**
 * `paycli balance`: `GET` the balance path (beyond the interface; config key `balance-path`) and
 * show balance, retention, to-anticipate and final balance in reais; `--json` as received.
 */
import { lookupGateway } from '../client.js';
import { builtInSandboxError } from '../lookup.js';
import { formatBalance } from '../output/format.js';
import { printResult } from '../output/logger.js';
import { sanitizeJson } from '../output/sanitize.js';
import { balanceSchema } from '../schemas.js';
import { isSandbox } from '../endpoint.js';
import type { GlobalFlags } from '../settings.js';
import { interruptSignal } from '../terminal.js';
import { settingsFor } from '../settings.js';

/** Runs `balance`. @throws the typed errors of src/errors.ts */
export async function run(opts: GlobalFlags): Promise<void> {
  const settings = settingsFor(opts, 'lookup');
  if (isSandbox(settings.endpoint)) throw builtInSandboxError();
  const interrupt = interruptSignal();
  let result;
  try {
    result = await lookupGateway({ path: settings.balancePath, schema: balanceSchema(), settings, baseUrl: settings.endpoint.url, signal: interrupt.signal });
  } finally {
    interrupt.dispose();
  }
  printResult(opts.json ? { json: sanitizeJson(result.raw) } : formatBalance(result.data));
}
