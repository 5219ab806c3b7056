import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JS_DIGESTS, randomFill, randomHex, sha256Hex } from '../../src/core/random.js';

describe('random bytes and digests without node:crypto (src/core/random.ts)', () => {
  it('gives the SHA-256 of node:crypto, in JavaScript for the first digests and natively after them', () => {
    const texts = [
      '',
      'a',
      'Pix: João ção €',
      'x'.repeat(1000),
      ...Array.from({ length: JS_DIGESTS + 8 }, (_, i) => JSON.stringify(['cashout', 'sandbox', 1550 + i, 2, 'fulano@example.com'])),
    ];
    for (const text of texts) expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it('fills a buffer of any length with bytes that differ from one call to the next', () => {
    const a = randomFill(new Uint8Array(4096));
    const b = randomFill(new Uint8Array(4096));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(new Set(a).size).toBeGreaterThan(200); // 4,096 random bytes take nearly every value
    expect(randomFill(new Uint8Array(0))).toHaveLength(0);
    expect(randomHex(10)).toMatch(/^[0-9a-f]{20}$/);
    expect(randomHex(10)).not.toBe(randomHex(10));
  });
});
