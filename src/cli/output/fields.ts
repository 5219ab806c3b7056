/**
 * The field names of each command's JSON document (src/cli/output/document-schemas.ts; a unit test keeps
 * the two equal), kept here without zod so that the command line can be read with them at every
 * start: `--json FIELDS` takes a comma list of these, and completion offers them.
 *
 * `--json` takes its list as the next word only when that word is a field list: a comma list of
 * names, or one name of this table that is not a command's name. So `paycli --json cashout ...`
 * stays the whole document of a cash-out (a command name is never a field list), and
 * `--json=status` selects a field that shares its name with a command.
 */

const CASHOUT = ['kind', 'transactionId', 'orderId', 'gross', 'tax', 'liquid', 'status', 'statusCode', 'createdAt', 'sandbox', 'ledgerEntry', 'gateway'];
const CASHIN = ['kind', 'transactionId', 'externalId', 'orderId', 'value', 'qrCode', 'qrCodeBase64', 'sandbox', 'ledgerEntry', 'gateway'];
const TRANSACTION = [
  'kind',
  'transactionId',
  'orderId',
  'value',
  'status',
  'statusCode',
  'method',
  'endToEndId',
  'processedAt',
  'payer',
  'destinationBank',
  'foundByOrderId',
  'ledgerEntry',
  'gateway',
];
const DRY_RUN = ['dryRun', 'method', 'url', 'headers', 'body'];
const HISTORY = [
  'id',
  'uuid',
  'time',
  'kind',
  'value',
  'target',
  'endpoint',
  'sandbox',
  'profile',
  'pixKeyType',
  'pixKey',
  'recipient',
  'payer',
  'product',
  'orderId',
  'batchId',
  'batchRow',
  'allowDuplicate',
  'overrides',
  'outcome',
  'completed',
  'endTime',
  'transactionId',
  'status',
  'statusCode',
  'httpStatus',
  'message',
  'resolvedBy',
  'resolvedTime',
  'note',
  'timeMs',
  'deadlineMs',
  'runId',
  'pid',
  'user',
  'host',
  'version',
  'answer',
];
const BRCODE = [
  'brCode',
  'valid',
  'kind',
  'initiation',
  'key',
  'url',
  'info',
  'recurrenceUrl',
  'merchantCategoryCode',
  'currency',
  'amountCents',
  'country',
  'merchantName',
  'merchantCity',
  'postalCode',
  'txid',
  'crc',
  'unknown',
  'problems',
];
const EVENT = ['id', 'transactionId', 'object', 'status', 'url', 'state', 'attempts', 'createdAt', 'deliveredAt', 'nextAttemptAt', 'lastAttempts'];
const SANDBOX_CHANGE = ['transactionId', 'kind', 'status', 'previousStatus', 'postback'];
const unique = (...lists: string[][]): readonly string[] => [...new Set(lists.flat())];

/** The fields of each command's document, by the command's path (`history resolve`). */
export const COMMAND_FIELDS: Readonly<Record<string, readonly string[]>> = {
  cashout: unique(CASHOUT, TRANSACTION, DRY_RUN),
  cashin: unique(CASHIN, TRANSACTION, DRY_RUN),
  status: TRANSACTION,
  balance: ['balance', 'retention', 'toAnticipate', 'finalBalance', 'gateway'],
  history: HISTORY,
  'history resolve': HISTORY,
  reconcile: ['entries', 'settled', 'unknown'],
  'config path': ['path'],
  'config profiles': ['profiles'],
  'config list': ['profile', 'values'],
  'config get': ['profile', 'key', 'value'],
  'auth login': ['profile', 'gateway', 'store', 'checked'],
  'auth status': ['profile', 'gateway', 'store', 'key', 'accepted', 'problem'],
  'auth logout': ['profile', 'removed'],
  'ledger migrate': ['from', 'to'],
  'ledger push': ['entries', 'added'],
  'brcode decode': BRCODE,
  'brcode qr': BRCODE,
  'brcode create': BRCODE,
  'sandbox pay': SANDBOX_CHANGE,
  'sandbox fail': SANDBOX_CHANGE,
  'sandbox cancel': SANDBOX_CHANGE,
  'sandbox refund': SANDBOX_CHANGE,
  'sandbox infraction': SANDBOX_CHANGE,
  'sandbox ping': ['url', 'delivered', 'outcome'],
  'sandbox failure': ['cleared', 'failure', 'pixKey', 'value'],
  'sandbox events': EVENT,
  'sandbox resend': EVENT,
  'sandbox reset': ['dataDir', 'removed'],
  completion: ['shell', 'script'],
  receipt: [
    'kind',
    'entry',
    'transactionId',
    'orderId',
    'endToEndId',
    'externalId',
    'value',
    'fee',
    'net',
    'time',
    'status',
    'payer',
    'recipient',
    'brCode',
    'product',
    'gateway',
    'profile',
    'sandbox',
    'file',
  ],
};

/** Every field name of every document. */
const ALL_FIELDS = new Set(Object.values(COMMAND_FIELDS).flat());

/** paycli's command and subcommand names: never read as a field list. */
const COMMAND_WORDS = new Set([
  'cashin',
  'cashout',
  'config',
  'auth',
  'sandbox',
  'history',
  'status',
  'balance',
  'reconcile',
  'ledger',
  'listen',
  'brcode',
  'completion',
  'help',
  'failure',
  'receipt',
  'pay',
  'fail',
  'cancel',
  'refund',
  'infraction',
  'create',
  'decode',
  'events',
  'get',
  'list',
  'login',
  'logout',
  'migrate',
  'path',
  'ping',
  'profiles',
  'push',
  'qr',
  'resend',
  'resolve',
  'set',
  'unset',
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `word`, the word after `--json`, is a list of fields rather than the next argument. */
export function isFieldList(word: string | undefined): boolean {
  if (word === undefined) return false;
  const names = word.split(',');
  if (names.length > 1) return names.every((n) => NAME.test(n.trim()));
  return NAME.test(word) && ALL_FIELDS.has(word) && !COMMAND_WORDS.has(word);
}

/**
 * The command line with every `--json` written so that commander reads it the same way whatever
 * follows: `--json a,b` → `--json=a,b`, a bare `--json` → `--json=` (the whole document). Nothing
 * after `--` is touched.
 */
export function normalizeJsonArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (arg !== '--json') out.push(arg);
    else if (isFieldList(args[i + 1])) out.push(`--json=${args[++i]}`);
    else out.push('--json=');
  }
  return out;
}

/** True when the command line asks for JSON (`--json`, `--json=FIELDS`), before or after {@link normalizeJsonArgs}. */
export function jsonRequested(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--json' || a.startsWith('--json='));
}
