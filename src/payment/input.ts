/**
 * Gathers a request body from `--input <file|->` (a JSON object with the interface's field names)
 * and the flags over it, before the schema judges it (docs/output-for-scripts.md "Scripts and CI").
 * `--input` is read strictly (src/core/json-strict.ts): a key given twice is refused, and the
 * interface's integer fields (`value`, `splits[].value`, `pixKeyType`) must be JSON integers as
 * written, not strings (`"1500"`) nor numbers with a fraction or an exponent (`1.0`, `15e2`,
 * `1000.000000000000001`). `pixKeyType` may also be a name of the key-type table (`"EVP"`,
 * `"TELEFONE"`, `"email"`; src/pix/pix-key-types.ts). Problems name the JSON path (`person.phone`).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { convertField, deletePath, getPath, setPath, unknownFields, type FieldSpec, type ValueSources } from '../gateway/fields.js';
import { JSON_INTEGER, parseStrictJson, StrictJsonError } from '../core/json-strict.js';
import { amountProblem, parseReais } from '../pix/money.js';
import { logger } from '../core/logger.js';
import { parsePixKeyType } from '../pix/pix-key-types.js';
import type { FieldProblem } from '../gateway/schemas.js';
import { t } from '../core/i18n/index.js';
import { decodeText, type Encoding } from '../core/text-encoding.js';
import { readStdin } from '../core/stdin.js';
import { processContext } from '../core/terminal.js';

/**
 * Where a request body comes from, narrowed from the command line at the CLI's edge
 * (src/cli/run/payment.ts): `--input`, the field flags given, `--amount`.
 */
export interface BodySources {
  /** `--input <file|->` and the encoding it is read in (`--encoding`, UTF-8 unless told). */
  input?: { source: string; encoding: Encoding };
  /** The field flags given, each with its value as typed: a string, or a list for a repeated flag (`--split`). */
  given: ReadonlyArray<{ field: FieldSpec; raw: string | readonly string[] }>;
  /** `--amount`: the amount in reais as typed (`12,30`). */
  amount?: string;
}

/** A body gathered from `--input` and the flags, with where each value came from. */
export interface GatheredBody extends ValueSources {
  /** The body to validate (interface field names). */
  body: Record<string, unknown>;
  /**
   * Problems found while reading `--input` (a non-integer where the interface wants an integer);
   * the offending value is removed from `body`, so that the schema and the prompts ask for it.
   */
  problems: FieldProblem[];
}

/** A JSON document read from `--input`: the object and the source text of its numbers, by path. */
export interface InputDocument {
  body: Record<string, unknown>;
  numbers: ReadonlyMap<string, string>;
}

/**
 * Largest `--input` document read, in bytes (1 MiB; docs/cash-in-and-cash-out.md): a request body is
 * a few hundred bytes, so anything near this is not one. The file is read up to this size and no
 * further, never whole.
 */
export const MAX_INPUT_BYTES = 1024 * 1024;

/**
 * Reads at most {@link MAX_INPUT_BYTES} + 1 bytes of a file, or of the run's stdin for `-`.
 * @returns the bytes, or `undefined` when there are more than the limit
 * @throws the system error when it cannot be read
 */
