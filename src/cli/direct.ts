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
}
