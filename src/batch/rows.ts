/**
 * Batch rows → request bodies (docs/batch-runs.md). A row is one CSV record (header row = column
 * names) or one JSON Lines document (an `--input` document). Columns are the command's flag names
 * without the dashes (`pix-key-type`, `person-name`, `amount`, `split`/`splits`, `order-id`) or
 * the interface's JSON names (`pixKeyType`, `person.name`, `orderId`), in any letter case. Values
 * follow the rules of the flags: `value` in cents, `amount` in reais (`1.234,56`), key types by
 * name or number, `splits` as `clientId:cents` separated by `|`; a JSON Lines document follows the
 * rules of `--input` (src/payment/input.ts). Every row is then judged by the same schema as a single
 * payment (src/gateway/schemas.ts): this module only maps text to the body, it validates nothing itself.
 */
// crypto.hash: one call, no Hash object a row (the check hashes two texts a row)
import { hash } from 'node:crypto';
import { convertField, describeProblem, fieldOf, getPath, parseSplit, setPath, unknownFields, type FieldSpec } from '../gateway/fields.js';
import { checkInputIntegers } from '../payment/input.js';
import { parseStrictJson, StrictJsonError } from '../core/json-strict.js';
import { amountProblem, parseReais } from '../pix/money.js';
import { unguardCell } from '../core/csv-cell.js';
import { mappedUint32Array } from '../core/memory.js';
import { problemsOf, type FieldProblem } from '../gateway/schemas.js';
import { checkWith, type LazySchema } from '../gateway/payment-schemas.js';
import type * as z from 'zod/mini';
import { t as tr } from '../core/i18n/index.js';

export { derivedOrderId, legacyDerivedOrderId } from './order-refs.js';

/**
 * What one column of a CSV header stands for: an interface field, or an amount in reais (`amount`,
 * `valor`), read by the one rule of `--amount` (src/pix/money.ts `parseReais`: `89,9`, `12`,
 * `1.234,5` as Excel's General format writes them).
 */
export type ColumnTarget = { field: FieldSpec } | { amount: true };

/**
 * Portuguese column names, by interface path (`amount` for reais): accepted besides the flag
 * names and the interface's JSON names (docs/batch-runs.md "Columns"). Matched like every column
 * name by {@link columnKey}: any letter case, with or without accents.
 * `valor` is reais (like `amount`), `valor-centavos` is cents (like `value`).
 */
const PORTUGUESE_COLUMNS: Record<string, readonly string[]> = {
  value: ['valor-centavos', 'centavos'],
  amount: ['valor', 'valor-reais'],
  pixKeyType: ['tipo-chave', 'tipo-chave-pix', 'tipo-de-chave', 'tipo'],
  pixKey: ['chave', 'chave-pix'],
  cpfCnpj: ['cpf-cnpj-recebedor', 'documento'],
  'person.name': ['nome', 'nome-recebedor', 'favorecido'],
  'person.email': ['email', 'email-recebedor'],
  'person.phone': ['telefone', 'celular', 'telefone-recebedor'],
  orderId: ['id-pedido', 'pedido', 'referencia'],
  postbackUrl: ['url-postback', 'url-retorno'],
  payerName: ['nome', 'nome-pagador', 'pagador'],
  payerDocument: ['cpf-cnpj', 'documento', 'cpf-cnpj-pagador', 'documento-pagador'],
  payerEmail: ['email', 'email-pagador'],
  payerPhone: ['telefone', 'celular', 'telefone-pagador'],
  productName: ['produto', 'nome-produto'],
  productDescription: ['descricao', 'descricao-produto'],
  splits: ['divisoes', 'divisao'],
};

