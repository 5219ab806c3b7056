/**
 * CPF and CNPJ checks, on `@brazilian-utils/brazilian-utils` (subpath imports keep start-up low).
 * Rules (Receita Federal; docs/gateway-contract.md §2.6): CPF is 11 digits with two mod-11 check digits; CNPJ is
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

/** Which documents a field accepts. */
export type DocumentKind = 'cpf' | 'cnpj' | 'cpf-or-cnpj';

const SWAP = 'a character is mistyped or two are swapped';

/**
 * Says exactly what is wrong with a CPF or CNPJ (masked or bare), for messages.
 * @param kind which documents are acceptable
 * @returns the reason, `is not a valid <CPF|CNPJ|CPF or CNPJ>: <detail>` (e.g. `is not a valid
 *   CPF or CNPJ: the CPF check digits do not match (…)`), or `null` when `text` is a valid
 *   document of an accepted kind
 */
export function documentProblem(text: string, kind: DocumentKind = 'cpf-or-cnpj'): string | null {
  const what = kind === 'cpf' ? 'CPF' : kind === 'cnpj' ? 'CNPJ' : 'CPF or CNPJ';
  const fail = (detail: string) => `is not a valid ${what}: ${detail}`;
  const t = text.trim();
  const sizes = kind === 'cpf' ? 'a CPF has 11 digits' : kind === 'cnpj' ? 'a CNPJ has 14 characters' : 'a CPF has 11 digits, a CNPJ 14 characters';
  if (t === '') return fail(`it is empty; ${sizes}`);
  const bad = /[^0-9A-Za-z.\s/-]/.exec(t);
  if (bad) return fail(`it contains "${bad[0]}"; only digits, letters (CNPJ) and the mask characters . / - are allowed`);
  const bare = bareDocument(t);
  if (kind !== 'cnpj' && bare.length === 11) {
    if (/[A-Z]/.test(bare)) return fail('a CPF has digits only');
    if (/^(\d)\1{10}$/.test(bare)) return fail('all 11 digits of the CPF are the same');
    return isValidCpf(bare) ? null : fail(`the CPF check digits do not match (${SWAP})`);
  }
  if (kind !== 'cpf' && bare.length === 14) {
    if (!/^[0-9]{2}$/.test(bare.slice(12))) return fail('the last 2 characters of a CNPJ (its check digits) must be digits');
    if (/^(\d)\1{13}$/.test(bare)) return fail('all 14 digits of the CNPJ are the same');
    return isValidCnpj(bare, { version: 2 }) ? null : fail(`the CNPJ check digits do not match (${SWAP})`);
  }
  return fail(`it has ${bare.length} character${bare.length === 1 ? '' : 's'} without the mask; ${sizes}`);
}
