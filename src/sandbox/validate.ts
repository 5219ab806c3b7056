/**
 * How the sandbox checks a request body: like the gateway, not like paycli's client
 * (docs/sandbox-and-postbacks.md "Validation"). The sandbox serves other programs too, so its messages
 * speak of JSON fields only, never of paycli's flags.
 *
 * - Default: what the gateway documents. Every required field is present, not `null`, and of its
 *   JSON type (string, integer, object, array); `value` is 1 to 10 000 000 000 cents (paycli's
 *   own bound, src/pix/money.ts `MAX_CENTS`); `pixKeyType` is one of
 *   the interface's 0-4; `pixKey` is not empty. Optional fields may be absent, `null` or (strings)
 *   empty. Required strings may be empty (public clients send `person.phone: ""`). Unknown fields
 *   are ignored.
 * - `strict`: also the format rules paycli's own client applies (src/validate/*): CPF/CNPJ check
 *   digits, DICT key forms against `pixKeyType`, phone (Anatel area codes) and e-mail shapes,
 *   names without control characters, lengths, splits (UUID client ids, sum at most `value`), an
 *   absolute http(s) `postbackUrl`, no empty required string; and `orderId` on a cash-out, which
 *   the gateway family's documentation marks required.
 *
 * Letter case of field names: the gateway answers like an ASP.NET service, whose JSON binding ignores
 * it by default, so by default `Value`, `PayerName` or `PERSON.Name` are read as `value`, `payerName`,
 * `person.name` ({@link canonicalBody}: a name spelled exactly wins over one that differs only in case;
 * of two that differ only in case, the first). `strict` refuses such a name and names it.
 *
 * A failure is one sentence, the first problem: `value` first (as documented), then the others in
 * the interface's field order:
 * `Validation Failed - <field> is required`, `Validation Failed - <field> must be <type>`, or
 * `Validation Failed - <field> <what is wrong>`; `<field>` is the JSON path (`person.phone`,
 * `splits.0.value`).
 */
import { MAX_CENTS } from '../pix/money.js';
import { MAX_DESCRIPTION, MAX_NAME, MAX_URL } from '../gateway/accepted.js';
import { documentProblem, emailProblem, phoneProblem, textProblem } from '../pix/validators.js';
import { checkPixKey, PIX_KEY_TYPES, type PixKeyTypeValue } from '../pix/pixkey.js';
import { isHttpUrl } from '../gateway/net.js';

/** The JSON type a field must have. */
type JsonType = 'string' | 'integer' | 'object' | 'array';

/** One field of a request body. `format` runs only in strict mode, on a present, well-typed value. */
interface Rule {
  path: string;
  type: JsonType;
  required: boolean;
  format?: (value: never, body: Record<string, unknown>) => string | null;
}

/** Prefix of every validation message (the gateway family's documented wording). */
export const VALIDATION_PREFIX = 'Validation Failed - ';

const article: Record<JsonType, string> = { string: 'a string', integer: 'an integer', object: 'an object', array: 'an array' };

function typeOk(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
  }
}

const name = (max: number) => (v: string) => textProblem(v) ?? (v.trim().length > max ? `has ${v.trim().length} characters, more than the ${max} allowed` : null);
const document = (v: string) => (v.trim() === '' ? null : documentProblem(v));
const email = (v: string) => (v.trim() === '' ? null : emailProblem(v));
const phone = (v: string) => (v.trim() === '' ? null : phoneProblem(v));

function url(v: string): string | null {
  const t = v.trim();
  if (t === '') return null;
  if (t.length > MAX_URL) return `is longer than ${MAX_URL} characters`;
  return isHttpUrl(t) ? null : 'is not an absolute http(s) URL';
}

/** The PIX key against its type, in the interface's terms (the client's message names a flag). */
function pixKey(v: string, body: Record<string, unknown>): string | null {
  const type = body.pixKeyType as PixKeyTypeValue;
  const check = checkPixKey(type, v);
  if (check.ok) return null;
  return check.message.replace(/:? use --pix-key-type ([a-z_-]+)/i, (_, n: string) => {
    const t = PIX_KEY_TYPES.find((k) => k.name === n);
    return t ? ` (pixKeyType ${t.value})` : ' (another pixKeyType)';
  });
}

