/**
 * The import of paycli's journal from before the ledger (`<data dir>/journal.jsonl`,
 * docs/ledger-and-safety.md "An old journal"): read once, into a ledger being created, before it is
 * put in place, so the import happens exactly once; the journal file is left as it was.
 */
import { closeSync, constants, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { cashInFingerprint, cashOutFingerprint, endpointIdentity } from './rules.js';
import { clean, clip, fingerprintValue, INSERT, type InsertRow, type Row } from './schema.js';
import type { Connection } from '../core/sqlite/driver.js';
import { LedgerUnavailableError } from './errors.js';
import { UUID_IS, uuidColumn } from './derived.js';
import { JOURNAL_NAME } from './files.js';
import { t } from '../core/i18n/index.js';

const myUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** What an import of `journal.jsonl` took in. */
export interface ImportResult {
  entries: number;
  skipped: number;
}

/**
 * Parses one journal line. A line torn by a short write (disk full) and glued to the next
 * event is not lost whole: the events that start inside it are recovered.
 * @returns the events found, and whether part of the line was unreadable
 */
function parseJournalLine(line: string): { events: Row[]; torn: boolean } {
  try {
    const ev = JSON.parse(line) as unknown;
    return ev && typeof ev === 'object' ? { events: [ev as Row], torn: false } : { events: [], torn: true };
  } catch {
    for (let i = line.indexOf('{"event":', 1); i > 0; i = line.indexOf('{"event":', i + 1)) {
      const rest = parseJournalLine(line.slice(i));
      if (rest.events.length) return { events: rest.events, torn: true };
    }
    return { events: [], torn: true };
  }
}

const isoTime = (t: unknown): string | undefined => {
  if (typeof t !== 'string') return undefined;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
};
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Imports the journal of paycli before the ledger, streaming it (it may be hundreds of MB):
 * `begin` events become entries (fingerprints recomputed with today's endpoint identity), `end`
 * events their outcome (the latest wins); a begin without an end stays without an outcome, so it
 * blocks an identical cash-out until resolved.
 * @returns undefined when there is no journal
 * @throws LedgerUnavailableError when it exists but cannot be read (its payments would not block)
 */
export function importJournal(db: Connection, path: string, note: string): ImportResult | undefined {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const uid = myUid();
  if (!st.isFile() || (uid !== undefined && st.uid !== uid)) {
    throw new LedgerUnavailableError(t('ledgerFile.journalNotOurs', path, note), { hint: t('ledgerFile.journalNotOursHint') });
  }
  const insert = db.prepare(INSERT);
  const endStmt = db.prepare(
    `UPDATE payments SET outcome = @outcome, end_time = @end_time, transaction_id = @transaction_id, status = @status, http_status = @http_status, message = @message WHERE ${UUID_IS}`,
  );
  const pendingEnds: Row[] = [];
  let entries = 0;
  let skipped = 0;
  const applyEnd = (ev: Row): boolean =>
    endStmt.run({
      uuid: ev.id,
      uuid_bytes: uuidColumn(ev.id as string, true),
      outcome: ['ok', 'refused', 'unknown', 'not_sent'].includes(ev.outcome as string) ? ev.outcome : 'unknown',
      end_time: isoTime(ev.time) ?? null,
      transaction_id: typeof ev.transactionId === 'number' || typeof ev.transactionId === 'string' ? ev.transactionId : null,
      status: clean(text(ev.status) ?? undefined, 20),
      http_status: Number.isSafeInteger(ev.httpStatus) ? ev.httpStatus : null,
      message: clean(text(ev.message) ?? undefined, 500),
    }).changes > 0;
  const take = (ev: Row): boolean => {
    if (ev.event === 'end' && typeof ev.id === 'string') {
      if (!applyEnd(ev)) pendingEnds.push(ev);
      return true;
    }
    const time = isoTime(ev.time);
    if (ev.event !== 'begin' || typeof ev.id !== 'string' || !time || (ev.kind !== 'cashout' && ev.kind !== 'cashin') || !Number.isSafeInteger(ev.value)) return false;
    const target = typeof ev.target === 'string' ? ev.target : 'invalid-url';
    const cashout = ev.kind === 'cashout';
    if (cashout && (!Number.isSafeInteger(ev.pixKeyType) || typeof ev.pixKey !== 'string')) return false;
    const value = ev.value as number;
    insert.run({
      uuid: ev.id,
      time,
      kind: ev.kind,
      fingerprint: fingerprintValue(
        cashout
          ? cashOutFingerprint(target, { value, pixKeyType: ev.pixKeyType as number, pixKey: ev.pixKey as string })
          : cashInFingerprint(target, { value, payer: text(ev.payer) ?? undefined }),
      ),
      value,
      target: clip(target, 300)!,
      endpoint: endpointIdentity(target),
      sandbox: ev.sandbox === true ? 1 : 0,
      profile: clip(text(ev.profile) ?? 'default', 100)!,
      pix_key_type: cashout ? (ev.pixKeyType as number) : null,
      pix_key: clip(text(ev.pixKey), 200),
      recipient: clip(text(ev.recipient), 200),
      payer: clip(text(ev.payer), 200),
      product: clip(text(ev.product), 200),
      order_id: clip(text(ev.orderId), 200),
      batch_id: null,
      batch_row: null,
      allow_duplicate: 0,
      overrides: null,
      pid: Number.isSafeInteger(ev.pid) ? (ev.pid as number) : null,
      source: JOURNAL_NAME,
      time_ms: Date.parse(time),
      deadline_ms: null,
      run_id: null,
    } satisfies InsertRow);
    entries++;
    return true;
  };

  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const buf = Buffer.alloc(1 << 20);
    let carry = Buffer.alloc(0);
    const line = (bytes: Buffer) => {
      const s = bytes.toString('utf8').trim();
      if (!s) return;
      const { events, torn } = parseJournalLine(s);
      if (torn) skipped++;
      for (const ev of events) {
        try {
          if (!take(ev)) skipped++;
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
            skipped++; // the same begin twice
          else throw err;
        }
      }
    };
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      let chunk = Buffer.concat([carry, buf.subarray(0, n)]);
      let nl: number;
      while ((nl = chunk.indexOf(10)) >= 0) {
        line(chunk.subarray(0, nl));
        chunk = chunk.subarray(nl + 1);
      }
      carry = Buffer.from(chunk);
    }
    line(carry); // a last line without its newline
  } finally {
    closeSync(fd);
  }
  for (const ev of pendingEnds) if (!applyEnd(ev)) skipped++; // an end without its begin
  return { entries, skipped };
}
