/**
 * PIX key checks against the key type the user declared, returning the DICT form the gateway
 * expects (docs/gateway-contract.md §2.6; Banco Central, "Formatação das chaves do DICT"):
 * CPF 11 digits, CNPJ 14 characters (letters upper-case), e-mail lower-case ≤77 characters in
 * the DICT's ASCII characters (src/pix/contact.ts), phone E.164 `+55` + an Anatel DDD +
 * number, random key (EVP) a lower-case UUID of any version. The key types and their names are
 * the one table in src/pix/pix-key-types.ts.
 */
import { t as tr } from '../core/i18n/index.js';
import { getPixKeyInfo } from '@brazilian-utils/brazilian-utils/get-pix-key-info';
import { parsePixKeyType, PIX_KEY_TYPES, type PixKeyTypeValue } from './pix-key-types.js';
import { bareDocument, dictEmailProblem, documentProblem, isCnpj, isCpf, normaliseEmailKey, normalisePhone, phoneProblem } from './validators.js';

export { PIX_KEY_TYPES, parsePixKeyType, type PixKeyTypeName, type PixKeyTypeValue } from './pix-key-types.js';

/** Maximum length of any PIX key (DICT). */
export const MAX_PIX_KEY = 77;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Normalises `key` as a key of type `type`; `null` when it is not one. */
function normaliseAs(type: PixKeyTypeValue, key: string): string | null {
  const t = key.trim();
  switch (type) {
    case 0:
      return isCpf(t) ? bareDocument(t) : null;
    case 1:
      return isCnpj(t) ? bareDocument(t) : null;
    case 2:
      return normaliseEmailKey(t);
    case 3: {
      const digits = normalisePhone(t);
      return digits && digits.length === 11 ? `+55${digits}` : null;
    }
    case 4: {
      const u = t.replace(/[A-F]/g, (c) => c.toLowerCase());
      return UUID.test(u) ? u : null;
    }
  }
}

/** Result of {@link checkPixKey}. */
export type PixKeyCheck = { ok: true; key: string } | { ok: false; message: string };

/** What is wrong with `key` as a key of type `type` (it is known not to be one). */
function keyProblem(type: PixKeyTypeValue, key: string): string {
  const t = key.trim();
  switch (type) {
    case 0:
      if (/[^0-9.\s/-]/.test(t)) return tr('pixkey.notCpf');
      return documentProblem(t, 'cpf') ?? tr('pixkey.notCpfShort');
    case 1:
      if (/[^0-9A-Za-z.\s/-]/.test(t)) return tr('pixkey.notCnpj');
      return documentProblem(t, 'cnpj') ?? tr('pixkey.notCnpjShort');
    case 2:
      return dictEmailProblem(t) ?? tr('pixkey.notEmail');
    case 3:
      return phoneProblem(t) ?? tr('pixkey.landline');
    case 4:
      return tr('pixkey.notRandom');
  }
}

/** The type a key that fits no type looks like, by its shape alone. */
function shapeOf(key: string): PixKeyTypeValue | null {
  const t = key.trim();
  if (t.includes('@')) return 2;
  if (/^[0-9a-z]{8}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{12}$/i.test(t)) return 4;
  if (t.startsWith('+') || /^\(\d\d\)/.test(t)) return 3;
  const bare = bareDocument(t);
  if (/^[0-9]{11}$/.test(bare)) return 0;
  if (/^[0-9A-Z]{12}[0-9]{2}$/.test(bare)) return 1;
  return null;
}

/**
 * Checks a PIX key against its declared type and returns it in DICT form.
 * When the key does not fit the declared type but fits (or is shaped like) another, the message
 * names that type (e.g. "it looks like an e-mail key: use --pix-key-type email").
 */
export function checkPixKey(type: PixKeyTypeValue, key: string): PixKeyCheck {
  const normal = normaliseAs(type, key);
  if (normal !== null) return { ok: true, key: normal };
  const declared = PIX_KEY_TYPES[type];
  const other = PIX_KEY_TYPES.find((k) => k.value !== type && normaliseAs(k.value, key) !== null);
  const info = other ? null : getPixKeyInfo(key);
  const infoValue = info ? parsePixKeyType(info.type, { numbers: false }) : null;
  const infoType = infoValue !== null ? PIX_KEY_TYPES[infoValue] : undefined;
  const shape = shapeOf(key);
  const guess = other ?? infoType ?? (shape !== null ? PIX_KEY_TYPES[shape] : undefined);
  const hint = guess && guess.value !== type ? tr('pixkey.looksLike', tr(`pixkey.noun.${guess.name}`), guess.name) : '';
  return { ok: false, message: `${keyProblem(type, key)}${hint}${tr('pixkey.example', tr(`pixkey.noun.${declared.name}`), declared.example)}` };
}
