/** `paycli cashin`: definition (flags, help). Implementation: src/cli/run/cashin.ts. */
import type { Program } from '../program.js';
import { lazyAction, type RunOptions } from '../lazy.js';

/** The canonical cash-in example, shown in `paycli --help` and `paycli cashin --help`. */
export const cashinExample = () => `  $ paycli cashin --value 1000 --payer-name "Fulano de Tal" --payer-document 123.456.789-09 \\
      --payer-email fulano@example.com --payer-phone 11987654321 \\
      --product-name Camiseta --product-description "Camiseta azul M"`;

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** The `cashin` command with its flags and help, no action: the source of its run options' type. */
export function cashinCommand(program: Program) {
  return program
    .command('cashin')
    .description('create a PIX cash-in: the gateway answers with a BR Code (QR code) for the payer to pay')
    .option('--value <cents>', 'amount in cents (1000 = R$ 10,00)')
    .option('--amount <reais>', 'amount in reais instead of --value: 15, 15,50, 1.234,56')
    .option('--payer-name <name>', "payer's name")
    .option('--payer-document <cpf-or-cnpj>', "payer's CPF or CNPJ (punctuation allowed; alphanumeric CNPJ too)")
    .option('--payer-email <email>', "payer's e-mail")
    .option('--payer-phone <phone>', "payer's phone with DDD, e.g. 11987654321")
    .option('--product-name <name>', 'name of the product or service')
    .option('--product-description <text>', 'description of the product or service')
    .option('--postback-url <url>', 'URL that receives the notification when the cash-in changes state')
    .option('--split <clientId:cents>', 'give part of the amount to another client (repeatable)', collect)
    .option('--order-id <ref>', 'your order reference, sent as orderId (default: a new paycli-<ULID>; config key order-id)')
    .option('--input <file>', 'read the request body (interface field names) from a JSON file, or - for stdin; flags override it')
    .option('--dry-run', 'validate and print the request that would be sent, without sending it')
    .option('--qr', 'draw the QR code in the terminal even when stdout is not a terminal')
    .option('--no-qr', 'never draw the QR code')
    .option('--qr-file <path>', 'write the QR code image (PNG) to this file')
    .option('--batch <file>', 'create one cash-in per row of a CSV or JSON Lines file, or - for stdin (docs/batch-runs.md)')
    .option('--batch-format <format>', 'format of the --batch file when its name does not say: csv or jsonl')
    .option('--qr-dir <dir>', 'with --batch: write each QR code image (PNG) into this folder')
    .option('--concurrency <n>', 'with --batch: requests in flight at once, 1-32 (default 4)')
    .option('--rate <per-second>', 'with --batch: start at most this many requests per second')
    .option('--results <file>', 'with --batch: write the results here, .csv or .jsonl (default <file>.results.csv; never overwritten)')
    .option('--retry-refused', 'with --batch: send again the rows an earlier run of the same file saw refused')
    .option('--wait', 'with --batch: when another run of the same file at the same gateway is still running (or stopped), wait for it to end, then continue (default: exit 2, batch_running)')
    .option('--allow-duplicate', 'with --batch: allow two identical rows')
    .option('-y, --yes', 'with --batch: do not ask for confirmation (required when not in a terminal)')
    .addHelpText(
      'after',
      `
Examples:
${cashinExample()}
  $ paycli cashin --input "$(paycli help examples)/order.json" --amount 25,90 --split 123e4567-e12b-12d1-a456-426655440000:500 --qr-file qr.png
  $ paycli cashin --input "$(paycli help examples)/order.json" --json | jq -r .qrCode
  $ paycli cashin --amount 25,90 --payer-name "Fulano de Tal" --payer-document 123.456.789-09 \\
      --payer-email fulano@example.com --payer-phone 11987654321 --product-name Camiseta \\
      --product-description "Camiseta azul M" --order-id pedido-1234 --no-qr
  $ paycli cashin                       # in a terminal: prompts for every missing field
  $ cp "$(paycli help examples)/charges.csv" . && paycli cashin --batch charges.csv --qr-dir qr --yes --json`,
    );
}

/** Adds `cashin` to the program. */
export function registerCashin(program: Program) {
  // A batch run loads only what it needs until it has something to check or send (src/cli/batch/run.ts).
  return cashinCommand(program).action(lazyAction((opts) => (opts.batch !== undefined ? import('../batch/run.js').then((m) => m.batchRunModule('cashin')) : import('../run/cashin.js'))));
}

/** What src/cli/run/cashin.ts gets: the flags of `cashin` and the global ones (src/cli/lazy.ts). */
export type CashinFlags = RunOptions<ReturnType<typeof cashinCommand>>;