/** Splits in strict mode: client ids are UUIDs and unique, values at least 1, sum at most `value`. */
function splits(list: unknown[], body: Record<string, unknown>): string | null {
  const seen = new Set<string>();
  let sum = 0;
  for (const [i, s] of list.entries()) {
    const id = (s as { clientId: string }).clientId;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return `.${i}.clientId is not a UUID`;
    if (seen.has(id.toLowerCase())) return `.${i}.clientId repeats an earlier split's clientId`;
    seen.add(id.toLowerCase());
    const value = (s as { value: number }).value;
    if (value < 1) return `.${i}.value must be greater than 0`;
    sum += value;
  }
  return typeof body.value === 'number' && sum > body.value ? `add up to ${sum}, more than value (${body.value})` : null;
}

/**
 * Cash-in request fields (interface §2.1, plus `orderId`), `value` first: the documented message
 * for a body without fields is `Validation Failed - value is required` (docs/sandbox-and-postbacks.md).
 */
const CASHIN_RULES: readonly Rule[] = [
  { path: 'value', type: 'integer', required: true },
  { path: 'payerName', type: 'string', required: true, format: name(MAX_NAME) },
  { path: 'payerDocument', type: 'string', required: true, format: document },
  { path: 'payerEmail', type: 'string', required: true, format: email },
  { path: 'payerPhone', type: 'string', required: true, format: phone },
  { path: 'productName', type: 'string', required: true, format: name(MAX_NAME) },
  { path: 'productDescription', type: 'string', required: true, format: name(MAX_DESCRIPTION) },
  { path: 'postbackUrl', type: 'string', required: false, format: url },
  { path: 'splits', type: 'array', required: false, format: splits },
  { path: 'orderId', type: 'string', required: false },
];

/** Cash-out request fields (interface §2.3, plus `orderId` and `postbackUrl`). */
const CASHOUT_RULES: readonly Rule[] = [
  { path: 'value', type: 'integer', required: true },
  { path: 'pixKeyType', type: 'integer', required: true },
  { path: 'pixKey', type: 'string', required: true, format: pixKey },
  { path: 'cpfCnpj', type: 'string', required: false, format: document },
  { path: 'person', type: 'object', required: true },
  { path: 'person.name', type: 'string', required: true, format: name(MAX_NAME) },
  { path: 'person.email', type: 'string', required: true, format: email },
  { path: 'person.phone', type: 'string', required: true, format: phone },
  { path: 'orderId', type: 'string', required: false },
  { path: 'postbackUrl', type: 'string', required: false, format: url },
];

/** The nested objects whose field names are folded, by the path of the object (`splits.*`: each entry). */
const NESTED: Record<'cashin' | 'cashout', Record<string, readonly string[]>> = {
  cashin: { splits: ['clientId', 'value'] },
  cashout: { person: ['name', 'email', 'phone'] },
};

/** The top-level field names of a request, from its rules. */
function topNames(kind: 'cashin' | 'cashout'): string[] {
  return (kind === 'cashin' ? CASHIN_RULES : CASHOUT_RULES).map((r) => r.path).filter((p) => !p.includes('.'));
}

/**
 * `obj` with the keys in `names` spelled as there, whatever their letter case (module doc).
 * @returns the new object, or `{wrong, right}`: the first key whose case differs (for strict mode)
 */
function foldKeys(obj: Record<string, unknown>, names: readonly string[], strict: boolean, at: string): { obj: Record<string, unknown> } | { wrong: string; right: string } {
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const name = byLower.get(k.toLowerCase());
    if (name === undefined || name === k) {
      out[k] = v;
      continue;
    }
    if (strict) return { wrong: `${at}${k}`, right: `${at}${name}` };
    if (!Object.hasOwn(obj, name) && !Object.hasOwn(out, name)) out[name] = v;
  }
  return { obj: out };
}

/**
 * The request body with its field names spelled as the interface spells them (module doc: letter
 * case). In `strict` mode a name that differs from the interface's only in letter case is refused.
 * Not an object, or nested values of the wrong type, are left as they are for {@link validationProblem}.
 * @returns `{body}`, or `{problem}`: `Validation Failed - PayerName: field names are case-sensitive (payerName)`
 */
