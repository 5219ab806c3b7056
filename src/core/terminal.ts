/**
 * Terminal policy, in one place: what a run may touch of the process (its {@link RunContext}),
 * whether paycli may prompt, whether it colours stderr, where prompts and progress are drawn, and
 * how Ctrl-C / SIGTERM reach a request in flight. No heavy imports: `config path` loads it too.
 * docs/cash-in-and-cash-out.md "Interactive mode" and docs/output-for-scripts.md describe the rules
 * from a user's side.
 */
import type { Command } from 'commander';
import { FdWriter, writableDirectly } from './fd-writer.js';

/** Which standard streams are terminals. */
export interface Terminals {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

/**
 * What a command's run function may use of the process, made once per run by src/cli/action.ts
 * (`execute`) and passed to `run(opts, ctx)`, so the logic takes it as an argument and unit
 * tests can give their own (streams, environment, terminals, clock).
 */
export interface RunContext {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** The environment the settings are read from (PAYCLI_*, NO_COLOR, proxies). */
  env: NodeJS.ProcessEnv;
  isTTY: Terminals;
  /** Columns of the terminal stdout is, when it is one. */
  readonly columns?: number | undefined;
  /** The clock (ledger times, `--since 7d`). */
  now(): Date;
  /** The positional arguments of the command (`status <id>`, `config set <key> [value]`). */
  args: string[];
  /** The command that runs (its name tells `config set` from `config get`). */
  command?: Command;
}

/** A run's own context maker, while one is in use (src/cli/base-context.ts `useBaseContext`: in-process tests). */
let runMaker: ((args: string[], command?: Command) => RunContext) | undefined;

/**
 * Makes {@link processContext} answer with `maker`'s context (a test's streams, environment and
 * terminals) until called again without one; src/cli/base-context.ts `useBaseContext` calls it.
 */
export function useRunContext(maker?: (args: string[], command?: Command) => RunContext): void {
  runMaker = maker;
}

/** stdout and stderr written straight to their descriptors, once {@link writeDirectly} chose them. */
const direct: { stdout?: FdWriter; stderr?: FdWriter } = {};

/**
 * Makes this process's context write stdout and stderr with src/core/fd-writer.ts `FdWriter` where
 * the descriptor is a file, a pipe or `/dev/null` (never a terminal), so that Node never builds
 * `process.stdout` / `process.stderr` for them. The direct route (`history`, a batch run) calls it first
 * (src/cli/direct.ts; docs/speed.md "History's output without Node's streams").
 */
export function writeDirectly(): void {
  if (writableDirectly(1)) direct.stdout ??= new FdWriter(1, () => process.stdout);
  if (writableDirectly(2)) direct.stderr ??= new FdWriter(2, () => process.stderr);
}

/**
 * The context of this process: its real streams, environment and clock (or, while an in-process test
 * runs paycli, that run's: see {@link useRunContext}).
 */
export function processContext(args: string[] = [], command?: Command): RunContext {
  if (runMaker) return runMaker(args, command);
  return {
    // Getters: Node builds process.stdin on first touch (a stream module load, ~2 ms), and most
    // commands never read it. Whether a stream is a terminal is asked of its file descriptor.
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return (direct.stdout as NodeJS.WritableStream | undefined) ?? process.stdout;
    },
    get stderr() {
      return (direct.stderr as NodeJS.WritableStream | undefined) ?? process.stderr;
    },
    get columns() {
      return direct.stdout ? undefined : process.stdout.columns;
    },
    env: process.env,
    isTTY: {
      // Asked when needed. stdout and stderr through their streams (Node's guess of the handle type
      // loads node:tty, and node:net with it, only for a terminal); stdin of its descriptor, without
      // building the stream.
      get stdin() {
        return (require('node:tty') as typeof import('node:tty')).isatty(0);
      },
      // (a descriptor written directly is a file, a pipe or /dev/null: never a terminal)
      get stdout() {
        return direct.stdout ? false : process.stdout.isTTY === true;
      },
      get stderr() {
        return direct.stderr ? false : process.stderr.isTTY === true;
      },
    },
    now: () => new Date(),
    args,
    command,
  };
}

