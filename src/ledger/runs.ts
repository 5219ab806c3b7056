/**
 * Who owns a ledger entry, and whether it is alive (docs/ledger-and-safety.md, "In flight").
 *
 * Every paycli process that records payments is a *run*: it gets an id, is registered in the
 * ledger's `runs` table (process id, its start time, host name, boot id, user, paycli version)
 * and, for its whole life, holds a kernel lock on a small file of its own, `<data dir>/runs/<id>.lock`
 * (an exclusive SQLite lock: an fcntl lock, which the kernel keeps while the process is stopped by
 * SIGSTOP or Ctrl-Z and releases the moment it dies, however it dies).
 *
 * Another process tells whether a run is alive by trying that lock (never waiting for it), and by
 * a second witness where the system has one: on Linux, `/proc/<pid>/stat` with the same start time
 * on the same boot. A run is `gone` only when both say so; on another host it is `unknown`, which
 * counts as alive. A wrong "alive" only delays settling; a wrong "gone" could pay twice, so every
 * doubt is "alive".
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, constants } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import type { OwnerState } from './settle-rule.js';
import { tryLockFile, type FileLock } from './lock-file.js';
import { t } from '../core/i18n/index.js';
import { randomHex } from '../core/random.js';

/** What the ledger records of a run (table `runs`). */
export interface RunRecord {
  /** Random id: 20 hexadecimal characters (80 bits; a UUID before schema version 11, which keeps it in every batch row: docs/speed.md "Disk written per batch row"). */
  id: string;
  pid: number;
  /** The process's start time as the kernel counts it (`/proc/<pid>/stat` field 22), when known. */
  procStart: number | null;
  host: string;
  /** `/proc/sys/kernel/random/boot_id`, when known: a run of an earlier boot is gone. */
  bootId: string | null;
  /** Epoch milliseconds the run started recording. */
  startedMs: number;
  /** Operating-system user name. */
  user: string;
  /** paycli version. */
  version: string;
}

const readText = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** The state letter and start time (clock ticks since boot) of a process, from `/proc/<pid>/stat`; null where there is no /proc. */
export function procStat(pid: number | 'self'): { state: string; start: number } | null {
  const text = readText(`/proc/${pid}/stat`);
  if (text === null) return null;
  // Field 2 (the command name) is in parentheses and may hold spaces: count from the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = Number(rest[19]);
  return Number.isFinite(start) ? { state: rest[0] ?? '?', start } : null;
}

let bootIdCache: string | null | undefined;
/** This machine's boot id (Linux), or null. */
export function bootId(): string | null {
  if (bootIdCache === undefined) bootIdCache = readText('/proc/sys/kernel/random/boot_id')?.trim() || null;
  return bootIdCache;
}

/** The folder of the runs' lock files, beside the ledger. */
export const runsDir = (dataDir: string): string => join(dataDir, 'runs');
/** The lock file of run `id`. */
export const runLockPath = (dataDir: string, id: string): string => join(runsDir(dataDir), `${id}.lock`);

/** This process as a run, and the lock it holds (once registered). */
let current: { record: RunRecord; lock: FileLock; dataDir: string } | undefined;

/**
 * This process's run: created, and its lock taken, on first use (the first payment recorded).
 * @param dataDir the ledger's folder
 * @param version paycli's version
 * @throws Error (a file error) when the lock file cannot be made: the ledger then sends nothing
 */
export function currentRun(dataDir: string, version: string, now = Date.now()): RunRecord {
  if (current && current.dataDir === dataDir) return current.record;
  const id = randomHex(10);
  mkdirSync(runsDir(dataDir), { recursive: true, mode: 0o700 });
  const file = runLockPath(dataDir, id);
  closeSync(openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600));
  const lock = tryLockFile(file);
  if (!lock) throw new Error(`the run lock ${file} is held by another process`);
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    /* no user database entry (a container): keep "unknown" */
  }
  sweepRunLocks(dataDir, file);
  const record: RunRecord = { id, pid: process.pid, procStart: procStat('self')?.start ?? null, host: hostname(), bootId: bootId(), startedMs: now, user, version };
  current = { record, lock, dataDir };
  // The lock file goes with the process; a crash leaves it for the next observer to remove.
  process.once('exit', () => releaseCurrentRun());
  return record;
}

