/**
 * A batch row's derived order reference (docs/batch-runs.md "Resume, never pay twice"), from the
 * file's SHA-256, the operation and the row number alone. A module of its own, with nothing but
 * `node:crypto`: the batch's ledger view (src/batch/ledger.ts) needs the older form on every run,
 * a re-run of a finished file included, which loads neither the rows' mapping (src/batch/rows.ts,
 * which re-exports these) nor the schemas (docs/speed.md "A batch re-run without the command tree").
 */
import { createHash } from 'node:crypto';

/** Crockford's base32 alphabet (no I, L, O, U), as ULIDs use. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `bytes` as Crockford base32, `length` characters (5 bits each, from the first byte's high bits). */
function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += CROCKFORD[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
    if (out.length >= length) break;
  }
  return out;
}

/** Digits of the row number in a {@link derivedOrderId} (rows past 999,999,999 get more). */
const ROW_DIGITS = 9;

/**
 * The `orderId` of a row that has none (docs/batch-runs.md "Resume, never pay twice"): `paycli-`,
 * 16 Crockford base32 characters of sha256(file fingerprint, operation) (80 bits, the same for every
 * row of the file), `-` and the row number in 9 digits, e.g. `paycli-8VSB2F58TPFP7J4B-000000042`.
 * The same file run again gives every row the same reference, which is how a re-run finds what was
 * already paid; a row added or removed above another one changes the file's fingerprint, so every
 * reference changes (give an `order-id` column to keep references across edits). A file's references
 * follow one another, so the ledger's index of references takes a wave's rows on one page
 * (docs/speed.md "Disk written per batch row"). A file that an older paycli started keeps the
 * references it was sent with ({@link legacyDerivedOrderId}).
 * @param fileSha256 hex sha256 of the file's bytes
 * @param row data row number, from 1
 */
export function derivedOrderId(fileSha256: string, kind: 'cashin' | 'cashout', row: number): string {
  return `${filePrefix(fileSha256, kind)}${String(row).padStart(ROW_DIGITS, '0')}`;
}

/** The part of {@link derivedOrderId} every row of a file shares (`paycli-<16 characters>-`), hashed once per file, not once a row. */
let lastPrefix: { fileSha256: string; kind: string; prefix: string } | undefined;
function filePrefix(fileSha256: string, kind: 'cashin' | 'cashout'): string {
  if (lastPrefix?.fileSha256 !== fileSha256 || lastPrefix.kind !== kind) {
    const digest = createHash('sha256').update(`paycli-batch\n${fileSha256}\n${kind}`).digest();
    lastPrefix = { fileSha256, kind, prefix: `paycli-${base32(digest, 16)}-` };
  }
  return lastPrefix.prefix;
}

/**
 * The derived `orderId` of paycli before {@link derivedOrderId}: `paycli-` and 26 Crockford base32
 * characters of sha256(file fingerprint, operation, row number), a reference unrelated to the next
 * row's. A file with a row recorded under it at the run's gateway keeps it for every row
 * (src/batch/ledger.ts `legacyReferences`): a row that may have been sent is never sent again
 * under a new reference.
 */
export function legacyDerivedOrderId(fileSha256: string, kind: 'cashin' | 'cashout', row: number): string {
  return `paycli-${base32(createHash('sha256').update(`paycli-batch\n${fileSha256}\n${kind}\n${row}`).digest(), 26)}`;
}
