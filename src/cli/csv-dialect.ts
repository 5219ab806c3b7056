/**
 * The two CSV dialects paycli writes (`history --format csv`, batch results files;
 * docs/output-for-scripts.md "CSV"): `intl`, the comma-separated format scripts read (column
 * names in English, amounts in cents and as `1234,56`), and `br`, what a spreadsheet set to
 * Brazilian Portuguese opens as columns: `;` separated, Portuguese column names, amounts as
 * `1.234,56` (written from integer cents, never through a float), local times. `--csv-dialect`
 * chooses; without it, `br` when Portuguese is on (src/core/i18n), else `intl`.
 */
import { UsageError } from '../core/errors.js';
import { isPortuguese, t } from '../core/i18n/index.js';
import { formatReais } from '../pix/money.js';

export { guardFormula, unguardCell } from '../core/csv-cell.js';

/**
 * The words of paycli's values in the `br` dialect, a Portuguese format whatever the language of the
 * run (its column names are Portuguese too): kinds, outcomes, statuses, key types; `intl` keeps the
 * English words scripts read.
 */
const BR_WORDS: Readonly<Record<string, string>> = {
  cashout: 'saque',
  cashin: 'cobrança',
  ok: 'ok',
  refused: 'recusado',
  unknown: 'desconhecido',
  not_sent: 'não enviado',
  created: 'criado',
  paid: 'pago',
  failed: 'falhou',
  canceled: 'cancelado',
  refund: 'estornado',
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'e-mail',
  phone: 'telefone',
  random: 'aleatória',
};

/** A value as the `br` dialect writes it: `sim`/`não` for a boolean, a known word in Portuguese ({@link BR_WORDS}), anything else as it is. */
export function brValue<T>(value: T): T | string {
  if (typeof value === 'boolean') return value ? 'sim' : 'não';
  return typeof value === 'string' && Object.hasOwn(BR_WORDS, value) ? BR_WORDS[value]! : value;
}

/** The dialects `--csv-dialect` takes. */
export const CSV_DIALECTS = ['br', 'intl'] as const;
export type CsvDialect = (typeof CSV_DIALECTS)[number];

/**
 * `--csv-dialect`, or the language's default.
 * @throws UsageError (exit 2) for another value
 */
export function csvDialect(flag: string | undefined, portuguese = isPortuguese()): CsvDialect {
  if (flag === undefined) return portuguese ? 'br' : 'intl';
  const d = flag.trim().toLowerCase();
  if (d === 'br' || d === 'intl') return d;
  throw new UsageError(t('csv.dialectInvalid', flag), { field: '--csv-dialect' });
}

/** Cents as a Brazilian spreadsheet reads an amount: `123456` → `1.234,56`, `-5` → `-0,05`. */
export function amountBr(cents: number): string {
  return formatReais(cents).replace('R$ ', '');
}

/**
 * A wall-clock time as a Brazilian spreadsheet reads a date and time, without the offset (the
 * spreadsheet would read the offset as text): `24/11/2026 22:30:15`, from the text of
 * src/core/local-time.ts `formatLocalTime` in Portuguese.
 */
export function spreadsheetTime(localPortuguese: string): string {
  return localPortuguese.replace(/ [+-]\d{2}:\d{2}$/, '');
}
