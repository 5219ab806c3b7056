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
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import ts from 'typescript';
import { groupOf } from '../../src/core/i18n/lazy.js';

/** The part of an esbuild plugin this file uses (tsup.config.ts and scripts/experimental/ pass it to esbuild). */
interface CatalogPlugin {
  name: string;
  setup(build: { onLoad(options: { filter: RegExp }, load: (args: { path: string }) => { contents: string; loader: 'ts'; resolveDir: string }): void }): void;
}

/**
 * The esbuild plugin that loads src/core/i18n/en.ts and pt-BR.ts through {@link groupCatalogSource}: a
 * cash-out reads about 15 of some 150 groups, and building the whole English catalog (about 1,400
 * texts and functions, 160 KB of code cache) cost every start about 14 M instructions and 3 ms of CPU
 * on Node 20 (docs/speed.md "The cash-out's CPU").
 */
export const lazyCatalogs: CatalogPlugin = {
  name: 'lazy-catalogs',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]core[\\/]i18n[\\/](en|pt-BR)\.ts$/ }, (args) => ({
      contents: groupCatalogSource(readFileSync(args.path, 'utf8'), args.path),
      loader: 'ts',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * The source of `file` (its text `source`) with its exported catalog rewritten as above; the rest
 * of the file (imports, comments, types) unchanged.
 * @throws Error when the file has no exported object literal, or a property whose key is not a
 *   string literal (the build stops rather than ship a catalog it did not understand)
 */
export function groupCatalogSource(source: string, file: string): string {
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
  const body = [...groups].map(([name, props]) => `  ${JSON.stringify(name)}: () => ({\n    ${props.join(',\n    ')},\n  }),`).join('\n');
  const start = literal.getStart(sf);
  // From ./index.js, which re-exports it: the Portuguese chunk then reaches the helper through the
  // module that loads it, and the bundler keeps the helper in the English catalog's chunk instead of
  // a chunk of its own (one file fewer to load at every start).
  return `${source.slice(0, start)}__lazyCatalog({\n${body}\n})${source.slice(literal.end)}\nimport { lazyCatalog as __lazyCatalog } from './index.js';\n`;
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
