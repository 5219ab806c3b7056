/**
 * `paycli history`: what this machine sent, from the payment journal (src/journal.ts), newest
 * first: time, kind, amount, key or payer, transaction id, outcome. `--json` prints one JSON
 * array of entries; `--limit <n>` (default 20) keeps the newest n.
 */
import { UsageError } from '../errors.js';
import { journalPath, readJournal, type JournalEntry } from '../journal.js';
import { formatReais } from '../money.js';
import { logger, printResult } from '../output/logger.js';
import { sanitizeJson, sanitizeText } from '../output/sanitize.js';
import { readConfigFile, type GlobalFlags } from '../settings.js';
import { registerConfigSecrets } from '../secrets.js';
import { PIX_KEY_TYPES } from '../validate/pixkey.js';

/** Options of `history`: its flags plus the globals. */
export type HistoryOptions = GlobalFlags & { limit?: string };

/** Newest first, then at most `limit`. */
export function newestFirst(entries: readonly JournalEntry[], limit: number): JournalEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.time) - Date.parse(a.time) || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

/** One entry as the `--json` array element: the merged begin and end, no internal fields. */
export function entryJson(e: JournalEntry): Record<string, unknown> {
  const { fingerprint: _f, ...rest } = e;
  return sanitizeJson(JSON.parse(JSON.stringify(rest))) as Record<string, unknown>;
}

function outcomeText(e: JournalEntry): string {
  if (!e.completed) return 'unknown (no outcome recorded)';
  return e.outcome === 'not_sent' ? 'not sent' : e.outcome;
}

function who(e: JournalEntry): string {
  if (e.kind === 'cashout') {
    const type = e.pixKeyType !== undefined ? (PIX_KEY_TYPES as readonly { name: string }[])[e.pixKeyType]?.name : undefined;
    return `${e.pixKey ?? '?'}${type ? ` (${type})` : ''}`;
  }
  return e.payer ?? '?';
}

/** The human table: one line per entry, columns aligned. */
export function formatHistory(entries: readonly JournalEntry[]): string {
  const rows = entries.map((e) => [
    e.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    `${e.kind === 'cashout' ? 'cash-out' : 'cash-in'}${e.sandbox ? ' (sandbox)' : ''}`,
    formatReais(e.value),
    sanitizeText(who(e), true),
    e.transactionId !== undefined ? String(e.transactionId) : '-',
    outcomeText(e),
  ]);
  const head = ['TIME (UTC)', 'KIND', 'AMOUNT', 'KEY / PAYER', 'TRANSACTION', 'OUTCOME'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [head, ...rows].map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** Runs `history`. @throws UsageError on a bad `--limit`; JournalError on an unreadable journal */
export async function run(opts: HistoryOptions): Promise<void> {
  const limitText = String(opts.limit ?? '20').trim();
  if (!/^[0-9]+$/.test(limitText) || Number(limitText) < 1) throw new UsageError(`--limit: must be a positive whole number, got "${opts.limit}"`, { field: '--limit' });
  registerSecretsOfConfig();
  const { entries, skipped } = readJournal();
  if (skipped) logger.warn(`${skipped} line(s) of ${journalPath()} are not journal events and were skipped`);
  const shown = newestFirst(entries, Number(limitText));
  if (opts.json) return printResult({ json: shown.map(entryJson) });
  if (!shown.length) return logger.notice(`nothing sent from this machine yet (journal: ${journalPath()})`);
  printResult(formatHistory(shown));
}

/**
 * Defence in depth: what the ledger holds was redacted when written, but an entry written by an
 * older paycli may not be; the configured secrets are registered so that output hides them.
 */
function registerSecretsOfConfig(): void {
  try {
    registerConfigSecrets(readConfigFile());
  } catch {
    /* an unreadable config has no secrets to hide; history does not depend on it */
  }
}
