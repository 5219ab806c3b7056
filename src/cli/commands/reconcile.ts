/** `paycli reconcile`: definition (flags, help). Implementation: src/cli/run/reconcile.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/** Adds `reconcile` to the program. */
export function registerReconcile(program: Program) {
  return program
    .command('reconcile')
    .description('settle every payment whose outcome is unknown by asking the gateway for its order reference')
    .option('--since <when>', 'only payments recorded since then: 7d, 24h, 30m, or a date such as 2026-11-01')
    .addHelpText(
      'after',
      `
For each payment in the ledger whose outcome is unknown (a timeout, a reset, a 5xx, Ctrl-C after
sending), asks the gateway by its orderId (GET /transaction/get/by/orderId/{orderId}, with the
settings of the profile that sent it): found, it is recorded as created (ok) with the gateway's
transaction id; "Transaction not found", as not sent; otherwise it stays unknown, and the table
says why. A payment without an order reference cannot be asked about: check it at the gateway.
Exit 0 when nothing is left unknown, 4 otherwise.

Examples:
  $ paycli reconcile
  $ paycli reconcile --since 7d --json | jq '.entries[] | select(.result == "unknown")'`,
    )
    .action(lazyAction(() => import('../run/reconcile.js')));
}
