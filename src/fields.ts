/**
 * The fields of each request, in one table: interface path ↔ flag name ↔ prompt text. It
 * drives flag-to-body mapping, error messages that name the flag, the list of missing flags and
 * the interactive prompts. Flags are the interface fields in kebab-case (`payerName` →
 * `--payer-name`, `person.email` → `--person-email`).
 */

/** How a field's text is turned into its JSON value. */
export type FieldKind = 'text' | 'cents' | 'pixKeyType' | 'splits';

/** One field of a request body. */
export interface FieldSpec {
  /** Interface path, e.g. `person.email`. */
  path: string;
  /** Flag, e.g. `--person-email`. */
  flag: string;
  /** commander's attribute name for the flag, e.g. `personEmail`. */
  attr: string;
  /** Prompt text. */
  label: string;
  required: boolean;
  kind: FieldKind;
  /** A valid example, shown in messages and help. */
  example: string;
}

const kebab = (path: string) => path.replace(/\./g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (flag: string) => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function field(path: string, label: string, example: string, required = true, kind: FieldKind = 'text', flag = `--${kebab(path)}`): FieldSpec {
  return { path, flag, attr: camel(flag), label, required, kind, example };
}

/** Cash-in request fields (interface §2.1). */
export const CASHIN_FIELDS: readonly FieldSpec[] = [
  field('value', 'Amount in cents', '1000', true, 'cents'),
  field('payerName', "Payer's name", 'Fulano de Tal'),
  field('payerDocument', "Payer's CPF or CNPJ", '123.456.789-09'),
  field('payerEmail', "Payer's e-mail", 'fulano@example.com'),
  field('payerPhone', "Payer's phone with DDD", '(11) 98765-4321'),
  field('productName', 'Product name', 'Camiseta'),
  field('productDescription', 'Product description', 'Camiseta azul, tamanho M'),
  field('postbackUrl', 'Postback URL (optional)', 'https://example.com/pix/postback', false),
  field('splits', 'Splits (optional)', '123e4567-e12b-12d1-a456-426655440000:300', false, 'splits', '--split'),
];

/** Cash-out request fields (interface §2.3). */
export const CASHOUT_FIELDS: readonly FieldSpec[] = [
  field('value', 'Amount in cents', '1000', true, 'cents'),
  field('pixKeyType', 'PIX key type', 'cpf', true, 'pixKeyType'),
  field('pixKey', 'PIX key', '123.456.789-09'),
  field('cpfCnpj', 'CPF or CNPJ of the key owner (optional)', '123.456.789-09', false),
  field('person.name', "Recipient's name", 'Fulano de Tal'),
  field('person.email', "Recipient's e-mail", 'fulano@example.com'),
  field('person.phone', "Recipient's phone with DDD", '(11) 98765-4321'),
];

/** The field a problem path (`splits.0.clientId`, `person.email`) belongs to. */
export function fieldOf(fields: readonly FieldSpec[], path: string): FieldSpec | undefined {
  return fields.find((f) => path === f.path || path.startsWith(`${f.path}.`));
}
