/**
 * Money helpers. Amounts are integers in cents end to end (interface §2: "Amounts are integers
 * in cents"); these helpers convert between cents and the reais text people type and read,
 * working on digits as strings so that no amount ever passes through a float.
 */

import { t as tr } from '../core/i18n/index.js';

/**
 * Largest amount paycli sends, in cents: R$ 100.000.000,00 (10^10 cents). The interface sets no
 * bound (§8 "Amount bounds: not shown"); this one keeps every amount exact in a JS number and
 * inside the 13 characters of the BR Code amount field (ID 54, Banco Central BR Code manual).
 */
export const MAX_CENTS = 10_000_000_000;

/**
 * Converts an amount in reais as people write it to integer cents, exactly.
 * Accepts `15`, `15.5`, `15,50`, `1.234,56`, `1,234.56`, `1234.56`, `1.234.567`, `R$ 1.234,56`.
 * Rules: with both `.` and `,`, the last one is the decimal separator and the other groups
 * thousands in threes; with one kind only, a single separator followed by 1 or 2 digits is the
 * decimal separator, and separators followed by groups of three digits (more than one of them)
 * group thousands. `1.234` and `1,234` are refused as ambiguous (Brazilian thousands or three
 * decimals?), and so is any third decimal.
 *
 * @param text reais, e.g. `"1.234,56"`
 * @returns cents, e.g. `123456`, or `null` when the text is not such an amount
 */
export function parseReais(text: string): number | null {
  const s = text.trim().replace(/^R\$\s*/i, '');
  if (!/^[0-9]+(?:[.,][0-9]+)*$/.test(s)) return null;
  const lastSep = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  const kinds = new Set(s.replace(/[0-9]/g, ''));
  let whole = s;
  let decimals = '';
  const tail = lastSep >= 0 ? s.slice(lastSep + 1) : '';
  const sepCount = s.replace(/[0-9]/g, '').length;
  if (kinds.size === 2 || (sepCount === 1 && tail.length <= 2)) {
    if (tail.length > 2) return null;
    whole = s.slice(0, lastSep);
    decimals = tail;
    if (kinds.size === 2 && whole.includes(s[lastSep]!)) return null;
  } else if (sepCount === 1) {
    return null; // "1.234" / "1,234": ambiguous
  }
  if (whole !== whole.replace(/[.,]/g, '')) {
    if (!/^[0-9]{1,3}(?:[.,][0-9]{3})+$/.test(whole)) return null;
    whole = whole.replace(/[.,]/g, '');
  }
  if (whole.length > 12) return null;
  const cents = Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * Says what is wrong with an amount in reais (`--amount`, the amount prompt), or `null` when
 * {@link parseReais} reads it as 1 cent .. {@link MAX_CENTS}.
 */
export function amountProblem(text: string): string | null {
  const t = text.trim();
  const cents = parseReais(t);
  if (cents === null) {
    if (t === '') return tr('money.empty');
    if (/^-/.test(t)) return tr('money.negative', t);
    if (/^[0-9]{1,3}[.,][0-9]{3}$/.test(t)) {
      const whole = t.replace(/[.,]/, '');
      return tr('money.ambiguous', t, formatReais(Number(whole) * 100), whole, t.replace(',', '.'));
    }
    if (/[.,][0-9]{4,}$/.test(t) || /^[0-9]+[.,][0-9]{3}$/.test(t)) return tr('money.decimals', t);
    return tr('money.notAmount', t);
  }
  if (cents < 1) return tr('money.zero');
  if (cents > MAX_CENTS) return tr('money.tooMuch', formatReais(cents), formatReais(MAX_CENTS));
  return null;
}

/**
 * Formats integer cents as Brazilian reais: `123456` → `R$ 1.234,56`, `-5` → `-R$ 0,05`.
 * Uses integer division on the cents; never divides into a float.
 *
 * @param cents an integer amount in cents
 * @throws RangeError when `cents` is not a safe integer
 */
export function formatReais(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer amount of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = String(Math.abs(cents)).padStart(3, '0');
  const whole = abs.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}R$ ${whole},${abs.slice(-2)}`;
}

/**
 * Writes integer cents as the decimal text of the BR Code amount field (ID 54): `1050` → `10.50`.
 * @param cents a positive integer amount in cents
 */
export function centsToDecimal(cents: number): string {
  const abs = String(cents).padStart(3, '0');
  return `${abs.slice(0, -2)}.${abs.slice(-2)}`;
}

/**
 * Reads the decimal text of a BR Code amount (`10.5`, `10.50`, `10`) as integer cents, exactly.
 * @returns cents, or `null` when it is not a plain decimal with at most two decimals
 */
export function decimalToCents(text: string): number | null {
  const m = /^([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(text);
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}
