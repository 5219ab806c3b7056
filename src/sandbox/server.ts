/**
 * The built-in sandbox: an HTTP server on 127.0.0.1 that implements the gateway interface
 * (`shared/interface.md` §4) faithfully, for trying paycli and for other programs' tests.
 * No money moves. Behaviour (documented in README "Sandbox"):
 * - `POST /transaction/qrcode/cashin` and `POST /transaction/cashout`, validated with the same
 *   schemas as paycli's own requests; a failure is HTTP 400 `{message}` naming the field
 *   (e.g. `value is required`);
 * - `noAcquirer`: every cash-in gets 400 `{"message":"no active acquirer ..."}` (interface §4.1);
 * - `apiKey`: a request without `Authorization: Bearer <apiKey>` gets 401 `{message}`;
 * - cash-in: `qrCode` is a real single-use PIX BR Code (valid CRC, amount = `value`, txid from
 *   the externalId) and `qrCodeBase64` a PNG of it (raw base64);
 * - cash-out: `tax` = R$ 0,50 + 1% of gross rounded down, never more than gross; `liquid` =
 *   gross − tax, both strings of integers; `status` "0"; `createdAt` ISO 8601 UTC with ms and Z;
 * - `transactionId`s keep increasing across runs (src/sandbox/counter.ts);
 * - outside the interface, under `/_sandbox/` (issue #6, src/sandbox/lifecycle.ts):
 *   `POST /_sandbox/transactions/<id>/<pay|fail|cancel|refund>` changes a transaction's state
 *   (200 `{transactionId, kind, status, previousStatus, postback}`, 404 unknown id, 409 transition
 *   not allowed, all with `{message}` on failure) and `GET /_sandbox/transactions/<id>` reads it;
 *   each state change of a cash-in with a `postbackUrl` sends a postback; `autoPayMs` pays every
 *   cash-in that long after it was created.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import { buildBrCode } from '../brcode.js';
import { cashInRequestSchema, cashOutRequestSchema, problemsOf, type CashInRequest, type CashOutRequest } from '../schemas.js';
import { readCappedBody, sendJson } from '../http-server.js';
import { nextTransactionId } from './counter.js';
import { applyTransition, PostbackDeliverer, postbackBody, SANDBOX_ACTIONS, type SandboxAction } from './lifecycle.js';

/** The sandbox merchant's PIX key (a random key) and name, written into every BR Code. */
export const SANDBOX_MERCHANT = { key: '7f6e3a2b-1c4d-4e5f-8a9b-0c1d2e3f4a5b', name: 'PAYCLI SANDBOX', city: 'SAO PAULO' };
/**
 * The PNG of `qrCodeBase64`: 212×212 pixels, grayscale. qrcode hands `rendererOpts` to pngjs
 * (untyped); grayscale has pngjs filter 1 byte a pixel instead of 4, which halves both the size and
 * the time (about 4 ms instead of 5-9 ms per cash-in) and decodes the same.
 */
const QR_PNG_OPTIONS = { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 4, rendererOpts: { colorType: 0 } } as QRCode.QRCodeToBufferOptions;

/** Largest request body the sandbox reads (64 KiB); larger gets 413. */
export const SANDBOX_MAX_BODY = 64 * 1024;
/** Message of the no-active-acquirer refusal (interface §4.1). */
export const NO_ACQUIRER_MESSAGE = 'There is no active acquirer for this operation';

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  host?: string;
  /** 0 for an ephemeral port. */
  port?: number;
  /** Require `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Refuse every cash-in with "no active acquirer". */
  noAcquirer?: boolean;
  /** Called with one line per request (standalone mode logs them to stderr). */
  log?: (line: string) => void;
  /** Sign every postback with this secret (src/postback.ts); unsigned when absent. */
  postbackSecret?: string;
  /** Pay every cash-in this many milliseconds after it was created. */
  autoPayMs?: number;
  /** Wait before the 2nd postback attempt in ms (doubles after); default 1000. For tests. */
  retryBaseMs?: number;
}

/** A transaction the sandbox created. */
export interface SandboxTransaction {
  transactionId: number;
  kind: 'cashin' | 'cashout';
  value: number;
  status: 'pending' | 'paid' | 'failed' | 'canceled' | 'refunded';
  createdAt: string;
  request: CashInRequest | CashOutRequest;
  externalId?: string;
  /** PIX end-to-end id, set on the first state change (src/sandbox/lifecycle.ts). */
  endToEndId?: string;
  /** ISO time of the last state change. */
  processedAt?: string;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  server: Server;
  transactions: Map<number, SandboxTransaction>;
  close(): Promise<void>;
}

/** Cash-out fee of the sandbox, in cents: 50 + floor(gross / 100), at most `gross`. */
export function sandboxTax(gross: number): number {
  return Math.min(gross, 50 + Math.floor(gross / 100));
}

