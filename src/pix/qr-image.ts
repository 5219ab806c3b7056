/**
 * QR code images: the cash-in's `qrCodeBase64` as PNG bytes (one place for cash-ins and batch runs),
 * and the versions of an image's pixels that `paycli brcode decode --image` hands the QR decoders
 * (src/cli/run/brcode.ts `readQrImage`): contrast stretched, binarized, inverted.
 */

import { crcHolds } from './brcode.js';

/** PNG file signature. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Decodes `qrCodeBase64` (raw base64 or a `data:image/png;base64,` URL) to PNG bytes.
 * @returns the bytes, or `null` when it is not a base64 PNG
 */
export function decodeQrImage(qrCodeBase64: string): Buffer | null {
  const m = /^data:image\/png;base64,(.*)$/is.exec(qrCodeBase64.trim());
  const b64 = (m ? m[1]! : qrCodeBase64).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  const bytes = Buffer.from(b64, 'base64');
  return bytes.subarray(0, 8).equals(PNG_SIGNATURE) ? bytes : null;
}

/**
 * Prepares the pixels of an image for the QR decoder (jsQR), which reads dark modules on a light
 * background by a local threshold and fails on what a scanner reads: light modules left
 * transparent, and grey on grey. Each pixel is flattened onto white (by its alpha), turned to its
 * luminance (ITU-R BT.601 weights), and the luminance range of the image is stretched to 0-255.
 * @param rgba RGBA bytes, 4 per pixel, row by row (as pngjs decodes them); not changed
 * @returns new RGBA bytes, grey and opaque; the same grey when the image has a single shade
 */
export function normaliseForQr(rgba: Uint8Array): Uint8ClampedArray {
  const n = rgba.length >> 2;
  const lum = new Float64Array(n);
  let min = 255;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const a = rgba[i * 4 + 3]! / 255;
    const flat = (c: number) => c * a + 255 * (1 - a);
    const y = 0.299 * flat(rgba[i * 4]!) + 0.587 * flat(rgba[i * 4 + 1]!) + 0.114 * flat(rgba[i * 4 + 2]!);
    lum[i] = y;
    if (y < min) min = y;
    if (y > max) max = y;
  }
  const out = new Uint8ClampedArray(n * 4);
  const range = max - min;
  for (let i = 0; i < n; i++) {
    const v = range > 0 ? ((lum[i]! - min) * 255) / range : lum[i]!;
    out[i * 4] = out[i * 4 + 1] = out[i * 4 + 2] = v;
    out[i * 4 + 3] = 255;
  }
  return out;
}

/**
 * A black-and-white version of grey pixels (as {@link normaliseForQr} returns them), split at the
 * threshold that best separates the two shades (Otsu's method on the histogram of the red channel,
 * which equals the grey): the global binarization that reads grey on grey where a local threshold
 * does not.
 * @param grey RGBA bytes, grey and opaque; not changed
 * @returns new RGBA bytes, each pixel 0 or 255 and opaque
 */
export function binariseForQr(grey: Uint8ClampedArray): Uint8ClampedArray {
  const n = grey.length >> 2;
  const hist = new Float64Array(256);
  for (let i = 0; i < n; i++) hist[grey[i * 4]!]!++;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * hist[v]!;
  let below = 0;
  let sumBelow = 0;
  let best = -1;
  let threshold = 127;
  for (let v = 0; v < 256; v++) {
    below += hist[v]!;
    if (below === 0 || below === n) continue;
    sumBelow += v * hist[v]!;
    const meanBelow = sumBelow / below;
    const meanAbove = (sum - sumBelow) / (n - below);
    const between = below * (n - below) * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = v;
    }
  }
  const out = new Uint8ClampedArray(n * 4);
  for (let i = 0; i < n; i++) {
    out[i * 4] = out[i * 4 + 1] = out[i * 4 + 2] = grey[i * 4]! > threshold ? 255 : 0;
    out[i * 4 + 3] = 255;
  }
  return out;
}

/** The pixels with dark and light swapped (a light code on a dark background); alpha kept. */
export function invertForQr(rgba: Uint8ClampedArray): Uint8ClampedArray {
  const out = new Uint8ClampedArray(rgba.length);
  for (let i = 0; i < rgba.length; i += 4) {
    out[i] = 255 - rgba[i]!;
    out[i + 1] = 255 - rgba[i + 1]!;
    out[i + 2] = 255 - rgba[i + 2]!;
    out[i + 3] = rgba[i + 3]!;
  }
  return out;
}

/** A QR decoder: the text it read in RGBA pixels, or null. */
export type QrReader = (pixels: Uint8ClampedArray, width: number, height: number) => string | null;

/**
 * Reads a BR Code with each reader on each version of the pixels, in order (every version of the
 * first reader, then of the next), and takes the first read whose CRC holds (src/pix/brcode.ts
 * `crcHolds`): a read whose CRC does not hold is a misread of the image, never the answer.
 * @param variants the versions of the pixels, each made when first asked for
 * @returns `{text}`, or `{misreads}`: the distinct texts read, none with a CRC that holds (empty: no QR code found)
 */
export function readBrCode(
  readers: readonly QrReader[],
  variants: ReadonlyArray<() => Uint8ClampedArray>,
  width: number,
  height: number,
): { text: string } | { misreads: string[] } {
  const misreads: string[] = [];
  for (const read of readers) {
    for (const pixels of variants) {
      const text = read(pixels(), width, height)?.trim();
      if (!text) continue;
      if (crcHolds(text)) return { text };
      if (!misreads.includes(text)) misreads.push(text);
    }
  }
  return { misreads };
}
