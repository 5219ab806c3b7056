/**
 * The direct route's reading of a `paycli history` line (docs/architecture.md "The direct route"):
 * history's common forms are read without commander by src/cli/direct-line.ts `readLine` and run by
 * src/cli/direct.ts; every other line (help, `history resolve`, an unknown or repeated flag, a value
 * commander would refuse, `--jq`, `--template`, `--json FIELDS`, a value that was not valid UTF-8,
 * completion) returns undefined and goes through the whole command tree (src/cli/program.ts).
 * test/unit/history-line.test.ts checks that what it gives is what commander gives for the same line.
 */
import { readLine, type LineSpec } from './direct-line.js';

/** History's lines: its value flags, the root's `--json` (bare), `--profile`, `--lang`, `--verbose`, `--no-color`, `--no-input`. */
export const HISTORY_LINE: LineSpec = {
  word: 'history',
  values: {
    '--since': 'since',
    '--until': 'until',
    '--kind': 'kind',
    '--outcome': 'outcome',
    '--order-id': 'orderId',
    '--by': 'by',
    '--limit': 'limit',
    '--format': 'format',
    '--csv-dialect': 'csvDialect',
    '--profile': 'profile',
    '--lang': 'lang',
  },
  switches: {
    '--json': ['json', true],
    '--verbose': ['verbose', true],
    '--no-color': ['color', false],
    '--no-input': ['input', false],
  },
  root: new Set(['--profile', '--lang', '--json', '--verbose', '--no-color', '--no-input']),
  // the values commander accepts for the flags with listed choices (src/cli/commands/history.ts)
  choices: {
    kind: ['cashin', 'cashout'],
    format: ['table', 'json', 'csv', 'ofx'],
    csvDialect: ['br', 'intl'],
  },
  defaults: { color: true, limit: '20' },
};

/**
 * The options of a `paycli history` line, as src/cli/action.ts `execute` builds them from
 * commander's (the flags' values, the defaults `limit: '20'` and `color: true`, `input` and
 * `noInput`), or undefined when the route does not take the line.
 * @param args the arguments after the program, e.g. `['history', '--limit', '20']`
 */
export function historyLine(args: readonly string[]): Record<string, unknown> | undefined {
  return readLine(HISTORY_LINE, args);
}
