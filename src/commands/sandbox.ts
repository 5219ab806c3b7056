/** `paycli sandbox`: definition. Implementation: src/run/sandbox.ts. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.js';

/** Default address of the standalone sandbox. */
export const SANDBOX_DEFAULT_PORT = 4010;

/** Adds `sandbox` to the program. */
export function registerSandbox(program: Command): Command {
  return program
    .command('sandbox')
    .description('run the built-in sandbox gateway standalone (no money moves), for other programs and tests')
    .option('--port <port>', `port to listen on (0 = any free port)`, String(SANDBOX_DEFAULT_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--api-key <key>', 'require "Authorization: Bearer <key>" on every request')
    .option('--no-acquirer', 'answer every cash-in with 400 "no active acquirer"')
    .addHelpText(
      'after',
      `
The sandbox implements both endpoints of the interface: POST /transaction/qrcode/cashin and
POST /transaction/cashout. It prints "listening on <url>" on stderr once ready.

Examples:
  $ paycli sandbox --port 4010 &
  $ paycli --base-url http://127.0.0.1:4010 cashin --value 1000 ...`,
    )
    .action(lazyAction(() => import('../run/sandbox.js')));
}
