/**
 * The bundle's entry (dist/boot.cjs, required by bin/paycli.cjs). It turns on the direct
 * resolution of the bundle's chunks (src/cli/chunk-resolve.ts) and the code cache of
 * src/cli/compile-cache.ts and only then loads the command tree (src/cli/program.ts), so that the chunks it
 * pulls in (commander, zod, each command) compile from the cache. Kept tiny: it is the one part
 * of the bundle that is always compiled from source.
 */
import { enableCompileCache } from './compile-cache.js';
import { resolveChunksDirectly } from './chunk-resolve.js';
import { cacheDir } from '../core/paths.js';

/** Runs paycli with `argv` (default `process.argv`); exit codes as in src/cli/program.ts. */
export async function main(argv: string[] = process.argv): Promise<void> {
  // __dirname is dist/ in the CommonJS bundle, the only way this file runs.
  resolveChunksDirectly(__dirname);
  enableCompileCache(__dirname, cacheDir());
  const cli = await import('./program.js');
  await cli.main(argv);
}
