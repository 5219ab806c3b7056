/**
 * The sandbox's transaction ids keep increasing across runs and across processes (docs/sandbox-and-postbacks.md "The built-in sandbox"):
 * the last id reserved lives in `<data dir>/sandbox-counter`, updated under a lock (an exclusive `mkdir`,
 * atomic on every local file system) so that concurrent in-process sandboxes never hand out the
 * same id.
 *
 * Taking the lock and renaming the file costs five file-system calls that change a folder (about
 * half of what a cash-out costs the sandbox, and much more while other work uses the disk; docs/speed.md,
 * "The sandbox's speed as its state grows"), so a sandbox reserves its ids a block at a time
 * ({@link TransactionIds}): 1 id, then 2, 4... up to {@link MAX_ID_BLOCK}, so a one-shot run reserves
 * the one id it uses and a busy sandbox takes the lock once every 64 ids. A sandbox that stops
 * gives back the ids it did not hand out when no one reserved after it, so the next run goes on
 * from its last id; one killed leaves at most 63 ids unused, and two sandboxes running at once hand
 * out ids from their own blocks (each one's increasing, none twice, and a sandbox started later
 * above every id handed out before).
 */
import { mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../core/paths.js';
import { t } from '../core/i18n/index.js';

const STALE_LOCK_MS = 10_000;
/** The largest block of ids one reservation takes. */
export const MAX_ID_BLOCK = 64;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `fn` with the counter's lock held, on the last id reserved so far (0 at first), and writes
 * the number it returns as the new last id (atomically: a file renamed over the old one).
 * @throws Error when the lock cannot be taken within ~5 s, or the file cannot be written
 */
function underLock(fn: (last: number) => number): number {
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
    const next = fn(last);
    if (next !== last) {
      writeFileSync(`${file}.tmp`, String(next), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    }
    return next;
  } finally {
    rmdirSync(lock);
  }
}

/** The transaction ids of one sandbox, reserved from the shared counter a block at a time (module doc). */
export class TransactionIds {
  /** The next id to hand out, and the last one reserved: none left when `next > last`. */
  private next = 1;
  private last = 0;
  private block = 1;
  /** How many times the shared counter was taken to reserve ids (what the tests count). */
  reservations = 0;

  /**
   * The next transaction id (1, 2, 3… across runs).
   * @throws Error when the counter's lock cannot be taken within ~5 s
   */
  take(): number {
    if (this.next > this.last) {
      const size = this.block;
      this.last = underLock((last) => last + size);
      this.next = this.last - size + 1;
      this.block = Math.min(2 * size, MAX_ID_BLOCK);
      this.reservations++;
    }
    return this.next++;
  }

  /**
   * Gives back the ids reserved and not handed out, when the counter still ends at them (no one
   * reserved after), so the next run goes on from this one's last id. Never throws: a counter that
   * cannot be taken now keeps the gap.
   */
  release(): void {
    if (this.next > this.last) return;
    const [last, used] = [this.last, this.next - 1];
    try {
      underLock((now) => (now === last ? used : now));
    } catch {
      /* the ids stay reserved: a gap, never a repeat */
    }
    this.last = used;
  }
}
