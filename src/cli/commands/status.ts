/** `paycli status`: definition (arguments, flags, help). Implementation: src/cli/run/status.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/** Adds `status` to the program. */
export function registerStatus(program: Program) {
  return program
    .command('status')
    .description("ask the gateway about one transaction, by its id or by your order reference (beyond the interface)")
    .argument('[transactionId]', "the gateway's transaction id (what cashin/cashout printed)")
    .option('--order-id <ref>', 'look it up by the order reference sent as orderId instead')
    .addHelpText(
      'after',
      `
Sends GET /transaction/get/by/id/{transactionId} or GET /transaction/get/by/orderId/{orderId}
(the gateway family's documented lookups, not part of the interface; other paths per profile with
config keys status-path and status-by-order-path, another host with lookup-base-url). Shows the
kind (cash-in or cash-out), status word, amount in reais, end-to-end id, processed time, and the
payer or the recipient. --json prints the gateway's document as received. A lookup changes
nothing, so paycli asks again (3 tries in all) after a network failure or a 502/503/504.
"Transaction not found" exits 1; other exit codes as for cashin/cashout.

Examples:
  $ paycli sandbox &                                              # the standalone sandbox on 127.0.0.1:4010
  $ id=$(paycli --base-url http://127.0.0.1:4010 cashout --value 1550 --pix-key-type email --pix-key fulano@example.com \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321 \\
      --order-id pedido-1234 --yes --json | jq .transactionId)
  $ paycli --base-url http://127.0.0.1:4010 status "$id"
  $ paycli --base-url http://127.0.0.1:4010 status --order-id pedido-1234 --json
  $ paycli --base-url http://127.0.0.1:4010 status 404404         # exit 1: Transaction not found`,
    )
    .action(lazyAction(() => import('../run/status.js')));
}
