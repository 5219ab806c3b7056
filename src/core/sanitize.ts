/**
 * Text from a gateway (messages, BR Codes, unknown fields) is untrusted: an ANSI or OSC escape
 * sequence in it could rewrite the terminal, set its title or plant a hyperlink. Everything a
 * gateway sends passes through here before it reaches stdout or stderr, in every output mode.
 */

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/PM/APC/SOS (ESC P|^|_|X ... ST), other ESC x,
// and the 8-bit C1 forms of the same.
const ESCAPES =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b[P^_X]|[\u0090\u009e\u009f\u0098])[^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[@-Z\\-_]?/g;
// C0 controls but tab and newline, DEL, C1 controls, and the invisible format characters that can
// reorder or hide text: the bidi marks (U+061C ALM, U+200E LRM, U+200F RLM), embeddings and overrides
// (U+202A-U+202E), isolates (U+2066-U+2069), the zero-width space (U+200B), word joiner and invisible
// operators (U+2060-U+2064), the deprecated format controls (U+206A-U+206F), the Mongolian vowel
// separator (U+180E), the byte order mark (U+FEFF) and the interlinear annotation marks (U+FFF9-U+FFFB).
// ZWNJ/ZWJ (U+200C/U+200D) stay: scripts and emoji need them and they move nothing.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
// The Unicode line and paragraph separators (U+2028, U+2029): a space, as a terminal would not break there.
const SEPARATORS = /[\u2028\u2029]/g;

/**
 * Removes terminal escape sequences and control characters (but tab and newline) from text.
 * @param text any string from outside
 * @param singleLine also replace newlines and tabs with spaces (for one-line messages)
 */
export function sanitizeText(text: string, singleLine = false): string {
  // printable ASCII alone (every plain table cell) holds nothing the patterns below match: no regular
  // expression is run, nor compiled, for it (docs/speed.md "History's start-up, the rest")
  if (printableAscii(text)) return text;
  const out = text.replace(ESCAPES, '').replace(CONTROLS, '').replace(SEPARATORS, ' ');
  return singleLine ? out.replace(/[\t\r\n]+/g, ' ') : out;
}

/** True when every character of `text` is U+0020-U+007E. */
function printableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * Returns a deep copy of a JSON value with every string (keys too) passed through
 * {@link sanitizeText}. Used before a gateway's document is printed with `--json`.
 */
export function sanitizeJson(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeText(value);
  if (Array.isArray(value)) return value.map(sanitizeJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[sanitizeText(k)] = sanitizeJson(v);
    return out;
  }
  return value;
}

/** Redaction of secrets lives in src/core/secrets.ts (the one rule); re-exported for the output modules. */
export { redact, redactJson, registerSecret } from './secrets.js';
