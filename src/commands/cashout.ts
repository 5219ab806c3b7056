/** `paycli cashout`: definition (flags, help). Implementation: src/run/cashout.ts. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { lazyAction } from '../lazy.js';

/** Names accepted by `--pix-key-type` (the interface numbers 0-4 are accepted too). */
export const PIX_KEY_TYPE_CHOICES = ['cpf', 'cnpj', 'email', 'phone', 'random'] as const;

/** `--pix-key-type`: a name or the interface number, case-insensitive; choices shown in help and completion. */
function pixKeyTypeOption(): Option {
  const numbers = ['0', '1', '2', '3', '4'];
  const opt = new Option('--pix-key-type <type>', 'type of the PIX key (names or the interface numbers 0-4)').argParser((v: string) => {
    const t = v.trim().toLowerCase();
    const i = numbers.indexOf(t);
    if (i >= 0) return PIX_KEY_TYPE_CHOICES[i];
    if ((PIX_KEY_TYPE_CHOICES as readonly string[]).includes(t)) return t;
    throw new InvalidArgumentError(`use one of ${PIX_KEY_TYPE_CHOICES.join(', ')} (or 0-4)`);
  });
  opt.argChoices = [...PIX_KEY_TYPE_CHOICES];
  return opt;
}

/** Adds `cashout` to the program. */
export function registerCashout(program: Command): Command {
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
    .option('--input <file>', 'read the request body (interface field names) from a JSON file, or - for stdin; flags override it')
    .option('--dry-run', 'validate and print the request that would be sent, without sending it')
    .option('-y, --yes', 'do not ask for confirmation (required when not in a terminal)')
    .option('--allow-duplicate', 'send even if an identical cash-out was sent recently')
    .addHelpText(
      'after',
      `
Examples:
  $ paycli cashout --value 1550 --pix-key-type email --pix-key fulano@example.com \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321
  $ paycli cashout --amount 15,50 --pix-key-type cpf --pix-key 123.456.789-09 ... --yes --json
  $ paycli cashout --input payout.json --dry-run`,
    )
    .action(lazyAction(() => import('../run/cashout.js')));
}
