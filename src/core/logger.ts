/**
 * Everything that is not the result goes to stderr through this logger: notices, warnings,
 * progress, the `--verbose` trace and errors. stdout is written only by {@link printResult}.
 * With `--json`, stderr is JSON Lines for scripts: `{"notice": "…"}` and `{"warning": "…"}`
 * lines, then at most one `{"error": {…}}` document (src/cli/action.ts); the `--verbose` trace stays text.
 */
import { highlighter } from './highlighter.js';
import { t } from './i18n/index.js';
import { noteCreated } from './result-state.js';
import { redact, sanitizeText } from './sanitize.js';
import { processContext } from './terminal.js';

/** The run's streams (src/cli/action.ts gives the run context's); the process's until then. */
let streams: { stderr: NodeJS.WritableStream; stdout: NodeJS.WritableStream; stdoutIsTTY: boolean } | undefined;
const io = () =>
  (streams ??= (() => {
    const ctx = processContext();
    return { stderr: ctx.stderr, stdout: ctx.stdout, stdoutIsTTY: ctx.isTTY.stdout };
  })());
const err = (s: string) => io().stderr.write(redact(s));
/** Defence in depth: a message may quote a gateway; strip escapes from it (the prefix keeps its colour). */
const clean = (msg: string) => sanitizeText(msg);

let verbose = false;
let json = false;

/** Sets the logger's mode and streams once at start-up (the run context's streams). */
export function setupLogger(opts: { verbose: boolean; json: boolean; stderr?: NodeJS.WritableStream; stdout?: NodeJS.WritableStream; stdoutIsTTY?: boolean }): void {
  verbose = opts.verbose;
  json = opts.json;
  if (opts.stderr && opts.stdout) streams = { stderr: opts.stderr, stdout: opts.stdout, stdoutIsTTY: opts.stdoutIsTTY ?? false };
}

/** One JSON line on stderr, `{kind: message}`. */
const line = (kind: 'notice' | 'warning', msg: string) => err(`${JSON.stringify({ [kind]: clean(msg) })}\n`);

/** True when `--verbose` was given. */
export function isVerbose(): boolean {
  return verbose;
}

export const logger = {
  /** A notice for people (sandbox banner, hints); stderr. */
  notice(msg: string): void {
    if (json) line('notice', msg);
    else err(`${highlighter.info('›')} ${clean(msg)}\n`);
  },
  /** A warning; stderr, yellow. */
  warn(msg: string): void {
    if (json) line('warning', msg);
    else err(`${highlighter.warn(t('log.warning'))} ${clean(msg)}\n`);
  },
  /** An error line; stderr, red. */
  error(msg: string): void {
    err(`${highlighter.error(t('log.error'))} ${clean(msg)}\n`);
  },
  /** A follow-up hint under an error. */
  hint(msg: string): void {
    err(`${highlighter.dim(t('log.hint'))} ${clean(msg)}\n`);
  },
  /** A trace line, only with `--verbose`; stderr, dimmed. */
  debug(msg: string): void {
    if (verbose) err(`${highlighter.dim(clean(msg))}\n`);
  },
};

/**
 * Writes a result to stdout for the commands whose output is a running log rather than a result
 * value (`listen`, a batch run's rows); every other command returns its result to the printer
 * (src/cli/output/printer.ts). Text as is, or exactly one JSON document (pretty on a
 * terminal, compact otherwise, as `gh` does).
 * @param opts.created what the gateway created (e.g. `cash-out 42`): if stdout then fails (a full
 *   disk), src/cli/program.ts ends with exit 6 (needs attention), never with a code that says nothing was sent
 */
export function printResult(result: string | { json: unknown }, opts: { created?: string } = {}): void {
  noteCreated(opts.created);
  const text = typeof result === 'string' ? result : JSON.stringify(result.json, null, io().stdoutIsTTY ? 2 : undefined);
  io().stdout.write(redact(text.endsWith('\n') ? text : `${text}\n`));
}

/**
 * Writes a long result (an export of thousands of lines) to stdout in blocks of about 64 KiB, each
 * redacted as {@link printResult} does, waiting whenever stdout (a pipe) asks to, so memory stays
 * flat. Every piece should end with a newline.
 */
export async function printStream(pieces: Iterable<string>): Promise<void> {
  let block = '';
  const flush = async () => {
    const out = io().stdout;
    if (!out.write(redact(block))) await new Promise((resolve) => out.once('drain', resolve));
    block = '';
  };
  for (const piece of pieces) {
    block += piece;
    if (block.length >= 65_536) await flush();
  }
  if (block) await flush();
}

/**
 * The run's stdout and stderr (the run context's; src/cli/action.ts sets them), for the few
 * writers whose output is a running log (`listen`, a batch run, the sandbox's log, progress).
 */
export function runStreams(): { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; stdoutIsTTY: boolean } {
  return io();
}
