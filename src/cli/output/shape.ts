/**
 * How the result is to be shown, read from the output flags at the edge, before the command runs
 * (so a bad expression is exit 2 with nothing sent): text for people; `--json` (the whole
 * document) or `--json FIELDS` (only those fields); `--jq EXPR` (jq's language, by jq itself
 * compiled to WebAssembly: the npm package `jq-wasm`, loaded only when `--jq` is given); `--template
 * TEXT` (the Liquid template language, by the npm package `liquidjs`). docs/output-for-scripts.md
 * "Shaping the output" is the user's side.
 */
import { UsageError } from '../../core/errors.js';
import { t } from '../../core/i18n/index.js';
import { COMMAND_FIELDS } from './fields.js';

/** The output flags, as commander leaves them (`--json` is `true` or a comma list; see src/cli/output/fields.ts). */
export interface OutputFlags {
  json?: boolean | string;
  jq?: string;
  template?: string;
}

/**
 * A jq filter, compiled and ready: `run` gives its output text (one result a line, strings
 * without quotes) or throws its error message. `expr` may be given in another form with the same
 * meaning (the printer runs `.[] | f` on a list's elements a thousand at a time).
 */
export interface JqFilter {
  expr: string;
  run(input: string, pretty: boolean, expr?: string): string;
}

/** A template, parsed and ready: `render` gives the text for one document or throws its error. */
export interface Template {
  text: string;
  render(doc: unknown): string;
}

/** What the printer is asked to do, narrowed from {@link OutputFlags}. */
export type OutputRequest =
  | { mode: 'text' }
  | { mode: 'json'; fields?: string[] }
  | { mode: 'jq'; fields?: string[]; jq: JqFilter }
  | { mode: 'template'; fields?: string[]; template: Template };

/** True when any output flag beyond a bare `--json` was given. */
export function shapes(flags: OutputFlags): boolean {
  return typeof flags.json === 'string' || flags.jq !== undefined || flags.template !== undefined;
}

/**
 * Reads the output flags of a run of command `command` (its path, e.g. `history resolve`).
 * @throws UsageError (exit 2) for a field the command's document does not have, a jq expression
 *   or template that does not compile, `--jq` with `--template`, or shaping asked of a command
 *   whose output is not a document
 */
export async function outputRequest(command: string, flags: OutputFlags): Promise<OutputRequest> {
  const known = COMMAND_FIELDS[command];
  if (shapes(flags) && !known)
    throw new UsageError(t('shape.notHere', command), { field: flags.jq !== undefined ? '--jq' : flags.template !== undefined ? '--template' : '--json' });
  const fields = typeof flags.json === 'string' && flags.json !== '' ? parseFields(flags.json, known!) : undefined;
  if (flags.jq !== undefined && flags.template !== undefined) throw new UsageError(t('shape.both'), { field: '--template' });
  if (flags.jq !== undefined) return { mode: 'jq', ...(fields ? { fields } : {}), jq: await compileJq(flags.jq) };
  if (flags.template !== undefined) return { mode: 'template', ...(fields ? { fields } : {}), template: await compileTemplate(flags.template, fields ?? known!) };
  if (flags.json) return { mode: 'json', ...(fields ? { fields } : {}) };
  return { mode: 'text' };
}

/** A comma list of field names, each one of `known`. @throws UsageError naming the unknown ones and the fields there are */
export function parseFields(list: string, known: readonly string[]): string[] {
  const fields = list
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const unknown = fields.filter((f) => !known.includes(f));
  if (!fields.length || unknown.length) throw new UsageError(t('shape.unknownFields', unknown.join(', ') || list, known.join(', ')), { field: '--json' });
  return fields;
}

/**
 * Compiles `expr` with jq (without running it on anything), so that a syntax error or an unknown
 * function is found before anything is sent.
 * @throws UsageError (exit 2) with jq's own message
 */
async function compileJq(expr: string): Promise<JqFilter> {
  const { loadJq } = await import('jq-wasm');
  // node:fs/promises only when there is a --jq filter to load (most commands have none)
  const { readFile } = await import('node:fs/promises');
  const jq = await loadJq({ wasmBinary: await readFile(jqWasmFile()) });
  // compiled inside a branch never taken, so nothing of it runs (it could loop on any input)
  const check = jq.raw(null, `if false then (${expr}\n) else empty end`);
  if (check.exitCode !== 0) {
    // jq's message about the expression as written (it does not compile: it does not run either)
    const own = jq.raw(null, expr, ['-n']);
    throw new UsageError(t('shape.badJq', jqMessage(own.exitCode === 3 ? own.stderr : check.stderr)), { field: '--jq' });
  }
  return {
    expr,
    run(input, pretty, form = expr) {
      const r = jq.raw(input, form, pretty ? ['-r'] : ['-r', '-c']);
      if (r.exitCode !== 0) throw new Error(jqMessage(r.stderr));
      return r.stdout === '' ? '' : `${r.stdout}\n`;
    },
  };
}

/**
 * Where jq's WebAssembly is: `jq.wasm` in the installed jq-wasm package. jq-wasm's JavaScript is
 * bundled into paycli (tsup.config.ts), so its own search for the file would start from paycli's folder.
 */
function jqWasmFile(): string {
  return require.resolve('jq-wasm/jq.wasm');
}

/** jq's error text without its `jq: error:` prefix and the count line. */
const jqMessage = (stderr: string): string =>
  stderr
    .split('\n')
    .filter((l) => !/^jq: \d+ compile errors?$/.test(l))
    .join('\n')
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .trim();

/**
 * Parses `text` as a Liquid template (liquidjs, strict about filters), and checks that every
 * variable it names is a field of the document (`{{ transactionId }}`); filters `reais` (cents as
 * `R$ 15,50`) and Liquid's own (`json`, `default`, `date`…) are available.
 * @throws UsageError (exit 2) naming the problem
 */
async function compileTemplate(text: string, fields: readonly string[]): Promise<Template> {
  const { Liquid } = await import('liquidjs');
  const { formatReais } = await import('../../pix/money.js');
  const liquid = new Liquid({ strictFilters: true, jsTruthy: true });
  liquid.registerFilter('reais', (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? formatReais(v) : v));
  let parsed;
  try {
    parsed = liquid.parse(text);
  } catch (err) {
    throw new UsageError(t('shape.badTemplate', (err as Error).message), { field: '--template' });
  }
  const names = liquid.globalVariablesSync(parsed).map((v) => String(v).split(/[.[]/)[0]!);
  const unknown = [...new Set(names.filter((n) => !fields.includes(n)))];
  if (unknown.length) throw new UsageError(t('shape.unknownFields', unknown.join(', '), fields.join(', ')), { field: '--template' });
  return { text, render: (doc) => liquid.renderSync(parsed, doc as object) as string };
}
