/**
 * What a run takes of the process when nothing else is given: its streams, environment and clock
 * (src/core/terminal.ts `processContext`). In-process tests give their own ({@link useBaseContext})
 * and a command line of their own; only the printer (src/cli/output/printer.ts), the logger and
 * commander's own output write to these streams. Kept tiny: src/cli/program.ts loads it at every start.
 */
import type { Command } from 'commander';
import { processContext, useRunContext, type RunContext } from '../core/terminal.js';

let make: (args: string[], command?: Command) => RunContext = processContext;
let argv: readonly string[] = process.argv;

/** Runs later commands with streams, environment and clock from `maker` (tests); undefined restores the process's. */
export function useBaseContext(maker?: (args: string[], command?: Command) => RunContext): void {
  make = maker ?? processContext;
  useRunContext(maker); // the code that asks src/core/terminal.ts directly gets the same context
}

/** True while a test's context is in use (the process is not the run's own: never `process.exit`). */
export function inProcess(): boolean {
  return make !== processContext;
}

/** The base context of a run: its positional arguments and command, with the process's (or a test's) streams. */
export function baseContext(args: string[] = [], command?: Command): RunContext {
  return make(args, command);
}

/** The base context when no command runs yet (commander's own help and errors). */
export function currentBase(): RunContext {
  return make([]);
}

/** Records the command line of the run (the process's, or a test's). */
export function setRunArgv(args: readonly string[]): void {
  argv = args;
}

/** The command line of the run, as given (before src/cli/output/fields.ts normalises `--json`). */
export function runArgv(): readonly string[] {
  return argv;
}
