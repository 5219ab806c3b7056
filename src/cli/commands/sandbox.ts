/**
 * `paycli sandbox`: definition. Implementation: src/cli/run/sandbox.ts (the server) and
 * src/cli/run/sandbox-control.ts (`sandbox pay|fail|cancel|refund|infraction <id>` and
 * `sandbox ping [url]`, clients of a running one).
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
or cash-out) and to --webhook-url, retried up to 5 attempts (waits 1 s, 2 s, 4 s, 8 s) until a
2xx. Signing is a sandbox feature: a real gateway may send no signature at all.

Examples:
  $ paycli listen --port 4011 &
  $ paycli sandbox --port 4010 --postback-secret whsec_test --webhook-url http://127.0.0.1:4011/ &
  $ paycli --base-url http://127.0.0.1:4010 cashin --input order.json --postback-url http://127.0.0.1:4011/   # e.g. id 42
  $ paycli sandbox pay 42
  $ paycli sandbox ping
  $ paycli sandbox --port 4020 --strict --drop-after-create 2 &`,
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
  $ paycli --base-url http://127.0.0.1:4010 cashin --input order.json   # prints the transaction id, e.g. 42
  $ ${name === 'refund' || name === 'infraction' ? 'paycli sandbox pay 42 && ' : ''}paycli sandbox ${name} 42 --sandbox-url http://127.0.0.1:4010`,
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
  return sandbox;
}