/** A column name as it is matched: trimmed, lower case, without accents (`Descrição` → `descricao`). */
export function columnKey(name: string): string {
  return name.trim().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** One bad row (or header): where, which column, what is wrong. */
export interface RowProblem {
  /** Line of the file (from 1) where the row starts. */
  line: number;
  /** Data row number (from 1; the CSV header is row 0). */
  row: number;
  /** Column name as written in the file (CSV), or JSON path (JSON Lines); empty for the whole row. */
  column: string;
  message: string;
}

const lower = (s: string) => s.trim().toLowerCase();

/**
 * Maps each header cell to what it stands for.
 * @returns the targets (by column index) and a problem per unknown or repeated column
 */
export function mapHeader(
  fields: readonly FieldSpec[],
  header: readonly string[],
): { targets: Array<ColumnTarget | undefined>; problems: Array<{ column: string; message: string }> } {
  const names = new Map<string, ColumnTarget>();
  for (const f of fields) {
    names.set(lower(f.flag.replace(/^--/, '')), { field: f });
    names.set(lower(f.path), { field: f });
    if (f.kind === 'splits') names.set('splits', { field: f });
  }
  names.set('amount', { amount: true });
  const known = [...new Set([...names.keys()])].filter((n) => !n.includes('.') || !names.has(n.replace('.', '-')));
  const portuguese: string[] = [];
  for (const [path, aliases] of Object.entries(PORTUGUESE_COLUMNS)) {
    const field = fields.find((f) => f.path === path);
    if (!field && path !== 'amount') continue;
    for (const alias of aliases) {
      if (names.has(alias)) continue;
      names.set(alias, field ? { field } : { amount: true });
      portuguese.push(alias);
    }
  }
  for (const [name, target] of [...names]) if (!names.has(columnKey(name))) names.set(columnKey(name), target);
  const problems: Array<{ column: string; message: string }> = [];
  const seen = new Map<string, string>();
  const targets = header.map((cell) => {
    const t = names.get(lower(cell)) ?? names.get(columnKey(cell));
    if (!t) {
      if (cell.trim() !== '') problems.push({ column: cell, message: tr('batchRow.unknownColumn', known.filter((n) => !/[A-Z.]/.test(n)).join(', '), portuguese.join(', ')) });
      return undefined;
    }
    const key = 'field' in t ? t.field.path : 'value';
    const earlier = seen.get(key);
    if (earlier !== undefined) problems.push({ column: cell, message: tr('batchRow.sameField', earlier) });
    seen.set(key, cell);
    return t;
  });
  return { targets, problems };
}

/** A row turned into a body, before the schema judges it. */
export interface GatheredRow {
  body: Record<string, unknown>;
  /** Problems found while reading the values (bad amount, bad integer), by column. */
  problems: Array<{ column: string; message: string }>;
  /** Interface path → column name, to name the column of a schema problem. */
  columns: Map<string, string>;
}

/**
 * Builds the body of one CSV record, cell by cell, as the flags would (src/gateway/fields.ts
 * `convertField`); an empty cell is a value not given.
 */
export function bodyFromCells(header: readonly string[], targets: ReadonlyArray<ColumnTarget | undefined>, cells: readonly string[]): GatheredRow {
  const body: Record<string, unknown> = {};
  const problems: GatheredRow['problems'] = [];
  const columns = new Map<string, string>();
  targets.forEach((t, i) => {
    const raw = cells[i] === undefined ? undefined : unguardCell(cells[i]);
    if (!t) return;
    const column = header[i]!;
    if ('field' in t) columns.set(t.field.path, column);
    else if ('amount' in t) columns.set('value', column);
    if (raw === undefined || raw.trim() === '') return;
    if ('amount' in t) {
      const p = amountProblem(raw);
      if (p) problems.push({ column, message: p });
      else body.value = parseReais(raw);
      return;
    }
    const f = t.field;
    if (f.kind === 'splits')
      setPath(
        body,
        f.path,
        raw.split('|').map((s) => parseSplit(s)),
      );
    else setPath(body, f.path, convertField(f, raw));
  });
  return { body, problems, columns };
}

/**
 * Builds the body of one JSON Lines document by the rules of `--input` (strict JSON, integers
 * as written, key-type names); `orderId` is taken out as the row's reference, other keys the
 * interface does not define are problems (a batch fails closed rather than drop a value).
 */
export function bodyFromJsonLine(fields: readonly FieldSpec[], text: string): GatheredRow {
  const columns = new Map<string, string>();
  let doc;
  try {
    doc = parseStrictJson(text);
  } catch (err) {
    if (!(err instanceof StrictJsonError)) throw err;
    return { body: {}, problems: [{ column: err.path, message: tr('batchRow.notJson', err.message) }], columns };
  }
  const json = doc.value;
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { body: {}, problems: [{ column: '', message: tr('batchRow.notObject') }], columns };
  const body = json as Record<string, unknown>;
  const problems: GatheredRow['problems'] = [];
  for (const k of unknownFields(fields, body)) problems.push({ column: k, message: tr('batchRow.notAField') });
  for (const p of checkInputIntegers(fields, { body, numbers: doc.numbers })) problems.push({ column: p.path, message: p.message });
  for (const f of fields) columns.set(f.path, f.path);
  return { body, problems, columns };
}

/** A row that passed the schema. */
export interface ValidRow<T> {
  body: T;
}

/**
 * Judges a gathered row with the request schema (src/gateway/payment-schemas.ts `checkWith`: its check without zod,
 * then `schema`, `lazy`'s schema loaded once for the run), synchronously.
 * @returns the normalised body, or the problems named by column
 */
export function judgeRow<S extends z.ZodMiniType>(
  fields: readonly FieldSpec[],
  lazy: LazySchema<S>,
  schema: S,
  gathered: GatheredRow,
): { ok: true; row: ValidRow<z.output<S>> } | { ok: false; problems: Array<{ column: string; message: string }> } {
  const parsed = checkWith(lazy, gathered.body, schema);
  const taken = new Set(gathered.problems.map((p) => p.column));
  const problems = [...gathered.problems];
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const p of problemsOf(parsed.error)) {
      if (seen.has(p.path)) continue;
      seen.add(p.path);
      const column = columnOf(fields, gathered.columns, p);
      if (taken.has(column)) continue;
      problems.push({ column, message: rowMessage(fields, p) });
    }
  }
  if (problems.length || !parsed.success) {
    // In the order of the file's columns (then anything without a column).
    const order = [...gathered.columns.values()];
    const rank = (c: string) => {
      const i = order.findIndex((o) => c === o || c.startsWith(`${o} (`));
      return i < 0 ? order.length : i;
    };
    return {
      ok: false,
      problems: problems
        .map((p, i) => ({ p, i }))
        .sort((a, b) => rank(a.p.column) - rank(b.p.column) || a.i - b.i)
        .map((x) => x.p),
    };
  }
  return { ok: true, row: { body: parsed.data } };
}

