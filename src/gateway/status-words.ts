/**
 * The words of the cash-out states (interface §3), apart from the response schemas so that what only
 * shows a status (`history`, its OFX export) loads no schema library. src/gateway/schemas.ts re-exports them.
 */

/**
 * Names of the cash-out states (interface §3), in the gateway family's words, the ones its lookups
 * and postbacks use (docs/sandbox-and-postbacks.md): `0` is `created` (the interface's "Pending"), then `paid`,
 * `failed`, `canceled`, `refund`. paycli shows these words everywhere: cash-out output, `status`,
 * `listen`, `history`.
 */
export const CASH_OUT_STATUS_NAMES = { '0': 'created', '1': 'paid', '2': 'failed', '3': 'canceled', '4': 'refund' } as const;

/**
 * A status as paycli shows it: a cash-out digit (interface §3) by its word in
 * {@link CASH_OUT_STATUS_NAMES} (`'0'` → `created`), a word (a lookup's or a postback's) as it came.
 */
export function statusWord(status: string | number): string {
  const s = String(status);
  return (CASH_OUT_STATUS_NAMES as Record<string, string>)[s] ?? s;
}
