/**
 * The message catalogs (src/core/i18n): both languages have every key, every text renders with its
 * values filled in (no key left empty, no value dropped by one language), and the language of a run
 * comes from --lang, then config key lang, then LC_ALL / LC_MESSAGES / LANG (docs/portugues.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/i18n/en.js';
import { ptBR } from '../../src/core/i18n/pt-BR.js';
import { catalog, parseLanguage, resolveLanguage, setLanguage, t } from '../../src/core/i18n/index.js';
import { flagValue } from '../../src/cli/language.js';

type Entry = string | ((...args: unknown[]) => string);

/** Renders an entry with one distinct marker per parameter: `«0»`, `«1»`… */
function render(entry: Entry): { text: string; markers: string[] } {
  if (typeof entry === 'string') return { text: entry, markers: [] };
  const markers = Array.from({ length: entry.length }, (_, i) => `«${i}»`);
  return { text: entry(...markers), markers };
}

const used = (text: string, markers: string[]) => markers.filter((m) => text.includes(m)).sort();

describe('the catalogs', () => {
  it('have the same keys in both languages', () => {
    expect(Object.keys(ptBR).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(en).length).toBeGreaterThan(400);
  });

  it('render every key in both languages: nothing empty, every value filled in, the same values in both', () => {
    const problems: string[] = [];
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      const e = en[key] as Entry;
      const p = ptBR[key] as Entry;
      if (typeof e !== typeof p) problems.push(`${key}: a ${typeof e} in English, a ${typeof p} in Portuguese`);
      if (typeof e === 'function' && typeof p === 'function' && e.length !== p.length) problems.push(`${key}: ${e.length} parameters in English, ${p.length} in Portuguese`);
      const re = render(e);
      const rp = render(p);
      for (const [lang, r] of [
        ['en', re],
        ['pt-BR', rp],
      ] as const) {
        if (!r.text.trim()) problems.push(`${key} (${lang}): empty`);
        if (/\$\{|undefined|\[object|NaN/.test(r.text)) problems.push(`${key} (${lang}): a value not filled in: ${r.text}`);
      }
      if (used(re.text, re.markers).join() !== used(rp.text, rp.markers).join())
        problems.push(`${key}: English shows ${used(re.text, re.markers)}, Portuguese ${used(rp.text, rp.markers)}`);
    }
    expect(problems).toEqual([]);
  });

  it('Portuguese is Portuguese: most texts differ from the English ones', () => {
    const same = (Object.keys(en) as Array<keyof typeof en>).filter((k) => render(en[k] as Entry).text === render(ptBR[k] as Entry).text);
    // Only names that are the same in both languages (CPF, Gateway, Splits, SANDBOX...).
    expect(same.length).toBeLessThan(Object.keys(en).length / 20);
  });

  it('t() renders the current language, English by default', async () => {
    expect(t('prompt.confirmCashOut')).toBe('Send this cash-out?');
    await setLanguage('pt-BR');
    try {
      expect(t('prompt.confirmCashOut')).toBe('Enviar este saque?');
      expect(t('pay.notConfirmed', 'cashout')).toBe('saque não confirmado; nada foi enviado');
      expect(t('pay.notConfirmed', 'cashin')).toBe('cobrança não confirmada; nada foi enviado');
      expect((await catalog('en'))['prompt.confirmCashOut']).toBe('Send this cash-out?');
    } finally {
      await setLanguage('en');
    }
  });
});

describe('the language of a run', () => {
  it('--lang first, then config key lang, then LC_ALL, LC_MESSAGES, LANG; any pt* is Portuguese; else English', () => {
    expect(resolveLanguage('en', 'pt-BR', { LANG: 'pt_BR.UTF-8' })).toBe('en');
    expect(resolveLanguage('pt-BR', 'en', { LANG: 'C' })).toBe('pt-BR');
    expect(resolveLanguage(undefined, 'pt-BR', { LANG: 'en_US.UTF-8' })).toBe('pt-BR');
    expect(resolveLanguage(undefined, 'en', { LC_ALL: 'pt_BR.UTF-8' })).toBe('en');
    expect(resolveLanguage(undefined, undefined, { LC_ALL: 'pt_PT.UTF-8', LANG: 'en_US.UTF-8' })).toBe('pt-BR');
    expect(resolveLanguage(undefined, undefined, { LC_ALL: 'C', LANG: 'pt_BR.UTF-8' })).toBe('en');
    expect(resolveLanguage(undefined, undefined, { LC_MESSAGES: 'pt_BR', LANG: 'C' })).toBe('pt-BR');
    expect(resolveLanguage(undefined, undefined, { LANG: 'pt' })).toBe('pt-BR');
    expect(resolveLanguage(undefined, undefined, { LANG: 'de_DE.UTF-8' })).toBe('en');
    expect(resolveLanguage(undefined, undefined, {})).toBe('en');
    // an unknown --lang or config value is left to be refused, and does not pick a language
    expect(resolveLanguage('xx', 'yy', { LANG: 'pt_BR.UTF-8' })).toBe('pt-BR');
  });

  it('names: pt-BR, pt_BR, pt, PT-br are Portuguese; en, en-US English; others nothing', () => {
    for (const v of ['pt-BR', 'pt_BR', 'pt', 'PT-br']) expect(parseLanguage(v)).toBe('pt-BR');
    for (const v of ['en', 'en-US', 'EN']) expect(parseLanguage(v)).toBe('en');
    for (const v of ['', 'es', 'portuguese', undefined]) expect(parseLanguage(v)).toBeUndefined();
  });

  it('--lang is read before the command tree is built, in either spelling, up to --', () => {
    expect(flagValue(['--lang', 'pt-BR', 'cashout'], '--lang')).toBe('pt-BR');
    expect(flagValue(['cashout', '--lang=en'], '--lang')).toBe('en');
    expect(flagValue(['cashout', '--', '--lang', 'en'], '--lang')).toBeUndefined();
  });
});

/**
 * Errors thrown with a literal text on purpose: programmer assertions a person never meets (a
 * bug in paycli, exit 70), never a message of the catalogs. File and the literal's first words.
 */
const ASSERTIONS = [
  // the ledger's callers always give a cash-out's Pix key (src/payment/, src/cli/batch/)
  { file: 'src/ledger/keeper.ts', text: 'a cash-out needs pixKeyType and pixKey' },
  { file: 'src/ledger/keeper.ts', text: 'a transaction of the local ledger cannot wait' },
  // every amount is checked to be integer cents before it is formatted
  { file: 'src/pix/money.ts', text: 'not an integer amount of cents' },
  // every field of a BR Code is cut to its length before it is encoded
  { file: 'src/pix/brcode.ts', text: 'BR Code object ' },
  // the team ledger's statements take only NULL, booleans, numbers, texts and arrays of them
  { file: 'src/ledger/pg/connection.ts', text: 'a value of type ' },
];

/** Every .ts file under `dir`, with forward slashes. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []));
}

/** The string or template literal starting at `at` (its quote), with `${…}` parts removed. */
function literalAt(text: string, at: number): string {
  const quote = text[at]!;
  let out = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      out += text[++i] ?? '';
      continue;
    }
    if (c === quote) return out;
    if (quote === '`' && c === '$' && text[i + 1] === '{') {
      let depth = 0;
      for (i++; i < text.length; i++) {
        if (text[i] === '{') depth++;
        else if (text[i] === '}' && --depth === 0) break;
      }
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

describe('texts for people come from the catalogs', () => {
  it('no error, notice, warning or hint in src/ is an English literal (outside the catalogs and a short list of programmer assertions)', () => {
    const found: string[] = [];
    const patterns = [/new\s+[A-Z]\w*Error\(\s*(?=['"`])/g, /logger\.(?:warn|notice|error|hint)\(\s*(?=['"`])/g, /\bhint:\s*(?=['"`])/g];
    for (const file of sources('src')) {
      if (file.startsWith('src/core/i18n/')) continue;
      const text = readFileSync(file, 'utf8');
      for (const re of patterns) {
        for (const m of text.matchAll(re)) {
          const literal = literalAt(text, m.index + m[0].length);
          if (!/[A-Za-z]{2,}/.test(literal.replace(/--[a-z][a-z-]*/g, ''))) continue; // only values, flags and punctuation: nothing to translate
          if (ASSERTIONS.some((a) => a.file === file && literal.startsWith(a.text))) continue;
          found.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${literal.slice(0, 80)}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('the scan sees what it looks for', () => {
    expect(literalAt("'is a ${x} link'", 0)).toBe('is a ${x} link');
    expect(literalAt('`the ledger ${file} at ${`x${y}`} failed`', 0)).toBe('the ledger   at   failed');
    expect(literalAt('`${a}: ${b}`', 0)).toBe(' :  ');
    expect(literalAt("'--amount: is not'", 0).replace(/--[a-z][a-z-]*/g, '')).toBe(': is not');
  });
});
