/**
 * fish completion: the data of the command tree (src/cli/completion/model.ts): `__paycli_spec` in
 * front of the static body in src/cli/completion/paycli.fish (syntax-checked with `fish
 * --no-execute`), the `complete` lines after it.
 */
import body from './paycli.fish';
import { allCommands, embed, flagNames, header, PROFILES_AWK, variadicIndex, type CommandSpec, type ValueCompletion, type Word } from './model.js';

/** fish single quoting: backslash and quote are escaped inside single quotes. */
function fishq(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

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

/** The fish completion script for the tree `spec`. */
export function fishScript(spec: CommandSpec): string {
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
      lines.push(
        ...fishWords(
          `__paycli_at ${fishq(p)} 0`,
          c.subcommands.map((s) => ({ value: s.path.at(-1)!, description: s.description })),
        ),
      );
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
      // `--json=FIELDS` (its value is optional, so only in the `=` form): the fields of the command's document
      if (!f.takesValue && f.long === '--json' && f.values.kind === 'words') {
        const cond = `__paycli_at ${fishq(p)}; and string match -q -- '--json=*' (commandline -ct)`;
        lines.push(`complete -c paycli -n ${fishq(cond)} -a ${fishq(`(__paycli_json_fields ${f.values.words.map((w) => w.value).join(' ')})`)}`);
      }
    }
  }
  return `${header('fish')}# Install: paycli completion fish > ~/.config/fish/completions/paycli.fish

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

# __paycli_profile_names FILE: the profile names in a paycli config file, one a line.
function __paycli_profile_names
    awk ${fishq(PROFILES_AWK)} $argv[1]
end

${embed(body)}${lines.join('\n')}
`;
}
