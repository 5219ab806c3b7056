/** `paycli cashout`: definition (flags, help). Implementation: src/cli/run/cashout.ts. */
import { InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction, type RunOptions } from '../lazy.js';
import { parsePixKeyType, PIX_KEY_TYPE_NAMES, PIX_KEY_TYPES, pixKeyTypeHelp } from '../../pix/pix-key-types.js';
import { t } from '../../core/i18n/index.js';

/**
 * `--pix-key-type`: any name of the key-type table (src/pix/pix-key-types.ts: `email`, `EVP`,
 * `TELEFONE`, `RANDOM_KEY`…) or the interface number, any letter case; given to the command as
 * paycli's short name. Help and completion offer the short names.
 */
function pixKeyTypeOption(): Option {
  const opt = new Option('--pix-key-type <type>', t('help.cashout.pixKeyType')).argParser((v: string) => {
    const type = parsePixKeyType(v);
    if (type === null) throw new InvalidArgumentError(t('pixkey.useOneOf', pixKeyTypeHelp()));
    return PIX_KEY_TYPES[type].name;
  });
  opt.argChoices = [...PIX_KEY_TYPE_NAMES];
  return opt;
}

/** The `cashout` command with its flags and help, no action: the source of its run options' type. */
export function cashoutCommand(program: Program) {
  return program
    .command('cashout')
    .description(t('help.cashout.description'))
    .option('--value <cents>', t('help.value'))
    .option('--amount <reais>', t('help.amount'))
    .addOption(pixKeyTypeOption())
    .option('--pix-key <key>', t('help.cashout.pixKey'))
    .option('--cpf-cnpj <document>', t('help.cashout.cpfCnpj'))
    .option('--person-name <name>', t('help.cashout.personName'))
    .option('--person-email <email>', t('help.cashout.personEmail'))
    .option('--person-phone <phone>', t('help.cashout.personPhone'))
    .option('--order-id <ref>', t('help.cashout.orderId'))
    .option('--postback-url <url>', t('help.cashout.postbackUrl'))
    .option('--input <file>', t('help.input'))
    .addOption(new Option('--encoding <encoding>', t('encoding.flag')).choices(['utf-8', 'windows-1252', 'latin1']))
    .option('--dry-run', t('help.dryRun'))
    .option('-y, --yes', t('help.cashout.yes'))
    .option('--allow-duplicate', t('help.cashout.allowDuplicate'))
    .option('--batch <file>', t('help.cashout.batch'))
    .option('--batch-format <format>', t('help.batchFormat'))
    .option('--concurrency <n>', t('help.concurrency'))
    .option('--rate <per-second>', t('help.rate'))
    .option('--results <file>', t('help.results'))
    .addOption(new Option('--csv-dialect <dialect>', t('csv.dialectFlagBatch')).choices(['br', 'intl']))
    .option('--retry-refused', t('help.retryRefused'))
    .option('--wait', t('help.wait'))
    .addHelpText(
      'after',
      `
${t('help.title.examples')}
  $ paycli cashout --value 1550 --pix-key-type email --pix-key fulano@example.com \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321   ${t('help.cashout.confirmComment')}
  $ paycli cashout --amount 15,50 --pix-key-type cpf --pix-key 123.456.789-09 \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321 --yes --json transactionId,status
  $ paycli cashout --input "$(paycli help examples)/payout.json" --dry-run
  $ paycli cashout --amount 15,50 --pix-key-type email --pix-key fulano@example.com \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321 \\
      --order-id pedido-1234 --postback-url https://example.com/pix/postback --yes
  $ cp "$(paycli help examples)/payouts.csv" . && paycli cashout --batch payouts.csv --dry-run
  $ paycli cashout --batch payouts.csv --concurrency 8 --yes`,
    );
}

/** Adds `cashout` to the program. */
export function registerCashout(program: Program) {
  // A batch run loads only what it needs until it has something to check or send (src/cli/batch/run.ts).
  return cashoutCommand(program).action(
    lazyAction(async (opts) => {
      if (opts.batch !== undefined) return import('../batch/run.js').then((m) => m.batchRunModule('cashout'));
      // A team ledger starts connecting before the payment's code loads (src/ledger/team.ts).
      if (!opts.dryRun) await (await import('../../ledger/team.js')).prepareLedgerEarly(opts.profile);
      return import('../run/cashout.js');
    }),
  );
}

/** What src/cli/run/cashout.ts gets: the flags of `cashout` and the global ones (src/cli/lazy.ts). */
export type CashoutFlags = RunOptions<ReturnType<typeof cashoutCommand>>;
