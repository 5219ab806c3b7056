/**
 * How paycli answers requests for help, as `gh` does:
 * - `paycli help <command> [<subcommand>]` prints that command's help on stdout (exit 0); an
 *   unknown name ends with exit 2 and the nearest known name ("did you mean cashin?");
 * - bare `paycli`, or a command group without its subcommand (`paycli config`), prints the help on
 *   stdout and exits 0; an unknown subcommand of a group ends with exit 2 and a suggestion;
 * - every subcommand's help names, in one line, the root options it accepts (`--json`, `--profile`,
 *   `--base-url`, ...), described once in `paycli --help`: a page shows what is its own, as `gh`'s
 *   "Inherited flags" stay short.
 * Loaded with the command tree: commander only, nothing heavy.
 */
import { currentBase, inProcess } from './base-context.js';
import { resolve } from 'node:path';
import { Command, Help } from 'commander';
import { isPortuguese, t } from '../core/i18n/index.js';

/** Root of the tree `cmd` belongs to. */
export function rootOf(cmd: Command): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transposition). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name nearest to `word`, or undefined when none is close: at most 2 edits and
 * less than half the word changed, or `word` a prefix of exactly one name.
 */
export function nearest(word: string, names: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = editDistance(w, name);
    if (d <= 2 && d < Math.max(w.length, name.length) / 2 && (!best || d < best.d)) best = { name, d };
  }
  if (best) return best.name;
  const prefixed = names.filter((n) => w.length >= 2 && n.startsWith(w));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Names a user may type for the subcommands of `cmd` (hidden ones excluded). */
function subcommandNames(cmd: Command): string[] {
  return cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).flatMap((c) => [c.name(), ...c.aliases()]);
}

/** Ends with exit 2: `word` is no subcommand of `parent`; suggests the nearest one. */
function unknownCommand(reporter: Command, parent: Command, word: string): never {
  const where = parent.parent ? t('cmdr.for', commandPath(parent)) : '';
  const near = nearest(word, subcommandNames(parent));
  const suggestion = near ? `\n${t('cmdr.didYouMean', near)}` : `\n${t('cmdr.knownCommands', where, subcommandNames(parent).join(', '))}`;
  reporter.error(`error: ${t('cmdr.unknownCommand', word, where)}${suggestion}`, { exitCode: 2, code: 'commander.unknownCommand' });
}

/** `paycli config set` for the `set` command under `config`. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The command at `path` under `root` (`['config', 'set']`); exit 2 with a suggestion when a name is unknown. */
export function findCommand(root: Command, path: readonly string[], reporter: Command = root): Command {
  let cmd = root;
  for (const word of path) {
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) unknownCommand(reporter, cmd, word);
    cmd = next;
  }
  return cmd;
}

/** The root's options a subcommand accepts (all of them but --help and --version), by their flags. */
function globalOptions(cmd: Command): string[] {
  const root = rootOf(cmd);
  if (root === cmd) return [];
  return root.options.filter((o) => !(o as unknown as { hidden?: boolean }).hidden && o.long !== '--help' && o.long !== '--version').map((o) => o.long!);
}

/**
 * Sets up help on the root (call before adding commands, so that they inherit the help settings):
 * global options in every subcommand's help, no implicit `help` command (paycli's own is added
 * by {@link addHelpCommand}), and bare `paycli` printing its help on stdout.
 */
export function configureRootHelp(program: Command): Command {
  return program.helpCommand(false).configureHelp({
    // the global options in one line under a subcommand's own (described in `paycli --help`)
    formatHelp(this: Help, cmd, helper) {
      const text = Help.prototype.formatHelp.call(this, cmd, helper);
      const globals = globalOptions(cmd);
      return globals.length ? `${text.replace(/\n*$/, '')}\n\n${t('help.globalOptionsLine', globals.join(' '))}\n` : text;
    },
    // commander's own headings and notes, in the language of the run
    styleTitle: (title: string) => helpTitle(title),
    subcommandTerm(this: Help, cmd) {
      const term = Help.prototype.subcommandTerm.call(this, cmd);
      return isPortuguese() ? term.replace('[options]', `[${t('help.usage.options')}]`) : term;
    },
    commandUsage(this: Help, cmd) {
      const usage = Help.prototype.commandUsage.call(this, cmd);
      return isPortuguese() ? usage.replace('[options]', `[${t('help.usage.options')}]`).replace('[command]', `[${t('help.usage.command')}]`) : usage;
    },
    optionDescription(this: Help, option) {
      return commanderNotes(Help.prototype.optionDescription.call(this, option));
    },
    argumentDescription(this: Help, argument) {
      return commanderNotes(Help.prototype.argumentDescription.call(this, argument));
    },
  });
}

