/**
 * PIX key checks against the key type the user declared, returning the DICT form the gateway
 * expects (field-notes, "PIX key formats (DICT)"; Banco Central, "Formatação das chaves do DICT"):
 * CPF 11 digits, CNPJ 14 characters (letters upper-case), e-mail lower-case ≤77 characters,
 * phone E.164 `+55` + DDD + number, random key (EVP) a lower-case UUID of any version.
 */
import { getPixKeyInfo } from '@brazilian-utils/brazilian-utils/get-pix-key-info';
import { bareDocument, isCnpj, isCpf, isEmail, normalisePhone } from './index.js';

/** The interface's `pixKeyType` values (interface §2.3). */
export const PIX_KEY_TYPES = [
  { value: 0, name: 'cpf', label: 'CPF', example: '123.456.789-09' },
  { value: 1, name: 'cnpj', label: 'CNPJ', example: '12.ABC.345/01DE-35' },
  { value: 2, name: 'email', label: 'EMAIL', example: 'fulano@example.com' },
  { value: 3, name: 'phone', label: 'TELEFONE', example: '+5511987654321' },
  { value: 4, name: 'random', label: 'RANDOM_KEY', example: '123e4567-e12b-12d1-a456-426655440000' },
] as const;
export type PixKeyTypeValue = (typeof PIX_KEY_TYPES)[number]['value'];
export type PixKeyTypeName = (typeof PIX_KEY_TYPES)[number]['name'];

/** Maximum length of any PIX key (DICT). */
export const MAX_PIX_KEY = 77;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Reads `--pix-key-type`: a name (`cpf`, `cnpj`, `email`, `phone`, `random`, also the interface's
 * labels `TELEFONE`, `RANDOM_KEY`, `evp`) or the interface number `0`..`4`.
 * @returns the interface number, or `null` when unknown
 */
export function parsePixKeyType(text: string): PixKeyTypeValue | null {
  const t = text.trim().toLowerCase();
  for (const k of PIX_KEY_TYPES) {
    if (t === String(k.value) || t === k.name || t === k.label.toLowerCase()) return k.value;
  }
  if (t === 'evp' || t === 'telefone') return t === 'evp' ? 4 : 3;
  return null;
}

/** Normalises `key` as a key of type `type`; `null` when it is not one. */
function normaliseAs(type: PixKeyTypeValue, key: string): string | null {
  const t = key.trim();
  switch (type) {
    case 0:
      return isCpf(t) && /^[0-9.\s-]+$/.test(t) ? bareDocument(t) : null;
    case 1:
      return isCnpj(t) ? bareDocument(t) : null;
    case 2: {
      const e = t.toLowerCase();
      return e.length <= MAX_PIX_KEY && isEmail(e) ? e : null;
    }
    case 3: {
      const digits = normalisePhone(t);
      return digits && digits.length === 11 ? `+55${digits}` : null;
    }
    case 4: {
      const u = t.toLowerCase();
      return UUID.test(u) ? u : null;
    }
  }
}

/** Result of {@link checkPixKey}. */
export type PixKeyCheck =
  | { ok: true; key: string }
  | { ok: false; message: string };

/**
 * Checks a PIX key against its declared type and returns it in DICT form.
 * When the key does not fit the declared type but fits another, the message names that type
 * (e.g. "this looks like an e-mail key: use --pix-key-type email").
 */
export function checkPixKey(type: PixKeyTypeValue, key: string): PixKeyCheck {
  const normal = normaliseAs(type, key);
  if (normal !== null) return { ok: true, key: normal };
  const declared = PIX_KEY_TYPES[type];
  let hint = '';
  const other = PIX_KEY_TYPES.find((k) => k.value !== type && normaliseAs(k.value, key) !== null);
  const info = other ? null : getPixKeyInfo(key);
  const guess = other ?? (info ? PIX_KEY_TYPES.find((k) => k.name === (info.type === 'evp' ? 'random' : info.type)) : undefined);
  if (guess) hint = `; it looks like a ${guess.name} key: use --pix-key-type ${guess.name}`;
  const what =
    type === 0 || type === 1
      ? `not a valid ${declared.label} (check digits do not match, or wrong length)`
      : type === 3
        ? 'not a Brazilian mobile number (+55, DDD and 9 digits)'
        : type === 2
          ? `not an e-mail address of at most ${MAX_PIX_KEY} characters`
          : 'not a random key (a UUID such as 123e4567-e12b-12d1-a456-426655440000)';
  return { ok: false, message: `is ${what} for --pix-key-type ${declared.name}${hint}; example: ${declared.example}` };
}
