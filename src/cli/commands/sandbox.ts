/**
 * `paycli sandbox`: definition. Implementation: src/cli/run/sandbox.ts (the server) and
 * src/cli/run/sandbox-control.ts (`sandbox pay|fail|cancel|refund|infraction <id>`,
 * `sandbox ping [url]`, `sandbox events`, `sandbox resend`: clients of a running one).
 */
import { Option } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/** Default address of the standalone sandbox. */
export const SANDBOX_DEFAULT_PORT = 4010;

/** Default `--sandbox-url` of the control subcommands: the standalone sandbox's usual address. */
export const SANDBOX_DEFAULT_URL = `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`;

const CONTROL: ReadonlyArray<[name: string, what: string]> = [
  ['pay', 'mark a pending transaction paid'],
  ['fail', 'mark a pending transaction failed'],
  ['cancel', 'mark a pending transaction canceled'],
  ['refund', 'refund a paid transaction, or one under infraction (postback status "refund")'],
  ['infraction', 'open an infraction report (MED) on a paid transaction (postback status "infraction")'],
];

/** Adds `sandbox` and its control subcommands to the program. */
export function registerSandbox(program: Program) {
  const sandbox = program
    .command('sandbox')
    .description('run the built-in sandbox gateway standalone (no money moves), for other programs and tests')
    .option('--port <port>', `port to listen on (0 = any free port)`, String(SANDBOX_DEFAULT_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--api-key <key>', 'require this key on every request: "Authorization: Bearer <key>" (any letter case) or the raw key; 401 otherwise (subcommands: send it)')
    .option('--no-acquirer', 'answer every cash-in with 400 "no active acquirer"')
    .option('--postback-secret <secret>', 'sign every postback (x-paycli-signature, HMAC-SHA256); a sandbox feature (env PAYCLI_POSTBACK_SECRET)')
    .option('--auto-pay <seconds>', 'pay every cash-in by itself this many seconds after it is created')
    .option('--webhook-url <url>', "also send every postback of every transaction here (the gateway's account-wide webhook)")
    .option('--strict', 'also check formats: CPF/CNPJ check digits, PIX keys against their type, phones, e-mails; orderId required on cash-outs')
    .option('--drop-after-create <n>', 'create the n-th transaction (from 1; several: 2,5), then reset its connection before answering')
    .option('--retry-for <duration>', 'retry each postback until delivered for this long (ms, s, m, h, d: 90s, 30m, 24h)', '24h')
    .addOption(new Option('--retry-schedule <name>', 'waits between attempts: standard (10 s doubling to 1 h) or fast (0.1 s doubling to 2 s, for tests)').choices(['standard', 'fast']).env('PAYCLI_SANDBOX_RETRY_SCHEDULE'))
    .option('--data-dir <folder>', 'keep the postback events in this folder across restarts (default: <data folder>/sandbox)')
    .option('--keep-events <n>', 'most events kept; past it the oldest delivered go first', '20000')
    .addHelpText(
      'after',
      `
The sandbox answers like the gateway: POST /transaction/qrcode/cashin, POST /transaction/cashout,
GET /transaction/get/by/id/<id>, GET /transaction/get/by/orderId/<orderId> and
GET /transaction/get/balance. It checks what the gateway documents (required fields and their
JSON types: 400 "Validation Failed - <field> is required"); --strict adds the format rules.
It prints "listening on <url>" on stderr once ready ({"listening": "<url>"} with --json).

Outside the interface, a running sandbox takes state changes at
POST /_sandbox/transactions/<id>/<pay|fail|cancel|refund|infraction> (what the subcommands call):
  created → paid | failed | canceled, paid → refund | infraction, infraction → refund.
Every state change, creation included, POSTs a postback to the transaction's postbackUrl (cash-in
or cash-out) and to --webhook-url. Each postback is an event (evt_<n>), kept in the data folder
across restarts, retried until a 2xx for --retry-for (waits from 10 s doubling to 1 h, with jitter;
10 s timeout an attempt, never two open at once), in order per transaction and URL; every attempt
carries x-paycli-event-id and x-paycli-delivery-attempt. \`paycli sandbox events\` lists them,
\`paycli sandbox resend\` sends them again. Signing is a sandbox feature: a real gateway may send
no signature at all.

Examples:
  $ paycli listen --port 4011 &
  $ paycli sandbox --port 4010 --postback-secret whsec_test --webhook-url http://127.0.0.1:4011/ &
  $ id=$(paycli --base-url http://127.0.0.1:4010 cashin --input "$(paycli help examples)/order.json" \\
      --postback-url http://127.0.0.1:4011/ --json | jq .transactionId)
  $ paycli sandbox pay "$id"
  $ paycli sandbox ping
  $ paycli sandbox events --failed && paycli sandbox resend --failed
  $ paycli sandbox --port 4020 --strict --drop-after-create 2 --data-dir ./sandbox-4020 &`,
    )
    .action(lazyAction(() => import('../run/sandbox.js')));
  for (const [name, what] of CONTROL) {
    sandbox
      .command(`${name} <transactionId>`)
      .description(`${what} in a running \`paycli sandbox\`; its postbacks are sent`)
      .option('--sandbox-url <url>', 'address of the running sandbox', SANDBOX_DEFAULT_URL)
      .addOption(new Option('--api-key <key>', 'the key the sandbox was started with (--api-key)').env('PAYCLI_API_KEY'))
      .addHelpText(
        'after',
        `
A sandbox started with --api-key wants the same key here: paycli sandbox ${name} <id> --api-key <key>.

Exit codes: 0 done; 1 the sandbox refused (unknown id, transition not allowed); 2 usage;
3 the sandbox wants --api-key; 4 no sandbox answers at --sandbox-url.

Examples:
  $ paycli sandbox --port 4010 &
  $ id=$(paycli --base-url http://127.0.0.1:4010 cashin --input "$(paycli help examples)/order.json" --json | jq .transactionId)
  $ ${name === 'refund' || name === 'infraction' ? 'paycli sandbox pay "$id" && ' : ''}paycli sandbox ${name} "$id" --sandbox-url http://127.0.0.1:4010`,
      )
      .action(lazyAction(() => import('../run/sandbox-control.js')));
  }
  sandbox
    .command('ping [url]')
    .description('have a running `paycli sandbox` send the {"test": true} ping to a postback URL (default: its --webhook-url)')
    .option('--sandbox-url <url>', 'address of the running sandbox', SANDBOX_DEFAULT_URL)
    .addOption(new Option('--api-key <key>', 'the key the sandbox was started with (--api-key)').env('PAYCLI_API_KEY'))
    .addHelpText(
      'after',
      `
The sandbox sends one POST with the body {"test": true} (signed when it runs with
--postback-secret), as a gateway does to check a new webhook URL, and reports the answer.

Exit codes: 0 delivered (2xx); 1 not delivered (other status, no answer); 2 usage;
3 the sandbox wants --api-key; 4 no sandbox answers at --sandbox-url.

Examples:
  $ paycli listen --port 4011 &
  $ paycli sandbox --port 4010 &
  $ paycli sandbox ping http://127.0.0.1:4011/ --sandbox-url http://127.0.0.1:4010`,
    )
    .action(lazyAction(() => import('../run/sandbox-control.js')));
  sandbox
    .command('events')
    .description('list the postback events of a running `paycli sandbox`, newest first, with their attempts')
    .option('--failed', 'only the events not delivered (given up, or still being retried)')
    .option('--transaction <id>', 'only the events of this transaction')
    .option('--limit <n>', 'show at most this many (default 100)')
    .option('--sandbox-url <url>', 'address of the running sandbox', SANDBOX_DEFAULT_URL)
    .addOption(new Option('--api-key <key>', 'the key the sandbox was started with (--api-key)').env('PAYCLI_API_KEY'))
    .addHelpText(
      'after',
      `
One line an event: id, transaction, status, URL (without its query), attempts, and its state:
delivered (when), pending (next attempt, last outcome) or gave up (after --retry-for). With --json,
a JSON array of {id, transactionId, object, status, url, state, attempts, createdAt, deliveredAt,
nextAttemptAt, giveUpAt, lastAttempts, body}.

Exit codes: 0 listed (also when none); 2 usage; 3 the sandbox wants --api-key; 4 no sandbox
answers at --sandbox-url.

Examples:
  $ paycli sandbox --webhook-url http://127.0.0.1:4011/ &          # the standalone sandbox on 127.0.0.1:4010
  $ id=$(paycli --base-url http://127.0.0.1:4010 cashin --input "$(paycli help examples)/order.json" --json | jq .transactionId)
  $ paycli sandbox events
  $ paycli sandbox events --failed --json | jq -r '.[].id'
  $ paycli sandbox events --transaction "$id"`,
    )
    .action(lazyAction(() => import('../run/sandbox-control.js')));
  sandbox
    .command('resend [eventId]')
    .description('have a running `paycli sandbox` send an event again (delivered or not), or every event not delivered with --failed')
    .option('--failed', 'every event not delivered (given up, or still being retried): sent now')
    .option('--sandbox-url <url>', 'address of the running sandbox', SANDBOX_DEFAULT_URL)
    .addOption(new Option('--api-key <key>', 'the key the sandbox was started with (--api-key)').env('PAYCLI_API_KEY'))
    .addHelpText(
      'after',
      `
The event goes back to pending, due now, with a new --retry-for and the first wait; its body is the
same, its x-paycli-delivery-attempt goes on counting. It is sent in order with the other events of
its transaction to that URL. Use it after fixing a postback handler.

Exit codes: 0 queued (also when nothing was left to resend); 1 unknown event id; 2 usage; 3 the
sandbox wants --api-key; 4 no sandbox answers at --sandbox-url.

Examples:
  $ paycli sandbox --webhook-url http://127.0.0.1:4011/ &          # the standalone sandbox on 127.0.0.1:4010
  $ paycli --base-url http://127.0.0.1:4010 cashin --input "$(paycli help examples)/order.json" --json > /dev/null
  $ ev=$(paycli sandbox events --json | jq -r '.[0].id')
  $ paycli sandbox resend "$ev"
  $ paycli sandbox resend --failed --sandbox-url http://127.0.0.1:4010`,
    )
    .action(lazyAction(() => import('../run/sandbox-control.js')));
  return sandbox;
}
