/**
 * Checks for the contact fields the interface leaves unspecified (§2.6 "Formats and length
 * bounds ... not shown"). The choices, documented in README ("Validation rules"):
 * - e-mail: a plain `local@domain.tld` address, at most 254 characters, trimmed;
 * - phone: a Brazilian number with DDD, 10 or 11 digits, mask and `+55` accepted on input and
 *   sent as bare digits with DDD (`11987654321`), the form these gateways' integrations send.
 *   The DDD is two digits 1-9 (11-99, no zero); an 11-digit number is a mobile and starts with 9.
 */

/** Maximum e-mail length (RFC 5321 path limit). */
export const MAX_EMAIL = 254;

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** True when `text` is a plausible e-mail address (see module doc). */
export function isEmail(text: string): boolean {
  return text.length <= MAX_EMAIL && EMAIL.test(text);
}

/**
 * Normalises a Brazilian phone number to bare digits with DDD: `(11) 98765-4321` and
 * `+55 11 98765-4321` both give `11987654321`.
 * @returns the digits, or `null` when it is not 10 or 11 digits with a valid DDD (11-99)
 */
export function normalisePhone(text: string): string | null {
  const t = text.trim();
  if (!/^\+?[0-9\s().-]+$/.test(t)) return null;
  let digits = t.replace(/[^0-9]/g, '');
  if ((t.startsWith('+55') || digits.length > 11) && digits.startsWith('55')) digits = digits.slice(2);
  if (!/^[1-9][1-9][0-9]{8,9}$/.test(digits)) return null;
  if (digits.length === 11 && digits[2] !== '9') return null; // mobile numbers start with 9
  return digits;
}

/**
 * Says exactly what is wrong with a phone number, for messages.
 * @returns the reason (`has 9 digits; …`), or `null` when {@link normalisePhone} accepts it
 */
export function phoneProblem(text: string): string | null {
  if (normalisePhone(text) !== null) return null;
  const t = text.trim();
  if (t === '') return 'is empty';
  const bad = /[^0-9\s().+-]/.exec(t);
  if (bad) return `contains "${bad[0]}"; only digits, +, spaces and ( ) - are allowed`;
  if (t.lastIndexOf('+') > 0) return 'has a + that is not at the start';
  let digits = t.replace(/[^0-9]/g, '');
  if (t.startsWith('+') && !t.startsWith('+55')) return 'is not a Brazilian number (+55)';
  if ((t.startsWith('+55') || digits.length > 11) && digits.startsWith('55')) digits = digits.slice(2);
  if (digits.length < 10 || digits.length > 11) return `has ${digits.length} digits after the country code; it needs the DDD and the number: 10 digits (landline) or 11 (mobile)`;
  if (!/^[1-9][1-9]/.test(digits)) return `has DDD ${digits.slice(0, 2)}, which does not exist (DDDs are 11 to 99, without zeros)`;
  return 'is not a valid mobile number: with 11 digits, the number after the DDD must start with 9';
}
