/**
 * The standalone sandbox's postback events (docs/sandbox-and-postbacks.md, "Events and delivery"):
 * every postback is an event with an id, its URL, its body exactly as sent, its state and its
 * attempts, kept in memory and, when the sandbox has a state folder, in an append-only log there,
 * so that a restart with the same data folder picks up where the last run stopped.
 *
 * The log `<folder>/events.jsonl` is JSON Lines, one record a line:
 * - `{"v":1,"nextSeq":N}`: the header a compaction writes first;
 * - `{"e":{…event}}`: an event, whole (its creation, or its state at the last compaction);
 * - `{"u":"evt_N", …changed fields}`: what an attempt or a resend changed;
 * - `{"d":"evt_N"}`: an event dropped to keep within the cap.
 *
 * Why this format: an append of one line is the only write while the sandbox runs, so a crash can at
 * worst leave the last line cut short, which the next start ignores (and drops on its first
 * compaction); the log is never rewritten in place: a compaction writes `events.jsonl.tmp`, flushes
 * it (fsync) and renames it over the log, which is atomic, so a crash leaves either the old log or
 * the new one. Each record is written (write(2)) before the answer that caused it, so killing the
 * process loses nothing; the file is flushed to the disk (fdatasync) at most
 * {@link FLUSH_INTERVAL_MS} later and when the sandbox stops, so a power cut may lose that much.
 * A compaction runs when the log holds more than twice as many records as there are events (and
 * at least {@link COMPACT_MIN_RECORDS}), and at start: the log stays within a small multiple of
 * what is kept.
 *
 * Bounds: at most `maxEvents` events are kept; past it the oldest delivered event is dropped
 * first, then the oldest given-up one, and only then the oldest pending one (with a log line).
 * Each event keeps its last {@link KEPT_ATTEMPTS} attempts (and the count of all).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fdatasyncSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { PostbackObject, PostbackStatus } from '../gateway/postback.js';
import { t } from '../core/i18n/index.js';

/** Where an event is: waiting for an attempt (or in one), delivered (a 2xx), or given up. */
export type EventState = 'pending' | 'delivered' | 'failed';

/** One delivery attempt. */
export interface EventAttempt {
  /** 1 for the first attempt of the event, counting every attempt since (resends included). */
  n: number;
  /** ISO 8601 UTC start of the attempt. */
  at: string;
  /** `HTTP 200`, `HTTP 500`, `no answer within 10000 ms`, `connection failed (ECONNREFUSED)`. */
  outcome: string;
  /** The answer's status, or null when there was no answer. */
  status: number | null;
  /** Duration of the attempt in ms. */
  ms: number;
}

/** A postback event. Times are epoch milliseconds unless named ISO. */
export interface SandboxEvent {
  /** `evt_<seq>`. */
  id: string;
  /** Creation order, increasing across restarts with the same state folder. */
  seq: number;
  transactionId: number;
  object: PostbackObject;
  /** The postback's `status` word. */
  status: PostbackStatus;
  /** Where it goes, in full (the log is private, mode 0600; what is shown drops the query). */
  url: string;
  /** The body as sent, byte for byte, on every attempt. */
  body: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  state: EventState;
  /** Attempts made so far (all of them). */
  attempts: number;
  /** Failed attempts in a row since it was created or resent (sets the next wait). */
  streak: number;
  /** The last {@link KEPT_ATTEMPTS} attempts, oldest first. */
  recent: EventAttempt[];
  /** When the next attempt is due (pending only). */
  nextAt: number;
  /** After this, a failed attempt gives up instead of waiting for another (created or resent + retry-for). */
  deadline: number;
  /** ISO 8601 UTC of the 2xx, when delivered. */
  deliveredAt: string | null;
}

/** Fields an update record may carry (the attempt it reports goes in `a`). */
export type EventUpdate = Partial<Pick<SandboxEvent, 'state' | 'attempts' | 'streak' | 'nextAt' | 'deadline' | 'deliveredAt'>>;

/** Attempts kept per event. */
export const KEPT_ATTEMPTS = 5;
/** Default cap on kept events. */
export const DEFAULT_MAX_EVENTS = 20_000;
/** Longest time between a record and its flush to the disk, in ms. */
export const FLUSH_INTERVAL_MS = 200;
/** A compaction waits for at least this many records. */
export const COMPACT_MIN_RECORDS = 1_000;
/** Name of the log inside the state folder. */
export const EVENTS_FILE = 'events.jsonl';

/** Options of an {@link EventStore}. */
export interface EventStoreOptions {
  /** The state folder; none keeps events in memory only. */
  dir?: string;
  /** Cap on kept events (default {@link DEFAULT_MAX_EVENTS}). */
  maxEvents?: number;
  /** One line for what the log says (dropped events, a damaged line). */
  log?: (line: string) => void;
}

/** What {@link EventStore.load} found. */
export interface LoadReport {
  events: number;
  pending: number;
  /** Lines that could not be read (a line cut short by a crash, normally the last). */
  skipped: number;
}