/** The column a schema problem belongs to: the row's own column name, else the flag name without dashes. */
function columnOf(fields: readonly FieldSpec[], columns: ReadonlyMap<string, string>, p: FieldProblem): string {
  const f = fieldOf(fields, p.path);
  if (!f) return p.path;
  const col = columns.get(f.path);
  if (col !== undefined) return p.path === f.path || f.kind !== 'splits' ? col : `${col} (${p.path})`;
  if (p.message === 'is required' && p.path !== f.path) return p.path;
  return f.kind === 'splits' ? 'splits' : f.flag.replace(/^--/, '');
}

/** The schema's words for a problem, without the flag name in front. */
function rowMessage(fields: readonly FieldSpec[], p: FieldProblem): string {
  if (p.message === 'is required') {
    const f = fieldOf(fields, p.path);
    if (f && f.path === p.path) return tr('batchRow.requiredExample', f.example);
    const children = fields.filter((c) => c.required && c.path.startsWith(`${p.path}.`));
    if (children.length) return tr('batchRow.requiredColumns', children.map((c) => c.flag.replace(/^--/, '')).join(', '));
    return tr('batchRow.required');
  }
  // describeProblem's wording without the flag prefix (splits get their "split #n" words).
  const text = describeProblem(fields, p);
  const f = fieldOf(fields, p.path);
  return f && text.startsWith(`${f.flag}: `) ? text.slice(f.flag.length + 2) : p.message;
}

/**
 * What makes two rows the same payment: the SHA-256 of the normalised body without its `orderId`
 * (a cash-out: amount, key type and key; a cash-in: amount, payer's document and product), as
 * 32 bytes. Rows are compared by it in an {@link IdentitySet}.
 */
export function rowIdentity(kind: 'cashin' | 'cashout', body: Record<string, unknown>): Buffer {
  const key =
    kind === 'cashout'
      ? [body.value, body.pixKeyType, body.pixKey]
      : [body.value, body.payerDocument, body.productName, body.productDescription, getPath(body, 'splits') === undefined ? '' : JSON.stringify(body.splits)];
  return hash('sha256', JSON.stringify(key), 'buffer');
}

/** The identity of a text (an order reference) for an {@link IdentitySet}: its SHA-256, 32 bytes. */
export function textIdentity(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/**
 * The rows seen so far, by identity (a SHA-256 from {@link rowIdentity} or {@link textIdentity}),
 * each with the first row that had it: the check of a file keeps one per row, so it keeps 96 bits
 * of each digest and the row number in typed arrays (16 bytes a row, outside V8's heap, in memory V8
 * maps itself: src/core/memory.ts `mappedUint32Array`) instead of a string and a map entry. Two different rows share 96 bits with a chance of about n²/2⁹⁷ (10⁻¹⁹
 * for 100,000 rows); it would be reported as a duplicate, and nothing sent.
 */
export class IdentitySet {
  /** 3 words of digest per slot; a slot is empty while its row is 0. */
  private keys = mappedUint32Array(3 * 1024);
  private rows = mappedUint32Array(1024);
  private size = 0;

  /**
   * Records `row` under `identity` unless a row already has it.
   * @param identity at least 12 bytes (a SHA-256)
   * @param row the data row number, from 1
   * @returns the earlier row with the same identity, or undefined (then `row` is recorded)
   */
  claim(identity: Uint8Array, row: number): number | undefined {
    const view = new DataView(identity.buffer, identity.byteOffset, 12);
    const a = view.getUint32(0),
      b = view.getUint32(4),
      c = view.getUint32(8);
    const mask = this.rows.length - 1;
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const at = this.rows[i]!;
      if (at === 0) break;
      if (this.keys[3 * i] === a && this.keys[3 * i + 1] === b && this.keys[3 * i + 2] === c) return at;
    }
    if (2 * (this.size + 1) > this.rows.length) this.grow();
    this.put(a, b, c, row);
    this.size++;
    return undefined;
  }

  private put(a: number, b: number, c: number, row: number): void {
    const mask = this.rows.length - 1;
    let i = a & mask;
    while (this.rows[i] !== 0) i = (i + 1) & mask;
    this.keys[3 * i] = a;
    this.keys[3 * i + 1] = b;
    this.keys[3 * i + 2] = c;
    this.rows[i] = row;
  }

  private grow(): void {
    const { keys, rows } = this;
    this.keys = mappedUint32Array(keys.length * 2);
    this.rows = mappedUint32Array(rows.length * 2);
    for (let i = 0; i < rows.length; i++) if (rows[i] !== 0) this.put(keys[3 * i]!, keys[3 * i + 1]!, keys[3 * i + 2]!, rows[i]!);
  }
}
