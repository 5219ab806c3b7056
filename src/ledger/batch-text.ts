/**
 * A finished batch's lines rendered by SQLite (docs/speed.md, "re-run of a finished file"): a
 * re-run of a file every row of which was paid reads, in ONE statement, whether it is finished
 * (each row's latest entry at the endpoint `ok` and not needing attention, rows 1 to N all there) and
 * the text of its results lines, instead of a JavaScript value per cell. The caller says what a
 * line is made of ({@link BatchTextSpec}); a text cell that its writer would change (quote, guard)
 * makes the whole answer undefined, and the caller then writes the lines itself. The run that finishes
 * a file keeps its lines (table `batch_texts`, src/ledger/kept-texts.ts) for later re-runs; any change to
 * a row of that batch drops them, in the same transaction (the table's triggers).
 */
import { ATTENTION_SQL } from './entries.js';

/**
 * One cell of a line: a value of the row's latest entry (`row` its number in the file, `value` in
 * cents), the row number plus `rowPlus` (a line number), or a fixed text, written as given.
 */
export type BatchTextCell = { entry: 'row' | 'orderId' | 'value' | 'transactionId' | 'status' } | { rowPlus: number } | { text: string };

/** What a finished batch's lines are made of. */
export interface BatchTextSpec {
  cells: readonly BatchTextCell[];
  /** Between two cells. */
  sep: string;
  /**
   * The texts the caller's writer would change (quote, guard: src/core/csv-cell.ts): those holding
   * one of `contains` or starting with one of `starts` (single characters). A row with such a text
   * makes the whole batch the caller's to write.
   */
  yours: { contains: readonly string[]; starts: readonly string[] };
}

/** A finished batch as {@link batchTextSql} renders it: its rows, their total in cents, and their lines (each ending in `\n`). */
export interface FinishedBatchText {
  rows: number;
  cents: number;
  text: string;
}

/** The largest integer a JavaScript number holds exactly: a transaction id beyond it is left to the caller. */
const SAFE = '9007199254740991';

/** The SQL of each entry cell: its value, and 1 when a number in it would not be written as JavaScript writes it. */
const ENTRY: Record<Extract<BatchTextCell, { entry: string }>['entry'], [value: string, bad: string]> = {
  row: ['batch_row', '0'],
  value: ['value', '0'],
  orderId: ['order_id', '0'],
  status: ['status', '0'],
  // an id the gateway gave as a number is kept as a REAL or an INTEGER: written as the integer, as JavaScript writes it
  transactionId: [
    `CASE typeof(transaction_id) WHEN 'real' THEN CAST(transaction_id AS INTEGER) ELSE transaction_id END`,
    `CASE typeof(transaction_id) WHEN 'null' THEN 0 WHEN 'text' THEN 0 WHEN 'integer' THEN abs(transaction_id) > ${SAFE}
      WHEN 'real' THEN transaction_id <> CAST(transaction_id AS INTEGER) OR abs(transaction_id) > ${SAFE} ELSE 1 END`,
  ],
};

/** A regular expression class of single characters (each written as its code: none is special). */
const charClass = (chars: readonly string[]) => `[${chars.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`;

/** How often `c` (one character) occurs in `text`. */
function occurrences(text: string, c: string): number {
  let n = 0;
  for (let at = text.indexOf(c); at >= 0; at = text.indexOf(c, at + 1)) n++;
  return n;
}

/** The statement of {@link batchTextSql}, and the fixed parts of a line (separators, fixed cells, its line break) that {@link finishedText} checks its text against. */
export interface BatchTextStatement {
  sql: string;
  params: Record<string, string | number>;
  fixed: string;
}

/**
 * The statement of a finished batch's lines, with its parameters but `batch`, `endpoint` and
 * `rows` (the file's row count). Its one result row: `finished` (1 when every row 1 to `rows` has
 * a latest entry `ok`, no attention, and no number JavaScript would write otherwise), `cents`,
 * `text` (the lines joined by `\n`, by row). Each line is one `format()`: SQLite's `||` costs an
 * allocation and a copy a cell.
 */
export function batchTextSql(spec: BatchTextSpec): BatchTextStatement {
  const params: Record<string, string | number> = {};
  const args: string[] = [];
  const bad: string[] = [];
  let fixed = '\n'; // the fixed parts of a line: separators, fixed cells, its line break
  let format = '';
  spec.cells.forEach((c, i) => {
    const sep = i ? spec.sep : '';
    fixed += sep;
    format += sep.replaceAll('%', '%%');
    if ('text' in c) {
      fixed += c.text;
      format += c.text.replaceAll('%', '%%');
      return;
    }
    format += '%s';
    if ('rowPlus' in c) {
      params[`r${i}`] = c.rowPlus;
      args.push(`batch_row + CAST(@r${i} AS INTEGER)`); // a bound number may be a REAL
    } else {
      const [value, isBad] = ENTRY[c.entry];
      args.push(value);
      bad.push(isBad);
    }
  });
  params.format = format;
  const sql = `SELECT count(*) = @rows AND min(batch_row) = 1 AND max(batch_row) = @rows AND sum(bad) = 0 AS finished, sum(value) AS cents,
      group_concat(line, char(10) ORDER BY batch_row) AS text
    FROM (SELECT batch_row, value, (outcome IS NOT 'ok') + ${ATTENTION_SQL} + ${bad.join(' + ') || '0'} AS bad, format(@format${args.map((a) => `, ${a}`).join('')}) AS line, max(id)
      FROM payments WHERE batch_id = @batch AND endpoint = @endpoint GROUP BY batch_row)`;
  return { sql, params, fixed };
}

/**
 * A finished batch's lines from the one row of {@link batchTextSql}'s statement, or undefined when
 * it is not finished or a cell is the caller's to write: each character of {@link BatchTextSpec.yours}
 * `contains` must occur exactly as often as the lines' fixed parts hold it, and no cell start with
 * one of `starts` (a cell starts the text or follows a separator or a line break). A few passes of
 * V8's string search over the whole text cost less than SQL function calls for each cell.
 */
export function finishedText(
  spec: BatchTextSpec,
  statement: BatchTextStatement,
  rows: number,
  r: { finished: number | null; cents: number; text: string | null } | undefined,
): FinishedBatchText | undefined {
  if (!r?.finished || r.text === null) return undefined;
  const text = `${r.text}\n`;
  for (const c of spec.yours.contains) {
    const expected = rows * occurrences(statement.fixed, c);
    if ((expected ? occurrences(text, c) : text.includes(c) ? 1 : 0) !== expected) return undefined;
  }
  if (spec.yours.starts.length && new RegExp(`(?:^|${charClass([spec.sep, '\n'])})${charClass(spec.yours.starts)}`).test(text)) return undefined;
  return { rows, cents: r.cents, text };
}
