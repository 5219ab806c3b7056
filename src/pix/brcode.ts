/**
 * Pix BR Code ("copia e cola", EMV QR) building and reading, after the Banco Central's
 * "Manual do BR Code" and "Manual de Padrões para Iniciação do Pix" (docs/gateway-contract.md §2.7):
 * TLV objects (2-digit ID, 2-digit length, value); `00`="01"; `01`="12" single use;
 * `26` merchant account (`00`=`br.gov.bcb.pix`, `01` key); `52`="0000"; `53`="986";
 * `54` amount; `58`="BR"; `59` name ≤25; `60` city ≤15; `62`/`05` txid; `63` CRC last.
 *
 * Amounts are written from integer cents and read back to integer cents as text, never through
 * a float (which is why this is not `generatePixPayload` of @brazilian-utils, whose amount is a
 * number); whole-payload validity is cross-checked with its `isValidPixPayload` in the tests.
 */
import { centsToDecimal, decimalToCents } from './money.js';
import { english, isPortuguese, t, type Key, type Params } from '../core/i18n/index.js';

/** The Pix GUI of the merchant account template (BR Code manual). */
export const PIX_GUI = 'br.gov.bcb.pix';

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR) as 4 upper-case
 * hex digits. Check value: `crc16("123456789") === "29B1"`.
 */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * True when `text` ends with the CRC field `6304` and 4 hex digits that are the CRC-16 of everything
 * before them (`6304` included), in either letter case: the check that tells a BR Code read whole
 * from a misread (docs/brcodes.md "Images, ambiguous keys, field limits").
 */
export function crcHolds(text: string): boolean {
  const m = /6304([0-9A-Fa-f]{4})$/.exec(text);
  return m !== null && crc16(text.slice(0, -4)) === m[1]!.toUpperCase();
}

