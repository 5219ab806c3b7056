/**
 * The local payment journal (README "Safety: journal, duplicate cash-outs, history"): every cash-out and cash-in this machine sends is recorded
 * in `<data dir>/journal.jsonl` *before* it is sent, and completed with its outcome afterwards.
 * It is what stops a retried CI job from paying the same payout twice, and what
 * `paycli history` lists.
 *
 * Format: JSON Lines, append-only, one event per line (README "Payment journal"):
 * - `{"event":"begin","v":1,"id","time","kind","fingerprint","value","target","sandbox","profile",
 *    "pixKeyType"?,"pixKey"?,"recipient"?,"payer"?,"product"?,"pid"}` written (and fsync'd)
 *   before the request leaves;
 * - `{"event":"end","id","time","outcome","transactionId"?,"status"?,"httpStatus"?,"message"?}`
 *   once the outcome is known (`ok`, `refused`, `unknown`, `not_sent`).
 * A `begin` without an `end` means paycli died (or is still running) after recording it: the
 * outcome is unknown. The API key is never written here.
 *
 * Atomicity: each event is ONE `write(2)` of one line (< {@link MAX_LINE_BYTES}) on a file opened
 * with O_APPEND, so concurrent writers never interleave or tear lines (Linux serialises appends
 * to a local file). The duplicate check of a cash-out and its `begin` happen under an exclusive
 * lock (an atomic `mkdir` of `journal.lock`, with stale-lock recovery) so that two concurrent
 * identical cash-outs cannot both pass the check.
 */
import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PaycliError, ExitCode, UsageError, type ErrorDetails } from './errors.js';
import { formatReais } from './money.js';
import { dataDir } from './paths.js';
import { sanitizeText } from './output/sanitize.js';

/** Name of the journal file inside {@link dataDir}. */
export const JOURNAL_NAME = 'journal.jsonl';
/** Largest journal line written, in bytes; one `write(2)` of a line this small is atomic. */
export const MAX_LINE_BYTES = 4000;
/** A lock older than this (ms) is considered abandoned; the lock is held for milliseconds. */
export const STALE_LOCK_MS = 10_000;
/** How long paycli waits for the journal lock before giving up (ms). */
const LOCK_WAIT_MS = 10_000;

/** What a journal entry is about. */
export type JournalKind = 'cashout' | 'cashin';
/**
 * How a payment ended: `ok` the gateway created it; `refused` the gateway said no (4xx,
 * 401/403); `not_sent` nothing reached the gateway; `unknown` it may have reached the gateway
 * but no valid answer came back (timeout, reset, 5xx, wrong shape, Ctrl-C after sending).
 */
export type Outcome = 'ok' | 'refused' | 'unknown' | 'not_sent';

/** What the caller knows about a payment before sending it. */
export interface BeginInfo {
  kind: JournalKind;
  /** Amount in cents. */
  value: number;
  /** Endpoint URL the request goes to (no credentials, no query; {@link journalTarget}), or `sandbox`. */
  target: string;
  /** True for the built-in sandbox (no money moves). */
  sandbox: boolean;
  /** Config profile in use. */
  profile: string;
  /** Cash-out: destination key type (interface §2.3 number) and key, recipient's name. */
  pixKeyType?: number;
  pixKey?: string;
  recipient?: string;
  /** Cash-in: payer's name and product. */
  payer?: string;
  product?: string;
  /** The `orderId` sent (the caller's or a generated one; src/order-id.ts), if any. */
  orderId?: string;
}

/** The `begin` event, written before the request is sent: the {@link BeginInfo} plus its identity. */
export interface BeginEvent extends BeginInfo {
  event: 'begin';
  v: 1;
  /** Random UUID tying the begin to its end. */
  id: string;
  /** ISO 8601 UTC time the payment was recorded (just before sending). */
  time: string;
  /** sha256 hex of what makes two cash-outs identical ({@link cashOutFingerprint}). */
  fingerprint: string;
  /** Process id of the paycli that wrote it. */
  pid: number;
}

/** The `end` event, written once the outcome is known. */
export interface EndEvent {
  event: 'end';
  id: string;
  time: string;
  outcome: Outcome;
  /** The gateway's transaction id (outcome `ok`). */
  transactionId?: number;
  /** The gateway's cash-out status digit (interface §3), when it answered one. */
  status?: string;
  /** HTTP status of a failed answer. */
  httpStatus?: number;
  /** Short, sanitised error text for failures (never carries the API key: see {@link endPayment}). */
  message?: string;
}

