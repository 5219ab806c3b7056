/**
 * The catalogs as the bundle builds them (docs/portugues.md "How the catalogs load"): the build's
 * rewrite (scripts/lib/catalog-groups.ts) of src/core/i18n/en.ts and pt-BR.ts gives the same keys
 * and the same texts as the flat sources, and a lazy catalog (src/core/i18n/lazy.ts) builds a group
 * only when one of its keys is read.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { groupCatalogSource, HOT_GROUPS, restCatalogSource } from '../../scripts/lib/catalog-groups.js';
import { en } from '../../src/core/i18n/en.js';
import { groupOf, lazyCatalog } from '../../src/core/i18n/lazy.js';
import { ptBR } from '../../src/core/i18n/pt-BR.js';

type Entry = string | ((...args: unknown[]) => string);
type Flat = Record<string, Entry>;

const I18N = resolve(__dirname, '../../src/core/i18n');

/** Evaluates CommonJS `code` as the bundle would, `./index.js` giving the lazy catalog and `others` the other requests. */
function evaluate(code: string, others: Record<string, () => unknown> = {}): Record<string, unknown> {
  const requireHere = createRequire(__filename);
  const module = { exports: {} as Record<string, unknown> };
  const req = (spec: string): unknown => (spec === './index.js' ? { lazyCatalog } : spec in others ? others[spec]!() : requireHere(spec));
  new Function('module', 'exports', 'require', code)(module, module.exports, req);
  return module.exports;
}

/** The catalog exported by `file` of src/core/i18n after the build's rewrite, evaluated as the bundle would. */
function built(file: string, name: string): { catalog: Flat; groups: number } {
  const source = groupCatalogSource(readFileSync(`${I18N}/${file}`, 'utf8'), file);
  const { code } = transformSync(source, { loader: 'ts', format: 'cjs' });
  return { catalog: evaluate(code)[name] as Flat, groups: (source.match(/^ {2}"[^"]+": \(\) => \(\{$/gm) ?? []).length };
}

/** The same, split as the bundle's build splits it: {@link HOT_GROUPS} in the catalog, the others required on first use. */
function builtSplit(file: string, name: string): { catalog: Flat; restLoads: () => number } {
  const text = readFileSync(`${I18N}/${file}`, 'utf8');
  const source = groupCatalogSource(text, file, { hot: HOT_GROUPS, restRequest: './rest.cjs' });
  const { code } = transformSync(source, { loader: 'ts', format: 'cjs' });
  let loads = 0;
  const rest = restCatalogSource(text, file, HOT_GROUPS);
  const catalog = evaluate(code, { './rest.cjs': () => (loads++, evaluate(rest)) })[name] as Flat;
  return { catalog, restLoads: () => loads };
}

/** Renders an entry with one distinct marker per parameter. */
const render = (entry: Entry): string => (typeof entry === 'string' ? entry : entry(...Array.from({ length: entry.length }, (_, i) => `«${i}»`)));

describe('the catalogs as the bundle builds them', () => {
  for (const [file, name, flat] of [
    ['en.ts', 'en', en as unknown as Flat],
    ['pt-BR.ts', 'ptBR', ptBR as unknown as Flat],
  ] as const) {
    it(`${file}: every key, every text and every function as in the source, in groups`, () => {
      const { catalog, groups } = built(file, name);
      expect(groups).toBeGreaterThan(50);
      const keys = Object.keys(flat);
      for (const key of keys) {
        expect(key in catalog, key).toBe(true);
        expect(typeof catalog[key], key).toBe(typeof flat[key]);
        expect(render(catalog[key]!), key).toBe(render(flat[key]!));
      }
      expect(Object.keys(catalog).sort()).toEqual([...keys].sort());
      expect(catalog['no.such.key']).toBeUndefined();
      expect('no.such.key' in catalog).toBe(false);
    });
  }

  for (const [file, name, flat] of [
    ['en.ts', 'en', en as unknown as Flat],
    ['pt-BR.ts', 'ptBR', ptBR as unknown as Flat],
  ] as const) {
    it(`${file} split: history's groups in the catalog, every other key from the rest chunk, required once on first use`, () => {
      const { catalog, restLoads } = builtSplit(file, name);
      for (const key of ['history.col.entry', 'history.kind.cashout', 'history.outcome.ok', 'time.column', 'history.noneMatches']) {
        expect(render(catalog[key]!), key).toBe(render(flat[key]!));
      }
      expect(restLoads()).toBe(0);
      expect(render(catalog['lang.flag']!)).toBe(render(flat['lang.flag']!));
      expect(restLoads()).toBe(1);
      const keys = Object.keys(flat);
      for (const key of keys) expect(render(catalog[key]!), key).toBe(render(flat[key]!));
      expect(Object.keys(catalog).sort()).toEqual([...keys].sort());
      expect(catalog['no.such.key']).toBeUndefined();
      expect(restLoads()).toBe(1);
    });
  }

  it('stops the build on a catalog it does not understand', () => {
    expect(() => groupCatalogSource('export const en = { [`a.b`]: "x" };', 'x.ts')).toThrow(/not 'key': value/);
    expect(() => groupCatalogSource('export function en() {}', 'x.ts')).toThrow(/no exported object literal/);
  });
});

describe('a lazy catalog', () => {
  it('builds a group once, when one of its keys is first read; listing the keys builds them all', () => {
    const built: string[] = [];
    const group = (name: string, keys: Record<string, string>) => () => {
      built.push(name);
      return keys;
    };
    const cat = lazyCatalog<Record<string, string>>({
      'help.cashout': group('help.cashout', { 'help.cashout.pixKey': 'the Pix key' }),
      help: group('help', { 'help.value': 'cents' }),
      exit: group('exit', { 'exit.0': 'ok' }),
    });
    expect(built).toEqual([]);
    expect(cat['help.cashout.pixKey']).toBe('the Pix key');
    expect(cat['help.cashout.pixKey']).toBe('the Pix key');
    expect(built).toEqual(['help.cashout']);
    expect('help.value' in cat).toBe(true);
    expect('help.nothing' in cat).toBe(false);
    expect(built).toEqual(['help.cashout', 'help']);
    expect(Object.keys(cat).sort()).toEqual(['exit.0', 'help.cashout.pixKey', 'help.value']);
    expect(built).toEqual(['help.cashout', 'help', 'exit']);
  });

  it('groups a key by what comes before its last dot', () => {
    expect(groupOf('help.cashout.pixKey')).toBe('help.cashout');
    expect(groupOf('exit.0')).toBe('exit');
    expect(groupOf('configKey.base-url')).toBe('configKey');
    expect(groupOf('plain')).toBe('plain');
  });
});
