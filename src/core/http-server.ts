/**
 * The two small pieces every paycli HTTP server needs (the sandbox, `paycli listen`): a JSON
 * answer, and a request body read up to a cap so that a huge body cannot exhaust memory.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers `status` with `body` as JSON (UTF-8, with content-length), plus `extra` headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...extra });
  res.end(text);
}

/**
 * Reads a request body of at most `maxBytes`.
 * @returns the bytes, or `null` as soon as the body is larger (the rest is left unread; answer
 *   413 with `connection: close`)
 */
export function readCappedBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
