/**
 * The build's rewrite of a message catalog (src/core/i18n/en.ts, pt-BR.ts) into groups built on
 * first use (src/core/i18n/lazy.ts; docs/portugues.md "How the catalogs load"). tsup.config.ts
 * applies it to the bundle only: the sources, the types and the tests keep the flat catalogs.
 *
 * A catalog is the one object literal its file exports (`export const en = { 'lang.flag': '…', … }`).
 * Each property keeps its exact source text; the properties are grouped by
 * src/core/i18n/lazy.ts `groupOf` (the key before its last dot) and the object becomes
 * `lazyCatalog({ 'help.cashout': () => ({ …those properties… }), … })`. A group's texts are then
 * compiled, built and kept in V8's code cache only by the runs that read one of its keys.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { transformSync } from 'esbuild';
import ts from 'typescript';
import { groupOf } from '../../src/core/i18n/lazy.js';

/**
 * The groups in a catalog's own chunk: those `history`'s table and its messages read (the direct route,
 * docs/architecture.md "The direct route"). Every other group is in a second chunk (`en-rest-<hash>.cjs`,
 * `pt-BR-rest-<hash>.cjs`) that src/core/i18n/lazy.ts requires on the first read of one of its keys: `history
 * --limit 20` then loads 6 KB of the English catalog instead of 125 KB
 * (docs/speed.md "History's start-up: the table's rows, the catalog's groups").
 * A group missing here is only slower, never missing.
 */
export const HOT_GROUPS: ReadonlySet<string> = new Set(['exit', 'time', 'history', 'history.col', 'history.kind', 'history.outcome']);

/** The part of an esbuild plugin this file uses (tsup.config.ts and scripts/experimental/ pass it to esbuild). */
interface CatalogPlugin {
  name: string;
  setup(build: {
    initialOptions: { outdir?: string };
    onLoad(options: { filter: RegExp }, load: (args: { path: string }) => { contents: string; loader: 'ts'; resolveDir: string }): void;
    onResolve(options: { filter: RegExp }, resolve: (args: { path: string }) => { path: string; external: boolean }): void;
  }): void;
}

/** A rest chunk's request, as the catalog's chunk writes it: `./en-rest-0A1B2C3D.cjs` (a content hash, as the bundler's names). */
const REST_REQUEST = /^\.\/(en|pt-BR)-rest-[A-Z0-9]{8}\.cjs$/;

/**
 * The esbuild plugin that loads src/core/i18n/en.ts and pt-BR.ts through {@link groupCatalogSource}: a
 * cash-out reads about 15 of some 150 groups, and building the whole English catalog (about 1,400
 * texts and functions, 160 KB of code cache) cost every start about 14 M instructions and 3 ms of CPU
 * on Node 20 (docs/speed.md "The cash-out's CPU"). The groups outside {@link HOT_GROUPS} are written beside the
 * bundle as a chunk of their own ({@link restCatalogSource}), whose request the bundle keeps as it is.
 */
export const lazyCatalogs: CatalogPlugin = {
  name: 'lazy-catalogs',
  setup(build) {
    const outdir = build.initialOptions.outdir ?? 'dist';
    build.onResolve({ filter: REST_REQUEST }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /[\\/]src[\\/]core[\\/]i18n[\\/](en|pt-BR)\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const rest = restCatalogSource(source, args.path, HOT_GROUPS);
      const name = `${basename(args.path, '.ts')}-rest-${createHash('sha256').update(rest).digest('hex').slice(0, 8).toUpperCase()}.cjs`;
      mkdirSync(outdir, { recursive: true });
      writeFileSync(join(outdir, name), rest);
      return { contents: groupCatalogSource(source, args.path, { hot: HOT_GROUPS, restRequest: `./${name}` }), loader: 'ts', resolveDir: dirname(args.path) };
    });
  },
};

/** The properties of the catalog in `source` by group, in the order of the source, and the catalog's object literal. */
function catalogGroups(source: string, file: string): { sf: ts.SourceFile; literal: ts.ObjectLiteralExpression; groups: Map<string, string[]> } {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const literal = exportedObject(sf);
  if (!literal) throw new Error(`${file}: no exported object literal to group`);
  const groups = new Map<string, string[]>();
  for (const prop of literal.properties) {
    if (!ts.isPropertyAssignment(prop) || !ts.isStringLiteral(prop.name)) {
      throw new Error(`${file}: a catalog property that is not 'key': value (${prop.getText(sf).slice(0, 60)})`);
    }
    const name = groupOf(prop.name.text);
    const list = groups.get(name) ?? [];
    list.push(prop.getText(sf));
    groups.set(name, list);
  }
  return { sf, literal, groups };
}

/** The object literal of `groups` (those `keep` takes), each a function that builds its keys. */
function groupsLiteral(groups: Map<string, string[]>, keep: (name: string) => boolean): string {
  const body = [...groups]
    .filter(([name]) => keep(name))
    .map(([name, props]) => `  ${JSON.stringify(name)}: () => ({\n    ${props.join(',\n    ')},\n  }),`)
    .join('\n');
  return `{\n${body}\n}`;
}

/**
 * The source of `file` (its text `source`) with its exported catalog rewritten as above; the rest
 * of the file (imports, comments, types) unchanged.
 * @param split the groups kept here (`hot`), and the request of the chunk of the others ({@link restCatalogSource}),
 *   required on the first read of one of their keys; without it, every group is here
 * @throws Error when the file has no exported object literal, or a property whose key is not a
 *   string literal (the build stops rather than ship a catalog it did not understand)
 */
export function groupCatalogSource(source: string, file: string, split?: { hot: ReadonlySet<string>; restRequest: string }): string {
  const { sf, literal, groups } = catalogGroups(source, file);
  const here = groupsLiteral(groups, (name) => !split || split.hot.has(name));
  const rest = split ? `, () => require(${JSON.stringify(split.restRequest)})` : '';
  const start = literal.getStart(sf);
  // From ./index.js, which re-exports it: the Portuguese chunk then reaches the helper through the
  // module that loads it, and the bundler keeps the helper in the English catalog's chunk instead of
  // a chunk of its own (one file fewer to load at every start).
  return `${source.slice(0, start)}__lazyCatalog(${here}${rest})${source.slice(literal.end)}\nimport { lazyCatalog as __lazyCatalog } from './index.js';\n`;
}

/**
 * The chunk of the groups of `file`'s catalog that are not in `hot`: a CommonJS module whose exports are those
 * groups (as {@link groupCatalogSource} writes them), minified as the bundle is. A catalog has no imports, so the
 * chunk needs none.
 */
export function restCatalogSource(source: string, file: string, hot: ReadonlySet<string>): string {
  const { groups } = catalogGroups(source, file);
  const { code } = transformSync(`module.exports = ${groupsLiteral(groups, (name) => !hot.has(name))};`, {
    loader: 'ts',
    format: 'cjs',
    minifyWhitespace: true,
    minifySyntax: true,
  });
  return `'use strict';${code}`;
}

/** The object literal of the file's first exported `const` (through `as const` or a type assertion). */
function exportedObject(sf: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
  for (const stmt of sf.statements) {
    if (!ts.isVariableStatement(stmt) || !stmt.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const decl of stmt.declarationList.declarations) {
      let init = decl.initializer;
      while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))) init = init.expression;
      if (init && ts.isObjectLiteralExpression(init)) return init;
    }
  }
  return undefined;
}
