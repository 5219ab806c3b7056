/** `paycli history` and `paycli history resolve`: definition (flags, help). Implementation: src/cli/run/history.ts. */
import { Option } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

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
    .description(t('help.history.description'))
    .option('--since <when>', t('history.sinceFlag'))
    .option('--until <when>', t('history.untilFlag'))
    .addOption(new Option('--kind <kind>', t('help.history.kind')).choices(['cashin', 'cashout']))
    .addOption(outcomeOption(t('help.history.outcome'), ['ok', 'refused', 'unknown', 'not_sent']))
    .option('--order-id <ref>', t('help.history.orderId'))
    .option('--by <user@host>', t('help.history.by'))
    .option('--limit <n>', t('help.history.limit'), '20')
    .addOption(new Option('--format <format>', t('help.history.format')).choices(['table', 'json', 'csv', 'ofx']))
    .addOption(new Option('--csv-dialect <dialect>', t('csv.dialectFlagHistory')).choices(['br', 'intl']))
    .addHelpText(
      'after',
      `
${t('help.history.after')}

${t('help.title.examples')}
  $ paycli history
  $ paycli history --since 7d --kind cashout --outcome unknown
  $ paycli history --since 2026-11-01 --until 2026-11-30 --limit all --format csv > november.csv
  $ paycli history --by deploy@ci-runner-2 --since 24h
  $ paycli history --since ontem --until ontem --format csv --csv-dialect br > ontem.csv
  $ paycli history --since 2026-11-01 --until 2026-11-30 --format ofx > novembro.ofx
  $ paycli history --limit 5 --json
  $ paycli history --limit all --jq '.[] | select(.outcome=="unknown") | .orderId'
  $ paycli history --template '{{ id }} {{ value | reais }} {{ outcome }}'`,
    )
    .action(lazyAction(() => import('../run/history.js')));

  history
    .command('resolve')
    .description(t('help.history.resolve'))
    .argument('<entry>', t('help.history.resolve.entry'))
    .addOption(outcomeOption(t('help.history.resolve.outcome'), ['ok', 'not_sent', 'refused']))
    .option('--note <text>', t('help.history.resolve.note'))
    .option('--force', t('help.history.resolve.force'))
    .addHelpText(
      'after',
      `
${t('help.history.resolve.after')}

${t('help.title.examples')}
  $ paycli history --outcome unknown
  $ paycli history resolve 42 --outcome not_sent --note "not in the gateway's statement"   ${t('help.history.resolve.exit2')}`,
    )
    .action(lazyAction(() => import('../run/history.js')));
  return history;
}
