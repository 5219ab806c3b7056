/**
 * The fields of each request, in one table: interface path ↔ flag name ↔ prompt text. It
 * drives flag-to-body mapping, error messages that name the flag (or, for a value read from
 * `--input`, the JSON path), the list of missing flags and the interactive prompts. Flags are the
 * interface fields in kebab-case (`payerName` → `--payer-name`, `person.email` →
 * `--person-email`). The helpers below (paths, conversion of typed text, problems, missing fields)
 * are shared by the flags, `--input` (src/payment/input.ts) and the prompts (src/cli/run/prompts.ts).
 */
import { UsageError } from '../core/errors.js';
import { parsePixKeyType } from '../pix/pix-key-types.js';
import type { FieldProblem } from './schemas.js';
import { t } from '../core/i18n/index.js';

/**
 * The message of a problem that is a missing value, as the schemas (./schemas.ts) write it; a
 * sentinel compared by code, shown as `schema.required` of the catalog (src/core/i18n).
 */
export const REQUIRED = 'is required';

/** How a field's text is turned into its JSON value. */
export type FieldKind = 'text' | 'cents' | 'pixKeyType' | 'splits';

/** One field of a request body. */
export interface FieldSpec {
  /** Interface path, e.g. `person.email`. */
  path: string;
  /** Flag, e.g. `--person-email`. */
  flag: string;
  /** commander's attribute name for the flag, e.g. `personEmail`. */
  attr: string;
  /** Prompt text. */
  label: string;
  required: boolean;
  kind: FieldKind;
  /** A valid example, shown in messages and help. */
  example: string;
  /** False for an optional field interactive mode does not offer (a flag or `--input` only). */
  prompt: boolean;
}

const kebab = (path: string) => path.replace(/\./g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (flag: string) => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function field(path: string, label: string, example: string, required = true, kind: FieldKind = 'text', flag = `--${kebab(path)}`, prompt = true): FieldSpec {
  return { path, flag, attr: camel(flag), label, required, kind, example, prompt };
}

/**
 * `orderId`, the caller's order reference: beyond the interface (docs/order-references.md "Beyond the interface"),
 * never prompted for (with the profile's `order-id` = `auto`, paycli makes one).
 */
const orderIdField = () => field('orderId', 'Order reference (optional)', 'pedido-1234', false, 'text', '--order-id', false);

/** Cash-in request fields (interface §2.1). */
export const CASHIN_FIELDS: readonly FieldSpec[] = [
  field('value', 'Amount in cents', '1000', true, 'cents'),
  field('payerName', "Payer's name", 'Fulano de Tal'),
  field('payerDocument', "Payer's CPF or CNPJ", '123.456.789-09'),
  field('payerEmail', "Payer's e-mail", 'fulano@example.com'),
  field('payerPhone', "Payer's phone with DDD", '(11) 98765-4321'),
  field('productName', 'Product name', 'Camiseta'),
  field('productDescription', 'Product description', 'Camiseta azul, tamanho M'),
  field('postbackUrl', 'Postback URL (optional)', 'https://example.com/pix/postback', false),
  field('splits', 'Splits (optional)', '123e4567-e12b-12d1-a456-426655440000:300', false, 'splits', '--split'),
  orderIdField(),
];

/** Cash-out request fields (interface §2.3). */
export const CASHOUT_FIELDS: readonly FieldSpec[] = [
  field('value', 'Amount in cents', '1000', true, 'cents'),
  field('pixKeyType', 'Pix key type', 'cpf', true, 'pixKeyType'),
  field('pixKey', 'Pix key', '123.456.789-09'),
  field('cpfCnpj', 'CPF or CNPJ of the key owner (optional)', '123.456.789-09', false),
  field('person.name', "Recipient's name", 'Fulano de Tal'),
  field('person.email', "Recipient's e-mail", 'fulano@example.com'),
  field('person.phone', "Recipient's phone with DDD", '(11) 98765-4321'),
  orderIdField(),
  // Beyond the interface: the gateway family's cash-out takes a postback URL too.
  field('postbackUrl', 'Postback URL (optional)', 'https://example.com/pix/postback', false, 'text', '--postback-url', false),
];

/** The field a problem path (`splits.0.clientId`, `person.email`) belongs to. */
export function fieldOf(fields: readonly FieldSpec[], path: string): FieldSpec | undefined {
  return fields.find((f) => path === f.path || path.startsWith(`${f.path}.`));
}

/** Sets `obj[a][b]` for path `a.b`, creating objects on the way. */
export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = obj;
  for (const p of parts.slice(0, -1)) {
    if (!o[p] || typeof o[p] !== 'object') o[p] = {};
    o = o[p] as Record<string, unknown>;
  }
  o[parts[parts.length - 1]!] = value;
}