/** Starts the sandbox; resolves once it listens. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const transactions = new Map<number, SandboxTransaction>();
  const log = opts.log ?? (() => undefined);
  const deliverer = new PostbackDeliverer({ secret: opts.postbackSecret, retryBaseMs: opts.retryBaseMs, log });
  const autoPayTimers = new Set<NodeJS.Timeout>();

  /** Changes a transaction's state and queues its postback; the control endpoint's answer. */
  function act(id: number, action: SandboxAction, by: string): { status: number; body: Record<string, unknown> } {
    const tx = transactions.get(id);
    if (!tx) return { status: 404, body: { message: `no transaction ${id} in this sandbox (transactions live as long as the sandbox process)` } };
    const done = applyTransition(tx, action);
    if ('error' in done) return { status: 409, body: { message: done.error } };
    const postbackUrl = tx.kind === 'cashin' ? (tx.request as CashInRequest).postbackUrl : undefined;
    log(`${tx.kind === 'cashin' ? 'cash-in' : 'cash-out'} ${id}: ${done.from} → ${tx.status} (${by})${postbackUrl ? '; postback queued' : ''}`);
    if (postbackUrl) deliverer.enqueue(postbackUrl, postbackBody(tx));
    return { status: 200, body: { transactionId: id, kind: tx.kind, status: tx.status, previousStatus: done.from, postback: postbackUrl ? 'queued' : 'none' } };
  }

  function control(req: IncomingMessage, path: string, reply: (status: number, body: unknown) => void): void {
    req.resume();
    const m = /^\/_sandbox\/transactions\/([0-9]{1,15})(?:\/([a-z]+))?$/.exec(path);
    const action = m?.[2] as SandboxAction | undefined;
    if (!m || (action !== undefined && !SANDBOX_ACTIONS.includes(action))) {
      return reply(404, { message: `no such sandbox endpoint: ${req.method} ${path} (use POST /_sandbox/transactions/<id>/<${SANDBOX_ACTIONS.join('|')}>)` });
    }
    const id = Number(m[1]);
    if (action === undefined) {
      if (req.method !== 'GET') return reply(405, { message: `use GET for ${path}` });
      const tx = transactions.get(id);
      if (!tx) return reply(404, { message: `no transaction ${id} in this sandbox` });
      return reply(200, { transactionId: id, kind: tx.kind, status: tx.status, value: tx.value, createdAt: tx.createdAt, processedAt: tx.processedAt ?? null, endToEndId: tx.endToEndId ?? null });
    }
    if (req.method !== 'POST') return reply(405, { message: `use POST for ${path}` });
    const out = act(id, action, 'control endpoint');
    return reply(out.status, out.body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    const route = path === '/transaction/qrcode/cashin' ? 'cashin' : path === '/transaction/cashout' ? 'cashout' : null;
    const reply = (status: number, body: unknown, note = '', headers: Record<string, string> = {}) => {
      sendJson(res, status, body, headers);
      log(`${req.method} ${path} → ${status}${note}`);
    };
    const isControl = path.startsWith('/_sandbox/');
    if (!route && !isControl) return reply(404, { message: `no such endpoint: ${req.method} ${path}` });
    if (route && req.method !== 'POST') return reply(405, { message: `use POST for ${path}` });
    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      req.resume();
      return reply(401, { message: 'unauthorized: missing or invalid API key' });
    }
    if (isControl || !route) return control(req, path, reply);
    const text = (await readCappedBody(req, SANDBOX_MAX_BODY))?.toString('utf8') ?? null;
    if (text === null) return reply(413, { message: `body larger than ${SANDBOX_MAX_BODY} bytes` }, '', { connection: 'close' });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return reply(400, { message: 'body is not valid JSON' });
    }
    if (route === 'cashin') {
      if (opts.noAcquirer) return reply(400, { message: NO_ACQUIRER_MESSAGE });
      const parsed = cashInRequestSchema.safeParse(json);
      if (!parsed.success) return reply(400, { message: problemsOf(parsed.error).map((p) => `${p.path || 'body'} ${p.message}`).join('; ') });
      const body = parsed.data;
      const transactionId = nextTransactionId();
      const externalId = randomUUID();
      const qrCode = buildBrCode({ ...SANDBOX_MERCHANT, merchantName: SANDBOX_MERCHANT.name, merchantCity: SANDBOX_MERCHANT.city, amountCents: body.value, txid: externalId.replace(/-/g, '').slice(0, 25) });
      const png = await QRCode.toBuffer(qrCode, QR_PNG_OPTIONS);
      transactions.set(transactionId, { transactionId, kind: 'cashin', value: body.value, status: 'pending', createdAt: new Date().toISOString(), request: body, externalId });
      if (opts.autoPayMs !== undefined) {
        const timer = setTimeout(() => {
          autoPayTimers.delete(timer);
          if (transactions.get(transactionId)?.status === 'pending') act(transactionId, 'pay', 'auto-pay');
        }, opts.autoPayMs);
        autoPayTimers.add(timer);
      }
      return reply(200, { transactionId, externalId, qrCode, qrCodeBase64: png.toString('base64') }, ` (cash-in ${transactionId})`);
    }
    const parsed = cashOutRequestSchema.safeParse(json);
    if (!parsed.success) return reply(400, { message: problemsOf(parsed.error).map((p) => `${p.path || 'body'} ${p.message}`).join('; ') });
    const body = parsed.data;
    const transactionId = nextTransactionId();
    const tax = sandboxTax(body.value);
    const createdAt = new Date().toISOString();
    transactions.set(transactionId, { transactionId, kind: 'cashout', value: body.value, status: 'pending', createdAt, request: body });
    return reply(200, { transactionId, gross: body.value, tax: String(tax), liquid: String(body.value - tax), status: '0', createdAt }, ` (cash-out ${transactionId})`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: `sandbox error: ${(err as Error).message}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    server,
    transactions,
    close: async () => {
      for (const t of autoPayTimers) clearTimeout(t);
      autoPayTimers.clear();
      await Promise.all([
        deliverer.close(),
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
      ]);
    },
  };
}
