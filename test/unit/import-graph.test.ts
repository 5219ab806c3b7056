/**
 * The shape of `src/` (docs/architecture.md): folders are layers, and imports only go down.
 *
 *   core ← pix ← gateway ← {config, sandbox} ← ledger ← payment ← batch ← cli
 *
 * - no cycle among run-time imports (value imports, re-exports, dynamic `import('./…')`);
 * - every import between folders, `import type` included, goes from a higher layer to a lower
 *   one (config and sandbox are side by side and do not import each other);
 * - every file of `src/` is in a layer's folder (a new top-level folder or loose file fails here);
 * - no file is longer than 500 lines unless its header comment says why (`Longer than 500 lines: …`).
 * The check is run on a planted upward import too, so a broken checker cannot pass silently.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Each top-level folder of src/ and its rank: a file may import only from folders of a lower rank, or its own. */
export const LAYERS: Readonly<Record<string, number>> = { core: 0, pix: 1, gateway: 2, config: 3, sandbox: 3, ledger: 4, payment: 5, batch: 6, cli: 7 };

/** Relative module specifiers a TypeScript file loads at run time. */
function runtimeImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

/** Every relative specifier a file names, `import type` and `typeof import()` included. */
function allImports(text: string): string[] {
  const found = runtimeImports(text);
  for (const m of text.matchAll(/^\s*(?:import|export)\s+type\b[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]/gm)) found.push(m[1]!);
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

function srcFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.set(relative(SRC, p), readFileSync(p, 'utf8'));
    }
  };
  walk(SRC);
  return files;
}

function graphOf(files: Map<string, string>, imports: (text: string) => string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [f, text] of files)
    graph.set(
      f,
      imports(text).map((s) => relative(SRC, resolve(dirname(join(SRC, f)), s.replace(/\.js$/, '.ts')))),
    );
  return graph;
}

/** Imports that climb a layer (or cross between side-by-side layers), as `from -> to`. */
export function upwardImports(graph: Map<string, string[]>): string[] {
  const layer = (f: string) => f.split('/')[0]!;
  const bad: string[] = [];
  for (const [from, deps] of graph) {
    for (const to of deps) {
      const a = layer(from);
      const b = layer(to);
      if (a === b) continue;
      if (!(b in LAYERS) || !(LAYERS[b]! < LAYERS[a]!)) bad.push(`${from} -> ${to}`);
    }
  }
  return bad;
}

describe('import graph of src/', () => {
  it('finds value, re-export and dynamic imports, not type-only ones', () => {
    const text =
      "import { a,\n  b } from './x.js';\nimport type { T } from './t.js';\nexport * from './y.js';\nimport './side.js';\nconst m = await import('./run/z.js');\nimport x from 'node:fs';";
    expect(runtimeImports(text)).toEqual(['./x.js', './y.js', './side.js', './run/z.js']);
    expect(allImports(text)).toEqual(['./x.js', './y.js', './side.js', './run/z.js', './t.js']);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual(['a -> b -> c -> a']);
  });

  it('has no cycle', () => {
    const graph = graphOf(srcFiles(), runtimeImports);
    expect(graph.get('cli/boot.ts')).toContain('cli/program.ts'); // the walker sees real edges
    expect(graph.get('cli/lazy.ts')).toContain('cli/action.ts');
    expect(findCycles(graph)).toEqual([]);
  });

  it('every file is in a layer, and imports only go down the layers', () => {
    const files = srcFiles();
    expect([...files.keys()].filter((f) => !(f.split('/')[0]! in LAYERS) || !f.includes('/'))).toEqual([]);
    expect(upwardImports(graphOf(files, allImports))).toEqual([]);
  });

  it('fails on a planted upward import (the ledger importing the CLI), and on a side-by-side one', () => {
    const files = srcFiles();
    files.set('ledger/planted.ts', "import { buildProgram } from '../cli/program.js';\n");
    files.set('pix/planted.ts', "import type { Settings } from '../config/settings.js';\n");
    files.set('sandbox/planted.ts', "import { settingsFor } from '../config/settings.js';\n");
    expect(upwardImports(graphOf(files, allImports))).toEqual([
      'ledger/planted.ts -> cli/program.ts',
      'pix/planted.ts -> config/settings.ts',
      'sandbox/planted.ts -> config/settings.ts',
    ]);
  });

  it('no file is longer than 500 lines without the reason in its header', () => {
    const long = [...srcFiles()].filter(([, text]) => text.split('\n').length > 500);
    const header = (text: string) => /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
    expect(long.filter(([, text]) => !/Longer than 500 lines: \S/.test(header(text))).map(([f, text]) => `${f} (${text.split('\n').length} lines)`)).toEqual([]);
  });
});
