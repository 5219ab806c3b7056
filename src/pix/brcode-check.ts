/**
 * Checks the BR Code a gateway returned for a cash-in (docs/brcodes.md, docs/gateway-contract.md),
 * with the one decoder of src/pix/brcode.ts. The transaction exists either way, so the result is
 * always printed; what a payer's bank would get wrong makes the run end with exit 6.
 */
import { decodeBrCode, problemText, type DecodedBrCode } from './brcode.js';
import { t } from '../core/i18n/index.js';
import { formatReais } from './money.js';

/** The verdict on a cash-in's BR Code. */
export interface CashInBrCodeCheck {
  /** Problems that need a person (exit 6): an invalid code, no amount, another amount. */
  attention: string[];
  /** Problems some banks refuse (field limits, structure): warnings only. */
  warnings: string[];
  /** A line for the human output, e.g. that a dynamic code's amount is in its URL's payload. */
  note?: string;
  decoded: DecodedBrCode;
}

/**
 * Judges `qrCode` for a cash-in of `requestedCents` (integer cents):
 * - invalid code (any `error` rule of src/pix/brcode.ts): needs attention;
 * - static code (a key) without an amount: needs attention, the payer would type any amount;
 * - static code for another amount: needs attention;
 * - dynamic code (a location URL): field 54 is not compared, since the payer's bank takes the
 *   amount from the URL's payload (`note` says so);
 * - Pix Automático (recurrence template 80 only): no amount to compare;
 * - `warning` rules (field limits, structure): warnings.
 */
export function checkCashInBrCode(qrCode: string, requestedCents: number): CashInBrCodeCheck {
  const decoded = decodeBrCode(qrCode);
  const attention: string[] = [];
  const warnings: string[] = [];
  for (const p of decoded.problems) {
    const text = problemText(p);
    if (p.severity === 'error') attention.push(t('brcodeCheck.invalid', text.message));
    else warnings.push(t('brcodeCheck.warning', text.message, text.ruleText));
  }
  let note: string | undefined;
  if (decoded.valid) {
    if (decoded.url) note = t('brcodeCheck.dynamic', decoded.url);
    else if (decoded.key) {
      if (decoded.amountCents === undefined) attention.push(t('brcodeCheck.noAmount', formatReais(requestedCents)));
      else if (decoded.amountCents !== requestedCents) attention.push(t('brcodeCheck.otherAmount', formatReais(decoded.amountCents), formatReais(requestedCents)));
    } else if (decoded.recurrenceUrl) note = t('brcodeCheck.recurrence', decoded.recurrenceUrl);
  }
  return { attention, warnings, note, decoded };
}
