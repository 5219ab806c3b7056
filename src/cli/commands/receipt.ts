/** `paycli receipt`: definition (arguments, flags, help). Implementation: src/cli/run/receipt.ts. */
import { Option } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Adds `receipt` to the program. */
export function registerReceipt(program: Program) {
  return program
    .command('receipt')
    .description(t('help.receipt.description'))
    .argument('[transactionId]', t('help.receipt.argument'))
    .option('--order-id <ref>', t('help.receipt.orderId'))
    .addOption(new Option('--format <format>', t('help.receipt.format')).choices(['pdf', 'png', 'json']))
    .addOption(new Option('--paper <paper>', t('help.receipt.paper')).choices(['a4', '80mm']))
    .option('-o, --output <file>', t('help.receipt.output'))
    .addHelpText(
      'after',
      `
${t('help.receipt.after')}

${t('help.title.examples')}
  $ paycli receipt 9029                                   ${t('help.receipt.example.pdf')}
  $ paycli receipt --order-id pedido-1234 --paper 80mm -o - | lp -d termica
  $ paycli receipt 9029 --format png -o comprovante.png
  $ paycli receipt --order-id pedido-1234 --json | jq .recipient
  $ paycli --lang pt-BR receipt 9029                      ${t('help.receipt.example.pt')}`,
    )
    .action(lazyAction(() => import('../run/receipt.js')));
}
