/**
 * `paycli brcode decode|qr|create`: definition (flags, help). Implementation: src/cli/run/brcode.ts,
 * on the one decoder and rule set of src/pix/brcode.ts (docs/brcodes.md).
 */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { PIX_KEY_TYPE_NAMES } from '../../pix/pix-key-types.js';

/** The Banco Central manual's example BR Code (a static code without amount), used in the examples. */
export const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

/** Adds `brcode` and its subcommands to the program. */
export function registerBrcode(program: Program) {
  const brcode = program
    .command('brcode')
    .description('inspect, draw and create PIX BR Codes ("copia e cola" / QR code payloads)')
    .addHelpText(
      'after',
      `
Every check names its rule and where the rule comes from (Banco Central, Manual do BR Code;
Manual de Padrões para Iniciação do Pix; EMV QRCPS). Errors make a code invalid (exit 2);
warnings (field limits, structure) are listed, since some banks refuse such codes.

Examples:
  $ paycli brcode decode '${BCB_EXAMPLE}'
  $ paycli brcode create --key 123e4567-e12b-12d1-a456-426655440000 --name "Fulano de Tal" --city BRASILIA
  $ paycli brcode qr '${BCB_EXAMPLE}' --png qr.png && paycli brcode decode --image qr.png`,
    );
  brcode
    .command('decode [code]')
    .description('decode a BR Code (text, - for stdin, or --image) and list every problem with its rule')
    .option('--image <file.png>', 'read the BR Code from the QR code in a PNG image')
    .addHelpText(
      'after',
      `
Prints every field by name: static (a PIX key) or dynamic (a location URL, whose payload holds the
amount), key or URL, merchant name and city, amount in reais, txid, additional information, the
Pix Automático recurrence URL, and objects it does not know, kept as read. --json for scripts.

Exit codes: 0 a valid code (warnings may be listed); 2 an invalid code (problems listed), no QR
code in the image, or nothing to decode.

Examples:
  $ paycli brcode decode '${BCB_EXAMPLE}'
  $ paycli --json brcode decode '${BCB_EXAMPLE}' | jq .merchantName
  $ echo '${BCB_EXAMPLE.slice(0, -4)}FFFF' | paycli brcode decode -   # exit 2`,
    )
    .action(lazyAction(() => import('../run/brcode.js').then((m) => ({ run: m.runDecode }))));
  brcode
    .command('qr [code]')
    .description('draw a BR Code as a QR code in the terminal, or write it as PNG or SVG')
    .option('--png <file>', 'write the QR code as a PNG image')
    .option('--svg <file>', 'write the QR code as an SVG image')
    .addHelpText(
      'after',
      `
The code is checked first: an invalid one is not drawn (exit 2). Images carry the four-module
quiet zone readers need. In a terminal narrower than the code nothing is drawn (use --png).

Examples:
  $ paycli brcode qr '${BCB_EXAMPLE}'
  $ paycli brcode qr '${BCB_EXAMPLE}' --png qr.png --svg qr.svg`,
    )
    .action(lazyAction(() => import('../run/brcode.js').then((m) => ({ run: m.runQr }))));
  brcode
    .command('create')
    .description("create a static BR Code for the merchant's own PIX key, printed and drawn")
    .option('--key <key>', 'PIX key that receives: CPF, CNPJ, +55 phone, e-mail or random key')
    .option('--key-type <type>', `the type of --key, needed when 11 bare digits are both a CPF and a mobile number: ${PIX_KEY_TYPE_NAMES.join(', ')}`)
    .option('--value <cents>', 'fixed amount in cents (1000 = R$ 10,00); omit it and the payer types the amount')
    .option('--amount <reais>', 'fixed amount in reais instead of --value: 15, 15,50, 1.234,56')
    .option('--name <merchant>', 'merchant name, at most 25 characters (accents are dropped)')
    .option('--city <city>', 'merchant city, at most 15 characters (accents are dropped)')
    .option('--txid <id>', 'reference label: 1-25 letters and digits (default *** = none)')
    .option('--info <text>', 'additional information shown to the payer')
    .option('--png <file>', 'also write the QR code as a PNG image')
    .addHelpText(
      'after',
      `
The code is static (no point of initiation object, as the Banco Central manual's example): it can
be paid more than once. With the manual's inputs it is byte-identical to the manual's example.
The type of --key is read from its form; 11 bare digits that are both a valid CPF and a valid
mobile number need --key-type.

Examples:
  $ paycli brcode create --key 123e4567-e12b-12d1-a456-426655440000 --name "Fulano de Tal" --city BRASILIA
  $ paycli brcode create --key fulano@example.com --amount 10,50 --name "Loja do Fulano" --city "São Paulo" --txid PEDIDO42
  $ paycli --json brcode create --key +5511987654321 --value 1000 --name Fulano --city Recife --png qr.png
  $ paycli brcode create --key 11987654374 --key-type phone --name Fulano --city Recife   # both a CPF and a mobile: say which
  $ paycli brcode create --key 11987654374 --name Fulano --city Recife   # exit 2: ambiguous without --key-type`,
    )
    .action(lazyAction(() => import('../run/brcode.js').then((m) => ({ run: m.runCreate }))));
  return brcode;
}
