/**
 * Keeps start-up lean: a command's definition (flags, help) is loaded with the program, its
 * implementation (`src/run/*.ts`, which pulls in zod, undici, prompts…) only when it runs.
 */
import type { Command } from 'commander';

/** A run module: `run(options, command)` where options are the command's flags plus the globals. */
export interface RunModule {
  run(opts: never, cmd: Command, args: string[]): Promise<void>;
}

/** Wraps a lazily imported run module as a commander action; errors are reported by src/action.ts. */
export function lazyAction(load: () => Promise<RunModule>) {
  return async (...args: unknown[]): Promise<void> => {
    const cmd = args[args.length - 1] as Command;
    const positional = args.slice(0, -2).filter((a): a is string => typeof a === 'string');
    const { execute } = await import('./action.js');
    await execute(cmd, async (opts) => (await load()).run(opts as never, cmd, positional));
  };
}