/** The events of one sandbox, in creation order, persisted as the module doc says. */
export class EventStore {
  private readonly events = new Map<string, SandboxEvent>();
  /** Delivered events, oldest delivery first: the first dropped past the cap. */
  private readonly delivered = new Set<string>();
  /** Given-up events, oldest first: dropped next. */
  private readonly failed = new Set<string>();
  private readonly file: string | undefined;
  /** Called after an event is added or changed (the dashboard's live updates, src/sandbox/dashboard.ts). */
  onChange?: (e: SandboxEvent) => void;
  private readonly maxEvents: number;
  private readonly log: (line: string) => void;
  private fd: number | undefined;
  private nextSeq = 1;
  private records = 0;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(opts: EventStoreOptions = {}) {
    this.file = opts.dir === undefined ? undefined : join(opts.dir, EVENTS_FILE);
    this.maxEvents = opts.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.log = opts.log ?? (() => undefined);
    if (opts.dir !== undefined) mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  }

  /**
   * Reads the log (when there is a state folder), then compacts it.
   * @throws Error when the folder or the log cannot be read or written
   */
  load(): LoadReport {
    let skipped = 0;
    if (this.file !== undefined) {
      let text = '';
      try {
        text = readFileSync(this.file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const lines = text.split('\n');
      for (const line of lines) {
        if (line === '') continue;
        try {
          this.apply(JSON.parse(line) as Record<string, unknown>);
        } catch {
          skipped++;
        }
      }
      if (skipped) this.log(t('sandbox.log.damaged', skipped, this.file));
      this.compact();
    }
    let pending = 0;
    for (const e of this.events.values()) if (e.state === 'pending') pending++;
    return { events: this.events.size, pending, skipped };
  }

  /** Applies one log record (module doc). Throws on a record that is not one. */
  private apply(rec: Record<string, unknown>): void {
    if (typeof rec.v === 'number') {
      this.nextSeq = Math.max(this.nextSeq, Number(rec.nextSeq) || 1);
    } else if (rec.e && typeof rec.e === 'object') {
      const e = rec.e as SandboxEvent;
      if (typeof e.id !== 'string' || typeof e.seq !== 'number' || typeof e.body !== 'string' || typeof e.url !== 'string') throw new Error('not an event');
      this.events.delete(e.id);
      this.events.set(e.id, e);
      this.index(e);
      this.nextSeq = Math.max(this.nextSeq, e.seq + 1);
    } else if (typeof rec.u === 'string') {
      const e = this.events.get(rec.u);
      if (!e) return;
      const { u: _id, a, ...changes } = rec;
      Object.assign(e, changes as EventUpdate);
      if (a && typeof a === 'object') pushAttempt(e, a as EventAttempt);
      this.index(e);
    } else if (typeof rec.d === 'string') {
      this.forget(rec.d);
    } else throw new Error('unknown record');
  }

  /** Keeps the delivered / failed orders in step with `e.state`. */
  private index(e: SandboxEvent): void {
    if (e.state === 'delivered') {
      this.failed.delete(e.id);
      if (!this.delivered.has(e.id)) this.delivered.add(e.id);
    } else if (e.state === 'failed') {
      this.delivered.delete(e.id);
      if (!this.failed.has(e.id)) this.failed.add(e.id);
    } else {
      this.delivered.delete(e.id);
      this.failed.delete(e.id);
    }
  }

  private forget(id: string): void {
    this.events.delete(id);
    this.delivered.delete(id);
    this.failed.delete(id);
  }

  /** Appends one record to the log (nothing without a state folder). */
  private write(rec: unknown): void {
    if (this.file === undefined) return;
    this.fd ??= openSync(this.file, 'a', 0o600);
    writeSync(this.fd, `${JSON.stringify(rec)}\n`);
    this.records++;
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_INTERVAL_MS);
    this.flushTimer.unref?.();
    if (this.records > Math.max(COMPACT_MIN_RECORDS, 2 * this.events.size)) this.compact();
  }

  /** Flushes the log to the disk. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.fd !== undefined) fdatasyncSync(this.fd);
  }

  /** Rewrites the log as one record per kept event (module doc: atomic, crash-safe). */
  compact(): void {
    if (this.file === undefined) return;
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      let chunk = `${JSON.stringify({ v: 1, nextSeq: this.nextSeq })}\n`;
      for (const e of this.events.values()) {
        chunk += `${JSON.stringify({ e })}\n`;
        if (chunk.length > 256 * 1024) {
          writeSync(fd, chunk);
          chunk = '';
        }
      }
      writeSync(fd, chunk);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = openSync(this.file, 'a', 0o600);
    try {
      const dirFd = openSync(join(this.file, '..'), 'r');
      try {
        fsyncSync(dirFd);
      } finally {
        closeSync(dirFd);
      }
    } catch {
      /* a folder that cannot be opened for fsync: the rename is still atomic */
    }
    this.records = this.events.size + 1;
  }

  /**
   * Records a new event (state pending, due at `now`), dropping old ones past the cap.
   * @param now epoch ms; `retryForMs` sets its deadline
   */
  add(fields: Pick<SandboxEvent, 'transactionId' | 'object' | 'status' | 'url' | 'body'>, now: number, retryForMs: number): SandboxEvent {
    const seq = this.nextSeq++;
    const e: SandboxEvent = {
      id: `evt_${seq}`,
      seq,
      ...fields,
      createdAt: new Date(now).toISOString(),
      state: 'pending',
      attempts: 0,
      streak: 0,
      recent: [],
      nextAt: now,
      deadline: now + retryForMs,
      deliveredAt: null,
    };
    this.events.set(e.id, e);
    this.write({ e });
    this.trim();
    this.onChange?.(e);
    return e;
  }

  /** Changes an event (and adds `attempt` to its recent ones) and records the change. */
  update(e: SandboxEvent, changes: EventUpdate, attempt?: EventAttempt): void {
    Object.assign(e, changes);
    if (attempt) pushAttempt(e, attempt);
    this.index(e);
    this.write({ u: e.id, ...changes, ...(attempt ? { a: attempt } : {}) });
    this.onChange?.(e);
  }

  /** Drops events past the cap: oldest delivered first, then given up, then pending. */
  private trim(): void {
    while (this.events.size > this.maxEvents) {
      const id = this.delivered.values().next().value ?? this.failed.values().next().value ?? this.events.keys().next().value;
      if (id === undefined) return;
      const e = this.events.get(id)!;
      if (e.state === 'pending') this.log(t('sandbox.log.droppedEvent', id, e.status, e.transactionId, this.maxEvents));
      this.forget(id);
      this.write({ d: id });
    }
  }

  /** The event with this id (`evt_<n>`), if kept. */
  get(id: string): SandboxEvent | undefined {
    return this.events.get(id);
  }

  /** Every kept event, oldest first. */
  all(): IterableIterator<SandboxEvent> {
    return this.events.values();
  }

  /** How many events are kept. */
  get size(): number {
    return this.events.size;
  }

  /** Flushes and closes the log. */
  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Adds an attempt to an event's recent ones, keeping the last {@link KEPT_ATTEMPTS}. */
function pushAttempt(e: SandboxEvent, a: EventAttempt): void {
  e.recent.push(a);
  if (e.recent.length > KEPT_ATTEMPTS) e.recent.splice(0, e.recent.length - KEPT_ATTEMPTS);
}

/** A held state folder: released by {@link releaseStateDir}. */
export interface StateDirLock {
  dir: string;
  file: string;
}

/**
 * Takes the state folder for this process: `<dir>/lock` holding this process id. The lock is written
 * whole under a name of its own and then hard-linked as `lock` (a link fails when the name exists), so
 * no other process ever reads it half written and two sandboxes starting at once cannot both take it.
 * A lock whose process no longer exists is stale: it is first moved aside under a name of its own, and
 * when what was moved is not the stale lock that was read (another process took the folder in
 * between), it is put back. A live lock (a stopped process is alive) is never taken over.
 * @returns the lock, or `{heldBy}`: the id of the live process holding it (NaN when unknown)
 * @throws Error when the folder cannot be created or written
 */
export function lockStateDir(dir: string): StateDirLock | { heldBy: number } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    if (linkLock(file)) return { dir, file };
    const text = readLock(file);
    if (text === undefined) continue; // removed in between: try again
    const pid = Number.parseInt(text, 10);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) return { heldBy: pid };
    const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      renameSync(file, aside);
    } catch {
      continue; // someone else moved it first
    }
    const moved = readLock(aside);
    if (moved !== text) {
      // what was moved is a fresh lock taken in between: put it back, it is theirs
      restoreLock(aside, file);
      const holder = Number.parseInt(moved ?? '', 10);
      return { heldBy: Number.isSafeInteger(holder) && holder > 0 ? holder : NaN };
    }
    unlinkQuietly(aside);
  }
  return { heldBy: NaN };
}

/** Creates `file` holding this process id, whole, or returns false when it exists. @throws Error on other failures */
function linkLock(file: string): boolean {
  const own = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(own, String(process.pid), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(own, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    unlinkQuietly(own);
  }
}

/** The text of a lock file, or undefined when it is gone. */
function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Puts a lock moved aside by mistake back under its name (unless a third process took the name), then removes the aside copy. */
function restoreLock(aside: string, file: string): void {
  try {
    linkSync(aside, file);
  } catch {
    /* the name is taken again: that process holds the folder */
  }
  unlinkQuietly(aside);
}

/** Removes a file, ignoring any error (it may be gone already). */
function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* already gone */
  }
}

/** True when a process with this id exists (EPERM: it exists, owned by someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Releases a lock taken by {@link lockStateDir}. Never throws. */
export function releaseStateDir(lock: StateDirLock): void {
  try {
    if (readFileSync(lock.file, 'utf8') === String(process.pid)) unlinkSync(lock.file);
  } catch {
    /* already gone */
  }
}
