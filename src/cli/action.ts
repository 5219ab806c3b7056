/**
 * The one wrapper every command runs through: sets up colour and logging from the global
 * flags, runs the command, and maps typed errors (src/core/errors.ts) to a message on stderr (or one
 * JSON document `{"error": {code, message, status?, field?}}` with `--json`) and the exit code.
 * A stack trace is printed only with `--verbose`.
 */
import type { Command } from 'commander';
import { ExitCode, InternalError, InterruptedError, NeedsAttentionError, PaycliError, UsageError } from '../core/errors.js';
import { closeAll } from '../core/at-end.js';
import { setupColor } from '../core/highlighter.js';
import { logger, setupLogger } from '../core/logger.js';
import { redact, sanitizeText } from '../core/sanitize.js';
import { t } from '../core/i18n/index.js';
import type { CommandResult } from '../core/output.js';
import { commandContext, type CommandContext } from './context.js';
import type { RunContext } from '../core/terminal.js';
import { baseContext, currentBase, inProcess } from './base-context.js';

/** A command's path below the root (`history resolve`). */
export function commandPath(cmd: Command): string {
  const path: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) path.unshift(c.name());
  return path.join(' ');
}

/**
 * Runs `body` with the command's options merged with the global ones and the run's context
 * (src/cli/context.ts), then renders what it returns with the one printer (src/cli/output/printer.ts);
 * never throws: an error becomes a message and an exit code. The output flags are read first, so
 * a bad `--json FIELDS`, `--jq` or `--template` is exit 2 before anything is sent.
 */
export async function execute(cmd: Command, args: string[], body: (opts: Record<string, unknown>, ctx: CommandContext) => Promise<CommandResult | void>): Promise<void> {
  // The global --no-input and the command's --input <file> share commander's attribute name.
  let root = cmd;
  while (root.parent) root = root.parent;
  const local = cmd.opts() as Record<string, unknown>;
  const opts: Record<string, unknown> = { ...(cmd.optsWithGlobals() as Record<string, unknown>), input: local.input, noInput: root.opts().input === false };
  await executeAs(commandPath(cmd), opts, baseContext(args, cmd), () => checkArgvText(cmd, args), body);
}

/**
 * {@link execute} for a command whose flags were read without commander (the direct route of
 * src/cli/direct.ts): `path` is the command's path (`history`, `cashout`), `opts` its options as
 * {@link execute} builds them from commander's, `check` refuses a value that was not valid UTF-8.
 */
export async function executeAs(
  path: string,
  opts: Record<string, unknown>,
  base: RunContext,
  check: () => void,
  body: (opts: Record<string, unknown>, ctx: CommandContext) => Promise<CommandResult | void>,
): Promise<void> {
  const json = Boolean(opts.json) || opts.jq !== undefined;
  await setupColor(opts.color === false, base);
  setupLogger({ verbose: Boolean(opts.verbose), json, stderr: base.stderr, stdout: base.stdout, stdoutIsTTY: base.isTTY.stdout });
  try {
    check();
    const { outputRequest } = await import('./output/shape.js');
    const output = await outputRequest(opts.batch !== undefined ? `${path} --batch` : path, opts);
    await checkNamedProfile(path, opts, base.env);
    const ctx = commandContext(base, output);
    const result = await body(opts, ctx);
    if (result) {
      const { Printer } = await import('./output/printer.js');
      await new Printer({ stdout: base.stdout, stderr: base.stderr, stdoutIsTTY: base.isTTY.stdout }, output).render(result);
    }
  } catch (err) {
    process.exitCode = report(err, json, Boolean(opts.verbose), base.stderr);
    // Ctrl-C means "stop now": a connection still being torn down (e.g. a CONNECT to a proxy
    // that never answers) must not keep the process alive. Everything was written synchronously.
    if (process.exitCode === ExitCode.INTERRUPTED && !inProcess()) process.exit(ExitCode.INTERRUPTED);
  } finally {
    // a team ledger's connection ends with the command (src/core/at-end.ts): the process then exits on its own
    await closeAll();
  }
}

/**
 * The commands that check a named profile themselves (`config set` accepts a new one with
 * `--create`; `history` also knows the profiles of its ledger) or name none (`config profiles`
 * lists them, `config path`, `completion`).
 */
const OWN_PROFILE_CHECK = new Set(['config set', 'config profiles', 'config path', 'history', 'history resolve', 'completion']);

/** Commands that send a request: an unknown profile there means "nothing was sent". */
const SENDING = new Set(['cashin', 'cashout', 'status', 'receipt', 'balance', 'reconcile', 'sandbox', 'listen', 'auth']);

