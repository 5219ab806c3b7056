/**
 * Starting a sandbox's state folder over (`paycli sandbox reset`, docs/sandbox-and-postbacks.md): its
 * transactions (`transactions.sqlite`, src/sandbox/store.ts) and its postback events (`events.jsonl`,
 * src/sandbox/events.ts) are removed while the folder's lock is held, so a running sandbox's state is
 * never pulled from under it. Transaction ids keep increasing (src/sandbox/counter.ts), so a receiver
 * never sees an id of the earlier state again.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../core/paths.js';
import { EVENTS_FILE, lockStateDir, releaseStateDir } from './events.js';
import { TRANSACTIONS_FILE } from './store.js';

/**
 * The state folder of a sandbox started without `--data-dir`: `<data folder>/sandbox/<port>`, one per
 * port, so two sandboxes on two ports keep two states (docs/sandbox-and-postbacks.md, "State across
 * restarts"). `port` is the number given to `--port` (0, any free port, has its folder `0` too).
 */
export function defaultStateDir(port: number): string {
  return join(dataDir(), 'sandbox', String(port));
}

/** The files of a state folder that hold its state (the lock stays). */
const STATE_FILES = [TRANSACTIONS_FILE, `${TRANSACTIONS_FILE}-wal`, `${TRANSACTIONS_FILE}-shm`, EVENTS_FILE, `${EVENTS_FILE}.tmp`];

/**
 * Removes the state kept in `dir`.
 * @returns `{removed}`: how many state files there were, or `{heldBy}`: the id of the live process
 *   (a running sandbox) holding the folder, which is then left untouched (NaN when unknown)
 * @throws Error when the folder cannot be created, locked or written
 */
export function resetState(dir: string): { removed: number } | { heldBy: number } {
  const lock = lockStateDir(dir);
  if (!('dir' in lock)) return lock;
  try {
    let removed = 0;
    for (const name of STATE_FILES) {
      try {
        rmSync(join(dir, name));
        removed++;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    return { removed };
  } finally {
    releaseStateDir(lock);
  }
}
