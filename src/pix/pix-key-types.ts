/**
 * The one table of PIX key types. Every place that reads or shows a key type uses it: the
 * `--pix-key-type` flag (and its completion), `pixKeyType` in `--input`, the interactive select
 * list, the cash-out summary and `history`. It accepts, in any letter case, paycli's short names
 * (`cpf`, `cnpj`, `email`, `phone`, `random`), the interface's names (`CPF`, `CNPJ`, `EMAIL`,
 * `TELEFONE`, `RANDOM_KEY`, interface §2.3), the DICT names (`CPF`, `CNPJ`, `EMAIL`, `PHONE`, `EVP`,
 * Banco Central, "Manual de Padrões para Iniciação do Pix") and a few common spellings
 * (`e-mail`, `celular`, `aleatoria`, `chave aleatória`), and on the command line the interface
 * numbers `0`-`4`. No dependencies: the command definitions load it at start-up.
 */

import { t } from '../core/i18n/index.js';

/** One PIX key type. */
export interface PixKeyType {
  /** The interface's `pixKeyType` number (interface §2.3). */
  value: 0 | 1 | 2 | 3 | 4;
  /** paycli's short name: what help, completion, the summary and history show. */
  name: 'cpf' | 'cnpj' | 'email' | 'phone' | 'random';
  /** The interface's name (interface §2.3). */
  label: 'CPF' | 'CNPJ' | 'EMAIL' | 'TELEFONE' | 'RANDOM_KEY';
  /** The DICT's name. */
  dict: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
  /** Other spellings accepted. */
  aliases: readonly string[];
  /** For messages: "a CPF key", "an e-mail key". */
  noun: string;
  /** What the select list says about it. */
  description: string;
  /** A valid key of this type. */
  example: string;
}

/** The table, indexed by the interface number (`PIX_KEY_TYPES[3]` is the phone type). */
export const PIX_KEY_TYPES = [
  { value: 0, name: 'cpf', label: 'CPF', dict: 'CPF', aliases: [], noun: 'a CPF', description: 'CPF (11 digits)', example: '123.456.789-09' },
  { value: 1, name: 'cnpj', label: 'CNPJ', dict: 'CNPJ', aliases: [], noun: 'a CNPJ', description: 'CNPJ (14 characters, letters allowed)', example: '12.ABC.345/01DE-35' },
  { value: 2, name: 'email', label: 'EMAIL', dict: 'EMAIL', aliases: ['e-mail'], noun: 'an e-mail', description: 'e-mail address', example: 'fulano@example.com' },
  {
    value: 3,
    name: 'phone',
    label: 'TELEFONE',
    dict: 'PHONE',
    aliases: ['celular', 'cell', 'mobile'],
    noun: 'a phone',
    description: 'mobile phone (+55, DDD, number)',
    example: '+5511987654321',
  },
  {
    value: 4,
    name: 'random',
    label: 'RANDOM_KEY',
    dict: 'EVP',
    aliases: ['random-key', 'aleatoria', 'aleatória', 'chave-aleatoria', 'chave-aleatória'],
    noun: 'a random',
    description: 'random key (EVP, a UUID)',
    example: '123e4567-e12b-12d1-a456-426655440000',
  },
] as const satisfies readonly PixKeyType[];

export type PixKeyTypeValue = PixKeyType['value'];
export type PixKeyTypeName = PixKeyType['name'];

/** paycli's short names, in interface order: what help and completion offer. */
export const PIX_KEY_TYPE_NAMES: readonly PixKeyTypeName[] = PIX_KEY_TYPES.map((t) => t.name);

/** Every accepted spelling, lower-case, spaces and `_` read as `-`. */
const BY_SPELLING = new Map<string, PixKeyTypeValue>();
for (const t of PIX_KEY_TYPES) for (const s of [t.name, t.label, t.dict, ...t.aliases]) BY_SPELLING.set(fold(s), t.value);

function fold(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

/**
 * Reads a key type by name, in any of the table's spellings and any letter case (`evp`, `EVP`,
 * `RANDOM_KEY`, `telefone`, `E-mail`).
 * @param opts.numbers also accept the interface numbers `0`-`4` written as text (the flag and the
 *   prompts do; in `--input` the number must be a JSON integer, not a string)
 * @returns the interface number, or `null` when unknown
 */
export function parsePixKeyType(text: string, opts: { numbers?: boolean } = { numbers: true }): PixKeyTypeValue | null {
  const t = fold(text);
  if (opts.numbers && /^[0-4]$/.test(t)) return Number(t) as PixKeyTypeValue;
  return BY_SPELLING.get(t) ?? null;
}

/** The words of a "use one of …" message: `cpf, cnpj, email, phone, random`. */
export function pixKeyTypeHelp(): string {
  return t('pixkey.typeHelp', PIX_KEY_TYPE_NAMES.join(', '));
}
