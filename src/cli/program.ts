/**
 * paycli's command tree. Only commander and the command definitions load here; each command's
 * implementation is imported when it runs (src/cli/lazy.ts), so `--help` stays fast.
 * `buildProgram()` is also what scripts/gen-completions.mjs walks to write completions/.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { Command as UntypedCommand } from 'commander';
import { cashinExample, registerCashin } from './commands/cashin.js';
import { registerCashout } from './commands/cashout.js';
import { registerBrcode } from './commands/brcode.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfig } from './commands/config.js';
import { registerAuth } from './commands/auth.js';
import { registerHistory } from './commands/history.js';
import { registerListen } from './commands/listen.js';
import { registerSandbox } from './commands/sandbox.js';
import { addHelpCommand, commanderMessage, configureRootHelp } from './help.js';
import { registerBalance } from './commands/balance.js';
import { registerReconcile } from './commands/reconcile.js';
import { registerLedger } from './commands/ledger.js';
import { registerStatus } from './commands/status.js';
import { registerReceipt } from './commands/receipt.js';
import type { ExitCodeValue } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { EXIT_CODE_SUMMARY } from '../core/errors.js';
import { LANGUAGES, parseLanguage, t } from '../core/i18n/index.js';
import { chooseLanguage } from './language.js';
import { currentBase, runArgv, setRunArgv } from './base-context.js';
import { guardStreams } from './stream-guard.js';
import { isFieldList, jsonRequested, normalizeJsonArgs } from './output/fields.js';

/**
 * The exit-code table, shown in `paycli --help`, in the language of the run: one line per code of
 * {@link EXIT_CODE_SUMMARY} (src/core/errors.ts), its text from the catalog (`exit.<code>`).
 */
export function exitCodesHelp(): string {
  return `\n${t('root.exitCodes')}\n${Object.keys(EXIT_CODE_SUMMARY)
    .map((code) => `  ${code.padEnd(5)}${t(`exit.${Number(code) as ExitCodeValue}`)}`)
    .join('\n')}`;
}

/**
 * `--lang pt-BR|en`: read before the command tree is built (src/cli/language.ts); here it is
 * declared for help and completion, and an unknown value is refused (exit 2).
 */
function langOption(): Option {
  const opt = new Option('--lang <lang>', t('lang.flag')).argParser((v: string) => {
    const lang = parseLanguage(v);
    if (!lang) throw new InvalidArgumentError(t('lang.invalid', LANGUAGES.join(', ')));
    return lang;
  });
  opt.argChoices = [...LANGUAGES];
  return opt;
}

/**
 * The root command with its global flags and help, no subcommands; its type carries the global
 * flags to every command definition (src/cli/lazy.ts `RunOptions`).
 */
