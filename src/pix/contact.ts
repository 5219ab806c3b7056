/**
 * Checks for the contact fields and the characters of free text, where the interface leaves the
 * format open (§2.6 "Formats and length bounds ... not shown"). The choices, documented in
 * docs/cash-in-and-cash-out.md ("Validation rules"):
 * - e-mail (payer, recipient): a plain ASCII `local@domain.tld` address, at most 254 characters
 *   (RFC 5321), the local part in RFC 5322's dot-atom characters. No letters outside ASCII, no
 *   invisible or look-alike characters: `josé@…`, a Cyrillic `а`, a zero-width space are refused.
 * - e-mail PIX key: the DICT rule (Banco Central, DICT key formats): ASCII only, the DICT's
 *   characters, lower case, at most 77 characters; see {@link dictEmailProblem}.
 * - phone: a Brazilian number with DDD, 10 or 11 digits, sent as bare digits with DDD
 *   (`11987654321`). The DDD must be one of Anatel's area codes (the list comes from
 *   `@brazilian-utils/brazilian-utils`). Anatel's numbering plan: a 10-digit number is a fixed
 *   line whose 8-digit subscriber number starts with 2-5; an 11-digit number is a mobile whose
 *   9-digit subscriber number starts with 9 (8-digit mobiles, starting 6-9, ended in 2016). Typed
 *   with a mask, with `+55`, with the international prefix `0055`, or with the trunk prefix `0`
 *   (`011 98765-4321`).
 * - names and descriptions: no control characters, no invisible format characters (bidi
 *   controls, zero-width characters, the byte order mark, soft hyphen) and no line or paragraph
 *   separators; see {@link textProblem}.
 */
import { t as tr } from '../core/i18n/index.js';
import { getAreaCodeInfo } from '@brazilian-utils/brazilian-utils/get-area-code-info';

/** Maximum e-mail length (RFC 5321 path limit). */
export const MAX_EMAIL = 254;
/** Maximum length of an e-mail PIX key (DICT). */
export const MAX_EMAIL_KEY = 77;

/** Names of the invisible or misleading characters paycli refuses, for messages. */
const CHARACTER_NAMES: Record<number, string> = {
  0x0020: 'space',
  0x00a0: 'no-break space',
  0x00ad: 'soft hyphen',
  0x061c: 'Arabic letter mark, a bidi control',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark, a bidi control',
  0x200f: 'right-to-left mark, a bidi control',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding, a bidi control',
  0x202b: 'right-to-left embedding, a bidi control',
  0x202c: 'pop directional formatting, a bidi control',
  0x202d: 'left-to-right override, a bidi control',
  0x202e: 'right-to-left override, a bidi control',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate, a bidi control',
  0x2067: 'right-to-left isolate, a bidi control',
  0x2068: 'first strong isolate, a bidi control',
  0x2069: 'pop directional isolate, a bidi control',
  0x212a: 'Kelvin sign, not the letter K',
  0xfeff: 'zero-width no-break space (byte order mark)',
};

/**
 * A character as a message shows it: `"é" (U+00E9)`; an invisible one by its code point and
 * name only (`U+200B, a zero-width space`), since printing it would show nothing.
 */
export function describeCharacter(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CHARACTER_NAMES[cp];
  if (INVISIBLE.test(ch) || /[\p{Cc}\p{Z}]/u.test(ch)) return `${code}, ${name ? tr('contact.aName', name) : tr('contact.invisible')}`;
  return `"${ch}" (${code}${name ? `, ${tr('contact.aName', name)}` : ''})`;
}

/**
 * Characters refused in every text field: controls (C0, DEL, C1), format characters (bidi
 * controls, zero-width characters, BOM, soft hyphen: Unicode category Cf) and the line and
 * paragraph separators. A bidi control can make a name read differently from what is sent.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * What is wrong with the characters of a one-line text (name, description), or `null`.
 * @returns e.g. `contains U+202E, a right-to-left override, a bidi control; …`
 */
export function textProblem(text: string): string | null {
  const replaced = replacementProblem(text);
  if (replaced) return replaced;
  const m = INVISIBLE.exec(text);
  if (!m) return null;
  if (m[0] === '\n' || m[0] === '\r' || m[0] === '\t') return tr('contact.oneLine');
  return tr('contact.onlyVisible', describeCharacter(m[0]));
}

