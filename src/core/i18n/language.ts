/**
 * The languages paycli speaks and how a language name is read (`--lang`, config key `lang`;
 * docs/portugues.md). A module without imports, so that the direct route's line reader
 * (src/cli/direct-line.ts), asked on every start, reads `--lang` by this rule without loading a catalog.
 */

/** The languages paycli speaks, as `--lang` and config key `lang` name them. */
export const LANGUAGES = ['pt-BR', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * A language name as given to `--lang` or config key `lang`: `pt-BR`, `pt_BR`, `pt` (any case)
 * → `pt-BR`; `en`, `en-US`… → `en`; anything else undefined.
 */
export function parseLanguage(value: string | undefined): Language | undefined {
  const v = value?.trim().toLowerCase();
  if (!v) return undefined;
  if (/^pt([-_].*)?$/.test(v)) return 'pt-BR';
  if (/^en([-_].*)?$/.test(v)) return 'en';
  return undefined;
}
