/**
 * How the ledger indexes order references (schema version 12; docs/ledger-and-safety.md "How the ledger lies on disk",
 * docs/speed.md "Disk written per batch row"). A batch file's derived references (`paycli-<16 base32>-<row in 9 digits>`,
 * src/batch/order-refs.ts) follow one another, so a wave's rows land at the end of the index; but an index's leaf that
 * fills is split by SQLite together with its neighbours (three or four leaves and their parent written again), so the
 * smaller its entries, the rarer the splits. The index `payments_by_order` keeps each reference under a key: a
 * derived reference's is one integer (two characters of its file part and its row: 6 bytes instead of 33),
 * any other reference's is the reference itself. Every query compares the whole reference after the key, so a key two
 * references share costs a row read, never a wrong answer; the index is only the way to the rows.
 */

/**
 * SQL: the key of the order reference `x` (a column or a parameter): for a reference of a derived reference's shape, one
 * integer: the code points of the first two characters of its file part in bits 40 and 32 up, its row number (its last 9
 * digits, below 2^30) below (under 2^47: 6 bytes); for any other, `x` itself (NULL for none). Index and queries write exactly this expression, as
 * SQLite uses an index on an expression only for the same expression; it is kept short, as the text of a ledger's schema
 * fits the first 4 KiB page a paycli of 4 KiB pages wrote (test/inprocess/ledger-faults.test.ts).
 */
export function orderKey(x: string): string {
  return `(CASE WHEN ${x} GLOB 'paycli-*-?????????' THEN (unicode(substr(${x}, 8)) << 40) + (unicode(substr(${x}, 9)) << 32) + substr(${x}, -9) ELSE ${x} END)`;
}

/**
 * SQL: the entries whose order reference is `value` (a parameter or an outer query's column), through the index. The
 * whole reference is compared with a unary `+`: SQLite would otherwise put `value` in place of `column` in the key's
 * expression (its constant propagation), and the expression would no longer be the index's.
 * @param column the reference's column, e.g. `order_id` or `q.order_id`
 */
export function orderIs(column: string, value: string): string {
  return `${orderKey(column)} = ${orderKey(value)} AND +${column} = ${value}`;
}

/** The index of order references ({@link orderKey}). */
export const ORDER_INDEX = `CREATE INDEX IF NOT EXISTS payments_by_order ON payments (${orderKey('order_id')});`;

/** From schema version 11 to 12: the index of whole references replaced by {@link ORDER_INDEX} (built once, from the table). */
export const MIGRATE_TO_12 = `DROP INDEX IF EXISTS payments_by_order_id;
${ORDER_INDEX}`;