export function canonicalBody(kind: 'cashin' | 'cashout', body: unknown, strict: boolean): { body: unknown } | { problem: string } {
  if (!typeOk(body, 'object')) return { body };
  const wrong = (w: { wrong: string; right: string }) => ({ problem: `${VALIDATION_PREFIX}${w.wrong}: field names are case-sensitive (${w.right})` });
  const top = foldKeys(body as Record<string, unknown>, topNames(kind), strict, '');
  if ('wrong' in top) return wrong(top);
  for (const [field, names] of Object.entries(NESTED[kind])) {
    const v = top.obj[field];
    if (field === 'splits' && Array.isArray(v)) {
      const list: unknown[] = [];
      for (const [i, s] of v.entries()) {
        const f = typeOk(s, 'object') ? foldKeys(s as Record<string, unknown>, names, strict, `${field}.${i}.`) : { obj: s as Record<string, unknown> };
        if ('wrong' in f) return wrong(f);
        list.push(f.obj);
      }
      top.obj[field] = list;
    } else if (typeOk(v, 'object')) {
      const f = foldKeys(v as Record<string, unknown>, names, strict, `${field}.`);
      if ('wrong' in f) return wrong(f);
      top.obj[field] = f.obj;
    }
  }
  return { body: top.obj };
}

function get(body: Record<string, unknown>, path: string): unknown {
  let v: unknown = body;
  for (const k of path.split('.')) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** Checks shared by both modes beyond presence and type; `null` when fine. */
function baseProblem(path: string, value: unknown): string | null {
  if (path === 'value' && (value as number) < 1) return 'value must be greater than 0';
  if (path === 'value' && (value as number) > MAX_CENTS) return `value must be at most ${MAX_CENTS}`;
  if (path === 'pixKeyType' && !PIX_KEY_TYPES.some((k) => k.value === value)) return `pixKeyType must be one of ${PIX_KEY_TYPES.map((k) => k.value).join(', ')}`;
  if (path === 'pixKey' && (value as string).trim() === '') return 'pixKey is required';
  if (path === 'splits') {
    for (const [i, s] of (value as unknown[]).entries()) {
      if (!typeOk(s, 'object')) return `splits.${i} must be an object`;
      for (const [k, t] of [
        ['clientId', 'string'],
        ['value', 'integer'],
      ] as const) {
        const v = (s as Record<string, unknown>)[k];
        if (v === undefined || v === null) return `splits.${i}.${k} is required`;
        if (!typeOk(v, t)) return `splits.${i}.${k} must be ${article[t]}`;
      }
    }
  }
  return null;
}

/**
 * Checks a request body as the gateway would (module doc).
 * @param kind which request: `cashin` (interface §2.1) or `cashout` (§2.3)
 * @param body the parsed JSON body
 * @param strict also apply the format rules
 * @returns the message of the 400 answer, or `null` when the body is accepted
 */
export function validationProblem(kind: 'cashin' | 'cashout', body: unknown, strict: boolean): string | null {
  if (!typeOk(body, 'object')) return `${VALIDATION_PREFIX}the body must be a JSON object`;
  const obj = body as Record<string, unknown>;
  for (const rule of kind === 'cashin' ? CASHIN_RULES : CASHOUT_RULES) {
    const value = get(obj, rule.path);
    const absent = value === undefined || value === null;
    if (absent) {
      if (rule.required || (strict && kind === 'cashout' && rule.path === 'orderId')) return `${VALIDATION_PREFIX}${rule.path} is required`;
      continue;
    }
    if (!typeOk(value, rule.type)) return `${VALIDATION_PREFIX}${rule.path} must be ${article[rule.type]}`;
    const base = baseProblem(rule.path, value);
    if (base) return `${VALIDATION_PREFIX}${base}`;
    if (!strict) continue;
    if (rule.type === 'string' && (value as string).trim() === '' && (rule.required || rule.path === 'orderId')) return `${VALIDATION_PREFIX}${rule.path} is required`;
    const problem = rule.format?.(value as never, obj);
    if (problem) return `${VALIDATION_PREFIX}${rule.path}${problem.startsWith('.') ? '' : ' '}${problem}`;
  }
  return null;
}
