/**
 * The bundle's entry (dist/boot.cjs, required by bin/paycli.cjs). It turns on the direct
 * resolution of the bundle's chunks (src/cli/chunk-resolve.ts) and the code cache of
 * src/cli/compile-cache.ts and only then loads the command tree (src/cli/program.ts), so that the chunks it
 * pulls in (commander, zod, each command) compile from the cache. A `history` line that
 * src/cli/history-line.ts recognises, or a batch run's line that src/cli/batch-line.ts recognises,
 * runs without the command tree (src/cli/direct.ts; docs/architecture.md "The direct route"), its
 * chunks from the route's pack (scripts/lib/route-packs.ts); the line readers are a chunk of their own
 * (src/cli/line.ts), loaded through the code cache. Kept tiny:
 * it is the one part of the bundle that is always compiled from source.
 */
import { enableCompileCache, usePack } from './compile-cache.js';
import { resolveChunksDirectly } from './chunk-resolve.js';
import { cacheDir } from '../core/paths.js';

/**
 * Runs paycli with `argv` (default `process.argv`); exit codes as in src/cli/program.ts.
 * @param opts.direct false: every line through the command tree, the direct route's too
 *   (test/e2e/history-direct.test.ts and test/e2e/batch-direct.test.ts compare the two)
 */
export async function main(argv: string[] = process.argv, opts: { direct?: boolean } = {}): Promise<void> {
  // __dirname is dist/ in the CommonJS bundle, the only way this file runs.
  resolveChunksDirectly(__dirname);
  enableCompileCache(__dirname, cacheDir());
  const line = opts.direct === false ? undefined : (await import('./line.js')).directLine(argv.slice(2));
  if (line) {
    // the route's chunks from one file (scripts/lib/route-packs.ts, packs named in tsup.config.ts; docs/speed.md)
    usePack(line.command === 'history' ? 'history' : 'batch', module);
    await (await import('./direct.js')).main(argv, line);
    return;
  }
  const cli = await import('./program.js');
  await cli.main(argv);
}
