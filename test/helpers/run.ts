/**
 * Runs paycli in the test's own process, through the context every command gets (src/cli/context.ts):
 * stdout and stderr are captured, stdin is a given text, no stream is a terminal, and the
 * environment is the test's (as test/helpers/cli.ts `childEnv` makes it for a child: the runner's
 * own PAYCLI_* and locale variables never reach the run, `LANG=C.UTF-8`, `TZ=UTC`). The servers it
 * talks to stay real: the sandbox, test/helpers/gateway.ts, PostgreSQL, all on 127.0.0.1. A run
 * here costs milliseconds instead of a process start; tests that need a process boundary (signals,
 * locks, terminals, installs, Node lines) spawn the built paycli (test/helpers/cli.ts).
 *
 * Each run is isolated as a process of its own would be: it loads paycli afresh (`vi.resetModules`:
 * no module state, such as a notice said once, a cached secret or an open ledger, survives from one
 * run to the next), gets a fresh context, and leaves `process.exitCode` as it found it. Runs in one
 * file go one after another (vitest runs a file's tests in order, each file in a worker process of its
 * own; runs started together wait for their turn): the process's environment is the run's while it runs, and restored after. Every test makes its
 * own HOME (test/helpers/cli.ts `makeHome`) and its servers listen on port 0, so files running at once
 * in other workers share nothing.
 */
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { vi } from 'vitest';
import type { RunContext } from '../../src/core/terminal.js';
import { childEnv, type RunResult } from './cli.js';

/** A stream that keeps what is written to it. */
class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/**
 * The process id each run takes: its own, as a process of its own would have one, above any real
 * one (Linux's largest is 2^22), so that a later run finds an earlier one ended (src/ledger/runs.ts
 * asks the kernel whether a run's process still exists) and never takes a live process for it.
 */
let nextPid = 2_000_000_000 + (process.pid % 1000) * 100_000;

/**
 * Makes the process's environment `env`, in place: `process.env` stays Node's own object, so that
 * what Node reads from it follows (a `TZ` set here changes the local time zone at once).
 */
function replaceEnv(env: NodeJS.ProcessEnv): void {
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  for (const [k, v] of Object.entries(env)) if (v !== undefined && process.env[k] !== v) process.env[k] = v;
}

/** Options of {@link runInProcess}. */
export interface InProcessOptions {
  /** Variables for the run, over a clean environment (undefined removes one). */
  env?: Record<string, string | undefined>;
  /** What stdin holds (default: nothing). */
  stdin?: string;
  /** The clock (default: the real one). */
  now?: () => Date;
}

/** What an in-process run produced: as a child's {@link RunResult}, its exit code always a number. */
export interface InProcessResult extends RunResult {
  code: number;
}

/**
 * Runs `paycli <args>` in this process.
 * @returns its stdout, stderr and exit code
 */
export function runInProcess(args: string[], opts: InProcessOptions = {}): Promise<InProcessResult> {
  const run = queue.then(() => runNow(args, opts));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * The runs of this file, one after another: a run has the process's environment and exit code to
 * itself, so runs a test starts together (`Promise.all`) go in turn, as their order of call.
 */
let queue: Promise<unknown> = Promise.resolve();

async function runNow(args: string[], opts: InProcessOptions): Promise<InProcessResult> {
  const stdout = new Capture();
  const stderr = new Capture();
  const env = childEnv(opts.env ?? {});
  const saved = { ...process.env };
  const savedCode = process.exitCode;
  process.exitCode = undefined;
  replaceEnv(env);
  const pid = Object.getOwnPropertyDescriptor(process, 'pid')!;
  Object.defineProperty(process, 'pid', { ...pid, value: nextPid++ });
  const exitHandlers = new Set(process.listeners('exit'));
  const now = opts.now ?? (() => new Date());
  vi.resetModules(); // paycli as a fresh process would load it: no state left by an earlier run
  const { useBaseContext } = await import('../../src/cli/base-context.js');
  const stdin = Readable.from([Buffer.from(opts.stdin ?? '')]);
  useBaseContext(
    (positional: string[], command?: Command): RunContext => ({
      stdin,
      stdout,
      stderr,
      env,
      isTTY: { stdin: false, stdout: false, stderr: false },
      columns: undefined,
      now,
      args: positional,
      ...(command ? { command } : {}),
    }),
  );
  try {
    const { main } = await import('../../src/cli/program.js');
    await main([process.execPath, 'paycli', ...args]);
    return { code: Number(process.exitCode ?? 0), signal: null, stdout: stdout.text, stderr: stderr.text };
  } finally {
    // the run ends as its process would: ledgers closed, its exit handlers run (its run lock released)
    await (await import('../../src/ledger/store.js')).closeLedgers();
    for (const handler of process.listeners('exit')) {
      if (exitHandlers.has(handler)) continue;
      process.off('exit', handler);
      handler(Number(process.exitCode ?? 0));
    }
    useBaseContext();
    Object.defineProperty(process, 'pid', pid);
    replaceEnv(saved);
    process.exitCode = savedCode;
  }
}

/**
 * {@link runInProcess} with the options of test/helpers/cli.ts `runPaycli` (`input` is stdin), so that
 * a test that needs no process boundary runs in process by importing this instead. `timeoutMs` (when
 * a child is killed) has no meaning here: the test's own time limit bounds the run.
 */
export function runPaycliInProcess(args: string[], opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {}): Promise<InProcessResult> {
  return runInProcess(args, { ...(opts.env ? { env: opts.env } : {}), ...(opts.input !== undefined ? { stdin: opts.input } : {}) });
}
