/**
 * The completion tree model: what completion knows about paycli's commands, built from the
 * commander command tree (`buildProgram()`), so that Tab always matches the real commands and
 * flags. Each shell's generator (src/cli/completion/bash.ts, zsh.ts, fish.ts) turns this model into
 * data (one `case` arm per command, one per value completion) and appends the shell's static body
 * (src/cli/completion/paycli.bash, paycli.zsh, paycli.fish: files the shells' own linters read).
 */
import type { Argument, Command, Option } from 'commander';
import type { COMPLETION_SHELLS } from '../commands/completion.js';
import { CONFIG_KEYS, HEADER_PREFIX } from '../../config/keys.js';
import { t } from '../../core/i18n/index.js';
import profilesAwk from './profiles.awk';
import { COMMAND_FIELDS } from '../output/fields.js';

/** A shell paycli writes a completion script for (`COMPLETION_SHELLS`, src/cli/commands/completion.ts). */
export type Shell = (typeof COMPLETION_SHELLS)[number];

/** A candidate value, with an optional description shown by zsh and fish. */
export interface Word {
  value: string;
  description?: string;
}

/**
 * What completes the value of a flag or a positional argument: nothing (free text), a fixed list
 * of words (a value ending in "." is a prefix: no space is added after it), file paths, or the
 * profile names found in the config file.
 */
export type ValueCompletion = { kind: 'none' } | { kind: 'words'; words: Word[] } | { kind: 'files' } | { kind: 'profiles' };

/** A flag as completion sees it. */
export interface FlagSpec {
  /** `--long` (may be absent for a short-only flag). */
  long?: string;
  /** `-s`, when the flag has a short form. */
  short?: string;
  description: string;
  /**
   * True when the flag takes a value (`<x>`): the next word is that value. `--json [fields]` does
   * not count: the word after it is a field list only when it is one (src/cli/output/fields.ts),
   * so its fields complete in the `--json=` form.
   */
  takesValue: boolean;
  values: ValueCompletion;
}

/** A positional argument as completion sees it. */
export interface ArgSpec {
  name: string;
  variadic: boolean;
  values: ValueCompletion;
}

/** A command (or the program itself, whose path is empty) as completion sees it. */
export interface CommandSpec {
  /** Names from the program down, e.g. `['config', 'set']`; `[]` for the program. */
  path: string[];
  description: string;
  subcommands: CommandSpec[];
  /** Its own flags, then the flags of its ancestors that commander accepts here too. */
  flags: FlagSpec[];
  args: ArgSpec[];
}

const NONE: ValueCompletion = { kind: 'none' };

/**
 * Value completion the command tree cannot express (it knows only `argChoices`), by long flag.
 * Everything else (commands, flags, whether a flag takes a value, enum values) comes from the tree.
 */
const FLAG_VALUES: Record<string, ValueCompletion> = {
  '--input': { kind: 'files' },
  '--qr-file': { kind: 'files' },
  '--profile': { kind: 'profiles' },
};

/** The config keys `config set|get|unset` accept: CONFIG_KEYS, plus the `header.` prefix. */
function configKeyWords(): ValueCompletion {
  return {
    kind: 'words',
    words: [
      ...CONFIG_KEYS.map((k) => ({ value: k.name, description: t(`configKey.${k.name}` as 'configKey.base-url') })),
      { value: HEADER_PREFIX, description: t('completion.headerPrefix') },
    ],
  };
}

/** Value completion of positional arguments, by command path (joined by spaces) and argument name. */
const ARG_VALUES: Record<string, Record<string, () => ValueCompletion>> = {
  'config set': { key: configKeyWords },
  'config get': { key: configKeyWords },
  'config unset': { key: configKeyWords },
};

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

function commandDescription(cmd: Command): string {
  return firstLine(cmd.summary() || cmd.description());
}

function flagSpec(opt: Option): FlagSpec {
  const choices = opt.argChoices?.length ? { kind: 'words' as const, words: opt.argChoices.map((value) => ({ value })) } : undefined;
  const takesValue = Boolean(opt.required);
  return {
    long: opt.long,
    short: opt.short,
    description: firstLine(opt.description),
    takesValue,
    values: takesValue ? (choices ?? (opt.long ? FLAG_VALUES[opt.long] : undefined) ?? NONE) : NONE,
  };
}

/** `--json` of command `path` completes the fields of its document (`--json=` form), when it has one. */
function withFields(f: FlagSpec, path: string[]): FlagSpec {
  const fields = COMMAND_FIELDS[path.join(' ')];
  return f.long === '--json' && fields ? { ...f, values: { kind: 'words', words: fields.map((value) => ({ value })) } } : f;
}

