/**
 * `paycli history`'s documents for scripts and spreadsheets: `--format json` (the entries as
 * src/cli/output/history-doc.ts gives them) and `--format csv` in either dialect
 * (src/cli/csv-dialect.ts; docs/output-for-scripts.md "CSV"). Apart from src/cli/run/history.ts,
 * which loads it for those formats only: the table never loads the CSV dialects, the key types
 * or the documents (docs/speed.md "History's start-up").
 */
import type { LedgerEntry } from '../../ledger/schema.js';
import { statusWord } from '../../gateway/status-words.js';
import { sanitizeText } from '../../core/sanitize.js';
import { historyEntryDoc } from '../output/history-doc.js';
import { formatLocalTime, formatOffset, offsetMinutes } from '../../core/local-time.js';
import { amountBr, brValue, guardFormula, spreadsheetTime, type CsvDialect } from '../csv-dialect.js';
import { PIX_KEY_TYPES } from '../../pix/pix-key-types.js';

/** One entry as a `--format json` element: everything recorded but the internal fingerprint. */
export function entryJson(e: LedgerEntry): Record<string, unknown> {
  // one status vocabulary: a cash-out's digit as its word, its code beside it (src/cli/output/documents.ts)
  return historyEntryDoc(e) as Record<string, unknown>;
}

function keyType(e: LedgerEntry): string | undefined {
  return e.pixKeyType !== undefined ? (PIX_KEY_TYPES as readonly { name: string }[])[e.pixKeyType]?.name : undefined;
}

type CsvValue = string | number | boolean | undefined;

/** Where a CSV is written for: the dialect (src/cli/csv-dialect.ts) and the local zone of its local times. */
export interface CsvOptions {
  dialect: CsvDialect;
  timeZone: string;
}

/**
 * CSV columns: the `intl` name, the `br` name (`undefined`: not in that dialect) and the value of
 * an entry. `intl` is the format scripts have always read, with `time_local` added at the end;
 * `br` puts the local date and time first and writes amounts as `1.234,56`.
 */
const CSV_COLUMNS: [string | undefined, string | undefined, (e: LedgerEntry, o: CsvOptions) => CsvValue][] = [
  ['entry', 'lancamento', (e) => e.id],
  [undefined, 'data_hora_local', (e, o) => spreadsheetTime(formatLocalTime(e.time, { portuguese: true, timeZone: o.timeZone }))],
  [undefined, 'fuso_horario', (e, o) => `UTC${formatOffset(offsetMinutes(Date.parse(e.time), o.timeZone))}`],
  ['time_utc', 'data_hora_utc', (e) => e.time],
  ['kind', 'tipo', (e) => e.kind],
  ['sandbox', 'sandbox', (e) => e.sandbox],
  ['profile', 'perfil', (e) => e.profile],
  ['value_cents', 'valor_centavos', (e) => e.value],
  ['amount_brl', 'valor', (e, o) => (o.dialect === 'br' ? amountBr(e.value) : amountBrl(e.value))],
  ['outcome', 'resultado', (e) => e.outcome],
  ['outcome_recorded', 'resultado_registrado', (e) => e.completed],
  ['pix_key_type', 'tipo_chave_pix', (e) => keyType(e)],
  ['pix_key', 'chave_pix', (e) => e.pixKey],
  ['recipient', 'recebedor', (e) => e.recipient],
  ['payer', 'pagador', (e) => e.payer],
  ['product', 'produto', (e) => e.product],
  ['order_id', 'id_pedido', (e) => e.orderId],
  ['batch_id', 'id_lote', (e) => e.batchId],
  ['batch_row', 'linha_lote', (e) => e.batchRow],
  ['transaction_id', 'id_transacao', (e) => e.transactionId],
  ['status', 'status', (e) => (e.status === undefined ? undefined : statusWord(e.status))],
  ['http_status', 'status_http', (e) => e.httpStatus],
  ['message', 'mensagem', (e) => e.message],
  ['allow_duplicate', 'duplicata_permitida', (e) => e.allowDuplicate],
  ['resolved_by', 'resolvido_por', (e) => e.resolvedBy],
  ['resolved_time_utc', 'resolvido_em_utc', (e) => e.resolvedTime],
  ['note', 'nota', (e) => e.note],
  ['gateway', 'gateway', (e) => e.target],
  ['user', 'usuario', (e) => e.user],
  ['host', 'host', (e) => e.host],
  ['paycli_version', 'versao_paycli', (e) => e.version],
  ['time_local', undefined, (e, o) => formatLocalTime(e.time, { portuguese: false, timeZone: o.timeZone })],
];

