/** `paycli auth login|status|logout`: definition (subcommands, help). Implementation: src/cli/run/auth.ts. */
import type { Program } from '../program.js';
import { lazyAction } from '../lazy.js';

/** Adds `auth` and its subcommands to the program. */
export function registerAuth(program: Program) {
  const auth = program
    .command('auth')
    .description("log a profile in to its gateway: the API key checked, and kept in the system keychain")
    .addHelpText(
      'after',
      `
Per profile (--profile or PAYCLI_PROFILE). login asks for the API key hidden (in a terminal; else
reads it from stdin), checks it with a request that moves no money (the balance lookup, unless the
profile has lookup off), and keeps it in the system keychain (Secret Service on Linux, Keychain on
macOS, Credential Manager on Windows), else in the config file (mode 0600), and says which.
PAYCLI_API_KEY, when set, wins over the kept key. \`paycli config set api-key\` stays the scripted
way to keep a key in the config file.

Examples:
  $ paycli sandbox --api-key "$KEY" &                            # a gateway on 127.0.0.1:4010 that wants a key
  $ paycli config set base-url http://127.0.0.1:4010
  $ printf %s "$KEY" | paycli auth login
  $ paycli auth status
  $ paycli auth logout`,
    );
  const load = () => import('../run/auth.js');
  const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
  auth
    .command('login')
    .description('ask for the API key (hidden; or read it from stdin), check it against the gateway, keep it in the keychain (else the config file)')
    .option('--no-check', 'keep the key without asking the gateway first (a gateway without a balance lookup)')
    .addHelpText('after', examples('paycli sandbox --api-key "$KEY" &                            # a gateway on 127.0.0.1:4010 that wants a key', 'paycli config set base-url http://127.0.0.1:4010', 'printf %s "$KEY" | paycli auth login', 'paycli auth login                          # in a terminal: asks for the key, hidden', 'printf %s "$KEY" | paycli auth login --no-check'))
    .action(lazyAction(load));
  auth
    .command('status')
    .description('show the profile, its gateway, where its key is kept, the key masked, and whether the gateway accepts it')
    .addHelpText('after', examples('paycli sandbox --api-key "$KEY" &', 'paycli config set base-url http://127.0.0.1:4010 && printf %s "$KEY" | paycli auth login', 'paycli auth status', 'paycli auth status --json', 'paycli auth logout && paycli auth status   # exit 3: no API key for profile "default"'))
    .action(lazyAction(load));
  auth
    .command('logout')
    .description("remove the profile's API key from the keychain and the config file")
    .addHelpText('after', examples('paycli config set base-url https://api.gateway.example && printf %s "$KEY" | paycli auth login --no-check', 'paycli auth logout'))
    .action(lazyAction(load));
  return auth;
}
