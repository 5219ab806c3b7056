/**
 * paycli's command tree. Only commander and the command definitions load here; each command's
 * implementation is imported when it runs (src/cli/lazy.ts), so `--help` stays fast.
 * `buildProgram()` is also what scripts/gen-completions.mjs walks to write completions/.
 */
import { Command, CommanderError, Option } from '@commander-js/extra-typings';
import type { Command as UntypedCommand } from 'commander';
import { CASHIN_EXAMPLE, registerCashin } from './commands/cashin.js';
import { registerCashout } from './commands/cashout.js';
import { registerBrcode } from './commands/brcode.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfig } from './commands/config.js';
import { registerAuth } from './commands/auth.js';
import { registerHistory } from './commands/history.js';
import { registerListen } from './commands/listen.js';
import { registerSandbox } from './commands/sandbox.js';
import { addHelpCommand, configureRootHelp } from './help.js';
import { registerBalance } from './commands/balance.js';
import { registerReconcile } from './commands/reconcile.js';
import { registerStatus } from './commands/status.js';
import { ExitCode } from '../core/errors.js';
import { createdInThisRun } from '../core/result-state.js';
import { VERSION } from '../core/version.js';
import { EXIT_CODE_SUMMARY } from '../core/errors.js';

/** The exit-code table, shown in `paycli --help`; built from {@link EXIT_CODE_SUMMARY} (src/core/errors.ts). */
export const EXIT_CODES_HELP = `\nExit codes:\n${Object.entries(EXIT_CODE_SUMMARY)
  .map(([code, text]) => `  ${code.padEnd(5)}${text}`)
  .join('\n')}`;

/**
 * The root command with its global flags and help, no subcommands; its type carries the global
 * flags to every command definition (src/cli/lazy.ts `RunOptions`).
 */
export function rootProgram() {
  const program = new Command('paycli');
  configureRootHelp(program as unknown as UntypedCommand);
  return program
    .description('PIX cash-ins (BR Code / QR code) and cash-outs (payouts to a PIX key) against a payment gateway.\nWith no gateway configured, commands run against a built-in sandbox where no money moves.')
    .version(VERSION, '-V, --version', 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)')
    .helpOption('-h, --help', 'show help')
    .option('--json', 'print the result as one JSON document on stdout (errors as JSON on stderr)')
    .option('--profile <name>', 'config profile to use (env PAYCLI_PROFILE; default "default")')
    .option('--base-url <url>', 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)')
    .option('--timeout <ms>', 'request timeout in milliseconds (default 30000)')
    .option('--verbose', 'trace the request and response on stderr (credential redacted)')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .option('--no-input', 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)')
    .addOption(new Option('--allow-insecure-http', 'allow a plain http:// base URL to a non-loopback host'))
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      // with --json, stderr stays JSON Lines: no "(run with --help for usage)" after the error document
      writeErr: (str) => void (process.argv.includes('--json') && str === '(run with --help for usage)\n' ? undefined : process.stderr.write(str)),
      outputError: (str, write) => {
        if (process.argv.includes('--json')) {
          process.stderr.write(`${JSON.stringify({ error: { code: 'usage', message: str.replace(/^error: /, '').trim() } })}\n`);
        } else write(str);
      },
    })
    .addHelpText(
      'after',
      `
Examples:
${CASHIN_EXAMPLE}
  $ paycli cashout --amount 15,50 --pix-key-type email --pix-key fulano@example.com \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321 --yes
  $ paycli config set base-url https://api.gateway.example && paycli auth login   # in a terminal: asks for the key, hidden
${EXIT_CODES_HELP}

Environment:
  PAYCLI_PROFILE, PAYCLI_BASE_URL, PAYCLI_API_KEY override the profile; flags override both.
  PAYCLI_NO_INPUT=1, NO_COLOR=1, HTTPS_PROXY/HTTP_PROXY/NO_PROXY, NODE_EXTRA_CA_CERTS.
  PAYCLI_POSTBACK_SECRET signs (sandbox) and checks (listen) postbacks.
  PAYCLI_CONFIG_DIR, PAYCLI_DATA_DIR, PAYCLI_CACHE_DIR move the config file, the data folder and the
  code cache (NODE_DISABLE_COMPILE_CACHE=1 turns the cache off).`,
    );
}

