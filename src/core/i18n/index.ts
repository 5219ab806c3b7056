/**
 * Messages in the user's language (docs/portugues.md). The language is chosen once at start-up
 * ({@link resolveLanguage}, then {@link setLanguage}); {@link t} renders a key of the catalog
 * (./en.ts defines the keys, ./pt-BR.ts is the same keys in Brazilian Portuguese). English is
 * the default and is bundled with the program; the Portuguese catalog is a separate module,
 * loaded only when Portuguese is on.
 */
import { en, type Catalog, type Key } from './en.js';
import { parseLanguage, type Language } from './language.js';

export type { Catalog, Key } from './en.js';
/** For the catalogs as the build rewrites them (scripts/lib/catalog-groups.ts), which import it from here. */
export { lazyCatalog } from './lazy.js';

export { LANGUAGES, parseLanguage, type Language } from './language.js';

let current: Catalog = en;
let currentLanguage: Language = 'en';

/** The parameters of key `K`: none for a plain text, the function's for a text with values. */
export type Params<K extends Key> = (typeof en)[K] extends (...args: infer A) => string ? A : [];

/**
 * The text of `key` in the current language, with its parameters filled in.
 * @example t('cashout.confirm') // "Send this cash-out?" / "Enviar este saque?"
 */
export function t<K extends Key>(key: K, ...params: Params<K>): string {
  const entry = current[key] as string | ((...args: unknown[]) => string);
  return typeof entry === 'function' ? entry(...params) : entry;
}

/**
 * The English text of `key`, whatever the language: for what scripts read and must not change
 * with the language (a `--json` document on stdout; docs/portugues.md).
 */
export function english<K extends Key>(key: K, ...params: Params<K>): string {
  const entry = en[key] as string | ((...args: unknown[]) => string);
  return typeof entry === 'function' ? entry(...params) : entry;
}

/** The language texts are rendered in (English until {@link setLanguage}). */
export function language(): Language {
  return currentLanguage;
}

/** True when Portuguese is on. */
export function isPortuguese(): boolean {
  return currentLanguage === 'pt-BR';
}

/** Switches the language of every later {@link t}; loads the Portuguese catalog when needed. */
export async function setLanguage(lang: Language): Promise<void> {
  current = lang === 'pt-BR' ? (await import('./pt-BR.js')).ptBR : en;
  currentLanguage = lang;
}

/** The catalog of `lang` (tests render every key of both). */
export async function catalog(lang: Language): Promise<Catalog> {
  return lang === 'pt-BR' ? (await import('./pt-BR.js')).ptBR : en;
}

/**
 * The language of a run, highest first: `--lang`, config key `lang` of the profile, then the
 * first set of `LC_ALL`, `LC_MESSAGES`, `LANG` (POSIX precedence: any value starting with `pt`
 * gives Portuguese, anything else English), else English.
 * @param flag the value of `--lang`, if given (an unknown value is left for commander to refuse)
 * @param config the profile's config key `lang`, if set
 */
export function resolveLanguage(flag: string | undefined, config: string | undefined, env: NodeJS.ProcessEnv = process.env): Language {
  const chosen = parseLanguage(flag) ?? parseLanguage(config);
  if (chosen) return chosen;
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^pt/i.test(locale) ? 'pt-BR' : 'en';
}
