/** `paycli listen`: definition. Implementation: src/cli/run/listen.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Default port of `paycli listen` (the sandbox's 4010 + 1). */
export const LISTEN_DEFAULT_PORT = 4011;

/** Adds `listen` to the program. */
export function registerListen(program: Program) {
  return program
    .command('listen')
    .description(t('help.listen.description'))
    .option('--port <port>', t('help.listen.port'), String(LISTEN_DEFAULT_PORT))
    .option('--host <host>', t('help.listen.host'), '127.0.0.1')
    .option('--forward-to <url>', t('help.listen.forwardTo'))
    .option('--secret <secret>', t('help.listen.secret'))
    .addHelpText(
      'after',
      `
${t('help.listen.after')}

${t('help.title.examples')}
  $ paycli listen --secret whsec_test
  $ paycli listen --port 3001 --forward-to http://localhost:3000/pix/postback --json | jq .status`,
    )
    .action(lazyAction(() => import('../run/listen.js')));
}
