/** `paycli config`: definition (subcommands, help). Implementation: src/cli/run/config.ts. */
import type { Program } from '../program.js';
import { CONFIG_KEYS } from '../../config/keys.js';
import { DEFAULT_LOOKUP_PATHS } from '../../gateway/contract.js';
import { en } from '../../core/i18n/en.js';
import { lazyAction } from '../lazy.js';
import { t } from '../../core/i18n/index.js';

/** Adds `config` and its subcommands to the program. */
/**
 * A config key's help in the language of the run (catalog `configKey.<name>`); the English
 * description of src/config/keys.ts for a key the catalog lacks.
 */
function configKeyHelp(name: string, description: string): string {
  const key = `configKey.${name}`;
  if (!(key in en)) return description;
  const paths: Record<string, string> = {
    'configKey.status-path': DEFAULT_LOOKUP_PATHS.statusPath,
    'configKey.status-by-order-path': DEFAULT_LOOKUP_PATHS.statusByOrderPath,
    'configKey.balance-path': DEFAULT_LOOKUP_PATHS.balancePath,
  };
  return key in paths ? t(key as 'configKey.status-path', paths[key]!) : t(key as 'configKey.base-url');
}

export function registerConfig(program: Program) {
  const keys = CONFIG_KEYS.map((k) => `  ${k.name.padEnd(18)} ${configKeyHelp(k.name, k.description)}`).join('\n');
  const config = program
    .command('config')
    .description(t('help.config.description'))
    .addHelpText(
      'after',
      `
${t('help.config.keys')}
${keys}
  header.<Name>      ${t('help.config.headerKey')}

${t('help.config.after')}

${t('help.title.examples')}
  $ paycli config set base-url https://api.gateway.example
  $ paycli config set api-key                 ${t('help.example.asksItHidden')}
  $ printf %s "$KEY" | paycli config set api-key --profile prod --create
  $ paycli config set header.cs              ${t('help.example.asksItHidden')}
  $ paycli config list --json`,
    );
  const load = () => import('../run/config.js');
  const examples = (...lines: string[]) => `\n${t('help.title.examples')}\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
  config
    .command('set')
    .description(t('help.config.set'))
    .argument('<key>')
    .argument('[value]')
    .option('--create', t('help.config.create'))
    .addHelpText(
      'after',
      examples(
        'paycli config set base-url https://api.gateway.example',
        `paycli config set api-key                 ${t('help.config.asksComment')}`,
        'paycli config set base-url https://api.gateway.example --profile prod --create',
        'printf %s "$KEY" | paycli config set api-key --profile prod',
        'printf %s "$CS" | paycli config set header.cs',
      ),
    )
    .action(lazyAction(load));
  config
    .command('get')
    .description(t('help.config.get'))
    .argument('<key>')
    .addHelpText(
      'after',
      examples(
        'paycli config set timeout 10000 && paycli config get timeout',
        'printf %s "$KEY" | paycli config set api-key --profile prod --create && paycli config get api-key --profile prod',
      ),
    )
    .action(lazyAction(load));
  config.command('unset').description(t('help.config.unset')).argument('<key>').addHelpText('after', examples('paycli config unset timeout')).action(lazyAction(load));
  config
    .command('list')
    .description(t('help.config.list'))
    .addHelpText('after', examples('paycli config list', 'paycli config set timeout 10000 --profile prod --create && paycli config list --profile prod --json'))
    .action(lazyAction(load));
  config
    .command('profiles')
    .description(t('help.config.profiles'))
    .addHelpText('after', examples('paycli config profiles', 'paycli config profiles --json'))
    .action(lazyAction(load));
  config.command('path').description(t('help.config.path')).addHelpText('after', examples('paycli config path')).action(lazyAction(load));
  return config;
}
