/** `paycli ledger migrate` and `paycli ledger push`: definition (flags, help). Implementation: src/cli/run/ledger.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Adds `ledger` (the team ledger's upkeep) to the program. */
export function registerLedger(program: Program) {
  const ledger = program
    .command('ledger')
    .description(t('help.ledger.description'))
    .addHelpText('after', `\n${t('help.ledger.after')}`);

  ledger
    .command('migrate')
    .description(t('help.ledger.migrate'))
    .addHelpText('after', `\n${t('help.ledger.migrate.after')}`)
    .action(lazyAction(() => import('../run/ledger.js')));

  ledger
    .command('push')
    .description(t('help.ledger.push'))
    .addHelpText('after', `\n${t('help.ledger.push.after')}`)
    .action(lazyAction(() => import('../run/ledger.js')));
  return ledger;
}
