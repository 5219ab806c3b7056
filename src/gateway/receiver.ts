/**
 * The postback receiver: the small HTTP server on which postbacks (docs/sandbox-and-postbacks.md
 * "Postbacks") arrive, one code for `paycli listen` (src/cli/run/listen.ts: prints and forwards them)
 * and for `--watch` (src/payment/watch-postbacks.ts: a postback makes the wait ask the gateway at once).
 *
 * What every receiver answers before its owner sees a notification:
 * - 405 for a method other than POST;
 * - 413 for a body above {@link RECEIVER_MAX_BODY} bytes (the connection is closed after it);
 * - 401 when a secret is given and the signature (src/gateway/postback.ts) is missing, stale or wrong;
 * - 400 for a body that is not a JSON object;
 * - 500 when the owner's handler threw.
 * Each refusal is a warning on stderr, its text from the wire sanitised (src/core/sanitize.ts). A
 * notification accepted goes to the owner's `onPostback`, which answers it; when it did not, the
 * receiver answers 200 `{"received":true}`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readCappedBody, sendJson } from '../core/http-server.js';
import { t } from '../core/i18n/index.js';
import { logger } from '../core/logger.js';
import { sanitizeText } from '../core/sanitize.js';
import { SIGNATURE_HEADER, verifyPostback } from './postback.js';

/** Largest postback body accepted, in bytes (1 MiB); larger gets 413. */
export const RECEIVER_MAX_BODY = 1024 * 1024;

/** One notification accepted: a JSON object, its signature checked when a secret was given. */
export interface ReceivedPostback {
  /** The body parsed (a JSON object; nothing of it is checked yet). */
  body: Record<string, unknown>;
  /** The body's bytes as received, and as UTF-8 text. */
  raw: Buffer;
  text: string;
  headers: IncomingHttpHeaders;
  receivedAt: Date;
  /** The sender's address. */
  from: string;
}

/** How a receiver is started. */
export interface ReceiverOptions {
  /** Port to listen on (0: one the system picks). */
  port: number;
  /** Address to listen on (`127.0.0.1`, `::1`, `0.0.0.0`…). */
  host: string;
  /** Shared secret: when given, a postback without a valid signature is answered 401 and not passed on. */
  secret?: string;
  /** Called with the headers of each POST whose body was read (for `--verbose`). */
  onHeaders?(headers: IncomingHttpHeaders): void;
  /**
   * Called with each notification accepted; answers it on `res` (src/core/http-server.ts `sendJson`), or
   * leaves that to the receiver (200 `{"received":true}`). May throw: 500, and a warning.
   */
  onPostback(p: ReceivedPostback, res: ServerResponse): void | Promise<void>;
}

/** A receiver listening. */
export interface Receiver {
  /** `http://<address>:<port>` it listens on (the port chosen when 0 was asked). */
  url: string;
  port: number;
  /** Stops listening and closes every connection (requests in flight included). */
  close(): Promise<void>;
}

/** Reads, checks and parses one request; @returns the notification, or null when it was answered with a refusal. */
async function accept(req: IncomingMessage, res: ServerResponse, opts: ReceiverOptions): Promise<ReceivedPostback | null> {
  const from = req.socket.remoteAddress ?? '?';
  if (req.method !== 'POST') {
    req.resume();
    sendJson(res, 405, { message: 'send postbacks with POST' }, { allow: 'POST' });
    return null;
  }
  const declared = Number(req.headers['content-length']);
  const raw = Number.isFinite(declared) && declared > RECEIVER_MAX_BODY ? null : await readCappedBody(req, RECEIVER_MAX_BODY);
  if (raw === null) {
    logger.warn(t('listen.tooLarge', from, RECEIVER_MAX_BODY));
    sendJson(res, 413, { message: `body larger than ${RECEIVER_MAX_BODY} bytes` }, { connection: 'close' });
    res.on('finish', () => req.destroy());
    return null;
  }
  const receivedAt = new Date();
  opts.onHeaders?.(req.headers);
  if (opts.secret !== undefined) {
    const check = verifyPostback(opts.secret, raw, req.headers[SIGNATURE_HEADER]);
    if (!check.ok) {
      logger.warn(t('listen.badSignature', from, check.reason));
      sendJson(res, 401, { message: 'invalid signature' });
      return null;
    }
  }
  const text = raw.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    logger.warn(t('listen.notObject', from));
    sendJson(res, 400, { message: 'the body must be a JSON object' });
    return null;
  }
  return { body: body as Record<string, unknown>, raw, text, headers: req.headers, receivedAt, from };
}

/**
 * Starts a receiver (module doc).
 * @throws the error of `listen` (a NodeJS.ErrnoException: `EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`…) when it cannot listen
 */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const server: Server = createServer((req, res) => {
    (async () => {
      const p = await accept(req, res, opts);
      if (!p) return;
      await opts.onPostback(p, res);
      if (!res.headersSent && !res.destroyed) sendJson(res, 200, { received: true });
    })().catch((err: unknown) => {
      logger.warn(t('listen.handlerError', sanitizeText((err as Error).message ?? String(err), true)));
      if (!res.headersSent) sendJson(res, 500, { message: 'listener error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      server.on('error', (err) => logger.warn(t('listen.handlerError', sanitizeText(err.message, true))));
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`,
    port: addr.port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
