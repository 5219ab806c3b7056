/** `paycli reconcile`: definition (flags, help). Implementation: src/cli/run/reconcile.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Adds `reconcile` to the program. */
export function registerReconcile(program: Program) {
  return program
    .command('reconcile')
    .description(t('help.reconcile.description'))
    .option('--since <when>', t('help.reconcile.since'))
    .addHelpText(
      'after',
      `
${t('help.reconcile.after')}

${t('help.title.examples')}
  $ paycli reconcile
  $ paycli reconcile --since 7d --json | jq '.entries[] | select(.result == "unknown")'`,
    )
    .action(lazyAction(() => import('../run/reconcile.js')));
}
