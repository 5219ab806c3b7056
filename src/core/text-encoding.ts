/**
 * The encoding of the files paycli reads (`--batch`, `--input`): UTF-8 unless `--encoding` says
 * `windows-1252` or `latin1` (decoded with `iconv-lite`). A file read as UTF-8 must be valid
 * UTF-8: the first byte that is not is refused with its line and character, and when the line
 * reads well as Windows-1252 (what Excel on Windows saves as "CSV") the error says so. Nothing is
 * ever read with replacement characters (docs/batch-runs.md "Encodings").
 */
import { isUtf8 } from 'node:buffer';
import { Transform } from 'node:stream';
import { UsageError } from './errors.js';
import { t as tr } from './i18n/index.js';

/** The encodings `--encoding` takes. */
export const ENCODINGS = ['utf-8', 'windows-1252', 'latin1'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/**
 * Reads `--encoding`: `utf-8`/`utf8`, `windows-1252`/`cp1252`, `latin1`/`iso-8859-1` (any case).
 * @returns `utf-8` when not given
 * @throws UsageError (exit 2) for any other name
 */
export function parseEncoding(text: string | undefined): Encoding {
  if (text === undefined) return 'utf-8';
  const t = text.trim().toLowerCase().replace(/_/g, '-');
  if (t === 'utf-8' || t === 'utf8') return 'utf-8';
  if (t === 'windows-1252' || t === 'cp1252' || t === 'win1252') return 'windows-1252';
  if (t === 'latin1' || t === 'latin-1' || t === 'iso-8859-1' || t === 'iso8859-1') return 'latin1';
  throw new UsageError(tr('encoding.invalid', text), { field: '--encoding' });
}

/** Where the first invalid UTF-8 byte of a buffer is: its offset, or -1 when all of it is valid. */
export function firstInvalidUtf8(buf: Uint8Array, from = 0, to = buf.length): number {
  let i = from;
  while (i < to) {
    const b = buf[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) (need = 1), (min = 0x80);
    else if (b >= 0xe0 && b <= 0xef) (need = 2), (min = 0x800);
    else if (b >= 0xf0 && b <= 0xf4) (need = 3), (min = 0x10000);
    else return i;
    if (i + need >= to) return i; // the sequence runs past the end
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k]!;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** Bytes at the end of `buf` that begin a UTF-8 sequence not yet complete (0 to 3). */
function incompleteTail(buf: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const b = buf[buf.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return len > back ? back : 0;
  }
  return 0;
}

/** Characters (UTF-8 sequences) among bytes `from`..`to` of a valid buffer. */
function countChars(buf: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if ((buf[i]! & 0xc0) !== 0x80) n++;
  return n;
}

/** Where invalid UTF-8 was found, for the message. */
export interface Utf8Failure {
  /** Line (from 1, counting LF). */
  line: number;
  /** Character in that line (from 1). */
  column: number;
  /** The bad byte, as `0xE3`. */
  byte: string;
  /** The line as Windows-1252 would read it, when it reads well so (no control or undefined character). */
  asWindows1252?: string;
}

/**
 * The exit-2 error for a file that is not valid UTF-8, naming the line and character, and
 * suggesting `--encoding windows-1252` when the line reads well as Windows-1252.
 * @param flag the flag that named the file (`--batch`, `--input`)
 */
export function notUtf8Error(flag: string, name: string, f: Utf8Failure): UsageError {
  const hint = f.asWindows1252 !== undefined ? tr('encoding.hintWindows1252', f.line, f.asWindows1252) : tr('encoding.hintOther');
  return new UsageError(tr('encoding.notUtf8', flag, name, f.line, f.column, f.byte), { field: '--encoding', hint }, 'validation');
}

/** Windows-1252's characters for the bytes 0x80-0x9F (the rest is Latin-1); `undefined` where it has none. */
const CP1252_HIGH =
  '\u20AC\u0000\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u0000\u017D\u0000\u0000\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u0000\u017E\u0178';

/**
 * The line of `bytes` around `offset` (between LFs, at most 200 bytes each side) as Windows-1252
 * reads it, when it reads well so (no control character, no byte Windows-1252 leaves undefined).
 * Only for the suggestion in a message; files are decoded by `iconv-lite`.
 */
function windows1252Line(bytes: Uint8Array, offset: number): string | undefined {
  let start = offset;
  while (start > 0 && bytes[start - 1] !== 0x0a && offset - start < 200) start--;
  let end = offset;
  while (end < bytes.length && bytes[end] !== 0x0a && end - offset < 200) end++;
  let text = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    const ch = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : String.fromCharCode(b);
    if (ch === '\u0000' || (b < 0x20 && b !== 0x09 && !(b === 0x0d && i === end - 1)) || b === 0x7f) return undefined;
    text += ch;
  }
  return text.replace(/\r$/, '');
}

type Iconv = typeof import('iconv-lite');
let iconvLoaded: Iconv | undefined;

/** Loads the decoder of `encoding` (`iconv-lite`, only for an encoding other than UTF-8) before {@link decodeText}. */
export async function useEncoding(encoding: Encoding): Promise<void> {
  if (encoding === 'utf-8' || iconvLoaded) return;
  const m = (await import('iconv-lite')) as Iconv & { default?: Iconv };
  iconvLoaded = m.default ?? m;
}

/**
 * Decodes a whole file's bytes (`--input`) in `encoding` ({@link useEncoding} first for one other than UTF-8).
 * @throws UsageError (exit 2) when `utf-8` and the bytes are not valid UTF-8 ({@link notUtf8Error})
 */
export function decodeText(bytes: Buffer, encoding: Encoding, flag: string, name: string): string {
  if (encoding !== 'utf-8') {
    if (!iconvLoaded) throw new Error(`decodeText: useEncoding('${encoding}') was not awaited`);
    return iconvLoaded.decode(bytes, encoding);
  }
  if (isUtf8(bytes)) return bytes.toString('utf8');
  throw notUtf8Error(flag, name, failureAt(bytes, firstInvalidUtf8(bytes), 1, 0, 0));
}

function failureAt(bytes: Uint8Array, at: number, lineBefore: number, lineStart: number, charsBefore: number): Utf8Failure {
  let line = lineBefore;
  let start = lineStart;
  for (let nl = bytes.indexOf(0x0a, start); nl >= 0 && nl < at; nl = bytes.indexOf(0x0a, start)) {
    line++;
    start = nl + 1;
    charsBefore = 0;
  }
  const asWindows1252 = windows1252Line(bytes, at);
  return {
    line,
    column: charsBefore + countChars(bytes, start, at) + 1,
    byte: `0x${bytes[at]!.toString(16).toUpperCase().padStart(2, '0')}`,
    ...(asWindows1252 !== undefined ? { asWindows1252 } : {}),
  };
}

/**
 * A stream step that turns a file's bytes into UTF-8: with `utf-8` it checks them and passes
 * them on unchanged; with `windows-1252`/`latin1` it decodes them (a file that starts with a UTF-8
 * byte order mark is refused: it is UTF-8, whatever `--encoding` says).
 * @throws UsageError (as a stream error) at the first byte that is not valid UTF-8 ({@link notUtf8Error})
 */
export async function toUtf8(encoding: Encoding, flag: string, name: string): Promise<Transform> {
  if (encoding !== 'utf-8') {
    await useEncoding(encoding);
    const decoder = iconvLoaded!.getDecoder(encoding);
    let first = true;
    return new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (first && chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
          return done(new UsageError(tr('encoding.bom', flag, name, encoding), { field: '--encoding', hint: tr('encoding.bomHint') }, 'validation'));
        }
        first = false;
        done(null, Buffer.from(decoder.write(chunk), 'utf8'));
      },
      flush(done) {
        const rest = decoder.end();
        done(null, rest ? Buffer.from(rest, 'utf8') : null);
      },
    });
  }
  let carry = Buffer.alloc(0);
  let line = 1;
  let charsInLine = 0; // characters of the current line in earlier chunks
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const keep = incompleteTail(buf);
      const end = buf.length - keep;
      const whole = buf.subarray(0, end);
      if (!isUtf8(whole)) {
        return done(notUtf8Error(flag, name, failureAt(whole, firstInvalidUtf8(whole), line, 0, charsInLine)));
      }
      const lastNl = whole.lastIndexOf(0x0a);
      if (lastNl >= 0) {
        for (let nl = whole.indexOf(0x0a); nl >= 0; nl = whole.indexOf(0x0a, nl + 1)) line++;
        charsInLine = countChars(whole, lastNl + 1, end);
      } else charsInLine += countChars(whole, 0, end);
      carry = Buffer.from(buf.subarray(end));
      done(null, whole);
    },
    flush(done) {
      done(carry.length ? notUtf8Error(flag, name, failureAt(carry, 0, line, 0, charsInLine)) : null);
    },
  });
}
