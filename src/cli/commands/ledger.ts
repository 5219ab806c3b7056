/** `paycli ledger migrate` and `paycli ledger push`: definition (flags, help). Implementation: src/cli/run/ledger.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/** Adds `ledger` (the team ledger's upkeep) to the program. */
export function registerLedger(program: Program) {
  const ledger = program
    .command('ledger')
    .description('the team ledger on PostgreSQL (config key ledger-url): create or update its schema, copy a local ledger into it')
    .addHelpText(
      'after',
      `
With ledger-url set (per profile, or PAYCLI_LEDGER_URL), every machine that pays records in one
PostgreSQL database, so the duplicate guard, order references and batch runs hold across machines.
Payment commands never change a shared database's schema: run \`paycli ledger migrate\` once per
new paycli version.

Examples:
  $ paycli config set ledger-url postgres://payments@db.internal:5432/payments
  $ paycli config set ledger-password          # in a terminal: asks for it, hidden
  $ paycli ledger migrate
  $ paycli ledger push`,
    );

  ledger
    .command('migrate')
    .description('create the team ledger schema, or bring it up to this paycli version')
    .action(lazyAction(() => import('../run/ledger.js')));

  ledger
    .command('push')
    .description("copy this machine's local ledger into the team ledger (entries it holds already are skipped)")
    .action(lazyAction(() => import('../run/ledger.js')));
  return ledger;
}
