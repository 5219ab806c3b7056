/**
 * Node's CommonJS `Module` class, taken from the bundle's own `module` (its constructor) instead of
 * `require('node:module')`: on Node 20 and 22 that public module loads Node's ESM loader and its
 * source-map support besides (about 1.6 M instructions of every start on Node 22; docs/speed.md
 * "History's start-up, the rest"). Outside the bundle (tests, where `module` is another object)
 * it is `node:module` itself. src/cli/chunk-resolve.ts and src/cli/compile-cache.ts use it.
 */

/** What is checked of the class before it is used (the parts of it the two modules call). */
interface ModuleClass {
  _resolveFilename: unknown;
  _nodeModulePaths: unknown;
  createRequire: unknown;
  wrap: unknown;
  prototype: { _compile: unknown };
}

function isModuleClass(v: unknown): boolean {
  if (typeof v !== 'function') return false;
  const m = v as unknown as Partial<ModuleClass>;
  return typeof m._resolveFilename === 'function' && typeof m._nodeModulePaths === 'function' && typeof m.createRequire === 'function' && typeof m.wrap === 'function';
}

/** Node's `Module` class (the value `require('node:module')` gives). */
export function moduleClass(): unknown {
  const own = typeof module === 'object' && module !== null ? (module as { constructor?: unknown }).constructor : undefined;
  return isModuleClass(own) ? own : require('node:module');
}