/** commander's `(choices: …)` and `(default: …)` after a description, in the language of the run. */
function commanderNotes(text: string): string {
  return isPortuguese() ? text.replace('(choices: ', `(${t('help.choices')} `).replace(/(\(|, )default: /, `$1${t('help.default')} `) : text;
}

/** A heading of commander's help (`Usage:`, `Options:`…) in the language of the run. */
function helpTitle(title: string): string {
  const key = (
    {
      'Usage:': 'help.title.usage',
      'Options:': 'help.title.options',
      'Global Options:': 'help.title.globalOptions',
      'Commands:': 'help.title.commands',
      'Arguments:': 'help.title.arguments',
    } as const
  )[title];
  return key ? t(key) : title;
}

/**
 * One of commander's own error messages (without `error: `) in the language of the run: unknown
 * option, missing or invalid option value, missing argument, too many arguments, unknown
 * command; any other text as it came.
 */
export function commanderMessage(message: string): string {
  // `history --csv`: the format is a value of --format (history's table, json, csv)
  const format = /^unknown option '--(csv|table)'/.exec(message);
  const hint = format ? `\n${t('cmdr.formatHint', format[1]!)}` : '';
  return `${translatedCommanderMessage(message)}${hint}`;
}

/** {@link commanderMessage} without its hints. */
function translatedCommanderMessage(message: string): string {
  if (!isPortuguese()) return message;
  const [first = '', ...rest] = message.split('\n');
  const tail = rest.map((l) => l.replace(/^\(Did you mean (.+)\?\)$/, (_, n: string) => t('cmdr.didYouMean', n)));
  let m: RegExpExecArray | null;
  let head = first;
  if ((m = /^unknown option '(.+)'$/.exec(first))) head = t('cmdr.unknownOption', m[1]!);
  else if ((m = /^option '(.+)' argument missing$/.exec(first))) head = t('cmdr.argumentMissing', m[1]!);
  else if ((m = /^option '(.+?)' argument '(.*)' is invalid\. ?(.*)$/s.exec(first)))
    head = `${t('cmdr.invalidArgument', m[1]!, m[2]!)}${m[3] ? ` ${m[3].replace(/^Allowed choices are (.+)\.$/s, (_, list: string) => t('history.allowedChoices', list))}` : ''}`;
  else if ((m = /^unknown command '(.+)'$/.exec(first))) head = t('cmdr.unknownCommand', m[1]!, '');
  else if ((m = /^missing required argument '(.+)'$/.exec(first))) head = t('cmdr.missingArgument', m[1]!);
  else if ((m = /^too many arguments( for '.+')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(first)))
    head = t('cmdr.tooManyArguments', m[1] ? t('cmdr.for', m[1].slice(6, -1)) : '', Number(m[2]), Number(m[3]));
  return [head, ...tail].join('\n');
}

/**
 * Adds `help [command...]` and makes every command that has subcommands (the root included) print
 * its help on stdout when called without one, and fail with a suggestion on an unknown one.
 * Call after every command is registered.
 */
export function addHelpCommand(program: Command): void {
  for (const group of [program, ...allCommands(program)].filter((c) => c.commands.length > 0)) {
    if ((group as unknown as { _actionHandler?: unknown })._actionHandler) continue; // a group that runs something itself (e.g. `sandbox`)
    group.allowExcessArguments(true).action((_opts: unknown, cmd: Command) => {
      if (cmd.args.length) unknownCommand(cmd, cmd, cmd.args[0]!);
      cmd.outputHelp();
    });
  }
  program
    .command('help')
    .description(t('help.cmd.description'))
    .argument('[command...]', t('help.cmd.argument'))
    .option('--man', t('help.cmd.man'))
    .addHelpText(
      'after',
      `
${t('help.cmd.after', EXAMPLE_FILES.join(', '))}

${t('help.title.examples')}
  $ paycli help cashout
  $ paycli help config set
  $ paycli help examples
  $ paycli help --man cashout
  $ cat "$(paycli help examples)/payout.json"`,
    )
    .action(async (path: string[], opts: { man?: boolean }, cmd: Command) => {
      if (opts.man) {
        // an unknown name is exit 2 before man starts; a known one is where the page opens
        const at = path.length ? commandPath(findCommand(program, path, cmd)) : undefined;
        await openManPage(cmd, at);
        return;
      }
      if (path.length === 1 && path[0] === 'examples') {
        currentBase().stdout.write(`${examplesDir()}\n`);
        return;
      }
      findCommand(program, path, cmd).outputHelp();
    });
}

/**
 * The manual page of each language, in the package's `man/` folder (written by the build,
 * src/cli/man.ts). npm links each file of package.json "man" to `<prefix>/share/man/man1/<name>`,
 * so the Portuguese page has a name of its own there: `man paycli-pt_BR` (docs/portugues.md).
 */
export const MAN_PAGE_FILES = { en: 'paycli.1', 'pt-BR': 'paycli-pt_BR.1' } as const;

/** The package's manual page in the language of the run (`man/paycli.1` or `man/paycli-pt_BR.1`). */
export function manPagePath(): string {
  return resolve(__dirname, '..', 'man', MAN_PAGE_FILES[isPortuguese() ? 'pt-BR' : 'en']);
}

/**
 * `paycli help --man [command]`: opens the manual page of the language of the run with `man -l
 * <file>` (man-db's local-file mode: no MANPATH needed, an install anywhere works), on the terminal
 * as `man paycli` would, or as plain text when stdout is no terminal. With a command (`paycli`
 * followed by its path, e.g. `paycli config set`), the pager `less` opens at that command's section
 * (a `+/` search added to `LESS`; another pager shows the page from its start). Exit 2 naming the
 * file when the page is missing or no `man` program runs (then the file can be read with any roff viewer).
 */
async function openManPage(reporter: Command, at?: string): Promise<void> {
  const page = manPagePath();
  const { existsSync } = await import('node:fs');
  if (!existsSync(page)) reporter.error(`error: ${t('help.man.missing', page)}`, { exitCode: 2, code: 'paycli.manMissing' });
  const base = currentBase();
  const { spawn } = await import('node:child_process');
  // Ctrl-C in the pager belongs to the pager (less ignores it); paycli waits for man to end.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  try {
    const own = !inProcess();
    const env = at ? { ...base.env, LESS: `${base.env.LESS ? `${base.env.LESS} ` : ''}+/^ +${at} \\[` } : base.env;
    const child = spawn('man', ['-l', page], { stdio: ['inherit', own ? 'inherit' : 'pipe', 'inherit'], env });
    if (!own) child.stdout?.on('data', (chunk: Buffer) => base.stdout.write(chunk));
    const status = await new Promise<number | null>((done) => {
      child.on('error', () => done(null));
      child.on('close', (code) => done(code));
    });
    if (status !== 0) reporter.error(`error: ${t('help.man.failed', page)}`, { exitCode: 2, code: 'paycli.manFailed' });
  } finally {
    process.off('SIGINT', ignore);
  }
}

/** The example files in the package's `examples/` folder (package.json "files"). */
export const EXAMPLE_FILES = ['order.json', 'payout.json', 'charges.csv', 'payouts.csv'] as const;

/**
 * The package's `examples/` folder, beside `dist/` where the bundle runs from (bin/paycli.cjs
 * loads dist/): the same place in a clone and in an installed package.
 */
export function examplesDir(): string {
  return resolve(__dirname, '..', 'examples');
}

/** Every command under `cmd`, depth first. */
export function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}