const tlv = (id: string, value: string): string => {
  if (value.length > 99) throw new RangeError(`BR Code object ${id} longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
};

/** Folds text to the printable ASCII the BR Code takes (accents dropped) and truncates it. */
function ascii(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, max);
}

/** What goes into a BR Code. */
export interface BrCodeParams {
  /** Pix key of the receiver, in DICT form. */
  key: string;
  /** Receiver name (folded to ASCII, ≤25). */
  merchantName: string;
  /** Receiver city (folded to ASCII, ≤15). */
  merchantCity: string;
  /** Amount in integer cents. */
  amountCents: number;
  /** Transaction id, 1-25 characters of [A-Za-z0-9]. */
  txid: string;
}

/** Builds a single-use BR Code with amount and txid, ending in its CRC (the sandbox's answers). */
export function buildBrCode(p: BrCodeParams): string {
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', PIX_GUI) + tlv('01', p.key)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', centsToDecimal(p.amountCents)) +
    tlv('58', 'BR') +
    tlv('59', ascii(p.merchantName, 25)) +
    tlv('60', ascii(p.merchantCity, 15)) +
    tlv('62', tlv('05', p.txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***')) +
    '6304';
  return body + crc16(body);
}

/** What `paycli brcode create` puts into a static BR Code (the merchant's own key). */
export interface StaticBrCodeParams {
  /** Pix key in DICT form (see src/pix/pixkey.ts). */
  key: string;
  /** Receiver name, printable ASCII, at most {@link LIMITS.merchantName} characters. */
  merchantName: string;
  /** Receiver city, printable ASCII, at most {@link LIMITS.merchantCity} characters. */
  merchantCity: string;
  /** Amount in integer cents; absent: the payer types the amount. */
  amountCents?: number;
  /** Reference label (62-05), 1-25 of [A-Za-z0-9]; absent: `***`. */
  txid?: string;
  /** Additional information shown to the payer (26-02). */
  info?: string;
}

/**
 * Builds a static BR Code (no point-of-initiation object, as in the Banco Central manual's
 * example, so it may be paid more than once) from already-checked parameters. With the manual's
 * inputs (key `123e4567-e12b-12d1-a456-426655440000`, `Fulano de Tal`, `BRASILIA`, no amount)
 * it is byte-identical to the manual's example.
 * @throws RangeError when an object would be longer than 99 characters
 */
export function buildStaticBrCode(p: StaticBrCodeParams): string {
  const body =
    tlv('00', '01') +
    tlv('26', tlv('00', PIX_GUI) + tlv('01', p.key) + (p.info ? tlv('02', p.info) : '')) +
    tlv('52', '0000') +
    tlv('53', '986') +
    (p.amountCents === undefined ? '' : tlv('54', centsToDecimal(p.amountCents))) +
    tlv('58', 'BR') +
    tlv('59', p.merchantName) +
    tlv('60', p.merchantCity) +
    tlv('62', tlv('05', p.txid || '***')) +
    '6304';
  return body + crc16(body);
}

/**
 * Field limits that payers' banks enforce (Banco Central, Manual do BR Code, table of the
 * EMV objects): merchant name (59) 25, city (60) 15, reference label (62-05) 25, Pix key 77,
 * amount (54) 13, postal code (61) 10.
 */
export const LIMITS = { merchantName: 25, merchantCity: 15, txid: 25, key: 77, objectValue: 99, amount: 13, postalCode: 10 } as const;

/** Where a rule comes from, as shown next to each problem. */
export const SOURCES = {
  emv: 'EMV QRCPS Merchant-Presented Mode, as adopted by the Banco Central (Manual do BR Code)',
  brcode: 'Banco Central, Manual do BR Code',
  iniciacao: 'Banco Central, Manual de Padrões para Iniciação do Pix',
  automatico: 'Banco Central, Pix Automático (QR Code composto, template 80)',
  dict: 'Banco Central, DICT key formats',
} as const;

/**
 * Every rule the decoder checks (docs/brcodes.md). `error`: payers' banks refuse such a code
 * or would read it wrongly (the code is invalid); `warning`: valid to the decoder, but some
 * banks refuse it.
 */
export const RULES = {
  tlv: { severity: 'error', source: 'emv', text: 'every object is a 2-digit ID, a 2-digit length and that many characters' },
  crcLast: { severity: 'error', source: 'emv', text: 'the CRC (63, length 04) is the last object' },
  crcMatch: { severity: 'error', source: 'emv', text: 'the CRC is CRC-16/CCITT-FALSE of everything before it, "6304" included' },
  crcCase: { severity: 'warning', source: 'brcode', text: 'the CRC is written as 4 upper-case hexadecimal digits' },
  formatIndicator: { severity: 'error', source: 'emv', text: 'the payload format indicator (00) is "01"' },
  formatFirst: { severity: 'warning', source: 'emv', text: 'the payload format indicator (00) is the first object' },
  initiation: { severity: 'error', source: 'emv', text: 'the point of initiation method (01), when present, is "11" (static) or "12" (single use)' },
  account: { severity: 'error', source: 'brcode', text: `a merchant account template (26-51) carries the GUI ${PIX_GUI}, or a Pix Automático recurrence template (80) does` },
  keyOrUrl: { severity: 'error', source: 'brcode', text: 'the Pix merchant account carries a key (01) or a location URL (25)' },
  keyAndUrl: { severity: 'error', source: 'brcode', text: 'the Pix merchant account carries a key (01) or a location URL (25), not both' },
  keyForm: { severity: 'warning', source: 'dict', text: 'the Pix key is a CPF, a CNPJ, +55 phone, lower-case e-mail or random key (UUID), at most 77 characters' },
  urlScheme: { severity: 'warning', source: 'iniciacao', text: 'the location URL (25) is written without a scheme (no https://)' },
  mcc: { severity: 'error', source: 'emv', text: 'the merchant category code (52) is present, 4 digits' },
  currency: { severity: 'error', source: 'brcode', text: 'the currency (53) is 986, the real' },
  amount: { severity: 'error', source: 'emv', text: 'the amount (54), when present, is a decimal number greater than zero, with at most 2 decimals' },
  amountLength: { severity: 'error', source: 'emv', text: `the amount (54) has at most ${LIMITS.amount} characters` },
  postalCodeLimit: { severity: 'warning', source: 'emv', text: `the postal code (61) has at most ${LIMITS.postalCode} characters` },
  country: { severity: 'error', source: 'brcode', text: 'the country code (58) is BR' },
  merchantName: { severity: 'error', source: 'emv', text: 'the merchant name (59) is present' },
  merchantCity: { severity: 'error', source: 'emv', text: 'the merchant city (60) is present' },
  nameLimit: { severity: 'warning', source: 'brcode', text: `the merchant name (59) has at most ${LIMITS.merchantName} characters` },
  cityLimit: { severity: 'warning', source: 'brcode', text: `the merchant city (60) has at most ${LIMITS.merchantCity} characters` },
  additional: { severity: 'warning', source: 'brcode', text: 'the additional data template (62) is present, with a reference label (05), "***" when none' },
  txid: { severity: 'warning', source: 'brcode', text: `the reference label (62-05) is "***" or 1-${LIMITS.txid} letters and digits` },
  ascii: { severity: 'warning', source: 'brcode', text: 'the text is printable ASCII (no accents, no control characters)' },
} as const satisfies Record<string, { severity: 'error' | 'warning'; source: keyof typeof SOURCES; text: string }>;

/** The name of a rule in {@link RULES}. */
export type BrCodeRuleId = keyof typeof RULES;

/** One problem the decoder found: what is wrong here, the rule it breaks, and where the rule comes from. */
export interface BrCodeProblem {
  rule: BrCodeRuleId;
  severity: 'error' | 'warning';
  /** What is wrong with this code, in words. */
  message: string;
  /** The rule, in words. */
  ruleText: string;
  /** The document the rule comes from. */
  source: string;
}

/** One TLV object as read: ID, value, and sub-objects for templates. */
export interface BrCodeObject {
  id: string;
  value: string;
}

/** Everything {@link decodeBrCode} reads from a BR Code. Amounts are integer cents. */
export interface DecodedBrCode {
  /** True when no problem of severity `error` was found. */
  valid: boolean;
  /** `static` (a key, payable by any amount or the fixed one in 54) or `dynamic` (a location URL whose payload holds the amount). */
  kind?: 'static' | 'dynamic';
  /** Point of initiation method (01): `11` reusable, `12` single use; absent when the code has none. */
  initiation?: '11' | '12';
  /** Pix key (26-01). */
  key?: string;
  /** Location URL (26-25) of a dynamic code: the payer's bank fetches the amount from it. */
  url?: string;
  /** Additional information for the payer (26-02). */
  info?: string;
  /** Pix Automático recurrence location URL (80-25). */
  recurrenceUrl?: string;
  merchantCategoryCode?: string;
  currency?: string;
  /** Amount of object 54 in cents, when present and well-formed. */
  amountCents?: number;
  country?: string;
  merchantName?: string;
  merchantCity?: string;
  postalCode?: string;
  /** Reference label (62-05); `***` means none. */
  txid?: string;
  /** CRC as written (63). */
  crc?: string;
  /** Objects the decoder does not name, kept as read (top level and inside templates, as `26.03`). */
  unknown: BrCodeObject[];
  problems: BrCodeProblem[];
}

/** Parses one level of TLV objects; `null` when the structure is broken. */
function parseObjects(text: string): BrCodeObject[] | null {
  const out: BrCodeObject[] = [];
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const lenText = text.slice(i + 2, i + 4);
    if (!/^[0-9]{2}$/.test(id) || !/^[0-9]{2}$/.test(lenText)) return null;
    const len = Number(lenText);
    if (i + 4 + len > text.length) return null;
    out.push({ id, value: text.slice(i + 4, i + 4 + len) });
    i += 4 + len;
  }
  return out;
}

const DICT_KEY = [
  /^[0-9]{11}$/, // CPF
  /^[0-9A-Z]{12}[0-9]{2}$/, // CNPJ, numeric or alphanumeric
  /^\+55[1-9][0-9]{9,10}$/, // phone, E.164
  /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/, // e-mail
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, // random key (EVP)
];

/** The text of a problem in the run's language, when it is not English (a problem's `message` stays English: it is in `--json`). */
const shown = new WeakMap<BrCodeProblem, string>();

/**
 * A problem as a person reads it, in the run's language: what is wrong and the rule. Its
 * `message` and `ruleText` (in `--json`) are English in every language (docs/portugues.md).
 */
export function problemText(p: BrCodeProblem): { message: string; ruleText: string; source: string } {
  if (!isPortuguese()) return { message: p.message, ruleText: p.ruleText, source: p.source };
  const source = (Object.keys(SOURCES) as Array<keyof typeof SOURCES>).find((k) => SOURCES[k] === p.source);
  return { message: shown.get(p) ?? p.message, ruleText: t(`brcodeRule.${p.rule}`), source: source ? t(`brcodeSource.${source}`) : p.source };
}

/**
 * Decodes a BR Code (Pix "copia e cola") and checks it against {@link RULES}. Never throws; a
 * code that is not even TLV comes back with one `tlv` problem and nothing else.
 */
export function decodeBrCode(text: string): DecodedBrCode {
  const problems: BrCodeProblem[] = [];
  // the message in English for JSON (the same in every language), in the run's language for people
  const add = <K extends Key>(rule: BrCodeRuleId, key: K, ...params: Params<K>) => {
    const r = RULES[rule];
    const problem: BrCodeProblem = { rule, severity: r.severity, message: english(key, ...params), ruleText: r.text, source: SOURCES[r.source] };
    if (isPortuguese()) shown.set(problem, t(key, ...params));
    problems.push(problem);
  };
  const out: DecodedBrCode = { valid: false, unknown: [], problems };
  const top = parseObjects(text);
  if (!top) {
    add('tlv', 'brcodeProblem.notTlv');
    return out;
  }
  const get = (id: string) => top.find((o) => o.id === id)?.value;
  const crc = get('63');
  const last = top[top.length - 1];
  if (!last || last.id !== '63' || last.value.length !== 4) add('crcLast', 'brcodeProblem.crcLast');
  else {
    out.crc = crc;
    const expected = crc16(text.slice(0, -4));
    if (expected !== last.value.toUpperCase()) add('crcMatch', 'brcodeProblem.crcMatch', last.value, expected);
    else if (last.value !== expected) add('crcCase', 'brcodeProblem.crcCase', last.value);
  }
  const format = get('00');
  if (format !== '01') add('formatIndicator', 'brcodeProblem.formatIndicator', format);
  else if (top[0]?.id !== '00') add('formatFirst', 'brcodeProblem.formatFirst');
  const initiation = get('01');
  if (initiation !== undefined) {
    if (initiation === '11' || initiation === '12') out.initiation = initiation;
    else add('initiation', 'brcodeProblem.initiation', initiation);
  }
  let account = false;
  for (const o of top) {
    const n = Number(o.id);
    if (n >= 26 && n <= 51) {
      const sub = parseObjects(o.value);
      if (!sub) {
        add('tlv', 'brcodeProblem.accountNotTlv', o.id);
        continue;
      }
      if (sub.find((s) => s.id === '00')?.value.toLowerCase() !== PIX_GUI) {
        out.unknown.push(o);
        continue;
      }
      account = true;
      for (const s of sub) {
        if (s.id === '01') out.key = s.value;
        else if (s.id === '25') out.url = s.value;
        else if (s.id === '02') out.info = s.value;
        else if (s.id !== '00') out.unknown.push({ id: `${o.id}.${s.id}`, value: s.value });
      }
    } else if (n === 80) {
      const sub = parseObjects(o.value);
      if (sub?.find((s) => s.id === '00')?.value.toLowerCase() === PIX_GUI) {
        account = true;
        out.recurrenceUrl = sub.find((s) => s.id === '25')?.value;
        for (const s of sub) if (s.id !== '00' && s.id !== '25') out.unknown.push({ id: `80.${s.id}`, value: s.value });
      } else out.unknown.push(o);
    } else if (!['00', '01', '52', '53', '54', '58', '59', '60', '61', '62', '63'].includes(o.id)) out.unknown.push(o);
  }
  if (!account) add('account', 'brcodeProblem.account', PIX_GUI);
  else if (!out.key && !out.url && !out.recurrenceUrl) add('keyOrUrl', 'brcodeProblem.keyOrUrl');
  else if (out.key !== undefined && out.url !== undefined) add('keyAndUrl', 'brcodeProblem.keyAndUrl');
  out.kind = out.url ? 'dynamic' : out.key ? 'static' : out.recurrenceUrl ? 'dynamic' : undefined;
  if (out.key !== undefined && (out.key.length > LIMITS.key || !DICT_KEY.some((re) => re.test(out.key!)))) add('keyForm', 'brcodeProblem.keyForm', out.key);
  for (const u of [out.url, out.recurrenceUrl]) if (u !== undefined && /^[a-z]+:\/\//i.test(u)) add('urlScheme', 'brcodeProblem.urlScheme', u);
  out.merchantCategoryCode = get('52');
  if (!/^[0-9]{4}$/.test(out.merchantCategoryCode ?? '')) add('mcc', 'brcodeProblem.mcc', out.merchantCategoryCode);
  out.currency = get('53');
  if (out.currency !== '986') add('currency', 'brcodeProblem.currency', out.currency);
  const amountText = get('54');
  if (amountText !== undefined) {
    const cents = decimalToCents(amountText);
    if (amountText.length > LIMITS.amount) add('amountLength', 'brcodeProblem.amountLength', amountText);
    else if (cents === null || cents <= 0) add('amount', 'brcodeProblem.amount', amountText);
    else out.amountCents = cents;
  }
  out.country = get('58');
  if (out.country !== 'BR') add('country', 'brcodeProblem.country', out.country);
  out.merchantName = get('59');
  if (out.merchantName === undefined || out.merchantName === '') add('merchantName', 'brcodeProblem.merchantName');
  else if (out.merchantName.length > LIMITS.merchantName) add('nameLimit', 'brcodeProblem.nameLimit', out.merchantName.length);
  out.merchantCity = get('60');
  if (out.merchantCity === undefined || out.merchantCity === '') add('merchantCity', 'brcodeProblem.merchantCity');
  else if (out.merchantCity.length > LIMITS.merchantCity) add('cityLimit', 'brcodeProblem.cityLimit', out.merchantCity.length);
  out.postalCode = get('61');
  if (out.postalCode !== undefined && out.postalCode.length > LIMITS.postalCode) add('postalCodeLimit', 'brcodeProblem.postalCodeLimit', out.postalCode.length);
  const additional = get('62');
  const extra = additional === undefined ? undefined : parseObjects(additional);
  if (additional !== undefined && !extra) add('tlv', 'brcodeProblem.additionalNotTlv');
  out.txid = extra?.find((s) => s.id === '05')?.value;
  for (const s of extra ?? []) if (s.id !== '05') out.unknown.push({ id: `62.${s.id}`, value: s.value });
  if (out.txid === undefined) add('additional', 'brcodeProblem.additional', additional !== undefined);
  else if (out.txid !== '***' && !new RegExp(`^[A-Za-z0-9]{1,${LIMITS.txid}}$`).test(out.txid)) add('txid', 'brcodeProblem.txid', out.txid, LIMITS.txid);
  if (/[^\x20-\x7e]/.test(text)) add('ascii', 'brcodeProblem.ascii');
  out.valid = !problems.some((p) => p.severity === 'error');
  return out;
}