export function rootProgram() {
  const program = new Command('paycli');
  configureRootHelp(program as unknown as UntypedCommand);
  return program
    .description(t('root.description'))
    .version(VERSION, '-V, --version', t('root.version'))
    .helpOption('-h, --help', t('help.option.help'))
    .addOption(new Option('--json [fields]', t('root.json')).argParser((v: string) => (v === '' ? true : v)))
    .option('--jq <expression>', t('root.jq'))
    .option('--template <text>', t('root.template'))
    .option('--profile <name>', t('root.profile'))
    .option('--base-url <url>', t('root.baseUrl'))
    .option('--timeout <duration>', t('root.timeout'))
    .option('--verbose', t('root.verbose'))
    .option('--no-color', t('root.noColor'))
    .option('--no-input', t('root.noInput'))
    .addOption(new Option('--allow-insecure-http', t('root.allowInsecureHttp')))
    .addOption(langOption())
    .showHelpAfterError(t('help.after.error'))
    .exitOverride()
    .configureOutput({
      // with --json, stderr stays JSON Lines: no "(run with --help for usage)" after the error document
      writeOut: (str) => void currentBase().stdout.write(str),
      writeErr: (str) => void (jsonRequested(runArgv()) && str === `${t('help.after.error')}\n` ? undefined : currentBase().stderr.write(str)),
      outputError: (str, write) => {
        const message = commanderMessage(str.replace(/^error: /, '').trim());
        if (jsonRequested(runArgv())) {
          currentBase().stderr.write(`${JSON.stringify({ error: { code: 'usage', message } })}\n`);
        } else write(`${t('log.error')} ${message}\n`);
      },
    })
    .addHelpText(
      'after',
      () => `
${t('help.title.examples')}
${cashinExample()}
  $ paycli cashout --amount 15,50 --pix-key-type email --pix-key fulano@example.com \\
      --person-name "Fulano de Tal" --person-email fulano@example.com --person-phone 11987654321 --yes
  $ paycli config set base-url https://api.gateway.example && paycli auth login   ${t('root.example.cashoutComment')}
${exitCodesHelp()}

${t('root.environment')}
${t('root.environmentText')}`,
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
  ['receipt', registerReceipt],
  ['balance', registerBalance],
  ['reconcile', registerReconcile],
  ['ledger', registerLedger],
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
  // `--json` takes the next word only when it is a field list (src/cli/output/fields.ts)
  const withValue = new Set(root.options.filter((o) => o.required).flatMap((o) => [o.long, o.short]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (withValue.has(arg) || (arg === '--json' && isFieldList(args[i + 1]))) i++;
    else if (arg === '--' || arg === '-h' || arg === '--help' || arg === '-V' || arg === '--version') return undefined;
    else if (!arg.startsWith('-')) return COMMANDS.some(([name]) => name === arg) ? arg : undefined;
  }
  return undefined;
}

/**
 * The first word of a command line that names no command (`cashot` in `paycli cashot --help`), the
 * root's flags and their values skipped; undefined when the line names a command, `help`,
 * `completion`, or nothing. Such a line is an unknown command (exit 2, "did you mean cashout?")
 * even with `--help`, never the root's help with exit 0.
 */
export function unknownCommandWord(root: UntypedCommand, args: readonly string[]): string | undefined {
  const withValue = new Set(root.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (withValue.has(arg)) i++;
    else if (arg === '--') return undefined;
    else if (!arg.startsWith('-')) return root.commands.some((c) => c.name() === arg) ? undefined : arg;
  }
  return undefined;
}

/** The root's flags that take a value (src/cli/program.ts `rootProgram`), skipped with it when the root's own flags are read. */
const ROOT_VALUE_FLAGS: readonly string[] = ['--profile', '--base-url', '--timeout', '--lang'];

/** True for a command line asking the root for its version (`--version` / `-V` among the root's flags, no command). */
function wantsVersion(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || !arg.startsWith('-')) return false;
    if (arg === '--version' || arg === '-V') return true;
    if (ROOT_VALUE_FLAGS.includes(arg)) i++;
  }
  return false;
}

/**
 * True for `paycli --version --verbose` (either order, with other root flags, no command): the
 * version with where paycli runs (src/cli/version-info.ts) instead of the bare version.
 */
export function wantsVerboseVersion(args: readonly string[]): boolean {
  const root: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || !arg.startsWith('-')) break;
    root.push(arg);
    if (ROOT_VALUE_FLAGS.includes(arg)) i++; // `--lang pt-BR --version --verbose`
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
  setRunArgv(argv);
  const base = currentBase();
  guardStreams(argv);
  // `--json FIELDS` and a bare `--json` read the same way whatever follows (src/cli/output/fields.ts)
  const args = normalizeJsonArgs(argv.slice(2));
  await chooseLanguage(args);
  if (wantsVerboseVersion(args)) {
    (await import('./version-info.js')).printVersionInfo(jsonRequested(args), base.stdout);
    return;
  }
  if (jsonRequested(args) && wantsVersion(args)) {
    base.stdout.write(`${JSON.stringify({ version: VERSION })}\n`); // --json: every answer is a JSON document
    return;
  }
  const program = buildProgram(args);
  // `paycli cashot --help`: the mistyped command is the error (exit 2, with a suggestion), not the root's help
  const parsed = unknownCommandWord(program, args) === undefined ? args : args.filter((a) => a !== '--help' && a !== '-h');
  try {
    await program.parseAsync([...argv.slice(0, 2), ...parsed]);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? 0 : 2;
  }
}