/**
 * Every command checks a profile named by `--profile` or `PAYCLI_PROFILE` the same way before it
 * does anything (src/config/settings.ts `checkProfile`): an unknown one is exit 2 with "did you
 * mean". The config file is read only when a profile is named.
 * @throws UsageError `unknown_profile`
 */
async function checkNamedProfile(name: string, opts: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<void> {
  if (!opts.profile && !env.PAYCLI_PROFILE) return;
  const path = name.split(' ');
  if (OWN_PROFILE_CHECK.has(name)) return;
  const { checkProfile } = await import('../config/settings.js');
  checkProfile(opts, env, undefined, { action: path[0] === 'config' ? t('common.nothingChanged') : SENDING.has(path[0]!) ? t('common.nothingSent') : t('common.nothingDone') });
}

/**
 * Refuses a flag value or argument that was not valid UTF-8 on the command line. Node reads the
 * command line as UTF-8 and writes U+FFFD for bytes that are not (a terminal or script in
 * Latin-1 or Windows-1252); the original bytes are lost, so such a value is refused rather than
 * sent (docs/cash-in-and-cash-out.md "Encodings").
 * @throws UsageError (exit 2) naming the flag and the character
 */
function checkArgvText(cmd: Command, args: readonly string[]): void {
  const bad = (v: unknown): number => (typeof v === 'string' ? [...v].indexOf('\uFFFD') : Array.isArray(v) ? Math.max(-1, ...v.map(bad)) : -1);
  const refuse = (what: string, at: number) => {
    throw new UsageError(t('encoding.argv', what, at + 1), { field: what, hint: t('encoding.argvHint') });
  };
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const o of c.options) {
      const at = bad(c.getOptionValue(o.attributeName()));
      if (at >= 0) refuse(o.long ?? o.flags, at);
    }
  }
  args.forEach((a, i) => {
    const at = bad(a);
    if (at >= 0) refuse(cmd.registeredArguments[i]?.name() ?? `argument ${i + 1}`, at);
  });
}

/** Prints an error as the user should see it and returns the exit code. */
export function report(err: unknown, json: boolean, verbose: boolean, stderr: NodeJS.WritableStream = currentBase().stderr): number {
  const e = toPaycliError(err);
  if (json) {
    const doc: Record<string, unknown> = { code: e.code, message: e.message };
    if (e.details.status !== undefined) doc.status = e.details.status;
    if (e.details.field !== undefined) doc.field = e.details.field;
    if (e.details.maybeSent !== undefined) doc.maybeSent = e.details.maybeSent;
    if (e.details.hint !== undefined) doc.hint = e.details.hint;
    if (e instanceof NeedsAttentionError) doc.problems = e.problems;
    stderr.write(`${redact(JSON.stringify({ error: doc }))}\n`);
  } else {
    if (e instanceof NeedsAttentionError) logger.error(`${t('error.needsAttention')}:\n${e.problems.map((p) => `  - ${p}`).join('\n')}`);
    else logger.error(e.message);
    if (e.details.hint) logger.hint(e.details.hint);
  }
  // --verbose: a stack trace for a bug in paycli only (exit 70); an ordinary error (a refused key, an
  // unreachable host) is said in full above, with at most the one line of what caused it.
  if (verbose && e.exitCode === ExitCode.INTERNAL) {
    const cause = e.details.cause ?? (e === err ? undefined : err);
    stderr.write(`${redact(sanitizeText(String((cause as Error)?.stack ?? e.stack ?? '')))}\n`);
  } else if (verbose && !json && e.details.cause instanceof Error && e.details.cause.message && !e.message.includes(e.details.cause.message)) {
    stderr.write(`${redact(sanitizeText(t('error.causedBy', e.details.cause.message.split('\n')[0]!), true))}\n`);
  }
  return e.exitCode;
}

/**
 * The error paycli reports for anything a run throws: a typed error as it is; a closed prompt
 * (Ctrl-C at a question) as "interrupted: nothing was sent" (exit 130); anything else is a bug in
 * paycli, `internal_error` with exit 70 (sysexits EX_SOFTWARE), never a gateway failure.
 */
export function toPaycliError(err: unknown): PaycliError {
  if (err instanceof PaycliError) return err;
  if (err && typeof err === 'object' && (err as Error).name === 'ExitPromptError') return new InterruptedError(t('error.interruptedNothingSent'));
  const message = err instanceof Error ? err.message : String(err);
  return new InternalError(t('error.internal', sanitizeText(message, true)), { cause: err });
}
