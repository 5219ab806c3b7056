/**
 * Runs paycli in the test's own process, through the context every command gets (src/cli/context.ts):
 * stdout and stderr are captured, stdin is a given text, no stream is a terminal, and the
 * environment is the test's (as test/helpers/cli.ts `childEnv` makes it for a child: the runner's
 * own PAYCLI_* and locale variables never reach the run, `LANG=C.UTF-8`, `TZ=UTC`). The servers it
 * talks to stay real: the sandbox, test/helpers/gateway.ts, PostgreSQL, all on 127.0.0.1. A run
 * here costs milliseconds instead of a process start; tests that need a process boundary (signals,
 * locks, terminals, installs, Node lines) spawn the built paycli (test/helpers/cli.ts).
 *
 * Runs in one file go one after another (vitest runs a file's tests in order): the process's
 * environment is the run's while it runs, and restored after.
 */
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { useBaseContext } from '../../src/cli/base-context.js';
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
export async function runInProcess(args: string[], opts: InProcessOptions = {}): Promise<InProcessResult> {
  const stdout = new Capture();
  const stderr = new Capture();
  const env = childEnv(opts.env ?? {});
  const saved = process.env;
  const savedCode = process.exitCode;
  process.exitCode = undefined;
  process.env = env;
  const now = opts.now ?? (() => new Date());
  useBaseContext(
    (positional: string[], command?: Command): RunContext => ({
      stdin: Readable.from([opts.stdin ?? '']),
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
    await (await import('../../src/ledger/store.js')).closeLedgers();
    useBaseContext();
    process.env = saved;
    process.exitCode = savedCode;
  }
}

/**
 * {@link runInProcess} with the options of test/helpers/cli.ts `runPaycli` (`input` is stdin), so that
 * a test that needs no process boundary runs in process by importing this instead.
 */
export function runPaycliInProcess(args: string[], opts: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<InProcessResult> {
  return runInProcess(args, { ...(opts.env ? { env: opts.env } : {}), ...(opts.input !== undefined ? { stdin: opts.input } : {}) });
}