/**
 * Characters that stand for text lost on the way, refused in every text paycli sends: U+FFFD (the
 * replacement character a decoder writes for bytes that are not valid UTF-8, e.g. `Jo\uFFFDo` for
 * `João` saved as Windows-1252), U+FFFC (object replacement) and the noncharacters U+FFFE, U+FFFF.
 */
const REPLACEMENT = /[\uFFFC-\uFFFF]/u;

/**
 * What is wrong when a text holds a replacement character ({@link REPLACEMENT}), or `null`.
 * @returns e.g. `contains U+FFFD, the replacement character (at character 3): …`
 */
export function replacementProblem(text: string): string | null {
  const m = REPLACEMENT.exec(text);
  if (!m) return null;
  const at = [...text.slice(0, m.index)].length + 1;
  const code = `U+${m[0].codePointAt(0)!.toString(16).toUpperCase()}`;
  return m[0] === '\uFFFD' ? tr('encoding.replacement', code, at) : tr('encoding.lostText', code, at);
}

/** RFC 5322 dot-atom text characters, ASCII. */
const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*@${LABEL}(?:\\.${LABEL})+$`);

/** The first character of `text` outside printable ASCII, or `null`. */
function nonAscii(text: string): string | null {
  const m = /[^\x21-\x7e]/u.exec(text);
  return m ? m[0] : null;
}

/** True when `text` is a plausible contact e-mail address (module doc). */
export function isEmail(text: string): boolean {
  return emailProblem(text) === null;
}

/**
 * What is wrong with a contact e-mail address (module doc), or `null` when it is fine.
 * @returns e.g. `contains "é" (U+00E9); an e-mail address has ASCII letters, digits and …`
 */
export function emailProblem(text: string): string | null {
  const t = text.trim();
  if (t === '') return tr('contact.empty');
  const bad = nonAscii(t);
  if (bad) return tr('contact.emailChar', describeCharacter(bad), "!#$%&'*+/=?^_`{|}~.-");
  if (t.length > MAX_EMAIL) return tr('contact.emailLong', t.length, MAX_EMAIL);
  return EMAIL.test(t) ? null : tr('contact.notEmail');
}

/** The DICT pattern of an e-mail key (lower case; Banco Central, DICT key formats). */
const DICT_EMAIL = /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Normalises an e-mail PIX key to its DICT form: trimmed, ASCII upper-case letters lowered. Only
 * ASCII is lowered: a non-ASCII character is never folded into an ASCII one (the Kelvin sign `K`
 * does not become `k`).
 * @returns the key, or `null` when it is not a DICT e-mail key ({@link dictEmailProblem} says why)
 */
export function normaliseEmailKey(text: string): string | null {
  const t = text.trim();
  if (nonAscii(t) !== null) return null;
  const lower = t.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return lower.length <= MAX_EMAIL_KEY && DICT_EMAIL.test(lower) ? lower : null;
}

