/**
 * Keeps start-up lean: a command's definition (flags, help) is loaded with the program, its
 * implementation (`src/cli/run/*.ts`, which pulls in zod, undici, prompts…) only when it runs.
 *
 * The run options are typed from the definition: the definitions are built with
 * `@commander-js/extra-typings`, so {@link RunOptions} of a command is exactly what commander
 * fills from its flags and the global ones, and `.action(lazyAction(load))` does not compile when
 * the run module's `run(opts, ctx)` expects anything else (a flag the command lacks, a number
 * where commander gives a string).
 */
import type { Command as TypedCommand } from '@commander-js/extra-typings';
import type { Command } from 'commander';
import type { CommandResult } from '../core/output.js';
import type { CommandContext } from './context.js';

type AnyCommand = TypedCommand<any, any, any>;

/**
 * The options a run function gets for command `C`: its flags merged with the global ones, as
 * src/cli/action.ts `execute` builds them. The global `--no-input` and a command's `--input <file>`
 * share commander's attribute name, so `input` is the command's own (a file) and `noInput` the
 * global switch.
 */
export type RunOptions<C extends AnyCommand> =
  C extends TypedCommand<infer _Args, infer Opts, infer Globals>
    ? Omit<Globals, 'input'> & Omit<Opts, 'input'> & { input?: Opts extends { input?: infer I } ? I : never; noInput: boolean }
    : never;

/**
 * A run module: `run(options, context)` returns its result (src/core/output.ts), which the one printer
 * renders (src/cli/output/printer.ts), or nothing when it wrote a running log itself (`listen`).
 * Options as {@link RunOptions}, context from src/cli/context.ts.
 */
export interface RunModule<O> {
  run: (opts: O, ctx: CommandContext) => Promise<CommandResult | void>;
}

/**
 * Wraps a lazily imported run module as a commander action (its type parameters are inferred from
 * the command the action is given to); errors are reported by src/cli/action.ts. `load` gets the run
 * options, so that a command can load a different module for a different job (`cashout --batch`).
 */
export function lazyAction<A extends unknown[], O, C extends AnyCommand>(
  load: (opts: RunOptions<C>) => Promise<RunModule<RunOptions<C>>>,
): (...args: [...A, O, C]) => Promise<void> {
  return async (...args: [...A, O, C]): Promise<void> => {
    const cmd = args[args.length - 1] as unknown as Command;
    const positional = args.slice(0, -2).filter((a): a is string => typeof a === 'string');
    const { execute } = await import('./action.js');
    await execute(cmd, positional, async (opts, ctx) => (await load(opts as RunOptions<C>)).run(opts as RunOptions<C>, ctx));
  };
}
