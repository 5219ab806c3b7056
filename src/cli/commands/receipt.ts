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
  $ paycli cashout --amount 15,50 --pix-key-type cpf --pix-key 123.456.789-09 --person-name "Fulano de Tal" \\
      --person-email fulano@example.com --person-phone 11987654321 --order-id pedido-1234 --yes
  $ paycli receipt --order-id pedido-1234                 ${t('help.receipt.example.pdf')}
  $ paycli receipt --order-id pedido-1234 --paper 80mm --format png -o comprovante.png
  $ paycli receipt --order-id pedido-1234 --json | jq .recipient
  $ paycli --lang pt-BR receipt --order-id pedido-1234 -o - > comprovante.pdf   ${t('help.receipt.example.pt')}
  $ paycli receipt 404404                                 ${t('help.receipt.example.none')}`,
    )
    .action(lazyAction(() => import('../run/receipt.js')));
}
