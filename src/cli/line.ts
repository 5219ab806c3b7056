/**
 * Which lines take the direct route (docs/architecture.md "The direct route"): src/cli/boot.ts asks
 * {@link directLine} on every start. A chunk of its own, not part of dist/boot.cjs: boot is the one
 * part of the bundle compiled from source on every run, and the line readers' functions, which run on
 * every start, compile from the code cache here instead (docs/speed.md "Boot without the line readers").
 */
import { historyLine } from './history-line.js';
import { batchLine } from './batch-line.js';
import type { DirectLine } from './direct.js';

/** The command and options of a line the direct route takes (src/cli/direct.ts), or undefined. @param args the arguments after the program */
export function directLine(args: readonly string[]): DirectLine | undefined {
  const history = historyLine(args);
  if (history) return { command: 'history', opts: history };
  const batch = batchLine(args);
  return batch ? { command: batch.kind, opts: batch.opts } : undefined;
}
