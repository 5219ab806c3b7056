/**
 * `paycli sandbox`: definition. Implementation: src/cli/run/sandbox.ts (the server) and
 * src/cli/run/sandbox-control.ts (`sandbox pay|fail|cancel|refund|infraction <id>`,
 * `sandbox ping [url]`, `sandbox events`, `sandbox resend`, `sandbox failure`: clients of a running one) and
 * src/cli/run/sandbox-reset.ts (`sandbox reset`: the state folder started over).
 */
import { Option } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';
import { SANDBOX_DEFAULT_PORT } from '../../sandbox/address.js';

export { SANDBOX_DEFAULT_PORT, SANDBOX_DEFAULT_URL } from '../../sandbox/address.js';

const CONTROL: ReadonlyArray<[name: 'pay' | 'fail' | 'cancel' | 'refund' | 'infraction', what: () => string]> = [
  ['pay', () => t('help.sandbox.control.pay')],
  ['fail', () => t('help.sandbox.control.fail')],
  ['cancel', () => t('help.sandbox.control.cancel')],
  ['refund', () => t('help.sandbox.control.refund')],
  ['infraction', () => t('help.sandbox.control.infraction')],
];

/** Adds `sandbox` and its control subcommands to the program. */
export function registerSandbox(program: Program) {
  const sandbox = program
    .command('sandbox')
    .description(t('help.sandbox.description'))
    .option('--port <port>', t('help.sandbox.port'), String(SANDBOX_DEFAULT_PORT))
    .option('--host <host>', t('help.sandbox.host'), '127.0.0.1')
    .option('--api-key <key>', t('help.sandbox.apiKey'))
    .option('--no-acquirer', t('help.sandbox.noAcquirer'))
    .option('--postback-secret <secret>', t('help.sandbox.postbackSecret'))
    .option('--auto-pay <seconds>', t('help.sandbox.autoPay'))
    .option('--webhook-url <url>', t('help.sandbox.webhookUrl'))
    .option('--strict', t('help.sandbox.strict'))
    .option('--drop-after-create <n>', t('help.sandbox.dropAfterCreate'))
    .option('--retry-for <duration>', t('help.sandbox.retryFor'), '24h')
    .addOption(new Option('--retry-schedule <name>', t('help.sandbox.retrySchedule')).choices(['standard', 'fast']).env('PAYCLI_SANDBOX_RETRY_SCHEDULE'))
    .option('--data-dir <folder>', t('help.sandbox.dataDir'))
    .option('--keep-events <n>', t('help.sandbox.keepEvents'), '20000')
    .option('--opening-balance <cents>', t('help.sandbox.openingBalance'))
    .option('--failure <rule>', t('help.sandbox.failureRule'), (rule: string, rules: string[]) => [...rules, rule], [] as string[])
    .option('--open', t('help.sandbox.open'))
    .option('--no-dashboard', t('help.sandbox.noDashboard'))
    .addHelpText(
      'after',
      `
${t('help.sandbox.after')}

${t('help.title.examples')}
  $ paycli listen --port 4011 &
  $ paycli sandbox --port 4010 --postback-secret whsec_test --webhook-url http://127.0.0.1:4011/ &
  $ id=$(paycli --base-url http://127.0.0.1:4010 cashin --input "$(paycli help examples)/order.json" \\
      --postback-url http://127.0.0.1:4011/ --json | jq .transactionId)
  $ paycli sandbox pay "$id"
  $ paycli sandbox ping
  $ paycli sandbox events --failed && paycli sandbox resend --failed
  $ paycli sandbox --port 4020 --strict --drop-after-create 2 --data-dir ./sandbox-4020 &
  $ paycli sandbox --port 4040 --open &
  $ paycli sandbox --port 4030 --failure key-not-found:pix-key=ninguem@example.com --failure insufficient-balance:value=66600 &`,
    )
    .action(lazyAction(() => import('../run/sandbox.js')));
  for (const [name, what] of CONTROL) {
    sandbox
      .command(`${name} <transactionId>`)
      .description(t('help.sandbox.control.description', what()))
      .option('--sandbox-url <url>', t('help.sandbox.sandboxUrl'))
      .addOption(new Option('--api-key <key>', t('help.sandbox.controlApiKey')).env('PAYCLI_API_KEY'))
      .addHelpText(
        'after',
        `
${t('help.sandbox.control.after', name)}

${t('help.title.examples')}
  $ paycli sandbox --port 4010 &
  $ id=$(paycli --base-url http://127.0.0.1:4010 cashin --input "$(paycli help examples)/order.json" --json | jq .transactionId)
  $ ${name === 'refund' || name === 'infraction' ? 'paycli sandbox pay "$id" && ' : ''}paycli sandbox ${name} "$id" --sandbox-url http://127.0.0.1:4010`,
      )
      .action(lazyAction(() => import('../run/sandbox-control.js')));
  }
  sandbox
    .command('ping [url]')
    .description(t('help.sandbox.ping'))
    .option('--sandbox-url <url>', t('help.sandbox.sandboxUrl'))
    .addOption(new Option('--api-key <key>', t('help.sandbox.controlApiKey')).env('PAYCLI_API_KEY'))
    .addHelpText(
      'after',
      `
${t('help.sandbox.ping.after')}

${t('help.title.examples')}
  $ paycli listen --port 4011 &
  $ paycli sandbox --port 4010 &
  $ paycli sandbox ping http://127.0.0.1:4011/ --sandbox-url http://127.0.0.1:4010`,
    )
    .action(lazyAction(() => import('../run/sandbox-control.js')));
  sandbox
    .command('events')
    .description(t('help.sandbox.events'))
    .option('--failed', t('help.sandbox.events.failed'))
    .option('--transaction <id>', t('help.sandbox.events.transaction'))
    .option('--limit <n>', t('help.sandbox.events.limit'))
    .option('--sandbox-url <url>', t('help.sandbox.sandboxUrl'))
    .addOption(new Option('--api-key <key>', t('help.sandbox.controlApiKey')).env('PAYCLI_API_KEY'))
    .addHelpText(
      'after',
      `
${t('help.sandbox.events.after')}

${t('help.title.examples')}
  $ paycli sandbox --webhook-url http://127.0.0.1:4011/ &          ${t('help.example.standaloneSandbox')}
  $ id=$(paycli --base-url http://127.0.0.1:4010 cashin --input "$(paycli help examples)/order.json" --json | jq .transactionId)
  $ paycli sandbox events
  $ paycli sandbox events --failed --json | jq -r '.[].id'
  $ paycli sandbox events --transaction "$id"`,
    )
    .action(lazyAction(() => import('../run/sandbox-control.js')));
  sandbox
    .command('reset')
    .description(t('help.sandbox.reset'))
    .option('--data-dir <folder>', t('help.sandbox.reset.dataDir'))
    .option('--port <port>', t('help.sandbox.reset.port'))
    .addHelpText(
      'after',
      `
${t('help.sandbox.reset.after')}

${t('help.title.examples')}
  $ paycli sandbox reset
  $ paycli sandbox reset --port 4020
  $ paycli sandbox reset --data-dir ./sandbox-4020`,
    )
    .action(lazyAction(() => import('../run/sandbox-reset.js')));
  sandbox
    .command('resend [eventId]')
    .description(t('help.sandbox.resend'))
    .option('--failed', t('help.sandbox.resend.failed'))
    .option('--sandbox-url <url>', t('help.sandbox.sandboxUrl'))
    .addOption(new Option('--api-key <key>', t('help.sandbox.controlApiKey')).env('PAYCLI_API_KEY'))
    .addHelpText(
      'after',
      `
${t('help.sandbox.resend.after')}

${t('help.title.examples')}
  $ paycli sandbox --webhook-url http://127.0.0.1:4011/ &          ${t('help.example.standaloneSandbox')}
  $ paycli --base-url http://127.0.0.1:4010 cashin --input "$(paycli help examples)/order.json" --json > /dev/null
  $ ev=$(paycli sandbox events --json | jq -r '.[0].id')
  $ paycli sandbox resend "$ev"
  $ paycli sandbox resend --failed --sandbox-url http://127.0.0.1:4010`,
    )
    .action(lazyAction(() => import('../run/sandbox-control.js')));
  sandbox
    .command('failure [failure]')
    .description(t('help.sandbox.failure'))
    .option('--pix-key <key>', t('help.sandbox.failure.pixKey'))
    .option('--value <cents>', t('help.sandbox.failure.value'))
    .option('--clear', t('help.sandbox.failure.clear'))
    .option('--sandbox-url <url>', t('help.sandbox.sandboxUrl'))
    .addOption(new Option('--api-key <key>', t('help.sandbox.controlApiKey')).env('PAYCLI_API_KEY'))
    .addHelpText(
      'after',
      `
${t('help.sandbox.failure.after')}

${t('help.title.examples')}
  $ paycli sandbox --port 4010 &
  $ paycli sandbox failure insufficient-balance --value 66600
  $ paycli sandbox failure key-not-found --pix-key ninguem@example.com
  $ paycli sandbox failure bank-timeout --pix-key +5511987654321
  $ paycli sandbox failure
  $ paycli sandbox failure --clear`,
    )
    .action(lazyAction(() => import('../run/sandbox-control.js')));
  return sandbox;
}
