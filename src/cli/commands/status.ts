/** `paycli status`: definition (arguments, flags, help). Implementation: src/cli/run/status.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Adds `status` to the program. */
export function registerStatus(program: Program) {
  return program
    .command('status')
    .description(t('help.status.description'))
    .argument('[transactionId]', t('help.status.argument'))
    .option('--order-id <ref>', t('help.status.orderId'))
    .option('--watch', t('help.watch'))
    .option('--watch-timeout <duration>', t('help.watchTimeout'))
    .option('--until <state>', t('help.until'))
    .addHelpText(
      'after',
      `
${t('help.status.after')}

${t('help.title.examples')}
  $ paycli sandbox &                                              ${t('help.example.standaloneSandbox')}
  $ id=$(paycli --base-url http://127.0.0.1:4010 cashout --value 1550 --pix-key-type email --pix-key fulano@example.com \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321 \\
      --order-id pedido-1234 --yes --json | jq .transactionId)
  $ paycli --base-url http://127.0.0.1:4010 status "$id"
  $ paycli --base-url http://127.0.0.1:4010 status --order-id pedido-1234 --json
  $ paycli --base-url http://127.0.0.1:4010 status --order-id pedido-1234 --watch --until failed --watch-timeout 2s   # exit 6
  $ paycli --base-url http://127.0.0.1:4010 status 404404         ${t('help.status.exit1')}`,
    )
    .action(lazyAction(() => import('../run/status.js')));
}