/** The root command as the command definitions see it (src/commands/*.ts). */
export type Program = ReturnType<typeof rootProgram>;

/** Every command by its name (no command has an alias), in the order of `paycli --help`. */
const COMMANDS: ReadonlyArray<readonly [string, (program: Program) => unknown]> = [
  ['cashin', registerCashin],
  ['cashout', registerCashout],
  ['config', registerConfig],
  ['auth', registerAuth],
  ['sandbox', registerSandbox],
  ['history', registerHistory],
  ['status', registerStatus],
  ['balance', registerBalance],
  ['reconcile', registerReconcile],
  ['listen', registerListen],
  ['brcode', registerBrcode],
];

/**
 * The command a command line runs, when it names one of {@link COMMANDS} before anything that
 * concerns the root itself (`--help`, `--version`, `--`); otherwise undefined. The root's flags
 * are skipped, with the value of those that take one (`--profile work`).
 * @param root the root command ({@link rootProgram}), whose flags are read
 * @param args the arguments after the program, e.g. `['--json', 'cashout', '--value', '1550']`
 */
export function commandToRun(root: Pick<UntypedCommand, 'options'>, args: readonly string[]): string | undefined {
  const withValue = new Set(root.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (withValue.has(arg)) i++;
    else if (arg === '--' || arg === '-h' || arg === '--help' || arg === '-V' || arg === '--version') return undefined;
    else if (!arg.startsWith('-')) return COMMANDS.some(([name]) => name === arg) ? arg : undefined;
  }
  return undefined;
}

/**
 * True for `paycli --version --verbose` (either order, with other root flags, no command): the
 * version with where paycli runs (src/cli/version-info.ts) instead of the bare version.
 */
export function wantsVerboseVersion(args: readonly string[]): boolean {
  const root: string[] = [];
  for (const arg of args) {
    if (arg === '--' || !arg.startsWith('-')) break;
    root.push(arg);
  }
  return (root.includes('--version') || root.includes('-V')) && root.includes('--verbose');
}

/**
 * Builds the command tree (no side effects). Without `args`, every command. With the command
 * line's `args`, only the command it runs ({@link commandToRun}), which is all a run of it needs
 * and about 2 ms less at every start (docs/speed.md); every command when it names none (the
 * root's help, `help`, `completion` and typo suggestions need the whole tree).
 */
export function buildProgram(args?: readonly string[]): UntypedCommand {
  const program = rootProgram();
  const only = args ? commandToRun(program as unknown as UntypedCommand, args) : undefined;
  for (const [name, register] of COMMANDS) if (only === undefined || name === only) register(program);
  if (only === undefined) registerCompletion(program);
  const untyped = program as unknown as UntypedCommand;
  addHelpCommand(untyped);
  return untyped;
}

/** Entry point: parses argv and runs the command; exit codes as in {@link EXIT_CODES_HELP}. */
export async function main(argv: string[] = process.argv): Promise<void> {
  // `paycli --help | head -1`: the reader went away; stop quietly, as git and gh do. But a result
  // about something the gateway created that cannot be written out (a full disk, a closed pipe)
  // ends with exit 6, so a script never takes it for "nothing happened" (docs/output-for-scripts.md "Exit codes").
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      const created = stream === process.stdout ? createdInThisRun() : undefined;
      if (created) {
        const message = `created, but needs attention: the gateway created ${created}, but its result could not be written to stdout (${err.code ?? err.message}); see \`paycli history\``;
        process.stderr.write(argv.includes('--json') ? `${JSON.stringify({ error: { code: 'needs_attention', message, problems: [message] } })}\n` : `error: ${message}\n`);
        process.exit(ExitCode.NEEDS_ATTENTION);
      }
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      process.stderr.write(`error: the result could not be written to stdout (${err.code ?? err.message})\n`);
      process.exit(ExitCode.USAGE);
    });
  }
  const args = argv.slice(2);
  if (wantsVerboseVersion(args)) {
    (await import('./version-info.js')).printVersionInfo(args.includes('--json'));
    return;
  }
  const program = buildProgram(args);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? 0 : 2;
  }
}
