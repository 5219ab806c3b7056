/** `paycli history`: definition (flags, help). Implementation: src/run/history.ts. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.js';

/** Adds `history` to the program. */
export function registerHistory(program: Command): Command {
  return program
    .command('history')
    .description('list the cash-ins and cash-outs this machine sent (newest first), from the local journal')
    .option('--limit <n>', 'show at most this many entries', '20')
    .addHelpText(
      'after',
      `
Each entry: time (UTC), kind, amount, PIX key (cash-out) or payer (cash-in), the gateway's
transaction id and the outcome: ok, refused, not_sent, or unknown (no valid answer came back,
or paycli was killed after sending: check it at the gateway).

Examples:
  $ paycli history
  $ paycli history --limit 5 --json | jq '.[] | select(.outcome == "unknown")'`,
    )
    .action(lazyAction(() => import('../run/history.js')));
}
