/**
 * The formula guard of the CSV cells paycli writes and reads back (docs/output-for-scripts.md "CSV"):
 * used by the results files and `history` exports (src/cli/csv-dialect.ts) and by the batch's reading
 * of its own results fed back as input (src/batch/rows.ts).
 */

/** What a spreadsheet would run as a formula (OWASP "CSV injection"): text starting with `=`, `+`, `-`, `@`, a tab or a CR. */
export const FORMULA_STARTS: readonly string[] = ['=', '+', '-', '@', '\t', '\r'];

/** Besides its separator, what makes a CSV cell quoted: a double quote or a line break. */
export const QUOTED_BY: readonly string[] = ['"', '\r', '\n'];

/** A regular expression class of `chars` (each written as its code: none is special). */
const charClass = (chars: readonly string[]) => `[${chars.map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}]`;
const FORMULA_START = new RegExp(`^${charClass(FORMULA_STARTS)}`);
/** A text holding one of {@link QUOTED_BY}. */
export const QUOTED = new RegExp(charClass(QUOTED_BY));

/** Text as paycli writes it into a CSV cell: `'` before what a spreadsheet would run as a formula (`+5531…` → `'+5531…`). */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A CSV cell as paycli's own CSV wrote it, read back ({@link guardFormula} undone:
 * `'+5531998765432` → `+5531998765432`), so a results file or a `history` export can be fed back
 * into a batch (docs/batch-runs.md).
 */
export function unguardCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}
