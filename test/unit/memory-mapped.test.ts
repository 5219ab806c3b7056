/** The typed arrays of src/core/memory.ts whose memory V8 maps itself (the batch check's tables: docs/speed.md). */
import { describe, expect, it } from 'vitest';
import { mappedUint32Array, mappedUint8Array } from '../../src/core/memory.js';

// The check's large tables take their memory from V8's own mappings (a resizable buffer), not from malloc (docs/speed.md).
describe('mapped typed arrays', () => {
  it('are zeroed, of the length asked, on a buffer V8 maps (resizable, its maximum its length)', () => {
    for (const [arr, bytes] of [
      [mappedUint32Array(300_000), 1_200_000],
      [mappedUint8Array(5), 5],
      [mappedUint32Array(0), 0],
    ] as const) {
      expect(arr.byteLength).toBe(bytes);
      expect(arr.every((v) => v === 0)).toBe(true);
      const buffer = arr.buffer as ArrayBuffer & { resizable: boolean; maxByteLength: number };
      expect(buffer.resizable).toBe(true);
      expect(buffer.maxByteLength).toBe(bytes);
    }
  });

  it('hold what is written to them, as a plain typed array does', () => {
    const arr = mappedUint32Array(4);
    arr[0] = 0xffffffff;
    arr.set([1, 2], 2);
    expect([...arr]).toEqual([0xffffffff, 0, 1, 2]);
  });
});
