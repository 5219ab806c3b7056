/**
 * Shell completion scripts for bash, zsh and fish, generated from the commander command tree
 * (`buildProgram()`), so that Tab always matches the real commands and flags. The scripts are
 * static: completing commands, flags and enum values runs no Node at all; profile names are read
 * from the config file with awk.
 *
 * Used by `paycli completion <shell>` (src/run/completion.ts), which is also what
 * `npm run completions` (scripts/gen-completions.mjs) runs to write completions/.
 */
import type { Argument, Command, Option } from 'commander';
import type { COMPLETION_SHELLS } from './commands/completion.js';
import { CONFIG_KEYS, HEADER_PREFIX } from './config-keys.js';

/** A shell paycli writes a completion script for (`COMPLETION_SHELLS`, src/commands/completion.ts). */
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
  /** True when the flag takes a value (`<x>` or `[x]`): the next word is that value. */
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
    words: [...CONFIG_KEYS.map((k) => ({ value: k.name, description: k.description })), { value: HEADER_PREFIX, description: 'an extra static header: header.<Name>' }],
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
  const takesValue = Boolean(opt.required || opt.optional);
  return {
    long: opt.long,
    short: opt.short,
    description: firstLine(opt.description),
    takesValue,
    values: takesValue ? (choices ?? (opt.long ? FLAG_VALUES[opt.long] : undefined) ?? NONE) : NONE,
  };
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
  // `paycli help [command...]` (src/help.ts) completes the commands beside it.
  const helpFor = parent && cmd.name() === 'help' ? parent.createHelp().visibleCommands(parent).filter((c) => c !== cmd) : undefined;
  return {
    path,
    description: commandDescription(cmd),
    subcommands: help.visibleCommands(cmd).map((c) => describeCommand(c, [...path, c.name()], [cmd, ...ancestors])),
    flags: [...own, ...inherited],
    args: cmd.registeredArguments.map((a) => argSpec(path, a, helpFor)),
  };
}

/** Every command of the tree, the program first, parents before their subcommands. */
function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

/** Index of a variadic last argument (more words complete as it), or '' when there is none. */
function variadicIndex(cmd: CommandSpec): string {
  const i = cmd.args.findIndex((a) => a.variadic);
  return i < 0 || cmd.subcommands.length ? '' : String(i);
}

function flagNames(f: FlagSpec): string[] {
  return [f.long, f.short].filter((n): n is string => Boolean(n));
}

