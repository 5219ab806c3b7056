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
    .addHelpText(
      'after',
      `
Applies, in order and each in its own transaction, the schema versions the team ledger lacks; two
machines migrating at once apply each once. Exit 0 when it is at this paycli's version.

Examples:
  $ paycli ledger migrate
  $ PAYCLI_LEDGER_URL=postgres://admin@db.internal/payments paycli ledger migrate --json`,
    )
    .action(lazyAction(() => import('../run/ledger.js')));

  ledger
    .command('push')
    .description("copy this machine's local ledger into the team ledger (entries it holds already are skipped)")
    .addHelpText(
      'after',
      `
Entries are matched by their uuid: pushing twice adds nothing. Refused (exit 2) while a local
paycli still sends an entry. --json prints {"entries": N, "added": M}.

Examples:
  $ paycli ledger push
  $ paycli ledger push --profile payroll --json`,
    )
    .action(lazyAction(() => import('../run/ledger.js')));
  return ledger;
}
