/**
 * The one printer: renders what a command returned (src/core/output.ts) on the run's stdout, as
 * its {@link OutputRequest} asks: text for people, the JSON document (pretty on a terminal,
 * compact otherwise, as `gh` does), some of its fields, a jq filter of it or a template of it.
 * A list (`history`) is rendered element by element, so memory stays flat on any ledger.
 *
 * A result about something the gateway created is never hidden by a filter: when `--jq` or
 * `--template` fails on it, the whole document goes to stderr and the run ends with exit 6
 * (docs/output-for-scripts.md "Shaping the output").
 */
import { NeedsAttentionError, UsageError } from '../../core/errors.js';
import { t } from '../../core/i18n/index.js';
import { isStream, type CommandResult, type Output, type StreamOutput } from '../../core/output.js';
import { boundStreamMemory } from '../../core/memory.js';
import { noteCreated } from '../../core/result-state.js';
import { redact, sanitizeJson, sanitizeText } from '../../core/sanitize.js';
import type { OutputRequest } from './shape.js';

/** Where the printer writes, and whether stdout is a terminal (from the run's context). */
export interface PrinterIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdoutIsTTY: boolean;
}

/**
 * How many elements of a list go to jq in one call: each call has a fixed cost (about 10 µs), and
 * jq's WebAssembly memory grows to the largest call and never shrinks (docs/speed.md, "history's memory").
 */
const JQ_CHUNK = 250;

/**
 * The largest list (as JSON text, in UTF-16 code units) a jq expression that is not per entry
 * (`length`, `map(...)`) is given whole: 16 MiB, about 30,000 ledger entries. jq holds it parsed in
 * its WebAssembly memory (about 10 times the text; at about 55 MiB jq-wasm aborts); a longer list
 * is exit 2 saying how to run per entry (docs/output-for-scripts.md "Shaping the output").
 */
export const WHOLE_LIST_BYTES = 16 * 1024 * 1024;

/** Only `fields` of a document (all of it without a list); a list's elements are selected one by one. */
export function selectFields(doc: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields || doc === null || typeof doc !== 'object') return doc;
  if (Array.isArray(doc)) return doc.map((d) => selectFields(d, fields));
  const src = doc as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => f in src).map((f) => [f, src[f]]));
}

/** True when a jq expression starts by taking each element of its input (`.[]`, `.[] | f`): it then runs on each entry of a list on its own. */
export function perElement(expr: string): string | undefined {
  const m = /^\s*\.\[\]\s*(?:\|([\s\S]*))?$/.exec(expr);
  if (!m) return undefined;
  return m[1] === undefined || m[1].trim() === '' ? '.' : m[1];
}

/** Renders command results on the run's streams. */
export class Printer {
  constructor(
    private readonly io: PrinterIO,
    private readonly req: OutputRequest,
  ) {}

  /**
   * What a template or jq made, cleaned of escapes and controls when stdout is a terminal: the document's
   * strings are clean, but a filter (Liquid's `url_decode`, `base64_decode`; jq's `@base64d`, strings printed
   * raw) can make an escape sequence of a gateway's text. Piped, the bytes stay as the filter made them.
   */
  private forTerminal(text: string): string {
    return this.io.stdoutIsTTY ? sanitizeText(text) : text;
  }

