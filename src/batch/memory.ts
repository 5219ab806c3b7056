/**
 * Keeps a batch run's memory flat however many rows its file has (docs/speed.md, batch memory).
 * Node lets V8's young generation grow up to 16 MiB a half as a program allocates, and lets the
 * old generation fill with what outlived a few young collections (rows waiting in a group, records
 * waiting in the parser) long before it collects it: a 100,000-row run would end with some 50 MiB
 * more than a 1,000-row one, though what it keeps alive stays about the same. A batch run
 * therefore stops the young generation's growth at {@link YOUNG_GENERATION_BYTES} and asks for a
 * full collection every {@link COLLECT_EVERY} rows read (a few milliseconds each on a heap of this
 * size; more often costs the run measurably more CPU).
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Rows read (the check and the send each read every row) between two full collections. */
export const COLLECT_EVERY = 8192;
/** The young generation's size (both halves) at which its growth stops. */
export const YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;
/** Rows between two looks at the young generation's size, while it may still grow. */
const LOOK_EVERY = 64;

/** The young generation's current size in bytes. */
function youngGeneration(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Returns a function to call once per row read: it stops the young generation's growth once it
 * reaches {@link YOUNG_GENERATION_BYTES}, and runs a full collection every {@link COLLECT_EVERY}
 * calls. The flags are V8's own (`node --v8-options`), read by V8 as it runs: `--expose-gc` given
 * at run time makes `gc` available to contexts created after it.
 */
export function boundBatchMemory(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let growing = true;
  let rows = 0;
  return () => {
    rows++;
    if (growing && rows % LOOK_EVERY === 0 && youngGeneration() >= YOUNG_GENERATION_BYTES) {
      setFlagsFromString('--semi-space-growth-factor=1');
      growing = false;
    }
    if (rows % COLLECT_EVERY === 0) gc();
  };
}