/** Reads `obj` at path `a.b` (array indexes are path parts too: `splits.0.value`). */
export function getPath(obj: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((o, p) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[p] : undefined), obj);
}

/** Removes `obj[a][b]` for path `a.b`. */
export function deletePath(obj: Record<string, unknown>, path: string): void {
  const parts = path.split('.');
  const parent = parts.length > 1 ? getPath(obj, parts.slice(0, -1).join('.')) : obj;
  if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[parts[parts.length - 1]!];
}

/** Converts one field's typed text (flag or prompt answer) to its JSON value; the schema judges it. */
export function convertField(f: FieldSpec, raw: unknown): unknown {
  if (typeof raw !== 'string') {
    if (f.kind === 'splits' && Array.isArray(raw)) return raw.map((s) => (typeof s === 'string' ? parseSplit(s) : s));
    return raw;
  }
  switch (f.kind) {
    case 'cents':
      return /^\s*-?[0-9]+\s*$/.test(raw) ? Number(raw) : raw;
    case 'pixKeyType':
      return parsePixKeyType(raw) ?? raw;
    case 'splits':
      return [parseSplit(raw)];
    default:
      return raw;
  }
}

/** `clientId:cents` → `{clientId, value}`. */
export function parseSplit(text: string): { clientId: string; value: unknown } {
  const i = text.lastIndexOf(':');
  if (i < 0) return { clientId: text.trim(), value: undefined };
  const cents = text.slice(i + 1).trim();
  return { clientId: text.slice(0, i).trim(), value: /^[0-9]+$/.test(cents) ? Number(cents) : cents };
}

/** Keys of an `--input` body that are not fields of the request (they would not be sent). */
export function unknownFields(fields: readonly FieldSpec[], body: Record<string, unknown>): string[] {
  const known = new Set(fields.map((f) => f.path));
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    const children = fields.filter((f) => f.path.startsWith(`${k}.`));
    if (children.length && v && typeof v === 'object' && !Array.isArray(v)) {
      for (const c of Object.keys(v)) if (!known.has(`${k}.${c}`)) out.push(`${k}.${c}`);
    } else if (!known.has(k) && !children.length) out.push(k);
  }
  return out;
}

/**
 * Where the values of a request came from, so that a problem names what the user typed: the
 * flag (`--person-phone`), or the JSON path in the `--input` file (`person.phone`).
 */
export interface ValueSources {
  /** The `--input` argument (a file name, or `-` for stdin), when one was given. */
  input?: string;
  /** Field paths whose value came from `--input` (not overridden by a flag). */
  fromInput: ReadonlySet<string>;
}

/** True when the problem at `path` is about a value read from `--input`. */
function inInput(fields: readonly FieldSpec[], path: string, sources?: ValueSources): boolean {
  if (!sources?.input) return false;
  const f = fieldOf(fields, path);
  return f ? sources.fromInput.has(f.path) : true;
}

/** How an `--input` problem is introduced: `person.phone (in --input payout.json)`. */
function inputPlace(path: string, sources: ValueSources): string {
  return t('fields.inInput', path, sources.input === '-' ? 'stdin' : sources.input!);
}

