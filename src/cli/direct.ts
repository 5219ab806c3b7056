/**
 * The direct route (docs/architecture.md "The direct route"): a line that src/cli/history-line.ts
 * or src/cli/batch-line.ts recognises runs its command's module (history's src/cli/run/history.ts,
 * a batch run's src/cli/batch/run.ts) through the same wrapper as every command (src/cli/action.ts),
 * without loading commander or building the command tree, which such a run does not need
 * (docs/speed.md "History's start-up", "A batch re-run without the command tree"). Its stdout,
 * stderr and exit code are the full program's (test/e2e/history-direct.test.ts and
 * test/e2e/batch-direct.test.ts compare both).
 */
import { executeAs } from './action.js';
import { openCount } from '../core/at-end.js';
import { baseContext, inProcess, setRunArgv } from './base-context.js';
import { chooseLanguage } from './language.js';
import { writeDirectly } from '../core/terminal.js';
import { guardStreams } from './stream-guard.js';
import type { RunModule } from './lazy.js';

/** A line the route takes: the command it runs and its options as src/cli/action.ts `execute` builds them. */
export interface DirectLine {
  command: 'history' | 'cashout' | 'cashin';
  opts: Record<string, unknown>;
}

/** Each command's run module, loaded as its commander action loads it (src/cli/commands/history.ts, cashout.ts, cashin.ts with `--batch`). */
const RUN_MODULES: Readonly<Record<DirectLine['command'], () => Promise<RunModule<Record<string, unknown>>>>> = {
  history: async () => (await import('./run/history.js')) as unknown as RunModule<Record<string, unknown>>,
  cashout: async () => (await import('./batch/run.js')).batchRunModule('cashout'),
  cashin: async () => (await import('./batch/run.js')).batchRunModule('cashin'),
};

/**
 * Runs the command of `line` (src/cli/line.ts `directLine` of `argv`); exit codes as
 * src/cli/program.ts `main`.
 * @param argv the whole command line (`process.argv`)
 */
export async function main(argv: string[], line: DirectLine): Promise<void> {
  setRunArgv(argv);
  if (!inProcess()) writeDirectly(); // stdout and stderr without Node's streams where they are files or pipes
  guardStreams(argv);
  await chooseLanguage(argv.slice(2));
  await executeAs(
    line.command,
    line.opts,
    baseContext([]),
    () => undefined,
    async (o, ctx) => (await RUN_MODULES[line.command]()).run(o, ctx),
  );
  if (!inProcess()) await endWhenIdle();
}

/**
 * Ends the process once the command is done and nothing is left to run or to close: no handle or
 * request in Node's event loop and no SQLite connection open (src/core/at-end.ts `openCount`; the
 * command's own are closed by then, src/core/at-end.ts `closeAll`). Left to itself, Node would
 * first run the tasks V8 queued for idle time, a collection of a heap about to be thrown away
 * among them (docs/speed.md "History's start-up: the end of the run"), then take its environment
 * down. `process.exit` still emits `exit`, where the code cache is written (src/cli/compile-cache.ts),
 * with `process.exitCode`. (A promise rejected without a handler in the command's last step would have
 * been reported as the loop ran dry, and is not here: paycli awaits its promises or catches their errors.)
 */
async function endWhenIdle(): Promise<void> {
  // after the callbacks still queued (promises included), without a turn of the loop (which would run V8's idle tasks)
  await new Promise((resolve) => process.nextTick(resolve));
  if (openCount() === 0 && process.getActiveResourcesInfo().length === 0) process.exit();
}
