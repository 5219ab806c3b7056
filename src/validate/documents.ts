/**
 * CPF and CNPJ checks, on `@brazilian-utils/brazilian-utils` (subpath imports keep start-up low).
 * Rules (field-notes; Receita Federal): CPF is 11 digits with two mod-11 check digits; CNPJ is
 * 12 characters `[0-9A-Z]` plus 2 numeric check digits, alphanumeric since July 2026 (Receita
 * Federal, "CNPJ alfanumérico"), so `isValidCnpj` is called with `version: 2`.
 */
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';

/** Removes the usual mask characters (`.`, `-`, `/`, spaces) and upper-cases CNPJ letters. */
export function bareDocument(text: string): string {
  return text.replace(/[\s./-]/g, '').toUpperCase();
}

/** True when `text` (masked or bare) is a CPF with valid check digits. */
export function isCpf(text: string): boolean {
  const bare = bareDocument(text);
  return /^[0-9]{11}$/.test(bare) && isValidCpf(bare);
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
