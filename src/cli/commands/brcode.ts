/**
 * `paycli brcode decode|qr|create`: definition (flags, help). Implementation: src/cli/run/brcode.ts,
 * on the one decoder and rule set of src/pix/brcode.ts (docs/brcodes.md).
 */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { PIX_KEY_TYPE_NAMES } from '../../pix/pix-key-types.js';
import { t } from '../../core/i18n/index.js';

/** The Banco Central manual's example BR Code (a static code without amount), used in the examples. */
export const BCB_EXAMPLE = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

/** Adds `brcode` and its subcommands to the program. */
export function registerBrcode(program: Program) {
  const brcode = program
    .command('brcode')
    .description(t('help.brcode.description'))
    .addHelpText(
      'after',
      `
${t('help.brcode.after')}

${t('help.title.examples')}
  $ paycli brcode decode '${BCB_EXAMPLE}'
  $ paycli brcode create --key 123e4567-e12b-12d1-a456-426655440000 --name "Fulano de Tal" --city BRASILIA
  $ paycli brcode qr '${BCB_EXAMPLE}' --png qr.png && paycli brcode decode --image qr.png`,
    );
  brcode
    .command('decode [code]')
    .description(t('help.brcode.decode'))
    .option('--image <file.png>', t('help.brcode.image'))
    .addHelpText(
      'after',
      `
${t('help.brcode.decode.after')}

${t('help.title.examples')}
  $ paycli brcode decode '${BCB_EXAMPLE}'
  $ paycli --json brcode decode '${BCB_EXAMPLE}' | jq .merchantName
  $ echo '${BCB_EXAMPLE.slice(0, -4)}FFFF' | paycli brcode decode -   # exit 2`,
    )
    .action(lazyAction(() => import('../run/brcode.js').then((m) => ({ run: m.runDecode }))));
  brcode
    .command('qr [code]')
    .description(t('help.brcode.qr'))
    .option('--png <file>', t('help.brcode.png'))
    .option('--svg <file>', t('help.brcode.svg'))
    .addHelpText(
      'after',
      `
${t('help.brcode.qr.after')}

${t('help.title.examples')}
  $ paycli brcode qr '${BCB_EXAMPLE}'
  $ paycli brcode qr '${BCB_EXAMPLE}' --png qr.png --svg qr.svg`,
    )
    .action(lazyAction(() => import('../run/brcode.js').then((m) => ({ run: m.runQr }))));
  brcode
    .command('create')
    .description(t('help.brcode.create'))
    .option('--key <key>', t('help.brcode.key'))
    .option('--key-type <type>', t('help.brcode.keyType', PIX_KEY_TYPE_NAMES.join(', ')))
    .option('--value <cents>', t('help.brcode.value'))
    .option('--amount <reais>', t('help.brcode.amount'))
    .option('--name <merchant>', t('help.brcode.name'))
    .option('--city <city>', t('help.brcode.city'))
    .option('--txid <id>', t('help.brcode.txid'))
    .option('--info <text>', t('help.brcode.info'))
    .option('--png <file>', t('help.brcode.alsoPng'))
    .addHelpText(
      'after',
      `
${t('help.brcode.create.after')}

${t('help.title.examples')}
  $ paycli brcode create --key 123e4567-e12b-12d1-a456-426655440000 --name "Fulano de Tal" --city BRASILIA
  $ paycli brcode create --key fulano@example.com --amount 10,50 --name "Loja do Fulano" --city "São Paulo" --txid PEDIDO42
  $ paycli --json brcode create --key +5511987654321 --value 1000 --name Fulano --city Recife --png qr.png
  $ paycli brcode create --key 11987654374 --key-type phone --name Fulano --city Recife   ${t('help.brcode.sayWhich')}
  $ paycli brcode create --key 11987654374 --name Fulano --city Recife   ${t('help.brcode.ambiguous')}`,
    )
    .action(lazyAction(() => import('../run/brcode.js').then((m) => ({ run: m.runCreate }))));
  return brcode;
}
