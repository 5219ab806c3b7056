/**
 * zsh completion: the data of the command tree (src/cli/completion/model.ts) as `case` arms, in
 * front of the static body in src/cli/completion/paycli.zsh (syntax-checked with `zsh -n`).
 */
import body from './paycli.zsh';
import { allCommands, embed, flagNames, groupSlots, header, PROFILES_AWK, shq, variadicIndex, type CommandSpec, type ValueCompletion, type Word } from './model.js';

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

/** The zsh completion script for the tree `spec`. */
export function zshScript(spec: CommandSpec): string {
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
${header('zsh')}# Install: mkdir -p ~/.zfunc && paycli completion zsh > ~/.zfunc/_paycli
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

# __paycli_values PATH SLOT: completes the value of a flag (SLOT --flag) or of the positional
# argument SLOT #index of the command PATH.
__paycli_values() {
  local -a items
  case "$1:$2" in
${valueArms}
  esac
}

# __paycli_profile_names FILE: the profile names in a paycli config file, one a line.
__paycli_profile_names() {
  awk ${shq(PROFILES_AWK)} "$1"
}

${embed(body)}`;
}
