/**
 * Masking of a person's document and PIX key on a receipt (docs/receipts-and-statements.md
 * "Masking"), as Brazilian banks print them on a Pix comprovante under the LGPD (Lei 13.709/2018):
 * - CPF: only its middle six digits, `***.456.789-**`. This is the rule the federal government set
 *   for publishing a CPF (digits 4 to 9 shown: the "Guia de boas práticas" of the LGPD for the
 *   federal public administration, and the receipts of the banks that follow it);
 * - CNPJ: shown whole: it names a company, whose registration data is public (Receita Federal's
 *   CNPJ register) and is not personal data under the LGPD (art. 5, I: a natural person);
 * - phone: the country code and the last four digits, `+55 (**) *****-4321`;
 * - e-mail: the first two characters of the local part and the whole domain, `fu***@example.com`
 *   (one character when the local part has two or fewer);
 * - random key (EVP): its first and last four characters, `123e****-****-****-****-********0000`.
 * A text that is none of these keeps its first and last two characters at most.
 */
import { bareDocument, isCnpj, isCpf } from './documents.js';

/** A CPF (11 digits, any punctuation) with only digits 4 to 9 shown: `***.456.789-**`. */
export function maskCpf(cpf: string): string {
  const d = bareDocument(cpf);
  return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`;
}

/** A CNPJ written in full, punctuated: `11.222.333/0001-81` (not masked: a company's, not personal data). */
export function formatCnpj(cnpj: string): string {
  const d = bareDocument(cnpj).toUpperCase();
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12, 14)}`;
}

/**
 * A CPF or CNPJ as a receipt shows it: a CPF masked ({@link maskCpf}), a CNPJ in full
 * ({@link formatCnpj}); anything else masked as {@link maskOther}.
 */
export function maskDocument(text: string): string {
  const d = bareDocument(text);
  if (/^[0-9]{11}$/.test(d) && isCpf(d)) return maskCpf(d);
  if (d.length === 14 && isCnpj(d)) return formatCnpj(d);
  if (/^[0-9]{11}$/.test(d)) return maskCpf(d); // a CPF-shaped number with bad check digits is still a person's
  return maskOther(text);
}

/** A phone key (`+5511987654321`) with the country code and its last four digits: `+55 (**) *****-4321`. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/[^0-9]/g, '');
  const national = digits.startsWith('55') && digits.length >= 12 ? digits.slice(2) : digits;
  return `+55 (**) ${'*'.repeat(Math.max(0, national.length - 6))}-${national.slice(-4)}`;
}

/** An e-mail key with the first two characters of its local part (one when it is that short) and its domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return maskOther(email);
  const local = email.slice(0, at);
  return `${local.slice(0, local.length > 2 ? 2 : 1)}***${email.slice(at)}`;
}

/** A random key (UUID) with its first and last four characters; the dashes stay. */
export function maskRandomKey(key: string): string {
  const n = key.length;
  return [...key].map((c, i) => (c === '-' || i < 4 || i >= n - 4 ? c : '*')).join('');
}

/** Any other text: its first and last two characters at most, the rest as `*`. */
export function maskOther(text: string): string {
  const keep = text.length >= 8 ? 2 : text.length >= 4 ? 1 : 0;
  return text.length <= 2 * keep ? '*'.repeat(text.length) : `${text.slice(0, keep)}${'*'.repeat(text.length - 2 * keep)}${text.slice(text.length - keep)}`;
}

/**
 * A PIX key as a receipt shows it, by its type (interface §2.3: 0 CPF, 1 CNPJ, 2 e-mail, 3 phone,
 * 4 random key); without a type, guessed from its shape.
 */
export function maskPixKey(key: string, type?: number): string {
  const k = key.trim();
  const guess = type ?? (/^[0-9]{11}$/.test(k) ? 0 : isCnpj(k) ? 1 : k.includes('@') ? 2 : /^\+[0-9]{12,13}$/.test(k) ? 3 : /^[0-9a-f]{8}-/i.test(k) ? 4 : -1);
  switch (guess) {
    case 0:
      return maskCpf(k);
    case 1:
      return formatCnpj(k);
    case 2:
      return maskEmail(k);
    case 3:
      return maskPhone(k);
    case 4:
      return maskRandomKey(k);
    default:
      return maskOther(k);
  }
}
