/**
 * A kernel lock on a file, taken without waiting: an exclusive SQLite lock (POSIX fcntl), held by
 * its process while it runs or is stopped, released by the kernel when it dies. The ledger's runs
 * use it to tell whether their owner is alive (src/ledger/runs.ts). SQLite does the locking, so the
 * rules are those of the ledger itself (docs/ledger-and-safety.md).
 */
import { existsSync } from 'node:fs';
import { openConnection } from '../core/sqlite/connect.js';

/** A connection to a lock file that never waits for a lock: `SQLITE_BUSY` at once when another process holds it. */
const openLockConnection = (file: string) => openConnection(file, { busyTimeoutMs: 0, mustExist: true });

/** A lock this process holds. */
export interface FileLock {
  release(): void;
}

/**
 * Takes the exclusive lock of `file` if nobody holds it.
 * @param opts.create false: a missing file counts as free (a released lock, nothing held)
 * @returns the lock (release it when done), or null when another process holds it
 * @throws Error when the file cannot be opened for another reason
 */
export function tryLockFile(file: string, opts: { create?: boolean } = {}): FileLock | null {
  if (opts.create === false && !existsSync(file)) return { release() {} };
  const held = (err: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown }).code));
  let db: ReturnType<typeof openLockConnection>;
  try {
    db = openLockConnection(file); // a driver may read the file as it opens it: that too meets the lock
  } catch (err) {
    if (held(err)) return null;
    // Removed between the look and the open: its owner ended (it removes its file as it exits).
    if (opts.create === false && /^SQLITE_CANTOPEN/.test(String((err as { code?: unknown }).code)) && !existsSync(file)) return { release() {} };
    throw err;
  }
  try {
    // The lock file holds no data: its rollback journal in memory, so taking the lock writes no `-journal` file beside it.
    db.exec('PRAGMA journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if (held(err)) return null;
    throw err;
  }
  return {
    release() {
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}
