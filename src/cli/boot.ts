/**
 * The bundle's entry (dist/boot.cjs, required by bin/paycli.cjs). It turns on the direct
 * resolution of the bundle's chunks (src/cli/chunk-resolve.ts) and the code cache of
 * src/cli/compile-cache.ts and only then loads the command tree (src/cli/program.ts), so that the chunks it
 * pulls in (commander, zod, each command) compile from the cache. A `history` line that
 * src/cli/history-line.ts recognises runs without the command tree (src/cli/history-direct.ts;
 * docs/architecture.md "The direct route of `history`"). Kept tiny: it is the one part
 * of the bundle that is always compiled from source.
 */
import { enableCompileCache } from './compile-cache.js';
import { resolveChunksDirectly } from './chunk-resolve.js';
import { cacheDir } from '../core/paths.js';
import { historyLine } from './history-line.js';

/**
 * Runs paycli with `argv` (default `process.argv`); exit codes as in src/cli/program.ts.
 * @param opts.direct false: every line through the command tree, the direct route of `history`
 *   too (test/e2e/history-direct.test.ts compares the two)
 */
export async function main(argv: string[] = process.argv, opts: { direct?: boolean } = {}): Promise<void> {
  // __dirname is dist/ in the CommonJS bundle, the only way this file runs.
  resolveChunksDirectly(__dirname);
  enableCompileCache(__dirname, cacheDir());
  const history = opts.direct === false ? undefined : historyLine(argv.slice(2));
  if (history) {
    await (await import('./history-direct.js')).main(argv, history);
    return;
  }
  const cli = await import('./program.js');
  await cli.main(argv);
}
