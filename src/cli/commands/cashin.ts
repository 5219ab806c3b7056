/** `paycli cashin`: definition (flags, help). Implementation: src/cli/run/cashin.ts. */
import { Option } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction, type RunOptions } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** The canonical cash-in example, shown in `paycli --help` and `paycli cashin --help`. */
export const cashinExample = () => `  $ paycli cashin --value 1000 --payer-name "Fulano de Tal" --payer-document 123.456.789-09 \\
      --payer-email fulano@example.com --payer-phone 11987654321 \\
      --product-name Camiseta --product-description "Camiseta azul M"`;

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** The `cashin` command with its flags and help, no action: the source of its run options' type. */
export function cashinCommand(program: Program) {
  return program
    .command('cashin')
    .description(t('help.cashin.description'))
    .option('--value <cents>', t('help.value'))
    .option('--amount <reais>', t('help.amount'))
    .option('--payer-name <name>', t('help.cashin.payerName'))
    .option('--payer-document <cpf-or-cnpj>', t('help.cashin.payerDocument'))
    .option('--payer-email <email>', t('help.cashin.payerEmail'))
    .option('--payer-phone <phone>', t('help.cashin.payerPhone'))
    .option('--product-name <name>', t('help.cashin.productName'))
    .option('--product-description <text>', t('help.cashin.productDescription'))
    .option('--postback-url <url>', t('help.cashin.postbackUrl'))
    .option('--split <clientId:cents>', t('help.cashin.split'), collect)
    .option('--order-id <ref>', t('help.cashin.orderId'))
    .option('--input <file>', t('help.input'))
    .addOption(new Option('--encoding <encoding>', t('encoding.flag')).choices(['utf-8', 'windows-1252', 'latin1']))
    .option('--dry-run', t('help.dryRun'))
    .option('--qr', t('help.cashin.qr'))
    .option('--no-qr', t('help.cashin.noQr'))
    .option('--qr-file <path>', t('help.cashin.qrFile'))
    .option('--batch <file>', t('help.cashin.batch'))
    .option('--batch-format <format>', t('help.batchFormat'))
    .option('--qr-dir <dir>', t('help.cashin.qrDir'))
    .option('--concurrency <n>', t('help.concurrency'))
    .option('--rate <per-second>', t('help.rate'))
    .option('--results <file>', t('help.results'))
    .addOption(new Option('--csv-dialect <dialect>', t('csv.dialectFlagBatch')).choices(['br', 'intl']))
    .option('--retry-refused', t('help.retryRefused'))
    .option('--wait', t('help.wait'))
    .option('--watch', t('help.watch'))
    .option('--watch-timeout <duration>', t('help.watchTimeout'))
    .option('--until <state>', t('help.until'))
    .option('--allow-duplicate', t('help.cashin.allowDuplicate'))
    .option('-y, --yes', t('help.cashin.yes'))
    .addHelpText(
      'after',
      `
${t('help.title.examples')}
${cashinExample()}
  $ paycli cashin --input "$(paycli help examples)/order.json" --amount 25,90 --split 123e4567-e12b-12d1-a456-426655440000:500 --qr-file qr.png
  $ paycli cashin --input "$(paycli help examples)/order.json" --json | jq -r .qrCode
  $ paycli cashin --amount 25,90 --payer-name "Fulano de Tal" --payer-document 123.456.789-09 \\
      --payer-email fulano@example.com --payer-phone 11987654321 --product-name Camiseta \\
      --product-description "Camiseta azul M" --order-id pedido-1234 --no-qr
  $ paycli cashin                       ${t('help.cashin.promptsComment')}
  $ cp "$(paycli help examples)/charges.csv" . && paycli cashin --batch charges.csv --qr-dir qr --yes --json`,
    );
}

/** Adds `cashin` to the program. */
export function registerCashin(program: Program) {
  // A batch run loads only what it needs until it has something to check or send (src/cli/batch/run.ts).
  return cashinCommand(program).action(
    lazyAction(async (opts) => {
      if (opts.batch !== undefined) return import('../batch/run.js').then((m) => m.batchRunModule('cashin'));
      // A team ledger starts connecting before the payment's code loads (src/ledger/team.ts).
      if (!opts.dryRun) await (await import('../../ledger/team.js')).prepareLedgerEarly(opts.profile);
      return import('../run/cashin.js');
    }),
  );
}

/** What src/cli/run/cashin.ts gets: the flags of `cashin` and the global ones (src/cli/lazy.ts). */
export type CashinFlags = RunOptions<ReturnType<typeof cashinCommand>>;
