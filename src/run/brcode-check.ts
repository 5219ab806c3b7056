/**
 * Checks the BR Code a gateway returned (docs/gateway-contract.md §2.2, §2.7): a bad CRC, a missing PIX GUI or an amount
 * other than the one requested gets a warning on stderr. The transaction exists either way, so
 * the result is still printed.
 */
import { isValidPixPayload } from '@brazilian-utils/brazilian-utils/is-valid-pix-payload';
import { readBrCode } from '../brcode.js';
import { formatReais } from '../money.js';

/** Returns the warnings for `qrCode` given the requested amount in cents; empty when sound. */
export function checkBrCode(qrCode: string, requestedCents: number): string[] {
  const report = readBrCode(qrCode);
  const warnings = report.problems.map((p) => `the BR Code returned by the gateway is not valid: ${p}. Do not hand it to a payer.`);
  if (!report.problems.length && !isValidPixPayload(qrCode)) warnings.push('the BR Code returned by the gateway is not a valid PIX payload. Do not hand it to a payer.');
  if (report.amountCents !== undefined && report.amountCents !== requestedCents) {
    warnings.push(`the BR Code asks the payer for ${formatReais(report.amountCents)}, but the cash-in was for ${formatReais(requestedCents)}.`);
  }
  return warnings;
}