async function readLimited(source: string, stdin: NodeJS.ReadableStream): Promise<Buffer | undefined> {
  if (source === '-') return readStdin(stdin, MAX_INPUT_BYTES);
  const fd = openSync(source, 'r');
  try {
    const buf = Buffer.allocUnsafe(MAX_INPUT_BYTES + 1);
    let len = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, len, buf.length - len, null);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); // a non-blocking pipe (`--input /dev/stdin`) with nothing yet: wait 10 ms
        continue;
      }
      if (n === 0) break;
      len += n;
      if (len > MAX_INPUT_BYTES) return undefined;
    }
    return buf.subarray(0, len);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `--input <file|->` strictly, at most {@link MAX_INPUT_BYTES}, in `encoding` (`--encoding`:
 * UTF-8 unless told; src/core/text-encoding.ts, whose `useEncoding` must have been awaited for
 * another one). `-` is read from `stdin` (the run's: src/core/terminal.ts `RunContext.stdin`).
 * @throws UsageError (exit 2, field = the JSON path when there is one) when it cannot be read,
 *   is larger than {@link MAX_INPUT_BYTES}, is not strict JSON (syntax, a key given twice, a lone
 *   surrogate), is not valid UTF-8 (naming the line and character) or is not an object
 */
export async function readInput(source: string, encoding: Encoding = 'utf-8', stdin: NodeJS.ReadableStream = processContext().stdin): Promise<InputDocument> {
  const name = source === '-' ? 'stdin' : source;
  let bytes: Buffer | undefined;
  try {
    bytes = await readLimited(source, stdin);
  } catch (err) {
    throw new UsageError(t('input.cannotRead', name, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--input' });
  }
  if (bytes === undefined) throw new UsageError(t('input.tooLarge', name, MAX_INPUT_BYTES), { field: '--input' });
  const text = decodeText(bytes, encoding, '--input', name);
  let doc;
  try {
    doc = parseStrictJson(text);
  } catch (err) {
    if (!(err instanceof StrictJsonError)) throw err;
    throw new UsageError(t('input.notJson', name, err.message), { field: err.path || '--input' });
  }
  const json = doc.value;
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new UsageError(t('input.notObject', name), { field: '--input' });
  return { body: json as Record<string, unknown>, numbers: doc.numbers };
}

/** Paths of the integer fields present in `body`: `value`, `pixKeyType`, `splits.N.value`. */
function integerPaths(fields: readonly FieldSpec[], body: Record<string, unknown>): Array<{ path: string; field: FieldSpec }> {
  const out: Array<{ path: string; field: FieldSpec }> = [];
  for (const f of fields) {
    if (f.kind === 'cents' || f.kind === 'pixKeyType') out.push({ path: f.path, field: f });
    if (f.kind === 'splits') {
      const list = getPath(body, f.path);
      if (Array.isArray(list)) list.forEach((_, i) => out.push({ path: `${f.path}.${i}.value`, field: f }));
    }
  }
  return out.filter((p) => getPath(body, p.path) !== undefined);
}

/**
 * Checks the integer fields of an `--input` document as written, and reads a key-type name.
 * Offending values are removed from `doc.body` (returned problems say why).
 */
export function checkInputIntegers(fields: readonly FieldSpec[], doc: InputDocument): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const { path, field } of integerPaths(fields, doc.body)) {
    const v = getPath(doc.body, path);
    const cents = field.kind !== 'pixKeyType';
    const example = cents ? '1500' : '2';
    const what = cents ? 'a JSON integer number of cents' : `a JSON integer 0-4 or a key type name`;
    if (typeof v === 'number') {
      const src = doc.numbers.get(path) ?? String(v);
      if (!JSON_INTEGER.test(src)) {
        problems.push({ path, message: `must be ${what}, e.g. ${example}, not ${src}${cents ? ' (cents have no fraction or exponent)' : ''}` });
        deletePath(doc.body, path);
      }
    } else if (typeof v === 'string') {
      if (!cents) {
        const t = parsePixKeyType(v, { numbers: false });
        if (t !== null) setPath(doc.body, path, t);
        else if (/^\s*[0-9]+\s*$/.test(v)) {
          problems.push({ path, message: `must be ${what}, e.g. ${example} or "email", not the string ${JSON.stringify(v)}` });
          deletePath(doc.body, path);
        }
        // any other string: the schema names the accepted names
      } else {
        problems.push({ path, message: `must be ${what}, e.g. ${example}, not the string ${JSON.stringify(v)}` });
        deletePath(doc.body, path);
      }
    }
  }
  return problems;
}

/**
 * Builds the request body from `--input` (if any), then the flags over it, then `--amount`.
 * Values typed as flags are converted (`--value 1000` → 1000, `--pix-key-type evp` → 4); values
 * from `--input` are taken as JSON gives them, after {@link checkInputIntegers}. `--input -` is
 * read from `stdin` (the run's; the process's when not given).
 * @throws UsageError on an unreadable or invalid input file, `--value` with `--amount`, a bad `--amount`
 */
export async function gatherBody(fields: readonly FieldSpec[], sources: BodySources, stdin?: NodeJS.ReadableStream): Promise<GatheredBody> {
  let body: Record<string, unknown> = {};
  let problems: FieldProblem[] = [];
  const fromInput = new Set<string>();
  if (sources.input) {
    const doc = await readInput(sources.input.source, sources.input.encoding, stdin);
    const unknown = unknownFields(fields, doc.body);
    if (unknown.length) logger.warn(t('input.ignoring', unknown.length, unknown.join(', ')));
    problems = checkInputIntegers(fields, doc);
    body = doc.body;
    for (const f of fields) if (getPath(body, f.path) !== undefined || problems.some((p) => p.path === f.path || p.path.startsWith(`${f.path}.`))) fromInput.add(f.path);
  }
  for (const { field: f, raw } of sources.given) {
    setPath(body, f.path, convertField(f, raw));
    fromInput.delete(f.path);
    problems = problems.filter((p) => p.path !== f.path && !p.path.startsWith(`${f.path}.`));
  }
  if (sources.amount !== undefined) {
    if (sources.given.some((g) => g.field.kind === 'cents' && g.field.path === 'value')) throw new UsageError(t('input.valueAndAmount'), { field: '--amount' });
    const problem = amountProblem(sources.amount);
    if (problem) throw new UsageError(t('input.amount', problem), { field: '--amount' });
    body.value = parseReais(sources.amount);
    fromInput.delete('value');
    problems = problems.filter((p) => p.path !== 'value');
  }
  return { body, problems, input: sources.input?.source, fromInput };
}

/**
 * The problems of a gathered body: those found reading `--input` first, then the schema's, one per
 * path (a value removed for an `--input` problem is not reported again as missing).
 */
export function mergeProblems(gathered: Pick<GatheredBody, 'problems'>, schemaProblems: FieldProblem[]): FieldProblem[] {
  const taken = new Set(gathered.problems.map((p) => p.path));
  return [...gathered.problems, ...schemaProblems.filter((p) => !taken.has(p.path))];
}
