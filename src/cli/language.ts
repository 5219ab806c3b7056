/**
 * Picks the language of this run before the command tree is built (its help texts are rendered
 * then): `--lang`, config key `lang` of the profile, `LC_ALL`/`LC_MESSAGES`/`LANG`, else English
 * (src/core/i18n/index.ts `resolveLanguage`; docs/portugues.md). Reads the config file directly
 * and quietly: a file it cannot read or parse gives no language, and the command that uses the
 * config reports it.
 */
import { readFileSync } from 'node:fs';
import { configFile } from '../core/paths.js';
import { resolveLanguage, setLanguage, type Language } from '../core/i18n/index.js';

/** The value of flag `name` (`--lang pt-BR` or `--lang=pt-BR`) before any `--`, the last one given. */
export function flagValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === name) value = args[++i];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  }
  return value;
}

/** Config key `lang` of the profile (`--profile`, `PAYCLI_PROFILE`, `default`), if the file has one. */
function configLanguage(args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const profile = flagValue(args, '--profile') || env.PAYCLI_PROFILE || 'default';
  try {
    const doc = JSON.parse(readFileSync(configFile(), 'utf8')) as { profiles?: Record<string, Record<string, unknown>> };
    const value = doc?.profiles?.[profile]?.lang;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resolves and sets the language of this run from its arguments (after the program name) and
 * environment; returns it.
 */
export async function chooseLanguage(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Language> {
  const flag = flagValue(args, '--lang');
  const lang = resolveLanguage(flag, flag === undefined ? configLanguage(args, env) : undefined, env);
  await setLanguage(lang);
  return lang;
}