  /** Writes `text` to stdout (redacted), ending it with a newline. */
  private out(text: string): void {
    if (text === '') return;
    this.io.stdout.write(redact(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** Writes one block to stdout, waiting when a pipe asks to. */
  private async block(text: string): Promise<void> {
    if (text === '') return;
    if (!this.io.stdout.write(redact(text))) await new Promise((resolve) => this.io.stdout.once('drain', resolve));
  }

  private json(doc: unknown): string {
    return JSON.stringify(doc, null, this.io.stdoutIsTTY ? 2 : undefined);
  }

  /**
   * Renders a result; then, when it needs a person (`attention`), throws the NeedsAttentionError
   * (exit 6) that says why.
   * @throws NeedsAttentionError when a filter failed on a result about money that moved
   * @throws UsageError (exit 2) when a filter failed on any other result
   */
  async render(result: CommandResult): Promise<void> {
    if (isStream(result)) await this.renderStream(result);
    else await this.renderOne(result);
    result.after?.();
    if (!isStream(result) && result.attention) throw new NeedsAttentionError(result.attention.problems, result.attention.hint !== undefined ? { hint: result.attention.hint } : {});
  }

  private async renderOne(result: Output): Promise<void> {
    noteCreated(result.created);
    const req = this.req;
    if (req.mode === 'text') return this.out(await result.text());
    // every string that came from a gateway is cleaned of control characters (src/core/sanitize.ts)
    const doc = selectFields(sanitizeJson(result.doc), req.fields);
    if (req.mode === 'json') return this.out(this.json(doc));
    try {
      this.out(this.forTerminal(req.mode === 'jq' ? req.jq.run(JSON.stringify(doc), this.io.stdoutIsTTY) : req.template.render(doc)));
    } catch (err) {
      this.filterFailed(err as Error, result);
    }
  }

  /** A `--jq` or `--template` that failed on a result: exit 6 with the whole document on stderr when money moved, else exit 2. */
  private filterFailed(err: Error, result: Output): never {
    const flag = this.req.mode === 'jq' ? '--jq' : '--template';
    if (result.created) {
      this.io.stderr.write(redact(`${JSON.stringify(sanitizeJson(result.doc))}\n`));
      throw new NeedsAttentionError([t('shape.failedAfter', flag, err.message, result.created), ...(result.attention?.problems ?? [])]);
    }
    throw new UsageError(t('shape.failed', flag, err.message), { field: flag });
  }

  private async renderStream(result: StreamOutput): Promise<void> {
    const req = this.req;
    if (req.mode === 'text' || result.textOnly) return this.pieces(result.text());
    // a million entries leave a million entries' garbage: memory stays flat (src/core/memory.ts)
    const tick = boundStreamMemory();
    const docs = (async function* (): AsyncGenerator<unknown> {
      for await (const d of result.docs()) {
        tick();
        yield selectFields(d, req.fields);
      }
    })();
    if (req.mode === 'json') return this.pieces(jsonArray(docs, this.io.stdoutIsTTY));
    if (req.mode === 'template') return this.pieces(mapDocs(docs, (d) => ensureLine(this.forTerminal(this.tryFilter(() => req.template.render(d))))));
    const each = perElement(req.jq.expr);
    if (each === undefined) {
      // an expression about the whole list (`length`, `map(...)`) needs the whole list, up to a bound
      const all: string[] = [];
      let bytes = 2;
      for await (const d of docs) {
        const text = JSON.stringify(d);
        bytes += text.length + 1;
        if (bytes > WHOLE_LIST_BYTES) throw new UsageError(t('shape.wholeList', req.jq.expr, WHOLE_LIST_BYTES / 1024 / 1024), { field: '--jq' });
        all.push(text);
      }
      return this.pieces([this.forTerminal(this.tryFilter(() => req.jq.run(`[${all.join(',')}]`, this.io.stdoutIsTTY)))]);
    }
    const expr = each === '.' ? '.[]' : `.[] | (${each}\n)`;
    return this.pieces(chunks(docs, (list) => this.forTerminal(this.tryFilter(() => req.jq.run(JSON.stringify(list), this.io.stdoutIsTTY, expr)))));
  }

  private tryFilter(f: () => string): string {
    try {
      return f();
    } catch (err) {
      throw new UsageError(t('shape.failed', this.req.mode === 'jq' ? '--jq' : '--template', (err as Error).message), { field: this.req.mode === 'jq' ? '--jq' : '--template' });
    }
  }

  /** Writes pieces in blocks of about 64 KiB; bytes as they are. */
  private async pieces(pieces: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>): Promise<void> {
    let block = '';
    for await (const piece of pieces) {
      if (typeof piece !== 'string') {
        await this.block(block);
        block = '';
        if (!this.io.stdout.write(piece)) await new Promise((resolve) => this.io.stdout.once('drain', resolve));
        continue;
      }
      block += piece;
      if (block.length >= 65_536) {
        await this.block(block);
        block = '';
      }
    }
    await this.block(block);
  }
}

const ensureLine = (s: string): string => (s === '' || s.endsWith('\n') ? s : `${s}\n`);

async function* mapDocs(docs: AsyncIterable<unknown>, f: (d: unknown) => string): AsyncGenerator<string> {
  for await (const d of docs) yield f(d);
}

/** Documents in lists of {@link JQ_CHUNK}, each list given to `f`. */
async function* chunks(docs: AsyncIterable<unknown>, f: (list: unknown[]) => string): AsyncGenerator<string> {
  let list: unknown[] = [];
  for await (const d of docs) {
    list.push(d);
    if (list.length >= JQ_CHUNK) {
      yield f(list);
      list = [];
    }
  }
  if (list.length) yield f(list);
}

/**
 * A JSON array, in pieces: with `pretty` the same text as `JSON.stringify(array, null, 2)` (a
 * terminal), else as `JSON.stringify(array)` on one line (a pipe).
 */
export async function* jsonArray(docs: Iterable<unknown> | AsyncIterable<unknown>, pretty: boolean): AsyncGenerator<string> {
  let held: string | undefined; // each element is written once the next one (or the end) is known
  for await (const d of docs) {
    if (pretty) yield held === undefined ? '[\n' : `${held},\n`;
    else yield held === undefined ? '[' : `${held},`;
    held = pretty ? `  ${JSON.stringify(d, null, 2).replace(/\n/g, '\n  ')}` : JSON.stringify(d);
  }
  if (pretty) yield held === undefined ? '[]\n' : `${held}\n]\n`;
  else yield held === undefined ? '[]\n' : `${held}]\n`;
}