/** A payment as `paycli history` shows it: a begin merged with its end (if any). */
export interface JournalEntry extends Omit<BeginEvent, 'event' | 'v' | 'pid' | 'fingerprint'> {
  fingerprint: string;
  /** The outcome; `unknown` with `completed: false` when no end was recorded. */
  outcome: Outcome;
  /** False when only the begin was recorded (paycli killed, or still running). */
  completed: boolean;
  endTime?: string;
  transactionId?: number;
  status?: string;
  httpStatus?: number;
  message?: string;
}

/** Path of the journal: `<data dir>/journal.jsonl` (`PAYCLI_DATA_DIR` moves it). */
export function journalPath(): string {
  return join(dataDir(), JOURNAL_NAME);
}

/** Error for a journal that cannot be written: exit 2, nothing was sent. */
export class JournalError extends PaycliError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('journal_unavailable', ExitCode.USAGE, message, details);
  }
}

/** Creates the data folder with mode 0700 (and tightens it if it is looser). */
function ensureDir(): string {
  const dir = dataDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  } catch {
    /* not ours to change: the file itself is still 0600 */
  }
  return dir;
}

const clip = (s: string | undefined, max: number): string | undefined => (s === undefined ? undefined : s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * Appends one event as one line: opened O_APPEND (mode 0600), one `write(2)`, `fsync`, close.
 * @throws JournalError when the line cannot be written in full
 */
export function appendEvent(event: BeginEvent | EndEvent): void {
  const line = Buffer.from(`${JSON.stringify(event)}\n`, 'utf8');
  if (line.length > MAX_LINE_BYTES) throw new JournalError(`internal error: a journal line of ${line.length} bytes is too long`);
  const file = journalPath();
  let fd: number | undefined;
  try {
    ensureDir();
    fd = openSync(file, 'a', 0o600);
    fchmodSync(fd, 0o600);
    const written = writeSync(fd, line);
    if (written !== line.length) throw Object.assign(new Error(`short write (${written} of ${line.length} bytes)`), { code: 'ESHORT' });
    fsyncSync(fd);
  } catch (err) {
    if (err instanceof JournalError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new JournalError(`cannot write the payment journal ${file} (${code})`, { cause: err, hint: 'make the folder writable, or point PAYCLI_DATA_DIR at a writable folder' });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads the journal and merges begins with their ends, oldest first. Lines that are not
 * complete JSON events (which paycli never writes) are skipped and counted.
 * @returns the entries and how many lines were skipped; an absent journal is empty
 */
export function readJournal(): { entries: JournalEntry[]; skipped: number } {
  let text: string;
  try {
    text = readFileSync(journalPath(), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], skipped: 0 };
    throw new JournalError(`cannot read the payment journal ${journalPath()} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
  }
  const byId = new Map<string, JournalEntry>();
  const ends: EndEvent[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let ev: BeginEvent | EndEvent;
    try {
      ev = JSON.parse(line) as BeginEvent | EndEvent;
    } catch {
      skipped++;
      continue;
    }
    if (ev?.event === 'begin' && typeof ev.id === 'string' && typeof ev.time === 'string' && Number.isSafeInteger(ev.value)) {
      const { event: _e, v: _v, pid: _p, ...rest } = ev;
      byId.set(ev.id, { ...rest, outcome: 'unknown', completed: false });
    } else if (ev?.event === 'end' && typeof ev.id === 'string') ends.push(ev);
    else skipped++;
  }
  for (const end of ends) {
    const e = byId.get(end.id);
    if (!e) continue;
    Object.assign(e, { outcome: end.outcome, completed: true, endTime: end.time, transactionId: end.transactionId, status: end.status, httpStatus: end.httpStatus, message: end.message });
  }
  return { entries: [...byId.values()], skipped };
}

/**
 * What makes two cash-outs identical (README "Duplicate cash-outs"): the same endpoint
 * (`target`), the same amount in cents, the same key type and the same PIX key, as sent (after
 * normalisation: DICT form, so `Fulano@Example.com` and `fulano@example.com` are one key). The
 * recipient's name, e-mail, phone and CPF/CNPJ are deliberately left out: the money goes to the
 * key, and a retry with a corrected phone number is still the same payout.
 * @returns sha256 hex
 */
export function cashOutFingerprint(target: string, body: { value: number; pixKeyType: number; pixKey: string }): string {
  return createHash('sha256').update(JSON.stringify(['cashout', target, body.value, body.pixKeyType, body.pixKey])).digest('hex');
}

/** The endpoint URL as recorded: no user-info, query or fragment; `sandbox` for the built-in one. */
export function journalTarget(url: string): string {
  if (url === 'sandbox') return url;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return clip(u.toString(), 300)!;
  } catch {
    return 'invalid-url';
  }
}

/** The earlier identical cash-out that blocks a new one, or undefined. `ok` and `unknown` block; `refused` and `not_sent` do not. */
export function findDuplicate(entries: readonly JournalEntry[], fingerprint: string, windowMin: number, now = Date.now()): JournalEntry | undefined {
  const since = now - windowMin * 60_000;
  let found: JournalEntry | undefined;
  for (const e of entries) {
    if (e.kind !== 'cashout' || e.fingerprint !== fingerprint) continue;
    const t = Date.parse(e.time);
    if (!(t >= since)) continue;
    if (e.outcome !== 'ok' && e.outcome !== 'unknown') continue;
    if (!found || Date.parse(found.time) < t) found = e;
  }
  return found;
}

function ago(time: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(time)) / 1000));
  return s < 90 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

/** The refusal of a duplicate cash-out (exit 2), describing the earlier one. */
export function duplicateError(earlier: JournalEntry, windowMin: number, now = Date.now()): UsageError {
  const what = `${formatReais(earlier.value)} to PIX key ${sanitizeText(earlier.pixKey ?? '?', true)}${earlier.sandbox ? ' (sandbox)' : ''}, at ${earlier.time} (${ago(earlier.time, now)})`;
  const rule = `identical: same gateway, PIX key and amount within ${windowMin} min, config key duplicate-window`;
  if (earlier.outcome === 'ok') {
    return new UsageError(
      `an identical cash-out was already sent: ${what}, transaction ${earlier.transactionId ?? '?'}, outcome ok; refused so that it is not paid twice; nothing was sent`,
      { field: '--allow-duplicate', hint: `if you really mean to pay it again, add --allow-duplicate (${rule}; see \`paycli history\`)` },
      'duplicate_cashout',
    );
  }
  const why = earlier.completed
    ? 'its outcome is unknown (no valid answer came back: timeout, reset, gateway error or Ctrl-C after sending)'
    : 'its outcome is unknown (paycli was killed before the answer, or it is still being sent)';
  return new UsageError(
    `an identical cash-out may already have been paid: ${what}; ${why}; refused so that it is not paid twice; nothing was sent`,
    { field: '--allow-duplicate', hint: `check that cash-out at the gateway first; if it was not paid, add --allow-duplicate to send it again (${rule}; see \`paycli history\`)` },
    'duplicate_cashout',
  );
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `fn` holding the journal lock: `<data dir>/journal.lock`, created with an atomic `mkdir`
 * and holding an `owner` file (pid). A lock whose owner process is gone, or older than
 * {@link STALE_LOCK_MS}, is taken away: renamed aside, checked to be the one judged stale (if
 * another process recovered it and took a fresh lock meanwhile, that one is put back), removed.
 * The lock is held only for the check and one append (milliseconds).
 * @throws JournalError when the lock cannot be taken within 10 s
 */
export function withJournalLock<T>(fn: () => T): T {
  const dir = ensureDir();
  const lock = join(dir, 'journal.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(lock, { mode: 0o700 });
      try {
        writeFileSync(join(lock, 'owner'), String(process.pid), { mode: 0o600 });
      } catch (err) {
        rmSync(lock, { recursive: true, force: true });
        throw err;
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new JournalError(`cannot lock the payment journal ${lock} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err, hint: 'make the folder writable, or point PAYCLI_DATA_DIR at a writable folder' });
      }
      breakIfStale(lock);
      if (Date.now() > deadline) throw new JournalError(`the payment journal is locked by another paycli (${lock}); nothing was sent`, { hint: `if no other paycli is running, remove ${lock}` });
      sleep(Math.min(2 + attempt, 25));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockIdentity(lock: string): string | undefined {
  try {
    const mtime = statSync(lock).mtimeMs;
    let owner = '';
    try {
      owner = readFileSync(join(lock, 'owner'), 'utf8');
    } catch {
      /* taken a moment ago, owner not written yet */
    }
    return `${mtime}:${owner}`;
  } catch {
    return undefined; // released meanwhile
  }
}

function breakIfStale(lock: string): void {
  const seen = lockIdentity(lock);
  if (seen === undefined) return;
  const [mtimeText, ownerText] = [seen.slice(0, seen.indexOf(':')), seen.slice(seen.indexOf(':') + 1)];
  const owner = Number.parseInt(ownerText, 10) || undefined;
  const dead = owner !== undefined && owner !== process.pid && !pidAlive(owner);
  if (!dead && Date.now() - Number(mtimeText) <= STALE_LOCK_MS) return;
  const aside = `${lock}.stale-${process.pid}-${randomUUID()}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // someone else got there first
  }
  // Another process may have recovered the stale lock and taken a fresh one between our look
  // and our rename: if what we moved is not what we judged stale, put it back.
  if (lockIdentity(aside) !== seen) {
    try {
      renameSync(aside, lock);
      return;
    } catch {
      /* a third process holds it now; the moved lock's owner finishes within milliseconds */
    }
  }
  rmSync(aside, { recursive: true, force: true });
}

function beginEvent(info: BeginInfo, fingerprint: string): BeginEvent {
  return {
    event: 'begin',
    v: 1,
    id: randomUUID(),
    time: new Date().toISOString(),
    kind: info.kind,
    fingerprint,
    value: info.value,
    target: info.target,
    sandbox: info.sandbox,
    profile: clip(info.profile, 100)!,
    ...(info.pixKeyType !== undefined ? { pixKeyType: info.pixKeyType } : {}),
    ...(info.pixKey !== undefined ? { pixKey: clip(info.pixKey, 200) } : {}),
    ...(info.recipient !== undefined ? { recipient: clip(info.recipient, 200) } : {}),
    ...(info.payer !== undefined ? { payer: clip(info.payer, 200) } : {}),
    ...(info.product !== undefined ? { product: clip(info.product, 200) } : {}),
    ...(info.orderId !== undefined ? { orderId: info.orderId } : {}),
    pid: process.pid,
  };
}

/**
 * Checks a cash-out against the journal, without the lock: lets paycli refuse a duplicate
 * before asking for confirmation. {@link beginCashOut} checks again under the lock.
 * @throws UsageError `duplicate_cashout` (exit 2)
 */
export function checkDuplicate(fingerprint: string, windowMin: number): void {
  const dup = findDuplicate(readJournal().entries, fingerprint, windowMin);
  if (dup) throw duplicateError(dup, windowMin);
}

/**
 * Records a cash-out before it is sent: under the journal lock, refuses it if an identical one
 * (same fingerprint) within `windowMin` minutes has outcome `ok` or unknown, else appends and
 * fsyncs its `begin`. With `allowDuplicate` the check only yields the earlier one (for a warning).
 * @returns the entry id (for {@link endPayment}) and the earlier identical cash-out, if any
 * @throws UsageError `duplicate_cashout` (exit 2); JournalError (exit 2) when it cannot be written
 */
export function beginCashOut(info: BeginInfo & { pixKeyType: number; pixKey: string }, windowMin: number, allowDuplicate: boolean): { id: string; earlier?: JournalEntry } {
  const fingerprint = cashOutFingerprint(info.target, { value: info.value, pixKeyType: info.pixKeyType, pixKey: info.pixKey });
  return withJournalLock(() => {
    const earlier = findDuplicate(readJournal().entries, fingerprint, windowMin);
    if (earlier && !allowDuplicate) throw duplicateError(earlier, windowMin);
    const ev = beginEvent(info, fingerprint);
    appendEvent(ev);
    return { id: ev.id, earlier };
  });
}

/**
 * Records a cash-in before it is sent (for `paycli history`; cash-ins are never refused).
 * @returns the entry id
 * @throws JournalError when it cannot be written
 */
export function beginCashIn(info: BeginInfo): string {
  const ev = beginEvent(info, createHash('sha256').update(JSON.stringify(['cashin', info.target, info.value, info.payer ?? ''])).digest('hex'));
  appendEvent(ev);
  return ev.id;
}

/**
 * Records how a payment ended. `message` is sanitised and shortened; callers pass text that
 * has already been through `redact()` (the API key never reaches the journal).
 * @throws JournalError when it cannot be written
 */
export function endPayment(id: string, outcome: Outcome, extra: { transactionId?: number; status?: string; httpStatus?: number; message?: string } = {}): void {
  const ev: EndEvent = { event: 'end', id, time: new Date().toISOString(), outcome };
  if (extra.transactionId !== undefined) ev.transactionId = extra.transactionId;
  if (extra.status !== undefined) ev.status = clip(sanitizeText(extra.status, true), 20);
  if (extra.httpStatus !== undefined) ev.httpStatus = extra.httpStatus;
  if (extra.message !== undefined) ev.message = clip(sanitizeText(extra.message, true), 500);
  appendEvent(ev);
}

/**
 * The outcome of a failed send, from its typed error (src/errors.ts): a 4xx refusal or 401/403
 * is `refused`; an error that proves nothing was sent is `not_sent`; everything else
 * (timeouts and resets after sending, 5xx, a wrong or oversized answer, a redirect, Ctrl-C
 * after sending, an unexpected error) is `unknown`.
 */
export function outcomeOfError(err: unknown): Outcome {
  if (err instanceof PaycliError) {
    if (err.exitCode === ExitCode.REFUSED || (err.exitCode === ExitCode.AUTH && err.details.status !== undefined)) return 'refused';
    if ((err.exitCode === ExitCode.NETWORK || err.exitCode === ExitCode.INTERRUPTED) && err.details.maybeSent === false) return 'not_sent';
    if (err.exitCode === ExitCode.AUTH || err.exitCode === ExitCode.USAGE) return 'not_sent';
  }
  return 'unknown';
}
