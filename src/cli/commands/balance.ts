/** `paycli balance`: definition (flags, help). Implementation: src/cli/run/balance.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Adds `balance` to the program. */
export function registerBalance(program: Program) {
  return program
    .command('balance')
    .description(t('help.balance.description'))
    .addHelpText(
      'after',
      `
${t('help.balance.after')}

${t('help.title.examples')}
  $ paycli sandbox &                                              ${t('help.example.standaloneSandbox')}
  $ paycli --base-url http://127.0.0.1:4010 balance
  $ paycli --base-url http://127.0.0.1:4010 balance --json
  $ paycli balance                ${t('help.balance.exit2')}`,
    )
    .action(lazyAction(() => import('../run/balance.js')));
}
