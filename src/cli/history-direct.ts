/**
 * The direct route of `paycli history` (docs/architecture.md "The direct route of `history`"): a
 * line that src/cli/history-line.ts recognises runs history's module (src/cli/run/history.ts)
 * through the same wrapper as every command (src/cli/action.ts), without loading commander or
 * building the command tree, which a listing does not need (docs/speed.md "History's start-up").
 * Its stdout, stderr and exit code are the full program's (test/e2e/history-direct.test.ts
 * compares both on the same ledgers).
 */
import { executeAs } from './action.js';
import { baseContext, inProcess, setRunArgv } from './base-context.js';
import { chooseLanguage } from './language.js';
import { writeDirectly } from '../core/terminal.js';
import { guardStreams } from './stream-guard.js';
import type { HistoryOptions } from './run/history.js';

/**
 * Runs `paycli history` with `opts` (src/cli/history-line.ts `historyLine` of `argv`); exit codes as
 * src/cli/program.ts `main`.
 * @param argv the whole command line (`process.argv`)
 */
export async function main(argv: string[], opts: Record<string, unknown>): Promise<void> {
  setRunArgv(argv);
  if (!inProcess()) writeDirectly(); // stdout and stderr without Node's streams where they are files or pipes
  guardStreams(argv);
  await chooseLanguage(argv.slice(2));
  await executeAs(
    'history',
    opts,
    baseContext([]),
    () => undefined,
    async (o, ctx) => (await import('./run/history.js')).run(o as HistoryOptions, ctx),
  );
}
