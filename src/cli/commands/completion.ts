/** `paycli completion <shell>`: definition (argument, help). Implementation: src/cli/run/completion.ts. */
import { Argument } from '@commander-js/extra-typings';
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Shells `paycli completion` writes a script for (src/completion/ has a generator for each). */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** Adds `completion` to the program. */
export function registerCompletion(program: Program) {
  return program
    .command('completion')
    .description(t('help.completion.description'))
    .addArgument(new Argument('<shell>', t('help.completion.shell')).choices(COMPLETION_SHELLS))
    .addHelpText(
      'after',
      `
${t('help.completion.after')}

${t('help.title.examples')}
  $ paycli completion bash > ~/.paycli.bash && echo 'source ~/.paycli.bash' >> ~/.bashrc
  $ paycli completion zsh | head -3`,
    )
    .action(lazyAction(() => import('../run/completion.js')));
}