/** Cents as a spreadsheet reads a Brazilian amount: `123456` → `1234,56` (no thousands separator). */
export function amountBrl(cents: number): string {
  const abs = String(Math.abs(cents)).padStart(3, '0');
  return `${cents < 0 ? '-' : ''}${abs.slice(0, -2)},${abs.slice(-2)}`;
}

/**
 * One CSV cell (RFC 4180): quoted when it holds the separator, a quote, a line break or an edge
 * space; a text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
 * tab) is prefixed with `'` (OWASP "CSV injection"). Numbers and booleans are written as they are.
 * @param sep the separator: `,` (intl) or `;` (br)
 */
export function csvCell(v: CsvValue, sep = ','): string {
  if (v === undefined) return '';
  if (typeof v !== 'string') return String(v);
  let s = sanitizeText(v, true);
  s = guardFormula(s);
  return s.includes(sep) || /["\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The CSV document, in pieces: a header row, then one payment a line (CRLF, RFC 4180), in the
 * dialect of `opts` (`intl` by default: `,`, English column names; `br` begins with a UTF-8 byte
 * order mark, which Excel needs to read the file as UTF-8).
 */
export async function* csvChunks(entries: Iterable<LedgerEntry> | AsyncIterable<LedgerEntry>, opts: CsvOptions = { dialect: 'intl', timeZone: 'UTC' }): AsyncGenerator<string> {
  const br = opts.dialect === 'br';
  const sep = br ? ';' : ',';
  const columns = CSV_COLUMNS.filter(([intl, brName]) => (br ? brName : intl) !== undefined);
  // br starts with a byte order mark: Excel reads a CSV as UTF-8 only with one
  yield `${br ? '\uFEFF' : ''}${columns.map(([intl, brName]) => (br ? brName : intl)).join(sep)}\r\n`;
  // br writes paycli's own words (kind, outcome, status, key type, yes/no) in Portuguese; free text (keys, names, messages) as it is
  const words = new Set(['kind', 'sandbox', 'outcome', 'outcome_recorded', 'pix_key_type', 'status', 'allow_duplicate']);
  const brColumn = columns.map(([intl]) => br && intl !== undefined && words.has(intl));
  for await (const e of entries) yield `${columns.map(([, , f], i) => csvCell(brColumn[i] ? (brValue(f(e, opts)) as CsvValue) : f(e, opts), sep)).join(sep)}\r\n`;
}

/**
 * The JSON array of {@link entryJson}, in pieces: with `pretty` the same text as
 * `JSON.stringify(array, null, 2)` (a terminal), else as `JSON.stringify(array)` on one line (a
 * pipe, as every other command's `--json`; src/core/terminal.ts `prettyJson`).
 */
export async function* jsonChunks(entries: Iterable<LedgerEntry> | AsyncIterable<LedgerEntry>, pretty = true): AsyncGenerator<string> {
  let held: string | undefined; // each element is written once the next one (or the end) is known
  for await (const e of entries) {
    if (pretty) yield held === undefined ? '[\n' : `${held},\n`;
    else yield held === undefined ? '[' : `${held},`;
    held = pretty ? `  ${JSON.stringify(entryJson(e), null, 2).replace(/\n/g, '\n  ')}` : JSON.stringify(entryJson(e));
  }
  if (pretty) yield held === undefined ? '[]\n' : `${held}\n]\n`;
  else yield held === undefined ? '[]\n' : `${held}]\n`;
}
