/**
 * Shell completion scripts for bash, zsh and fish, generated from the commander command tree
 * (`buildProgram()`): the tree model (src/cli/completion/model.ts), one module per shell (bash.ts,
 * zsh.ts, fish.ts) and each shell's static body in a file its linter reads (paycli.bash,
 * paycli.zsh, paycli.fish; the awk program shared by all three in profiles.awk). The scripts are
 * static: completing commands, flags and enum values runs no Node at all; profile names are read
 * from the config file with awk.
 *
 * Used by `paycli completion <shell>` (src/cli/run/completion.ts), which is also what
 * `npm run completions` (scripts/gen-completions.mjs) runs to write completions/.
 */
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { describeCommand, type Shell } from './model.js';
import { zshScript } from './zsh.js';

export type { Shell } from './model.js';

/**
 * The completion script for `shell`, generated from the command tree of `program`
 * (`buildProgram()`). Pure: the same tree always gives the same text.
 */
export function generateCompletion(program: Command, shell: Shell): string {
  const spec = describeCommand(program);
  switch (shell) {
    case 'bash':
      return bashScript(spec);
    case 'zsh':
      return zshScript(spec);
    case 'fish':
      return fishScript(spec);
  }
}