/** What is wrong with an e-mail PIX key (DICT rule), or `null` when {@link normaliseEmailKey} accepts it. */
export function dictEmailProblem(text: string): string | null {
  if (normaliseEmailKey(text) !== null) return null;
  const t = text.trim();
  if (t === '') return tr('contact.empty');
  const bad = nonAscii(t);
  if (bad) return tr('contact.emailKeyChar', describeCharacter(bad), ".!#$&'*+/=?^_`{|}~-");
  if (t.length > MAX_EMAIL_KEY) return tr('contact.emailKeyLong', t.length, MAX_EMAIL_KEY);
  const local = t.includes('@') ? t.slice(0, t.lastIndexOf('@')) : '';
  const badLocal = /[^A-Za-z0-9.!#$&'*+/=?^_`{|}~-]/.exec(local);
  if (badLocal) return tr('contact.emailKeyLocal', badLocal[0], ".!#$&'*+/=?^_`{|}~-");
  return tr('contact.notEmail');
}

/** What the digits of a typed phone number are, after the prefixes are taken off. */
interface PhoneDigits {
  digits: string;
  /** What was taken off, for messages: ` after the country code`, ` after the trunk prefix 0`, or `''`. */
  after: string;
}

/**
 * Takes the prefixes off a typed phone number: `+55`, the international prefix `0055`, a
 * `55` in front of 12-13 digits, or the trunk prefix `0` (`011 98765-4321`).
 * @returns `null` when the text has characters other than digits, spaces, `+`, `(`, `)`, `.`, `-`
 */
function phoneDigits(text: string): PhoneDigits | { problem: string } {
  const t = text.trim();
  if (t === '') return { problem: 'is empty' };
  const bad = /[^0-9\s().+-]/u.exec(t);
  if (bad) return { problem: tr('contact.phoneChar', describeCharacter(bad[0])) };
  if (t.lastIndexOf('+') > 0) return { problem: 'has a + that is not at the start' };
  const digits = t.replace(/[^0-9]/g, '');
  if (t.startsWith('+')) {
    if (!digits.startsWith('55')) return { problem: 'is not a Brazilian number (+55)' };
    return { digits: digits.slice(2), after: tr('contact.afterCountry') };
  }
  if (digits.startsWith('0055')) return { digits: digits.slice(4), after: tr('contact.after0055') };
  if (digits.startsWith('00')) return { problem: 'is not a Brazilian number (00 is the international prefix; Brazil is 0055)' };
  // The trunk prefix: a 0 written right before the DDD (`011 98765-4321`, `(011) …`), not `(01) …`.
  if (/^\(?0[0-9]{2}/.test(t)) return { digits: digits.slice(1), after: tr('contact.afterTrunk') };
  if (digits.length > 11 && digits.startsWith('55')) return { digits: digits.slice(2), after: tr('contact.afterCountry') };
  return { digits, after: '' };
}

/** True when `ddd` (two digits) is one of Anatel's area codes. */
export function isAreaCode(ddd: string): boolean {
  return /^[1-9][1-9]$/.test(ddd) && getAreaCodeInfo(ddd) !== null;
}

/** Anatel's area codes as ranges, for messages: `11-19, 21, 22, 24, …`. */
export function areaCodeList(): string {
  const codes = Array.from({ length: 89 }, (_, i) => i + 11).filter((n) => isAreaCode(String(n)));
  const ranges: string[] = [];
  for (let i = 0; i < codes.length; ) {
    let j = i;
    while (j + 1 < codes.length && codes[j + 1] === codes[j]! + 1) j++;
    ranges.push(j - i >= 2 ? `${codes[i]}-${codes[j]}` : codes.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return ranges.join(', ');
}

/**
 * Normalises a Brazilian phone number to bare digits with DDD: `(11) 98765-4321`,
 * `+55 11 98765-4321`, `0055 11 98765-4321` and `011 98765-4321` all give `11987654321`.
 * @returns the digits, or `null` when {@link phoneProblem} finds something wrong
 */
export function normalisePhone(text: string): string | null {
  const p = phoneDigits(text);
  if ('problem' in p) return null;
  const d = p.digits;
  if (!/^[0-9]{10,11}$/.test(d) || !isAreaCode(d.slice(0, 2))) return null;
  if (d.length === 11 && d[2] !== '9') return null; // mobile numbers start with 9
  if (d.length === 10 && !/[2-5]/.test(d[2]!)) return null; // fixed lines start with 2-5
  return d;
}

/**
 * Says exactly what is wrong with a phone number, for messages.
 * @returns the reason (`has DDD 23, which does not exist …`), or `null` when {@link normalisePhone} accepts it
 */
export function phoneProblem(text: string): string | null {
  if (normalisePhone(text) !== null) return null;
  const p = phoneDigits(text);
  if ('problem' in p) return p.problem;
  const d = p.digits;
  if (d.length < 10 || d.length > 11) return tr('contact.phoneDigits', d.length, p.after);
  if (!isAreaCode(d.slice(0, 2))) return tr('contact.phoneDdd', d.slice(0, 2), areaCodeList());
  if (d.length === 10 && /[6-9]/.test(d[2]!)) return tr('contact.phoneAdd9', `${d.slice(0, 2)}9${d.slice(2)}`);
  if (d.length === 10) return tr('contact.phoneFixed');
  return tr('contact.phoneMobile');
}
