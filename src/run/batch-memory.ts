/**
 * Keeps a batch run's memory flat however many rows its file has (README "Speed", batch memory).
 * Node grows V8's young generation from 1 MiB up to 16 MiB a half as a program allocates, and lets
 * the old generation fill with what outlived a few young collections (rows waiting in a group,
 * records waiting in the parser) well before it collects it: a 100,000-row run would end with
 * some 50 MiB more than a 1,000-row one, though what it keeps alive stays about the same. A batch
 * run therefore keeps the young generation at its starting size and asks for a full collection
 * every {@link COLLECT_EVERY} rows (a few milliseconds each on a heap of this size).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Rows between two full collections. */
export const COLLECT_EVERY = 4096;

/**
 * Bounds the young generation from now on, and returns a function to call once per row that runs
 * a full collection every {@link COLLECT_EVERY} calls. The flags are V8's own (`node --v8-options`);
 * `--expose-gc` given at run time makes `gc` available to contexts created after it.
 */
export function boundBatchMemory(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let rows = 0;
  return () => {
    if (++rows % COLLECT_EVERY === 0) gc();
  };
}