/**
 * Words for one problem, naming the flag (`--payer-document: is not a valid CPF …`), or the JSON
 * path when the value came from `--input` (`person.phone (in --input payout.json): has DDD 23 …`).
 */
export function describeProblem(fields: readonly FieldSpec[], p: FieldProblem, sources?: ValueSources): string {
  const f = fieldOf(fields, p.path);
  const shown = p.message === REQUIRED ? t('schema.required') : p.message;
  if (!f) return `${p.path ? t('fields.inInputShort', p.path) : t('fields.request')}: ${shown}`;
  if (inInput(fields, p.path, sources)) return `${inputPlace(p.path, sources!)}: ${shown}`;
  let msg = shown;
  if (f.kind === 'cents' && /integer|inteiro/.test(msg)) msg += t('fields.forReais');
  if (f.kind === 'splits') {
    const m = /^splits\.(\d+)(?:\.(\w+))?/.exec(p.path);
    if (!m) return t('fields.splits', f.flag, msg);
    const n = t('fields.splitN', Number(m[1]) + 1);
    if (m[2] === 'value' && p.message === REQUIRED) return t('fields.splitNoAmount', f.flag, n, f.example);
    if (m[2] === 'clientId' && p.message === REQUIRED) return t('fields.splitNoClient', f.flag, n, f.example);
    const what = m[2] === 'value' ? t('fields.splitAmount') : m[2] === 'clientId' ? t('fields.splitClient') : undefined;
    return `${f.flag}: ${n}${what ? ` ${what}` : ''} ${msg}`;
  }
  return `${f.flag}: ${msg}${p.message === REQUIRED ? ` (${t('schema.eg', `${f.flag} ${JSON.stringify(f.example)}`)})` : ''}`;
}

/**
 * The required fields a "missing" problem stands for: the field itself, or every required field
 * under a missing object (`person` → `person.name`, `person.email`, `person.phone`); empty when
 * the problem is not a missing field (e.g. a split entry without an amount).
 */
export function missingFields(fields: readonly FieldSpec[], p: FieldProblem): FieldSpec[] {
  if (p.message !== REQUIRED) return [];
  const exact = fields.find((f) => f.path === p.path);
  if (exact) return [exact];
  return fields.filter((f) => f.required && f.path.startsWith(`${p.path}.`));
}

/**
 * Turns problems into one UsageError (exit 2) listing every missing field and every invalid
 * value (one problem per field path), each named as the user gave it: the flag, or the JSON path
 * in `--input`. Its `field` is the first flag or JSON path at fault.
 */
export function problemsError(fields: readonly FieldSpec[], problems: FieldProblem[], sources?: ValueSources): UsageError {
  const seen = new Set<string>();
  const unique = problems.filter((p) => (seen.has(p.path) ? false : (seen.add(p.path), true)));
  const missingSpecs = [...new Set(unique.flatMap((p) => missingFields(fields, p)))];
  const viaInput = Boolean(sources?.input);
  const missing = missingSpecs.map((f) => (viaInput ? `${f.path} (${f.flag})` : f.flag));
  const invalid = unique.filter((p) => missingFields(fields, p).length === 0);
  const lines: string[] = [];
  if (missing.length) lines.push(viaInput ? t('fields.missingFields', missing.length, missing.join(', ')) : t('fields.missingFlags', missing.length, missing.join(', ')));
  for (const p of invalid) lines.push(describeProblem(fields, p, sources));
  const nameOf = (p: FieldProblem): string => {
    const m = missingFields(fields, p)[0];
    if (m) return viaInput ? m.path : m.flag;
    if (inInput(fields, p.path, sources)) return p.path;
    return fieldOf(fields, p.path)?.flag ?? p.path;
  };
  const first = unique[0] ? nameOf(unique[0]) : undefined;
  const message = lines.length === 1 ? t('fields.oneProblem', lines[0]!) : t('fields.problems', lines.length, lines.join('\n  '));
  return new UsageError(message, { field: first, hint: missing.length && !invalid.length ? t('fields.missingHint') : undefined }, missing.length ? 'missing_fields' : 'validation');
}
