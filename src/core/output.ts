/**
 * What a command returns: its result as a value, which one printer renders (src/cli/output/printer.ts):
 * text for people, the JSON document (`--json`, `--json FIELDS`), a jq filter of it (`--jq`) or a
 * template of it (`--template`). docs/output-for-scripts.md describes the documents; their JSON
 * Schemas are in schemas/ (generated from src/cli/output/document-schemas.ts).
 */

/** How a command's result needs a person after it was printed: exit 6 (needs attention). */
export interface Attention {
  /** What a person must look at, one sentence each. */
  problems: string[];
  hint?: string;
}

/** One result: the typed JSON document and the text shown to people. */
export interface Output<D = unknown> {
  /** The document `--json` prints (cents as integers, booleans as booleans, statuses by name). */
  doc: D;
  /** The text for people (stdout without `--json`); empty when the command shows nothing there. */
  text: () => string | Promise<string>;
  /**
   * What the gateway created (e.g. `cash-out 42`): if writing the result then fails (a full disk,
   * a filter that fails), the run ends with exit 6, never with a code that says nothing was sent.
   */
  created?: string;
  /** Set when a person must look at the result: printed first, then exit 6. */
  attention?: Attention;
  /** Said on stderr after the result (notices that follow it, e.g. history's sandbox footnote). */
  after?: () => void;
}

/**
 * A result that is a list read piece by piece (`history` on a ledger of a million payments): each
 * element's document is made when it is written, so memory stays flat whatever the list's length.
 */
export interface StreamOutput<D = unknown> {
  /** The documents, one per element, in order (read as they come: a ledger's rows). */
  docs: () => Iterable<D> | AsyncIterable<D>;
  /**
   * The text for people, in pieces (a table, a CSV export); each piece ends with a newline. Bytes
   * (an OFX statement in Windows-1252) are written as they are: they were redacted when made.
   */
  text: () => Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;
  /** Text formats that are not JSON (`--format csv`) are written as they are, never shaped. */
  textOnly?: boolean;
  after?: () => void;
}

/** Either kind of result. */
export type CommandResult = Output | StreamOutput;

/** True for a {@link StreamOutput}. */
export function isStream(r: CommandResult): r is StreamOutput {
  return typeof (r as StreamOutput).docs === 'function';
}

/** A result whose text and document are given directly. */
export function output<D>(doc: D, text: string | (() => string | Promise<string>), more: Partial<Omit<Output<D>, 'doc' | 'text'>> = {}): Output<D> {
  return { doc, text: typeof text === 'string' ? () => text : text, ...more };
}
