/**
 * Random bytes and SHA-256 digests for one payment without loading node:crypto.
 *
 * On Node 20 `require('node:crypto')` loads some 15 internal modules (ciphers, key derivations, X.509) and the
 * global Web Crypto as many again: together about 19 M instructions, about 3% of a local cash-out, which needs 36
 * random bytes (the order reference, the run's id, an entry's uuid) and one SHA-256 (its fingerprint)
 * (docs/speed.md "Crypto off a cash-out's path"). The bytes come from the kernel's generator, `/dev/urandom`
 * (the source node:crypto's own generator seeds from), read with the file functions every command has loaded;
 * where that file cannot be read (Windows) they come from node:crypto. Digests are `@noble/hashes` (audited) for
 * the first {@link JS_DIGESTS}, then node:crypto's own: a batch of thousands of rows gets the native hash.
 */
import { sha256 as jsSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { closeSync, openSync, readSync } from 'node:fs';

/** How many digests are computed in JavaScript before node:crypto is loaded for the rest. */
export const JS_DIGESTS = 16;

let nodeCrypto: typeof import('node:crypto') | undefined;
const crypto = (): typeof import('node:crypto') => (nodeCrypto ??= require('node:crypto') as typeof import('node:crypto'));

/**
 * Fills `bytes` with cryptographically secure random bytes and returns it.
 * @param bytes the buffer to fill, any length
 * @throws Error when neither `/dev/urandom` nor node:crypto can give them (nothing is then sent)
 */
export function randomFill<T extends Uint8Array>(bytes: T): T {
  let at = 0;
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      for (let n = 1; at < bytes.length && n > 0; at += n) n = readSync(fd, bytes, at, bytes.length - at, null);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    // a system error (no such file, no permission) sends the work to node:crypto; anything else is a bug and stays one
    if (typeof (err as NodeJS.ErrnoException).code !== 'string') throw err;
    at = -1;
  }
  if (at !== bytes.length) crypto().randomFillSync(bytes);
  return bytes;
}

/**
 * `n` random bytes in hex (2 × `n` characters).
 * @param n how many bytes
 */
export function randomHex(n: number): string {
  return Buffer.from(randomFill(new Uint8Array(n)).buffer).toString('hex');
}

let digests = 0;
let nativeSha256: ((text: string) => string) | undefined;

/**
 * The SHA-256 of `text` (as UTF-8) in lowercase hex: the same digest whichever implementation computes it.
 * @param text any string
 */
export function sha256Hex(text: string): string {
  if (digests < JS_DIGESTS) {
    digests++;
    return bytesToHex(jsSha256(new TextEncoder().encode(text)));
  }
  if (nativeSha256 === undefined) {
    const c = crypto();
    // `crypto.hash` where the Node line has it (20.12 and later): one call, no `Hash` object
    nativeSha256 = typeof c.hash === 'function' ? (s) => c.hash('sha256', s, 'hex') : (s) => c.createHash('sha256').update(s).digest('hex');
  }
  return nativeSha256(text);
}
