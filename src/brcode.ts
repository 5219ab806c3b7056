/**
 * PIX BR Code ("copia e cola", EMV QR) building and reading, after the Banco Central's
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

/** The PIX GUI of the merchant account template (BR Code manual). */
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

const tlv = (id: string, value: string): string => {
  if (value.length > 99) throw new RangeError(`BR Code object ${id} longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
};

/** Folds text to the printable ASCII the BR Code takes (accents dropped) and truncates it. */
function ascii(text: string, max: number): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '').slice(0, max);
}

/** What goes into a BR Code. */
export interface BrCodeParams {
  /** PIX key of the receiver, in DICT form. */
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

/** Builds a single-use BR Code with amount and txid, ending in its CRC. */
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

/** What {@link readBrCode} finds in a BR Code; `problems` is empty for a sound one. */
export interface BrCodeReport {
  /** Amount of object 54 in cents, when present and well-formed. */
  amountCents?: number;
  /** Transaction id of object 62-05, when present and not `***`. */
  txid?: string;
  /** PIX key (26-01) or location URL (26-25). */
  key?: string;
  url?: string;
  /** Human-readable problems: bad structure, bad CRC, missing PIX GUI. */
  problems: string[];
}

function parseTlv(text: string): Map<string, string> | null {
  const out = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const len = Number(text.slice(i + 2, i + 4));
    if (!/^[0-9]{2}$/.test(id) || !/^[0-9]{2}$/.test(text.slice(i + 2, i + 4)) || i + 4 + len > text.length) return null;
    out.set(id, text.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

/**
 * Reads a BR Code and reports what is wrong with it (structure, CRC, PIX GUI), its amount in
 * cents and its txid. Never throws.
 */
export function readBrCode(text: string): BrCodeReport {
  const problems: string[] = [];
  const top = parseTlv(text);
  if (!top) return { problems: ['it is not a BR Code (its TLV structure is broken)'] };
  const crc = top.get('63');
  if (!text.slice(-8).startsWith('6304') || crc === undefined) problems.push('it has no CRC as its last object');
  else if (crc16(text.slice(0, -4)) !== crc.toUpperCase()) problems.push(`its CRC ${crc} does not match (expected ${crc16(text.slice(0, -4))})`);
  if (top.get('00') !== '01') problems.push('its payload format indicator (00) is not 01');
  let key: string | undefined;
  let url: string | undefined;
  let gui = false;
  for (let id = 26; id <= 51; id++) {
    const t = top.get(String(id));
    if (!t) continue;
    const sub = parseTlv(t);
    if (sub?.get('00')?.toLowerCase() === PIX_GUI) {
      gui = true;
      key = sub.get('01');
      url = sub.get('25');
    }
  }
  if (!gui) problems.push(`it carries no PIX merchant account (GUI ${PIX_GUI})`);
  const amountText = top.get('54');
  const amountCents = amountText === undefined ? undefined : (decimalToCents(amountText) ?? undefined);
  if (amountText !== undefined && amountCents === undefined) problems.push(`its amount "${amountText}" is not a decimal number`);
  const txid = top.get('62') ? parseTlv(top.get('62')!)?.get('05') : undefined;
  return { amountCents, txid: txid && txid !== '***' ? txid : undefined, key, url, problems };
}