function argSpec(path: string[], arg: Argument, helpFor?: Command[]): ArgSpec {
  let values: ValueCompletion = NONE;
  if (arg.argChoices?.length) values = { kind: 'words', words: arg.argChoices.map((value) => ({ value })) };
  else if (ARG_VALUES[path.join(' ')]?.[arg.name()]) values = ARG_VALUES[path.join(' ')]![arg.name()]!();
  else if (helpFor) values = { kind: 'words', words: helpFor.map((c) => ({ value: c.name(), description: commandDescription(c) })) };
  return { name: arg.name(), variadic: arg.variadic, values };
}

/**
 * Describes the command tree for completion: every visible command and subcommand (with
 * commander's implicit `help`), every visible flag of each command including the flags of its
 * ancestors (commander accepts the program's flags after a subcommand too), and value
 * completion for flags and arguments.
 * @param cmd the program (`buildProgram()`) or one of its commands
 * @param path names of `cmd` from the program down (`[]` for the program)
 * @param ancestors commands above `cmd`, nearest first (commander's implicit help command has no
 *   `parent`, so the tree is walked downwards)
 */
export function describeCommand(cmd: Command, path: string[] = [], ancestors: Command[] = []): CommandSpec {
  const help = cmd.createHelp();
  const own = help.visibleOptions(cmd).map(flagSpec);
  const seen = new Set(own.flatMap(flagNames));
  const inherited: FlagSpec[] = [];
  for (const a of ancestors) {
    for (const f of a.options.filter((o) => !o.hidden).map(flagSpec)) {
      if (flagNames(f).some((n) => seen.has(n))) continue;
      for (const n of flagNames(f)) seen.add(n);
      inherited.push(f);
    }
  }
  const parent = ancestors[0];
  // `paycli help [command...]` (src/cli/help.ts) completes the commands beside it.
  const helpFor =
    parent && cmd.name() === 'help'
      ? parent
          .createHelp()
          .visibleCommands(parent)
          .filter((c) => c !== cmd)
      : undefined;
  return {
    path,
    description: commandDescription(cmd),
    subcommands: help.visibleCommands(cmd).map((c) => describeCommand(c, [...path, c.name()], [cmd, ...ancestors])),
    flags: [...own, ...inherited].map((f) => withFields(f, path)),
    args: cmd.registeredArguments.map((a) => argSpec(path, a, helpFor)),
  };
}

/** Every command of the tree, the program first, parents before their subcommands. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

/** Index of a variadic last argument (more words complete as it), or '' when there is none. */
export function variadicIndex(cmd: CommandSpec): string {
  const i = cmd.args.findIndex((a) => a.variadic);
  return i < 0 || cmd.subcommands.length ? '' : String(i);
}

export function flagNames(f: FlagSpec): string[] {
  return [f.long, f.short].filter((n): n is string => Boolean(n));
}

/** Value completions of a command: flag values by flag name, argument values by `#index`. */
export function valueSlots(cmd: CommandSpec): Array<{ key: string; values: ValueCompletion }> {
  const out: Array<{ key: string; values: ValueCompletion }> = [];
  for (const f of cmd.flags) if (f.values.kind !== 'none') for (const n of flagNames(f)) out.push({ key: n, values: f.values });
  if (!cmd.subcommands.length) {
    cmd.args.forEach((a, i) => {
      if (a.values.kind !== 'none') out.push({ key: `#${i}`, values: a.values });
    });
  }
  return out;
}

/** A shell-neutral, stable key for a value completion, to group identical ones. */
function valuesKey(v: ValueCompletion): string {
  return JSON.stringify(v);
}

/** Groups `path:slot` keys by identical value completion, in first-seen order. */
export function groupSlots(cmds: CommandSpec[]): Array<{ keys: string[]; values: ValueCompletion }> {
  const groups = new Map<string, { keys: string[]; values: ValueCompletion }>();
  for (const c of cmds) {
    for (const s of valueSlots(c)) {
      const k = valuesKey(s.values);
      if (!groups.has(k)) groups.set(k, { keys: [], values: s.values });
      groups.get(k)!.keys.push(`${c.path.join(' ')}:${s.key}`);
    }
  }
  return [...groups.values()];
}

/** POSIX shell single quoting (bash and zsh). */
export function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The comment at the top of every generated script. */
export function header(shell: Shell, comment = '#'): string {
  return `${comment} ${shell} completion for paycli. Generated from paycli's command tree by src/completion/
${comment} (\`paycli completion ${shell}\`; in the repository, \`npm run completions\`). Do not edit.
${comment} Completing commands and flags runs nothing but the shell; profile names are read from the
${comment} config file with awk. Regenerate after upgrading paycli.
`;
}

/** A shell's static body as embedded: without the linter directives at its top. */
export function embed(body: string): string {
  return body.replace(/^(?:# shellcheck [^\n]*\n)+/, '').replace(/^\n+/, '');
}

/** The awk program that lists the profile names (src/cli/completion/profiles.awk), without its comments. */
export const PROFILES_AWK = profilesAwk.replace(/^#[^\n]*\n/gm, '');
