/** The cash-in's `qrCodeBase64` as PNG bytes (one place for cash-ins and batch runs). */
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
