/**
 * How the bundle's chunks find each other (docs/speed.md, "History's start-up"). The bundler
 * writes `require('./chunk-KLAPGGWF.cjs')` between the files of dist/; Node resolves each such
 * request by searching (a stat, the real path, the package.json of every folder up to the root),
 * some 60 times in a `history` run: about 2% of its instructions. A chunk's request for a file
 * beside it is answered here with that file's path, without the search; every other request
 * (packages, `node:` modules, anything outside dist/) goes through Node's own resolution.
 */
import Module from 'node:module';
import { dirname, join } from 'node:path';

/** A request for a file of the bundle beside the requiring chunk, as the bundler writes it. */
const CHUNK_REQUEST = /^\.\/[\w.-]+\.cjs$/;

type Resolve = (this: unknown, request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]) => string;

/**
 * Resolves the chunks of `distDir` (the folder of paycli's bundle, a real path as Node gives
 * `__dirname`) requested by its own chunks directly. Call once, before the chunks are required.
 * @returns undoes it (for tests)
 */
export function resolveChunksDirectly(distDir: string): () => void {
  const api = Module as unknown as { _resolveFilename?: Resolve };
  const original = api._resolveFilename;
  if (typeof original !== 'function') return () => undefined;
  api._resolveFilename = function resolveChunk(request, parent, ...rest) {
    if (typeof request === 'string' && CHUNK_REQUEST.test(request) && parent?.filename && dirname(parent.filename) === distDir) return join(distDir, request);
    return original.call(this, request, parent, ...rest);
  };
  return () => {
    api._resolveFilename = original;
  };
}
