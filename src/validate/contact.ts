/**
 * Checks for the contact fields the interface leaves unspecified (§2.6 "Formats and length
 * bounds ... not shown"). The choices, documented in README ("Validation rules"):
 * - e-mail: a plain `local@domain.tld` address, at most 254 characters, trimmed;
 * - phone: a Brazilian number with DDD, 10 or 11 digits, mask and `+55` accepted on input and
 *   sent as bare digits with DDD (`11987654321`), the form these gateways' integrations send.
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
