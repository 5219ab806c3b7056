/** `paycli config`: definition (subcommands, help). Implementation: src/cli/run/config.ts. */
import type { Program } from '../program.js';
import { CONFIG_KEYS } from '../../config/keys.js';
import { lazyAction } from '../lazy.js';

/** Adds `config` and its subcommands to the program. */
export function registerConfig(program: Program) {
  const keys = CONFIG_KEYS.map((k) => `  ${k.name.padEnd(18)} ${k.description}`).join('\n');
  const config = program
    .command('config')
    .description('read and change settings, per profile (--profile or PAYCLI_PROFILE)')
    .addHelpText(
      'after',
      `
Keys:
${keys}
  header.<Name>      an extra static header sent with every request (a secret, like api-key)

Secrets (api-key, every header.<Name>, a password in a URL) are shown masked by get/list and
redacted everywhere else. Without a value, set asks for a secret hidden, or reads it from stdin.

Examples:
  $ paycli config set base-url https://api.gateway.example
  $ paycli config set api-key                 # in a terminal: asks for it, hidden (or reads stdin)
  $ printf %s "$KEY" | paycli config set api-key --profile prod --create
  $ paycli config set header.cs              # in a terminal: asks for it, hidden (or reads stdin)
  $ paycli config list --json`,
    );
  const load = () => import('../run/config.js');
  const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
  config
    .command('set')
    .description('set a key; a secret (api-key, header.<Name>) with no value is read from a hidden prompt or stdin')
    .argument('<key>')
    .argument('[value]')
    .option('--create', 'make the profile named by --profile when it does not exist yet (else a typo is exit 2, nothing changed)')
    .addHelpText('after', examples('paycli config set base-url https://api.gateway.example', 'paycli config set api-key                 # in a terminal: asks for it, hidden', 'paycli config set base-url https://api.gateway.example --profile prod --create', 'printf %s "$KEY" | paycli config set api-key --profile prod', 'printf %s "$CS" | paycli config set header.cs'))
    .action(lazyAction(load));
  config
    .command('get')
    .description('print a key (secrets masked)')
    .argument('<key>')
    .addHelpText('after', examples('paycli config set timeout 10000 && paycli config get timeout', 'printf %s "$KEY" | paycli config set api-key --profile prod --create && paycli config get api-key --profile prod'))
    .action(lazyAction(load));
  config
    .command('unset')
    .description('remove a key')
    .argument('<key>')
    .addHelpText('after', examples('paycli config unset timeout'))
    .action(lazyAction(load));
  config
    .command('list')
    .description('list the keys of the profile (secrets masked)')
    .addHelpText('after', examples('paycli config list', 'paycli config set timeout 10000 --profile prod --create && paycli config list --profile prod --json'))
    .action(lazyAction(load));
  config
    .command('profiles')
    .description('list the configured profiles, with the gateway host each one sends to')
    .addHelpText('after', examples('paycli config profiles', 'paycli config profiles --json'))
    .action(lazyAction(load));
  config
    .command('path')
    .description('print the path of the config file')
    .addHelpText('after', examples('paycli config path'))
    .action(lazyAction(load));
  return config;
}
