/** `paycli auth login|status|logout`: definition (subcommands, help). Implementation: src/cli/run/auth.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Adds `auth` and its subcommands to the program. */
export function registerAuth(program: Program) {
  const auth = program
    .command('auth')
    .description(t('help.auth.description'))
    .addHelpText(
      'after',
      `
${t('help.auth.after')}

${t('help.title.examples')}
  $ paycli sandbox --api-key "$KEY" &                            ${t('help.example.keyedGateway')}
  $ paycli config set base-url http://127.0.0.1:4010
  $ printf %s "$KEY" | paycli auth login
  $ paycli auth status
  $ paycli auth logout`,
    );
  const load = () => import('../run/auth.js');
  const examples = (...lines: string[]) => `\n${t('help.title.examples')}\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
  auth
    .command('login')
    .description(t('help.auth.login'))
    .option('--no-check', t('help.auth.noCheck'))
    .addHelpText(
      'after',
      examples(
        `paycli sandbox --api-key "$KEY" &                            ${t('help.example.keyedGateway')}`,
        'paycli config set base-url http://127.0.0.1:4010',
        'printf %s "$KEY" | paycli auth login',
        `paycli auth login                          ${t('help.example.asksHidden')}`,
        'printf %s "$KEY" | paycli auth login --no-check',
      ),
    )
    .action(lazyAction(load));
  auth
    .command('status')
    .description(t('help.auth.status'))
    .addHelpText(
      'after',
      examples(
        'paycli sandbox --api-key "$KEY" &',
        'paycli config set base-url http://127.0.0.1:4010 && printf %s "$KEY" | paycli auth login',
        'paycli auth status',
        'paycli auth status --json',
        `paycli auth logout && paycli auth status   ${t('help.auth.statusExit3')}`,
      ),
    )
    .action(lazyAction(load));
  auth
    .command('logout')
    .description(t('help.auth.logout'))
    .addHelpText('after', examples('paycli config set base-url https://api.gateway.example && printf %s "$KEY" | paycli auth login --no-check', 'paycli auth logout'))
    .action(lazyAction(load));
  return auth;
}