/** The id of this process's run, if it has one. */
export const currentRunId = (): string | undefined => current?.record.id;

/** Releases this process's run lock and removes its file (at exit; the kernel would release the lock anyway). */
export function releaseCurrentRun(): void {
  if (!current) return;
  const { lock, dataDir, record } = current;
  current = undefined;
  try {
    lock.release();
    rmSync(runLockPath(dataDir, record.id), { force: true });
  } catch {
    /* exiting: the kernel releases the lock */
  }
}

/**
 * Whether run `r` is alive, as seen from this process.
 * @param dataDir the ledger's folder (where the run's lock file is)
 * @returns `self`, `alive` (running or stopped), `gone`, or `unknown` (another host: counts as alive)
 */
export function runState(r: Pick<RunRecord, 'id' | 'pid' | 'procStart' | 'host' | 'bootId'>, dataDir: string): OwnerState {
  if (current && r.id === current.record.id) return 'self';
  const myBoot = bootId();
  const sameHost = r.host === hostname();
  if (!sameHost) return 'unknown';
  if (r.bootId && myBoot && r.bootId !== myBoot) return 'gone'; // the machine has restarted since
  // First witness: the kernel lock. Held: alive, whatever else says.
  let lock: ReturnType<typeof tryLockFile>;
  try {
    lock = tryLockFile(runLockPath(dataDir, r.id), { create: false });
  } catch {
    return 'alive'; // the lock could not be tried: doubt is "alive"
  }
  if (lock === null) return 'alive';
  lock.release();
  // Second witness: the process itself (Linux). A zombie (Z) or dead (X) process has released everything.
  const stat = procStat(r.pid);
  if (stat !== null) return stat.start === r.procStart && stat.state !== 'Z' && stat.state !== 'X' ? 'alive' : 'gone';
  if (readText('/proc/self/stat') !== null) return 'gone'; // /proc works here, and the process is not in it
  // No /proc (macOS, BSD): the lock said free; a process with this id still running may be another one, but doubt is "alive".
  try {
    process.kill(r.pid, 0);
    return 'alive';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'gone';
  }
}

/** How many lock files the runs folder may hold before a new run sweeps the free ones. */
const SWEEP_ABOVE = 64;

/**
 * Removes the lock files of runs that ended without removing theirs (killed): only files whose lock
 * is free, and only when the folder has grown past {@link SWEEP_ABOVE} (each look is a lock tried).
 * Best effort: a run's record in the ledger stays; only its lock file goes.
 */
function sweepRunLocks(dataDir: string, mine: string): void {
  let names: string[];
  try {
    names = readdirSync(runsDir(dataDir)).filter((n) => n.endsWith('.lock'));
  } catch {
    return;
  }
  if (names.length <= SWEEP_ABOVE) return;
  for (const name of names) {
    const file = join(runsDir(dataDir), name);
    if (file === mine) continue;
    try {
      const lock = tryLockFile(file, { create: false });
      if (lock === null) continue; // alive
      lock.release();
      rmSync(file, { force: true });
    } catch {
      /* leave it */
    }
  }
}

/** Removes the lock file of a run found gone (best effort). */
export function forgetRunLock(dataDir: string, id: string): void {
  rmSync(runLockPath(dataDir, id), { force: true });
}

/** How a run is named in messages: `process 4242 on host-a, started 2026-11-25T15:04:15Z`. */
export function describeRun(r: Pick<RunRecord, 'pid' | 'host' | 'startedMs'>): string {
  return t('history.runOf', r.pid, r.host, new Date(r.startedMs).toISOString().replace(/\.\d+Z$/, 'Z'));
}
