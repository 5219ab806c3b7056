/** `paycli listen`: definition. Implementation: src/cli/run/listen.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/** Default port of `paycli listen` (the sandbox's 4010 + 1). */
export const LISTEN_DEFAULT_PORT = 4011;

/** Adds `listen` to the program. */
export function registerListen(program: Program) {
  return program
    .command('listen')
    .description('receive postbacks (payment notifications), print each one, optionally forward them to your app')
    .option('--port <port>', 'port to listen on (0 = any free port)', String(LISTEN_DEFAULT_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--forward-to <url>', 'also POST each notification (same body and headers) to this URL')
    .option('--secret <secret>', 'verify x-paycli-signature with this secret; 401 when it does not match (env PAYCLI_POSTBACK_SECRET)')
    .addHelpText(
      'after',
      `
Prints "listening on <url>" on stderr once ready, then one line per notification on stdout
(time, transaction, status, amount), or with --json the body exactly as received, one JSON
document per line. Answers 200; 400 for a body that is not a JSON object, 401 for a bad
signature (with --secret), 413 above 1 MiB. Ctrl-C or SIGTERM stops it (exit 0).

Examples:
  $ paycli listen --secret whsec_test
  $ paycli listen --port 3001 --forward-to http://localhost:3000/pix/postback --json | jq .status`,
    )
    .action(lazyAction(() => import('../run/listen.js')));
}
