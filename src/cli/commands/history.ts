/** `paycli history` and `paycli history resolve`: definition (flags, help). Implementation: src/cli/run/history.ts. */
import { Option } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/**
 * `--outcome` of `history` (a filter) and of `history resolve` (the outcome to record). Commander
 * parses an option of `history` wherever it appears after `history`, so `history resolve 7
 * --outcome ok` fills history's option; src/cli/run/history.ts reads it for either command and checks
 * the value itself (hence the listed choices are not enforced here).
 */
function outcomeOption(description: string, choices: string[]): Option {
  const opt = new Option('--outcome <outcome>', description);
  opt.argChoices = choices;
  return opt;
}

/** Adds `history` (and its `resolve` subcommand) to the program. */
export function registerHistory(program: Program) {
  const history = program
    .command('history')
    .description('list the cash-ins and cash-outs this machine sent (newest first), from the ledger (the team ledger when ledger-url is set)')
    .option('--since <when>', 'only payments recorded since: a duration back (30m, 24h, 7d, 2w) or a date/time (2026-11-01, UTC)')
    .option('--until <when>', 'only payments recorded before (a date alone includes that whole day)')
    .addOption(new Option('--kind <kind>', 'only cash-ins or cash-outs').choices(['cashin', 'cashout']))
    .addOption(outcomeOption('only payments with this outcome', ['ok', 'refused', 'unknown', 'not_sent']))
    .option('--order-id <ref>', 'only payments sent with this order reference')
    .option('--by <user@host>', 'only payments sent by this operating-system user on this host (also user alone, or @host)')
    .option('--limit <n>', 'show at most this many entries (or all)', '20')
    .addOption(new Option('--format <format>', 'output: a table for people, json, or csv for spreadsheets (--json = --format json)').choices(['table', 'json', 'csv']))
    .addHelpText(
      'after',
      `
The global --profile shows only the payments sent with that profile.

Each entry: its number, time (UTC), who sent it (BY, user@host, where the width allows), kind
(* = the built-in sandbox), amount, outcome, and the PIX key (cash-out) or payer (cash-in). Outcomes: ok, refused, not_sent, or unknown (no valid
answer came back, or paycli stopped after sending: check it at the gateway, then record what
happened with \`paycli history resolve\`). An identical cash-out is refused while an earlier
one's outcome is unknown.

--format json and csv carry every field (order reference, transaction id, gateway, message,
resolution, the user, host and paycli version that sent it); csv has a header row and the amount both in cents and as 1234,56.

Examples:
  $ paycli history
  $ paycli history --since 7d --kind cashout --outcome unknown
  $ paycli history --since 2026-11-01 --until 2026-11-30 --limit all --format csv > november.csv
  $ paycli history --by deploy@ci-runner-2 --since 24h
  $ paycli history --limit 5 --json`,
    )
    .action(lazyAction(() => import('../run/history.js')));

  history
    .command('resolve')
    .description('record the outcome of an entry whose outcome is unknown, after checking it at the gateway')
    .argument('<entry>', 'the entry number, as `paycli history` shows it')
    .addOption(outcomeOption('required: what the gateway says: ok (it was paid), not_sent (it never got it), refused', ['ok', 'not_sent', 'refused']))
    .option('--note <text>', 'why, for the record (e.g. "not in the gateway\'s dashboard")')
    .option('--force', 'resolve it even though the paycli run that sent it is still going (running or stopped)')
    .addHelpText(
      'after',
      `
ok keeps refusing an identical cash-out within duplicate-window of when it was sent; not_sent
and refused let it be sent again. Only an entry whose outcome is unknown can be resolved.

Examples:
  $ paycli history --outcome unknown
  $ paycli history resolve 42 --outcome not_sent --note "not in the gateway's statement"   # exit 2 unless entry 42 is unknown`,
    )
    .action(lazyAction(() => import('../run/history.js')));
  return history;
}
