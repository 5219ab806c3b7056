/** `paycli completion <shell>`: definition (argument, help). Implementation: src/cli/run/completion.ts. */
import { Argument } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/** Shells `paycli completion` writes a script for (src/completion/ has a generator for each). */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** Adds `completion` to the program. */
export function registerCompletion(program: Program) {
  return program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS))
    .addHelpText(
      'after',
      `
Completes commands, flags, --pix-key-type names, config keys, file paths and profile names.
Completing commands and flags runs nothing but the shell. Run the install line again after
upgrading paycli.

Install:
  bash  with bash-completion (loaded on first use):
          mkdir -p ~/.local/share/bash-completion/completions
          paycli completion bash > ~/.local/share/bash-completion/completions/paycli
        without bash-completion:
          paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc
  zsh   into a folder of $fpath:
          mkdir -p ~/.zfunc && paycli completion zsh > ~/.zfunc/_paycli
        and in ~/.zshrc, before compinit:
          fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit
  fish  paycli completion fish > ~/.config/fish/completions/paycli.fish

Open a new shell afterwards.

Examples:
  $ paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc
  $ paycli completion zsh | head -3`,
    )
    .action(lazyAction(() => import('../run/completion.js')));
}
