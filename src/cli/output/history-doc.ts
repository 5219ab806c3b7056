/**
 * One ledger entry as `history --json` shows it, and the interface's code of a status: apart from the
 * document schemas (src/cli/output/document-schemas.ts; src/cli/output/documents.ts re-exports them) so that `history` loads no
 * schema library.
 */
import { sanitizeJson } from '../../core/sanitize.js';
import { CASH_OUT_STATUS_NAMES, statusWord } from '../../gateway/status-words.js';
import type { LedgerEntry } from '../../ledger/schema.js';
import type { HistoryEntryDoc } from './document-schemas.js';

/** The interface's code of a status word or digit (`created` → 0, `'1'` → 1); null for a word it has no code for. */
export function statusCode(status: string | number | null | undefined): number | null {
  if (status === null || status === undefined) return null;
  const s = String(status);
  if (s in CASH_OUT_STATUS_NAMES) return Number(s);
  const at = Object.values(CASH_OUT_STATUS_NAMES).indexOf(s as never);
  return at < 0 ? null : at;
}

/** One ledger entry's document: its status by name with the code beside it; the fingerprint is internal. */
export function historyEntryDoc(e: LedgerEntry): HistoryEntryDoc {
  const { fingerprint: _f, ...rest } = e;
  const doc = JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
  if (rest.status !== undefined) {
    doc.status = statusWord(rest.status);
    doc.statusCode = statusCode(rest.status);
  }
  return sanitizeJson(doc) as HistoryEntryDoc;
}
