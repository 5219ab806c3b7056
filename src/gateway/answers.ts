/**
 * Classification of a gateway's answer about money (docs/output-for-scripts.md "Exit codes", exit 6): what in a
 * well-formed 200 answer tells a person to look before trusting it. Pure functions; amounts are
 * integer cents, compared as BigInt so no answer can lose precision.
 */
import { formatReais } from '../pix/money.js';
import { CASH_OUT_STATUS_NAMES } from './status-words.js';
import type { CashOutResponse } from './schemas.js';

/** Formats cents that may exceed a safe integer (a hostile answer) without a float. */
const reais = (cents: bigint): string => (cents >= BigInt(Number.MIN_SAFE_INTEGER) && cents <= BigInt(Number.MAX_SAFE_INTEGER) ? formatReais(Number(cents)) : `${cents} cents`);

/**
 * The problems of a cash-out answer (interface §2.4, §3) for a request of `requestedCents`:
 * - `status` at creation other than 0 (created) or 1 (paid): 2 failed, 3 canceled, 4 refund;
 * - `gross` different from the requested amount;
 * - `tax` negative or greater than `gross`;
 * - `liquid` different from `gross - tax` (the interface's sample).
 * @returns one sentence per problem; empty when the answer is sound
 */
export function cashOutAnswerProblems(requestedCents: number, res: Pick<CashOutResponse, 'gross' | 'tax' | 'liquid' | 'status'>): string[] {
  if (soundInNumbers(requestedCents, res)) return [];
  const problems: string[] = [];
  if (res.status !== '0' && res.status !== '1')
    problems.push(`the gateway created the cash-out with status ${res.status} (${CASH_OUT_STATUS_NAMES[res.status]}): check whether the money moved`);
  const gross = BigInt(res.gross);
  const tax = BigInt(res.tax);
  const liquid = BigInt(res.liquid);
  if (gross !== BigInt(requestedCents)) problems.push(`the gateway's gross amount (${reais(gross)}) differs from the requested ${formatReais(requestedCents)}`);
  if (tax < 0n) problems.push(`the gateway's fee (${res.tax} cents) is negative`);
  else if (tax > gross) problems.push(`the gateway's fee (${reais(tax)}) is greater than the gross amount (${reais(gross)})`);
  if (gross - tax !== liquid) problems.push(`the gateway's net amount (${reais(liquid)}) is not gross (${reais(gross)}) minus fee (${reais(tax)})`);
  return problems;
}

/** Largest gross amount checked as a number: `gross - tax` stays exact (a tax of at most 15 digits is below 2^50). */
const NUMBER_GROSS_MAX = 2 ** 52;

/**
 * True when the answer is sound by the rules of {@link cashOutAnswerProblems}, decided without
 * BigInt where every amount is exact as a number (a gross up to 2^52 cents, a fee and a net of at most 15
 * characters); false sends the answer through the BigInt checks, which word each problem. A batch
 * checks one answer a row (docs/speed.md, "The batch send's CPU").
 */
function soundInNumbers(requestedCents: number, res: Pick<CashOutResponse, 'gross' | 'tax' | 'liquid' | 'status'>): boolean {
  const { gross, tax, liquid } = res;
  if (res.status !== '0' && res.status !== '1') return false;
  if (!Number.isSafeInteger(gross) || Math.abs(gross) > NUMBER_GROSS_MAX || tax.length > 15 || liquid.length > 15) return false;
  const fee = Number(tax);
  const net = Number(liquid);
  return gross === requestedCents && fee >= 0 && fee <= gross && gross - fee === net;
}
