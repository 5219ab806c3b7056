/**
 * Route packs: the build's copy of the chunks one route of paycli loads, as one file (docs/speed.md
 * "History's start-up: one file for the route's chunks"; docs/architecture.md "The direct route").
 *
 * The bundle splits paycli into about 300 chunks, shared by the commands in different sets. `history --limit 20`
 * loads about 30 of them after its route is known, and each costs its own file, its own code cache entry and its
 * own compiled script (src/cli/compile-cache.ts), about 0.1-0.15 ms a chunk on this project's machine. A pack holds
 * those chunks' code unchanged, each as the body of a function that the loader of src/cli/compile-cache.ts runs
 * in place of the chunk's file (`usePack`): one file, one cache entry, one script for the route. The chunks stay
 * in dist/ for every other command; a pack only ever saves reading them.
 *
 * A pack's chunks are those its roots (the chunks of the route's modules, named by their file name: `history`
 * for src/cli/run/history.ts) load as they load (their `require`s at the top level of a chunk, followed from
 * chunk to chunk), less those already loaded before a pack can be taken: dist/boot.cjs's and the line readers'
 * (src/cli/line.ts) and what they load. A chunk required later, on a path the roots do not name (`--format
 * csv`), is read from its own file as before. test/e2e/structure.test.ts checks that `history --limit 20` reads
 * no chunk's file but the pack's after the line readers, and loads every chunk of the pack.
 *
 * The pack's file is named by its content's hash like the bundler's chunks (`pack-history-0A1B2C3D.cjs`), so
 * the code cache keys it the same way; its name reaches the loader through {@link PACKS_PLACEHOLDER} in
 * dist/boot.cjs, which this step replaces with the names it wrote.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The string src/cli/compile-cache.ts holds in place of the packs' names (`PACK_FILES`), replaced in dist/boot.cjs. */
export const PACKS_PLACEHOLDER = '__PAYCLI_ROUTE_PACKS__';

/** A chunk's `require` of another chunk beside it, as the bundle writes it. */
const CHUNK_REQUIRE = /\brequire\('\.\/([\w.-]+\.cjs)'\)/g;
/** The same inside a dynamic import as tsup.config.ts `requireDynamicImports` writes it: loaded on a call, not as the chunk loads. */
const LAZY_REQUIRE = /\(\)=>\{const m=require\('\.\/([\w.-]+\.cjs)'\)/g;

/** The chunks `file` requires as it loads (not those behind a dynamic import). */
export function staticRequires(code: string): string[] {
  return [...new Set([...code.replace(LAZY_REQUIRE, '').matchAll(CHUNK_REQUIRE)].map((m) => m[1]!))];
}

/** `roots` and every chunk they load as they load, each once, depth first in load order. */
export function loadClosure(read: (name: string) => string, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of staticRequires(read(name))) visit(dep);
  };
  roots.forEach(visit);
  return [...seen];
}

/** The one chunk of `names` for the module whose file name is `base` (`history` → `history-X63MDNCO.cjs`); throws when none or several. */
export function chunkOf(names: string[], base: string): string {
  const found = names.filter((n) => n.startsWith(`${base}-`) && /^-[A-Z0-9]{8}\.cjs$/.test(n.slice(base.length)));
  if (found.length !== 1) throw new Error(`route packs: ${found.length} chunks for the module ${base} (${found.join(', ') || 'none'})`);
  return found[0]!;
}

/** The source of a pack: `module.exports = { '<chunk>': function (exports, require, module, __filename, __dirname) { <its code> }, … }`. */
export function packSource(chunks: Array<[name: string, code: string]>): string {
  const bodies = chunks.map(([name, code]) => `${JSON.stringify(name)}:function(exports,require,module,__filename,__dirname){${code}\n}`);
  return `'use strict';module.exports={${bodies.join(',\n')}};\n`;
}

/**
 * Writes a pack per route into `dir` (the bundle's folder) and their names into its boot.cjs.
 * @param routes route name → the file names of its modules (see {@link chunkOf})
 * @param before the modules whose chunks are loaded before a pack is taken (with what they load): left out of every pack
 * @returns route name → pack file name
 * @throws when a module has no chunk or several, or boot.cjs does not hold {@link PACKS_PLACEHOLDER} once
 */
export function writeRoutePacks(dir: string, routes: Record<string, string[]>, before: string[]): Record<string, string> {
  const names = readdirSync(dir).filter((n) => n.endsWith('.cjs'));
  const code = new Map<string, string>();
  const read = (name: string): string => code.get(name) ?? code.set(name, readFileSync(join(dir, name), 'utf8')).get(name)!;
  const loaded = new Set(loadClosure(read, ['boot.cjs', ...before.map((b) => chunkOf(names, b))]));
  const written: Record<string, string> = {};
  for (const [route, modules] of Object.entries(routes)) {
    const chunks = loadClosure(
      read,
      modules.map((m) => chunkOf(names, m)),
    ).filter((n) => !loaded.has(n));
    const source = packSource(chunks.map((n) => [n, read(n)]));
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 8).toUpperCase();
    written[route] = `pack-${route}-${hash}.cjs`;
    writeFileSync(join(dir, written[route]), source);
  }
  const boot = read('boot.cjs');
  const quoted = JSON.stringify(PACKS_PLACEHOLDER);
  if (boot.split(quoted).length !== 2) throw new Error(`route packs: dist/boot.cjs does not hold ${quoted} once`);
  writeFileSync(join(dir, 'boot.cjs'), boot.replace(quoted, JSON.stringify(JSON.stringify(written))));
  return written;
}
