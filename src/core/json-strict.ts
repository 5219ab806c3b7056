/**
 * A small strict JSON reader (RFC 8259) for request bodies given with `--input`, where
 * `JSON.parse` is too forgiving for money:
 * - a key given twice in one object is an error (`JSON.parse` silently keeps the last one, so a
 *   reviewer reading the file could see another amount than the one sent);
 * - the source text of every number is kept, by path, so that a field the interface says is an
 *   integer can be checked as written: `1500` is an integer, `1.0`, `15e2` and
 *   `1000.000000000000001` (which `JSON.parse` turns into 1000) are not;
 * - errors say where: line, column and the JSON path (`person.phone`, `splits.0.value`).
 * - a string (key or value) that is not well-formed UTF-16 (a lone surrogate such as `"\ud800"`,
 *   which no UTF-8 text can carry and a gateway could not store as written) is an error.
 * A UTF-8 byte order mark at the start is skipped. Keys such as `__proto__` become ordinary own
 * properties. Nesting is limited to {@link MAX_DEPTH} levels.
 */

/** Deepest nesting of objects and arrays accepted. */
export const MAX_DEPTH = 64;

/** A JSON document read by {@link parseStrictJson}. */
export interface StrictJson {
  /** The value, as `JSON.parse` would give it (numbers as JS numbers). */
  value: unknown;
  /** The source text of every number, by path (`value` → `"1.0"`, `splits.0.value` → `"300"`). */
  numbers: ReadonlyMap<string, string>;
}

/** Why a text is not strict JSON, and where. */
export class StrictJsonError extends Error {
  /** 1-based line and column of the offending character. */
  readonly line: number;
  readonly column: number;
  /** JSON path of the value being read (`''` at the top level). */
  readonly path: string;
  constructor(reason: string, line: number, column: number, path: string) {
    super(`${reason} at line ${line}, column ${column}${path ? ` (in ${path})` : ''}`);
    this.name = 'StrictJsonError';
    this.line = line;
    this.column = column;
    this.path = path;
  }
}

/** A JSON integer as written: optional minus, no leading zero, no fraction, no exponent. */
export const JSON_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Reads `text` as strict JSON (module doc).
 * @throws StrictJsonError on a syntax error, a duplicate key, a lone surrogate or nesting deeper than {@link MAX_DEPTH}
 */
export function parseStrictJson(text: string): StrictJson {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const numbers = new Map<string, string>();

  const fail = (reason: string, path: string, at = i): never => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new StrictJsonError(reason, line, column, path);
  };
  const shown = (at: number) => (at >= text.length ? 'end of input' : `"${text[at] === '\n' ? '\\n' : text[at]}"`);
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

  function string(path: string): string {
    const start = i;
    i++; // opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string', path);
      const c = text[i]!;
      if (c === '"') {
        i++;
        if (LONE_SURROGATE.test(out)) fail('a lone surrogate (half of a UTF-16 pair, such as "\\ud800") in a string; the text is not well-formed Unicode', path, start);
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape', path);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && e in ESCAPES) {
          out += ESCAPES[e];
          i += 2;
        } else fail(`invalid escape "\\${e ?? ''}"`, path);
        continue;
      }
      if (c.charCodeAt(0) < 0x20) fail('a control character (such as a line break) inside a string', path);
      out += c;
      i++;
    }
  }

  function value(path: string, depth: number): unknown {
    ws();
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`, path);
    const c = text[i];
    if (c === '{') return object(path, depth);
    if (c === '[') return array(path, depth);
    if (c === '"') return string(path);
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i += m[0].length;
      if (/[0-9.eE+-]/.test(text[i] ?? '')) fail(`invalid number "${m[0]}${text[i]}"`, path);
      numbers.set(path, m[0]);
      return Number(m[0]);
    }
    return fail(`unexpected ${shown(i)}; expected a value`, path);
  }

  function object(path: string, depth: number): Record<string, unknown> {
    i++;
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    ws();
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') fail(`unexpected ${shown(i)}; expected a key in double quotes`, path);
      const at = i;
      const key = string(path);
      if (seen.has(key)) fail(`the key "${key}" is given twice`, join(path, key), at);
      seen.add(key);
      ws();
      if (text[i] !== ':') fail(`unexpected ${shown(i)}; expected ":" after "${key}"`, path);
      i++;
      Object.defineProperty(out, key, { value: value(join(path, key), depth + 1), enumerable: true, writable: true, configurable: true });
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return out;
      }
      fail(`unexpected ${shown(i)}; expected "," or "}"`, path);
    }
  }

  function array(path: string, depth: number): unknown[] {
    i++;
    const out: unknown[] = [];
    ws();
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (;;) {
      out.push(value(join(path, out.length), depth + 1));
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return out;
      }
      fail(`unexpected ${shown(i)}; expected "," or "]"`, path);
    }
  }

  const result = value('', 0);
  ws();
  if (i < text.length) fail(`unexpected ${shown(i)} after the JSON value`, '');
  return { value: result, numbers };
}