/** Value completions of a command: flag values by flag name, argument values by `#index`. */
function valueSlots(cmd: CommandSpec): Array<{ key: string; values: ValueCompletion }> {
  const out: Array<{ key: string; values: ValueCompletion }> = [];
  for (const f of cmd.flags) if (f.takesValue && f.values.kind !== 'none') for (const n of flagNames(f)) out.push({ key: n, values: f.values });
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
function groupSlots(cmds: CommandSpec[]): Array<{ keys: string[]; values: ValueCompletion }> {
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
function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** fish single quoting: backslash and quote are escaped inside single quotes. */
function fishq(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Prints the names of the profiles in paycli's config file (`{"profiles": {"<name>": {...}}}`),
 * one a line. A small JSON scanner (any layout; strings, nesting and escapes are followed), not a
 * full parser: a name containing a JSON escape such as `\u00e9` is printed with the escape
 * undone only for `\"` and `\\`.
 */
const PROFILES_AWK = `{ s = s $0 "\\n" }
END {
  n = length(s); depth = 0; instr = 0; esc = 0; key = 0; pend = 0; inprof = 0
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (instr) {
      if (esc) { tok = tok c; esc = 0 }
      else if (c == "\\\\") esc = 1
      else if (c == "\\"") { instr = 0; key = 1 }
      else tok = tok c
      continue
    }
    if (c == "\\"") { instr = 1; tok = ""; key = 0; pend = 0; continue }
    if (c == " " || c == "\\t" || c == "\\n" || c == "\\r") continue
    if (c == ":") { if (key && depth == 1 && tok == "profiles") pend = 1; else if (key && inprof && depth == 2) print tok; key = 0; continue }
    if (c == "{" || c == "[") { depth++; if (pend && c == "{" && depth == 2) inprof = 1; pend = 0; key = 0; continue }
    if (c == "}" || c == "]") { depth--; if (depth < 2) inprof = 0; pend = 0; key = 0; continue }
    key = 0; pend = 0
  }
}`;

const HEADER = (shell: Shell, comment: string) =>
  `${comment} ${shell} completion for paycli. Generated from paycli's command tree by src/completion.ts
${comment} (\`paycli completion ${shell}\`; in the repository, \`npm run completions\`). Do not edit.
${comment} Completing commands and flags runs nothing but the shell; profile names are read from the
${comment} config file with awk. Regenerate after upgrading paycli.
`;

/* ---------------------------------------------------------------- bash */

function bashValues(v: ValueCompletion, cur: string): string {
  switch (v.kind) {
    case 'files':
      return `__paycli_files "${cur}"`;
    case 'profiles':
      return `__paycli_lines "${cur}" < <(__paycli_profiles)`;
    case 'words':
      return `__paycli_words ${shq(v.words.map((w) => w.value).join(' '))} "${cur}"`;
    default:
      return ':';
  }
}

function bash(spec: CommandSpec): string {
  const cmds = allCommands(spec);
  const specArms = cmds
    .map((c) => {
      const names = c.flags.flatMap(flagNames);
      const vflags = c.flags.filter((f) => f.takesValue).flatMap(flagNames);
      return `    ${shq(c.path.join(' '))})\n      subs=${shq(c.subcommands.map((s) => s.path.at(-1)).join(' '))}\n      flags=${shq(names.join(' '))}\n      vflags=${shq(vflags.join(' '))}\n      varg=${shq(variadicIndex(c))} ;;`;
    })
    .join('\n');
  const valueArms = groupSlots(cmds)
    .map((g) => `    ${g.keys.map(shq).join('|')})\n      ${bashValues(g.values, '$3')} ;;`)
    .join('\n');
  return `${HEADER('bash', '#')}# Install: paycli completion bash > ~/.local/share/bash-completion/completions/paycli
#      or: paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc

# Sets subs (subcommands), flags (every flag), vflags (flags that take a value) and varg (index
# of a variadic last argument, if any) for a command path.
__paycli_spec() {
  case $1 in
${specArms}
    *) subs='' flags='' vflags='' varg='' ;;
  esac
}

# COMPREPLY = the lines of stdin.
__paycli_reply() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do COMPREPLY+=("$line"); done
}

# __paycli_words WORDS CUR: the words starting with CUR; a single prefix ending in "." gets no space.
__paycli_words() {
  __paycli_reply < <(compgen -W "$1" -- "$2")
  if [[ \${#COMPREPLY[@]} -eq 1 && \${COMPREPLY[0]} == *. ]]; then compopt -o nospace 2>/dev/null; fi
  return 0
}

# __paycli_lines CUR: the lines of stdin starting with CUR.
__paycli_lines() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do [[ $line == "$1"* ]] && COMPREPLY+=("$line"); done
  return 0
}

__paycli_files() {
  compopt -o filenames 2>/dev/null
  __paycli_reply < <(compgen -f -- "$1")
}

# The path of paycli's config file (as src/paths.ts computes it).
__paycli_config_file() {
  if [[ -n \${PAYCLI_CONFIG_DIR-} ]]; then printf '%s\\n' "$PAYCLI_CONFIG_DIR/config.json"
  elif [[ \${OSTYPE-} == darwin* ]]; then printf '%s\\n' "$HOME/Library/Preferences/paycli/config.json"
  else printf '%s\\n' "\${XDG_CONFIG_HOME:-$HOME/.config}/paycli/config.json"; fi
}

# The profile names in the config file, one a line (read with awk; see src/completion.ts).
__paycli_profiles() {
  local f
  f=$(__paycli_config_file)
  [[ -r $f ]] || return 0
  awk ${shq(PROFILES_AWK)} "$f" 2>/dev/null
}

# __paycli_values PATH SLOT CUR: completes the value of a flag (SLOT --flag) or of the
# positional argument SLOT #index of the command PATH.
__paycli_values() {
  case "$1:$2" in
${valueArms}
  esac
  return 0
}

_paycli() {
  # Re-join "--flag=value", which bash splits at "=" (COMP_WORDBREAKS).
  local -a words=()
  local cword=0 i w n joined=0
  for ((i = 0; i < \${#COMP_WORDS[@]}; i++)); do
    w=\${COMP_WORDS[i]}
    n=\${#words[@]}
    if [[ $w == = && $n -gt 0 && \${words[n-1]} == --* && \${words[n-1]} != *=* ]]; then
      words[n-1]+==; joined=1
    elif ((joined)) && ((i <= COMP_CWORD)) && [[ \${COMP_WORDS[i-1]} == = ]]; then
      words[n-1]+=$w; joined=0
    else
      words+=("$w"); joined=0
    fi
    ((i == COMP_CWORD)) && cword=$((\${#words[@]} - 1))
  done
  local cur=\${words[cword]} path='' npos=0 expect='' subs flags vflags varg
  __paycli_spec ''
  for ((i = 1; i < cword; i++)); do
    w=\${words[i]}
    if [[ -n $expect ]]; then expect=''; continue; fi
    case $w in
      -*)
        if [[ $w != *=* && " $vflags " == *" $w "* ]]; then expect=$w; fi ;;
      *)
        if ((npos == 0)) && [[ " $subs " == *" $w "* ]]; then
          path=\${path:+$path }$w
          __paycli_spec "$path"
        else
          npos=$((npos + 1))
        fi ;;
    esac
  done
  COMPREPLY=()
  if [[ -n $expect ]]; then
    __paycli_values "$path" "$expect" "$cur"
  elif [[ $cur == --*=* ]]; then
    __paycli_values "$path" "\${cur%%=*}" "\${cur#*=}"
    if [[ \${COMP_WORDS[COMP_CWORD]} == --*=* ]]; then COMPREPLY=("\${COMPREPLY[@]/#/\${cur%%=*}=}"); fi
  elif [[ $cur == -* ]]; then
    __paycli_words "$flags" "$cur"
  elif ((npos == 0)) && [[ -n $subs ]]; then
    __paycli_words "$subs" "$cur"
  else
    if [[ -n $varg ]] && ((npos > varg)); then npos=$varg; fi
    __paycli_values "$path" "#$npos" "$cur"
  fi
  return 0
}

complete -F _paycli paycli
`;
}

/* ---------------------------------------------------------------- zsh */

/** `name:description` items for zsh's _describe, colons in the name escaped. */
function zshItems(words: Word[]): string {
  return words.map((w) => shq(`${w.value.replace(/:/g, '\\:')}${w.description ? `:${w.description}` : ''}`)).join(' ');
}

function zshValues(v: ValueCompletion, what: string): string {
  switch (v.kind) {
    case 'files':
      return '_files';
    case 'profiles':
      return `items=(\${(f)"$(__paycli_profiles)"}); _describe -t profiles 'profile' items`;
    case 'words': {
      const plain = v.words.filter((w) => !w.value.endsWith('.'));
      const prefixes = v.words.filter((w) => w.value.endsWith('.'));
      const out = [`items=(${zshItems(plain)}); _describe -t values ${shq(what)} items`];
      if (prefixes.length) out.push(`items=(${zshItems(prefixes)}); _describe -t values ${shq(what)} items -S ''`);
      return out.join('\n      ');
    }
    default:
      return ':';
  }
}

function zsh(spec: CommandSpec): string {
  const cmds = allCommands(spec);
  const specArms = cmds
    .map((c) => {
      const subs = c.subcommands.map((s) => ({ value: s.path.at(-1)!, description: s.description }));
      const flags = c.flags.flatMap((f) => flagNames(f).map((n) => ({ value: n, description: f.description })));
      const vflags = c.flags.filter((f) => f.takesValue).flatMap(flagNames);
      return `    ${shq(c.path.join(' '))})
      subnames=(${subs.map((s) => shq(s.value)).join(' ')})
      subs=(${zshItems(subs)})
      flags=(${zshItems(flags)})
      vflags=(${vflags.map(shq).join(' ')})
      varg=${shq(variadicIndex(c))} ;;`;
    })
    .join('\n');
  const valueArms = groupSlots(cmds)
    .map((g) => {
      const slot = g.keys[0]!.split(':')[1]!;
      const what = slot.startsWith('#') ? 'value' : `${slot.replace(/^-+/, '')} value`;
      return `    ${g.keys.map(shq).join('|')})\n      ${zshValues(g.values, what)} ;;`;
    })
    .join('\n');
  return `#compdef paycli
${HEADER('zsh', '#')}# Install: mkdir -p ~/.zfunc && paycli completion zsh > ~/.zfunc/_paycli
#   and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit
#   or: source <(paycli completion zsh)   (after compinit)

# Sets subnames, subs (name:description), flags (name:description), vflags (flags that take a
# value) and varg (index of a variadic last argument, if any) for a command path.
__paycli_spec() {
  case $1 in
${specArms}
    *) subnames=() subs=() flags=() vflags=() varg='' ;;
  esac
}

# The path of paycli's config file (as src/paths.ts computes it).
__paycli_config_file() {
  if [[ -n \${PAYCLI_CONFIG_DIR-} ]]; then print -r -- "$PAYCLI_CONFIG_DIR/config.json"
  elif [[ $OSTYPE == darwin* ]]; then print -r -- "$HOME/Library/Preferences/paycli/config.json"
  else print -r -- "\${XDG_CONFIG_HOME:-$HOME/.config}/paycli/config.json"; fi
}

# The profile names in the config file, one a line (read with awk; see src/completion.ts).
__paycli_profiles() {
  local f=$(__paycli_config_file)
  [[ -r $f ]] || return 0
  awk ${shq(PROFILES_AWK)} "$f" 2>/dev/null
}

# __paycli_values PATH SLOT: completes the value of a flag (SLOT --flag) or of the positional
# argument SLOT #index of the command PATH.
__paycli_values() {
  local -a items
  case "$1:$2" in
${valueArms}
  esac
}

_paycli() {
  local cmdpath='' w expect='' i npos=0 flag varg
  local -a subnames subs flags vflags
  __paycli_spec ''
  for (( i = 2; i < CURRENT; i++ )); do
    w=\${words[i]}
    if [[ -n $expect ]]; then expect=''; continue; fi
    case $w in
      -*)
        if [[ $w != *=* ]] && (( \${vflags[(Ie)$w]} )); then expect=$w; fi ;;
      *)
        if (( npos == 0 && \${subnames[(Ie)$w]} )); then
          cmdpath=\${cmdpath:+$cmdpath }$w
          __paycli_spec "$cmdpath"
        else
          (( npos++ ))
        fi ;;
    esac
  done
  if [[ -n $expect ]]; then
    __paycli_values "$cmdpath" "$expect"
  elif [[ $PREFIX == --*=* ]]; then
    flag=\${PREFIX%%=*}
    compset -P 1 '*='
    __paycli_values "$cmdpath" "$flag"
  elif [[ $PREFIX == -* ]]; then
    _describe -t options 'option' flags
  elif (( npos == 0 && \${#subnames} )); then
    _describe -t commands 'command' subs
  else
    if [[ -n $varg ]] && (( npos > varg )); then npos=$varg; fi
    __paycli_values "$cmdpath" "#$npos"
  fi
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _paycli "$@"
else
  compdef _paycli paycli
fi
`;
}

/* ---------------------------------------------------------------- fish */

function fishValueArgs(v: ValueCompletion): string {
  switch (v.kind) {
    case 'files':
      return ' -r -F';
    case 'profiles':
      return ` -x -a ${fishq('(__paycli_profiles)')}`;
    case 'words':
      return ` -x -a ${fishq(v.words.map((w) => w.value).join(' '))}`;
    default:
      return ' -x';
  }
}

/** `complete` lines for positional words (one a word when they have descriptions). */
function fishWords(cond: string, words: Word[]): string[] {
  if (words.every((w) => !w.description)) return [`complete -c paycli -n ${fishq(cond)} -a ${fishq(words.map((w) => w.value).join(' '))}`];
  return words.map((w) => `complete -c paycli -n ${fishq(cond)} -a ${fishq(w.value)}${w.description ? ` -d ${fishq(w.description)}` : ''}`);
}

function fish(spec: CommandSpec): string {
  const cmds = allCommands(spec);
  const specArms = cmds
    .map((c) => {
      const subs = c.subcommands.map((s) => s.path.at(-1)!);
      const vflags = c.flags.filter((f) => f.takesValue).flatMap(flagNames);
      const list = (xs: string[]) => xs.map((x) => ` ${fishq(x)}`).join('');
      return `        case ${fishq(c.path.join(' '))}\n            set -g __paycli_subs${list(subs)}\n            set -g __paycli_vflags${list(vflags)}\n            set -g __paycli_varg ${fishq(variadicIndex(c))}`;
    })
    .join('\n');
  const lines: string[] = [];
  for (const c of cmds) {
    const p = c.path.join(' ');
    lines.push('', `# paycli${p ? ` ${p}` : ''}`);
    if (c.subcommands.length) {
      lines.push(...fishWords(`__paycli_at ${fishq(p)} 0`, c.subcommands.map((s) => ({ value: s.path.at(-1)!, description: s.description }))));
    } else {
      c.args.forEach((a, i) => {
        const cond = `__paycli_at ${fishq(p)} ${i}`;
        if (a.values.kind === 'words') lines.push(...fishWords(cond, a.values.words));
        else if (a.values.kind === 'files') lines.push(`complete -c paycli -n ${fishq(cond)} -F`);
        else if (a.values.kind === 'profiles') lines.push(`complete -c paycli -n ${fishq(cond)} -a ${fishq('(__paycli_profiles)')}`);
      });
    }
    for (const f of c.flags) {
      const names = `${f.short ? ` -s ${f.short.slice(1)}` : ''}${f.long ? ` -l ${f.long.slice(2)}` : ''}`;
      lines.push(`complete -c paycli -n ${fishq(`__paycli_at ${fishq(p)}`)}${names}${f.takesValue ? fishValueArgs(f.values) : ''} -d ${fishq(f.description)}`);
    }
  }
  return `${HEADER('fish', '#')}# Install: paycli completion fish > ~/.config/fish/completions/paycli.fish

# Sets __paycli_subs (subcommands), __paycli_vflags (flags that take a value) and __paycli_varg
# (index of a variadic last argument, if any) for a command path.
function __paycli_spec
    set -g __paycli_subs
    set -g __paycli_vflags
    set -g __paycli_varg ''
    switch $argv[1]
${specArms}
    end
end

# Works out, from the words before the cursor, the command path (__paycli_path), how many
# positional arguments it has so far (__paycli_npos) and whether the word at the cursor is the
# value of a flag (__paycli_expect). Cached per command line.
function __paycli_state
    set -l line (commandline -cp)
    test "$line" = "$__paycli_line"; and return
    set -g __paycli_line $line
    set -g __paycli_path ''
    set -g __paycli_npos 0
    set -g __paycli_expect 0
    __paycli_spec ''
    for w in (commandline -opc)[2..-1]
        if test $__paycli_expect = 1
            set __paycli_expect 0
            continue
        end
        switch $w
            case '-*'
                if not string match -q -- '*=*' $w; and contains -- $w $__paycli_vflags
                    set __paycli_expect 1
                end
            case '*'
                if test $__paycli_npos = 0; and contains -- $w $__paycli_subs
                    set __paycli_path (string trim -- "$__paycli_path $w")
                    __paycli_spec $__paycli_path
                else
                    set __paycli_npos (math $__paycli_npos + 1)
                end
        end
    end
    if test -n "$__paycli_varg"; and test $__paycli_npos -gt $__paycli_varg
        set __paycli_npos $__paycli_varg
    end
end

# __paycli_at PATH [INDEX]: the cursor is in command PATH (and at its positional argument INDEX).
function __paycli_at
    __paycli_state
    test "$__paycli_path" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    test $__paycli_expect = 0; or return 1
    test $__paycli_npos = $argv[2]
end

# The path of paycli's config file (as src/paths.ts computes it).
function __paycli_config_file
    if test -n "$PAYCLI_CONFIG_DIR"
        echo "$PAYCLI_CONFIG_DIR/config.json"
    else if test (uname -s 2>/dev/null) = Darwin
        echo "$HOME/Library/Preferences/paycli/config.json"
    else if test -n "$XDG_CONFIG_HOME"
        echo "$XDG_CONFIG_HOME/paycli/config.json"
    else
        echo "$HOME/.config/paycli/config.json"
    end
end

# The profile names in the config file, one a line (read with awk; see src/completion.ts).
function __paycli_profiles
    set -l f (__paycli_config_file)
    test -r "$f"; or return 0
    awk ${fishq(PROFILES_AWK)} "$f" 2>/dev/null
end

complete -c paycli -e
complete -c paycli -f${lines.join('\n')}
`;
}

/**
 * The completion script for `shell`, generated from the command tree of `program`
 * (`buildProgram()`). Pure: the same tree always gives the same text.
 */
export function generateCompletion(program: Command, shell: Shell): string {
  const spec = describeCommand(program);
  switch (shell) {
    case 'bash':
      return bash(spec);
    case 'zsh':
      return zsh(spec);
    case 'fish':
      return fish(spec);
  }
}
