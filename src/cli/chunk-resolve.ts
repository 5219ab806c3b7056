/**
 * How the bundle's chunks find each other (docs/speed.md, "History's start-up"). The bundler
 * writes `require('./chunk-KLAPGGWF.cjs')` between the files of dist/; Node resolves each such
 * request by searching (a stat, the real path, the package.json of every folder up to the root),
 * and gives every module it loads its list of `node_modules` folders, worked out again from the
 * module's folder: some 45 times in a `history` run, enough path work that V8 compiled
 * `node:path`'s functions with its optimising compiler (about 10% of the run's instructions on
 * Node 22). A chunk's request for a file beside it is answered here with that file's path,
 * without the search, and the folders of dist/ are worked out once; every other request
 * (packages, `node:` modules, anything outside dist/) goes through Node's own resolution. Only
 * string operations here, not `node:path`'s, for the same reason.
 */
import { sep } from 'node:path';
import { moduleClass } from './module-class.js';

/** A request for a file of the bundle beside the requiring chunk, as the bundler writes it. */
const CHUNK_REQUEST = /^\.\/[\w.-]+\.cjs$/;

type Resolve = (this: unknown, request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]) => string;
type NodeModulePaths = (this: unknown, from: string) => string[];
type ModuleApi = { _resolveFilename?: Resolve; _nodeModulePaths?: NodeModulePaths };

/**
 * Resolves the chunks of `distDir` (the folder of paycli's bundle, a real path as Node gives
 * `__dirname`) requested by its own chunks directly. Call once, before the chunks are required.
 * @returns undoes it (for tests)
 */
export function resolveChunksDirectly(distDir: string): () => void {
  const api = moduleClass() as ModuleApi;
  const resolve = api._resolveFilename;
  const paths = api._nodeModulePaths;
  if (typeof resolve !== 'function' || typeof paths !== 'function') return () => undefined;
  const prefix = `${distDir}${sep}`;
  const inDist = (file: string | null | undefined): boolean => typeof file === 'string' && file.startsWith(prefix) && !file.includes(sep, prefix.length);
  api._resolveFilename = function resolveChunk(request, parent, ...rest) {
    if (typeof request === 'string' && CHUNK_REQUEST.test(request) && inDist(parent?.filename)) return prefix + request.slice(2);
    return resolve.call(this, request, parent, ...rest);
  };
  let distPaths: string[] | undefined;
  api._nodeModulePaths = function nodeModulePaths(from) {
    if (from !== distDir) return paths.call(this, from);
    distPaths ??= paths.call(this, from);
    return [...distPaths]; // each module gets its own array, as from Node
  };
  return () => {
    api._resolveFilename = resolve;
    api._nodeModulePaths = paths;
  };
}
