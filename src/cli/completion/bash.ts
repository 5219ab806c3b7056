/**
 * bash completion: the data of the command tree (src/cli/completion/model.ts) as `case` arms, in
 * front of the static body in src/cli/completion/paycli.bash (linted by shellcheck).
 */
import body from './paycli.bash';
import { allCommands, embed, flagNames, groupSlots, header, PROFILES_AWK, shq, variadicIndex, type CommandSpec, type ValueCompletion } from './model.js';

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

/** The bash completion script for the tree `spec`. */
export function bashScript(spec: CommandSpec): string {
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
  return `${header('bash')}# Install: paycli completion bash > ~/.local/share/bash-completion/completions/paycli
#      or: paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc

# Sets subs (subcommands), flags (every flag), vflags (flags that take a value) and varg (index
# of a variadic last argument, if any) for a command path.
__paycli_spec() {
  case $1 in
${specArms}
    *) subs='' flags='' vflags='' varg='' ;;
  esac
}

# __paycli_values PATH SLOT CUR: completes the value of a flag (SLOT --flag) or of the
# positional argument SLOT #index of the command PATH.
__paycli_values() {
  case "$1:$2" in
${valueArms}
  esac
  return 0
}

# __paycli_profile_names FILE: the profile names in a paycli config file, one a line.
__paycli_profile_names() {
  awk ${shq(PROFILES_AWK)} "$1"
}

${embed(body)}`;
}
