/** `paycli balance`: definition (flags, help). Implementation: src/cli/run/balance.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/** Adds `balance` to the program. */
export function registerBalance(program: Program) {
  return program
    .command('balance')
    .description("show the account's balance at the gateway (beyond the interface)")
    .addHelpText(
      'after',
      `
Sends GET /transaction/get/balance (the gateway family's documented balance, not part of the
interface; another path with config key balance-path, another host with lookup-base-url) and
shows the balance, the retention, the amount to anticipate and the final balance in reais.
--json prints the gateway's document as received (integer cents).

Examples:
  $ paycli sandbox &                                              # the standalone sandbox on 127.0.0.1:4010
  $ paycli --base-url http://127.0.0.1:4010 balance
  $ paycli --base-url http://127.0.0.1:4010 balance --json
  $ paycli balance                # exit 2: the built-in sandbox keeps no balance between runs`,
    )
    .action(lazyAction(() => import('../run/balance.js')));
}
