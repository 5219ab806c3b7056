/**
 * CPF and CNPJ checks, on `@brazilian-utils/brazilian-utils` (subpath imports keep start-up low).
 * Rules (Receita Federal; docs/gateway-contract.md §2.6): CPF is 11 digits with two mod-11 check digits; CNPJ is
 * 12 characters `[0-9A-Z]` plus 2 numeric check digits, alphanumeric since July 2026 (Receita
 * Federal, "CNPJ alfanumérico"), so `isValidCnpj` is called with `version: 2`.
 */
import { t } from '../core/i18n/index.js';
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';

/** Removes the usual mask characters (`.`, `-`, `/`, spaces) and upper-cases CNPJ letters. */
export function bareDocument(text: string): string {
  return text.replace(/[\s./-]/g, '').toUpperCase();
}

/**
 * The characters a CPF may be written with: digits and its mask's `.` and `-` (and spaces). A `/`
 * belongs to a CNPJ's mask (`11.222.333/0001-81`), so `123.456.789/09` is not a CPF, as a PIX key
 * and as a document alike (docs/cash-in-and-cash-out.md, "Validation rules").
 */
const CPF_CHARACTERS = /^[0-9.\s-]+$/;

/** True when `text` (masked or bare) is a CPF with valid check digits, written with its own mask characters only. */
export function isCpf(text: string): boolean {
  const bare = bareDocument(text);
  return CPF_CHARACTERS.test(text.trim()) && /^[0-9]{11}$/.test(bare) && isValidCpf(bare);
}

/** True when `text` (masked or bare, any case) is a numeric or alphanumeric CNPJ with valid check digits. */
export function isCnpj(text: string): boolean {
  const bare = bareDocument(text);
  return /^[0-9A-Z]{12}[0-9]{2}$/.test(bare) && isValidCnpj(bare, { version: 2 });
}

/**
 * Normalises a CPF or CNPJ to the bare form sent on the wire: CPF 11 digits, CNPJ 14 characters
 * with letters upper-cased.
 * @returns the bare document, or `null` when it is neither a valid CPF nor a valid CNPJ
 */
export function normaliseCpfCnpj(text: string): string | null {
  if (isCpf(text) || isCnpj(text)) return bareDocument(text);
  return null;
}

/** Which documents a field accepts. */
export type DocumentKind = 'cpf' | 'cnpj' | 'cpf-or-cnpj';

/**
 * Says exactly what is wrong with a CPF or CNPJ (masked or bare), for messages.
 * @param kind which documents are acceptable
 * @returns the reason, `is not a valid <CPF|CNPJ|CPF or CNPJ>: <detail>` (e.g. `is not a valid
 *   CPF or CNPJ: the CPF check digits do not match (…)`), or `null` when `text` is a valid
 *   document of an accepted kind
 */
export function documentProblem(text: string, kind: DocumentKind = 'cpf-or-cnpj'): string | null {
  const what = t(`doc.what.${kind}`);
  const fail = (detail: string) => t('doc.invalid', what, detail);
  const trimmed = text.trim();
  const sizes = t(`doc.sizes.${kind}`);
  if (trimmed === '') return fail(t('doc.empty', sizes));
  const bad = /[^0-9A-Za-z.\s/-]/.exec(trimmed);
  if (bad) return fail(t('doc.badChar', bad[0]));
  const bare = bareDocument(trimmed);
  if (kind !== 'cnpj' && bare.length === 11) {
    if (/[A-Z]/.test(bare)) return fail(t('doc.cpfDigitsOnly'));
    if (!CPF_CHARACTERS.test(trimmed)) return fail(t('doc.cpfSlash'));
    if (/^(\d)\1{10}$/.test(bare)) return fail(t('doc.cpfSame'));
    return isValidCpf(bare) ? null : fail(t('doc.cpfCheck'));
  }
  if (kind !== 'cpf' && bare.length === 14) {
    if (!/^[0-9]{2}$/.test(bare.slice(12))) return fail(t('doc.cnpjCheckDigits'));
    if (/^(\d)\1{13}$/.test(bare)) return fail(t('doc.cnpjSame'));
    return isValidCnpj(bare, { version: 2 }) ? null : fail(t('doc.cnpjCheck'));
  }
  return fail(t('doc.length', bare.length, sizes));
}