/** True for the values of a boolean environment variable that mean "on" (`1`, `true`). */
const envOn = (v: string | undefined): boolean => v === '1' || v === 'true';

/**
 * True when paycli may prompt: stdin and stdout are terminals (as `gh` decides), and neither
 * `--no-input` nor `PAYCLI_NO_INPUT=1|true` says otherwise. Every prompt of paycli asks this.
 */
export function canPrompt(flags: { noInput?: boolean }, ctx: Pick<RunContext, 'isTTY' | 'env'> = processContext()): boolean {
  // stdin asked last: its check loads node:tty, which a script's run (stdout not a terminal) never needs
  return !flags.noInput && !envOn(ctx.env.PAYCLI_NO_INPUT) && ctx.isTTY.stdout && ctx.isTTY.stdin;
}

/**
 * True when stderr gets colour: not `--no-color`, no `NO_COLOR` (any non-empty value,
 * https://no-color.org), not `TERM=dumb`, and stderr is a terminal. stdout is never coloured.
 */
export function wantsColor(noColorFlag: boolean, ctx: Pick<RunContext, 'isTTY' | 'env'> = processContext()): boolean {
  return !noColorFlag && (ctx.env.NO_COLOR ?? '') === '' && ctx.env.TERM !== 'dumb' && ctx.isTTY.stderr;
}

/**
 * Width a table for people may use: the terminal's columns when stdout is one (at least 60),
 * else 80 (a file or a pipe gets the width README examples are written for).
 */
export function outputWidth(ctx: Pick<RunContext, 'isTTY' | 'columns'> = processContext()): number {
  return ctx.isTTY.stdout && ctx.columns ? Math.max(60, ctx.columns) : 80;
}

/** `--json` is pretty-printed on a terminal and compact otherwise (a pipe, a file), as `gh` does. */
export function prettyJson(ctx: Pick<RunContext, 'isTTY'> = processContext()): boolean {
  return ctx.isTTY.stdout;
}

/**
 * Columns to draw a QR code in: the terminal's width when stdout is one, else undefined (a file
 * or a pipe gets the code drawn at its natural size, when asked to draw at all).
 */
export function qrColumns(ctx: Pick<RunContext, 'isTTY' | 'columns'> = processContext()): number | undefined {
  return ctx.isTTY.stdout ? ctx.columns : undefined;
}

/** Where prompts are drawn: stderr when it is a terminal, so that stdout carries only the result. */
export function promptOutput(ctx: Pick<RunContext, 'isTTY' | 'stdout' | 'stderr'> = processContext()): NodeJS.WriteStream {
  return (ctx.isTTY.stderr ? ctx.stderr : ctx.stdout) as NodeJS.WriteStream;
}

/**
 * An AbortSignal fired by Ctrl-C (SIGINT) or SIGTERM while a request is in flight. SIGTERM is how
 * CI cancels a job: treated as Ctrl-C, so paycli says whether the request had gone out and
 * records the outcome in the ledger before it exits. Call `dispose()` once the request is over.
 */
export function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onSignal = () => ac.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: ac.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Ctrl-C while a payment's request is out (docs/ledger-and-safety.md, "In flight"):
 * the request cannot be called back, and waiting for its answer is the only way to learn whether
 * it was created. So the first Ctrl-C (SIGINT) calls `onFirst`, which returns true when nothing can
 * have been sent yet (the signal then fires: cancelled, nothing sent) and otherwise says the request
 * was sent and keeps waiting, up to the timeout; a second Ctrl-C, or a SIGTERM (how CI cancels a
 * job), fires the signal: the wait stops and the outcome stays unknown. Call `dispose()` once the
 * request is over.
 * @returns the signal, whether Ctrl-C was pressed at all, and `dispose`
 */
export function patientInterrupt(onFirst: () => boolean): { signal: AbortSignal; pressed(): boolean; dispose(): void } {
  const ac = new AbortController();
  let presses = 0;
  const onInt = () => {
    presses++;
    if (presses > 1 || onFirst()) ac.abort();
  };
  const onTerm = () => ac.abort();
  process.on('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  return {
    signal: ac.signal,
    pressed: () => presses > 0,
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
