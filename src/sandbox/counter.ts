/**
 * The sandbox's transaction ids keep increasing across runs and across processes (docs/sandbox-and-postbacks.md "The built-in sandbox"):
 * the last id lives in `<data dir>/sandbox-counter`, updated under a lock (an exclusive `mkdir`,
 * atomic on every local file system) so that concurrent in-process sandboxes never hand out the
 * same id.
 */
import { mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../core/paths.js';
import { t } from '../core/i18n/index.js';

const STALE_LOCK_MS = 10_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Returns the next sandbox transaction id (1, 2, 3… across runs).
 * @throws Error when the lock cannot be taken within ~5 s
 */
export function nextTransactionId(): number {
  const dir = dataDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'sandbox-counter');
  const lock = `${file}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmdirSync(lock);
      } catch {
        /* someone else removed it */
      }
      if (attempt > 1000) throw new Error(t('sandbox.counterLock', lock));
      sleep(5);
    }
  }
  try {
    let last = 0;
    try {
      last = Number.parseInt(readFileSync(file, 'utf8'), 10) || 0;
    } catch {
      /* first run */
    }
    const next = last + 1;
    writeFileSync(`${file}.tmp`, String(next), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    return next;
  } finally {
    rmdirSync(lock);
  }
}
