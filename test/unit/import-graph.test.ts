/**
 * The import graph of `src/` has no cycle (data flows one way: commands → run → client/ledger →
 * output). Edges are every value import, re-export and dynamic `import('./…')` between files of
 * `src/`; `import type` is left out (it is erased at build time).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Relative module specifiers a TypeScript file loads at run time. */
function runtimeImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

/** Every cycle reachable by depth-first search, as `a -> b -> a`. */
function findCycles(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 1);
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (!graph.has(d)) continue;
      if (state.get(d) === 1) cycles.push([...stack.slice(stack.indexOf(d)), d].join(' -> '));
      else if (!state.get(d)) visit(d);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of graph.keys()) if (!state.get(n)) visit(n);
  return cycles;
}

function srcGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(SRC);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps = runtimeImports(readFileSync(f, 'utf8')).map((s) => relative(SRC, resolve(dirname(f), s.replace(/\.js$/, '.ts'))));
    graph.set(relative(SRC, f), deps);
  }
  return graph;
}

describe('import graph of src/', () => {
  it('finds value, re-export and dynamic imports, not type-only ones', () => {
    const text = "import { a,\n  b } from './x.js';\nimport type { T } from './t.js';\nexport * from './y.js';\nimport './side.js';\nconst m = await import('./run/z.js');\nimport x from 'node:fs';";
    expect(runtimeImports(text)).toEqual(['./x.js', './y.js', './side.js', './run/z.js']);
    expect(findCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a -> b -> c -> a']);
  });
  it('has no cycle', () => {
    const graph = srcGraph();
    expect(graph.get('boot.ts')).toContain('cli.ts'); // the walker sees real edges
    expect(graph.get('lazy.ts')).toContain('action.ts');
    expect(findCycles(graph)).toEqual([]);
  });
});
