/**
 * The ledger's entry ids (src/ledger/ledger.ts, src/ledger/pg/ledger.ts): one generator for both
 * stores, in a file of its own so that the team ledger does not load the local one.
 */
import { randomFill } from '../core/random.js';

/** Random bytes for the next {@link POOL_UUIDS} UUIDs, filled at once (a batch makes one UUID per row). */
const POOL_UUIDS = 256;
const POOL = Buffer.alloc(16 * POOL_UUIDS);
/** Where the next UUID's 16 bytes start in {@link POOL}; at its end the pool is filled again. */
let next = POOL.length;

/**
 * A UUID version 7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, then 74 random bits. An
 * entry's `uuid` is unique like a version 4 one, but entries recorded one after another get
 * neighbouring keys, so the `uuid` index grows at its end instead of at random pages: a batch of
 * thousands of rows writes a fraction of the pages to the write-ahead log (docs/speed.md).
 * @param now milliseconds since the Unix epoch (tests pass their own)
 */
export function uuidV7(now = Date.now()): string {
  if (next === POOL.length) {
    randomFill(POOL);
    next = 0;
  }
  const at = next;
  next += 16;
  POOL.writeUIntBE(now, at, 6);
  POOL[at + 6] = (POOL[at + 6]! & 0x0f) | 0x70; // version 7
  POOL[at + 8] = (POOL[at + 8]! & 0x3f) | 0x80; // variant 10
  const h = POOL.toString('hex', at, at + 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
