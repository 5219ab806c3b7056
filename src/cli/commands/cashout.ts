/** `paycli cashout`: definition (flags, help). Implementation: src/cli/run/cashout.ts. */
import { InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction, type RunOptions } from '../lazy.js';
import { parsePixKeyType, PIX_KEY_TYPE_NAMES, PIX_KEY_TYPES, pixKeyTypeHelp } from '../../pix/pix-key-types.js';

/**
 * `--pix-key-type`: any name of the key-type table (src/pix/pix-key-types.ts: `email`, `EVP`,
 * `TELEFONE`, `RANDOM_KEY`…) or the interface number, any letter case; given to the command as
 * paycli's short name. Help and completion offer the short names.
 */
function pixKeyTypeOption(): Option {
  const opt = new Option('--pix-key-type <type>', 'type of the PIX key (also the interface and DICT names: TELEFONE, RANDOM_KEY, EVP, PHONE, or 0-4)').argParser((v: string) => {
    const t = parsePixKeyType(v);
    if (t === null) throw new InvalidArgumentError(`use one of ${pixKeyTypeHelp()}`);
    return PIX_KEY_TYPES[t].name;
  });
  opt.argChoices = [...PIX_KEY_TYPE_NAMES];
  return opt;
}

/** The `cashout` command with its flags and help, no action: the source of its run options' type. */
export function cashoutCommand(program: Program) {
  return program
    .command('cashout')
    .description('send a PIX cash-out (a payout) to a PIX key; asks for confirmation, or --yes')
    .option('--value <cents>', 'amount in cents (1000 = R$ 10,00)')
    .option('--amount <reais>', 'amount in reais instead of --value: 15, 15,50, 1.234,56')
    .addOption(pixKeyTypeOption())
    .option('--pix-key <key>', 'the destination PIX key')
    .option('--cpf-cnpj <document>', 'CPF or CNPJ of the key owner (optional)')
    .option('--person-name <name>', "recipient's name")
    .option('--person-email <email>', "recipient's e-mail")
    .option('--person-phone <phone>', "recipient's phone with DDD, e.g. 11987654321")
    .option('--order-id <ref>', 'your order reference, sent as orderId (default: a new paycli-<ULID>; config key order-id); the gateway is asked for it first, so a retry sends nothing')
    .option('--postback-url <url>', 'URL the gateway notifies when the cash-out changes state (postbackUrl; beyond the interface)')
    .option('--input <file>', 'read the request body (interface field names) from a JSON file, or - for stdin; flags override it')
    .option('--dry-run', 'validate and print the request that would be sent, without sending it')
    .option('-y, --yes', 'do not ask for confirmation (required when not in a terminal)')
    .option('--allow-duplicate', 'send even if an identical cash-out is in the ledger (ok within duplicate-window, or its outcome unknown); recorded as such (with --batch: identical rows too)')
    .option('--batch <file>', 'send one cash-out per row of a CSV or JSON Lines file, or - for stdin (docs/batch-runs.md)')
    .option('--batch-format <format>', 'format of the --batch file when its name does not say: csv or jsonl')
    .option('--concurrency <n>', 'with --batch: requests in flight at once, 1-32 (default 4)')
    .option('--rate <per-second>', 'with --batch: start at most this many requests per second')
    .option('--results <file>', 'with --batch: write the results here, .csv or .jsonl (default <file>.results.csv; never overwritten)')
    .option('--retry-refused', 'with --batch: send again the rows an earlier run of the same file saw refused')
    .option('--wait', 'with --batch: when another run of the same file at the same gateway is still running (or stopped), wait for it to end, then continue (default: exit 2, batch_running)')
    .addHelpText(
      'after',
      `
Examples:
  $ paycli cashout --value 1550 --pix-key-type email --pix-key fulano@example.com \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321   # in a terminal: asks to confirm
  $ paycli cashout --amount 15,50 --pix-key-type cpf --pix-key 123.456.789-09 \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321 --yes --json
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
  return cashoutCommand(program).action(lazyAction((opts) => (opts.batch !== undefined ? import('../batch/run.js').then((m) => m.batchRunModule('cashout')) : import('../run/cashout.js'))));
}

/** What src/cli/run/cashout.ts gets: the flags of `cashout` and the global ones (src/cli/lazy.ts). */
export type CashoutFlags = RunOptions<ReturnType<typeof cashoutCommand>>;
