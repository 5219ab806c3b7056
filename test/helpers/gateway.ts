/**
 * A test gateway on 127.0.0.1 that records every request and answers as each test tells it,
 * including on purpose outside the interface (HTML, bad JSON, huge bodies, resets, silence).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { buildStaticBrCode } from '../../src/pix/brcode.js';
import { makeHome, type Home } from './cli.js';

/** A request the gateway received. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Raw body text. */
  text: string;
  /** Parsed JSON body (undefined when not JSON). */
  json: unknown;
}

/** How to answer one request; return nothing to leave the request hanging. */
export type Responder = (req: Received, res: ServerResponse) => void | Promise<void>;

/** A running test gateway. */
export interface TestGateway {
  url: string;
  received: Received[];
  /** Replaces the responder. */
  respond(fn: Responder): void;
  close(): Promise<void>;
}

/** Answers JSON with a status. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A well-formed cash-in answer (interface §2.2). */
export const CASHIN_OK = {
  transactionId: 4242,
  externalId: '123e4567-e12b-12d1-a456-426655440000',
  // The Banco Central manual's example with the amount of CASHIN_ARGS (R$ 10,00) in object 54.
  qrCode: '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.005802BR5913Fulano de Tal6008BRASILIA62070503***6304288F',
  qrCodeBase64: 'iVBORw0KGgo=',
};

/** A well-formed cash-in answer for `value` cents: {@link CASHIN_OK} with a BR Code of that amount. */
export function cashInAnswer(value: unknown): typeof CASHIN_OK {
  if (!Number.isSafeInteger(value) || (value as number) < 1) return CASHIN_OK;
  return {
    ...CASHIN_OK,
    qrCode: buildStaticBrCode({ key: '123e4567-e12b-12d1-a456-426655440000', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', amountCents: value as number }),
  };
}

/** A well-formed cash-out answer (interface §2.4). */
export const CASHOUT_OK = { transactionId: 77, gross: 1550, tax: '65', liquid: '1485', status: '0', createdAt: '2026-11-21T12:00:00.000Z' };

/** A well-formed cash-out answer for `value` cents: {@link CASHOUT_OK} with gross = value and liquid = gross - tax. */
export function cashOutAnswer(value: unknown): typeof CASHOUT_OK {
  if (!Number.isSafeInteger(value) || (value as number) < 1) return CASHOUT_OK;
  return { ...CASHOUT_OK, gross: value as number, liquid: String((value as number) - Number(CASHOUT_OK.tax)) };
}

/**
 * Starts a test gateway (on `port`, default any free one); by default answers a POST 200 with
 * {@link cashInAnswer} (the BR Code for the requested amount) / {@link cashOutAnswer} (the requested gross), and a GET (a
 * lookup) 404 `{"message":"Transaction not found"}`.
 */
export async function startGateway(responder?: Responder, port = 0): Promise<TestGateway> {
  const received: Received[] = [];
  let fn: Responder =
    responder ??
    ((req, res) =>
      req.method === 'GET'
        ? json(res, 404, { message: 'Transaction not found' })
        : json(
            res,
            200,
            req.path.endsWith('/cashout')
              ? cashOutAnswer((req.json as { value?: unknown } | undefined)?.value)
              : cashInAnswer((req.json as { value?: unknown } | undefined)?.value),
          ));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, text, json: body };
      received.push(r);
      void Promise.resolve(fn(r, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    respond: (f) => {
      fn = f;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fresh paycli home and a recording test gateway for each test; `env()` points paycli at both. */
export interface GatewayFixture {
  home: Home;
  gw: TestGateway;
  /** The child's environment: the home, `PAYCLI_BASE_URL` = the gateway, `PAYCLI_API_KEY`, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
}

/** Registers beforeEach/afterEach hooks that make and tear down a {@link GatewayFixture}. */
export function useGatewayFixture(apiKey: string): GatewayFixture {
  const f = {} as GatewayFixture;
  f.env = (extra = {}) => ({ ...f.home.env, PAYCLI_BASE_URL: f.gw.url, PAYCLI_API_KEY: apiKey, ...extra });
  beforeEach(async () => {
    f.home = makeHome();
    f.gw = await startGateway();
  });
  afterEach(async () => {
    await f.gw.close();
    f.home.cleanup();
  });
  return f;
}

/** A transaction the {@link LookupGateway} holds, as its lookups answer it. */
export interface HeldTransaction {
  transactionId: number;
  orderId?: string;
  object: 'cashin' | 'transfer';
  status: string;
  value: number;
  [k: string]: unknown;
}

/**
 * A gateway that keeps what it creates and answers the documented lookups
 * (`GET /transaction/get/by/id/{id}`, `/by/orderId/{orderId}`, `/transaction/get/balance`), with
 * a miss as 404 `{"message":"Transaction not found"}`. `next` decides what happens to the next POST:
 * `ok`, `drop-after-create` (created, then the connection reset before any answer),
 * `drop-before-create` (reset, nothing created), `500-after-create`, `hang-after-create` (created,
 * never answered) and `hang-before-create` (received, never answered, nothing created).
 */
export interface LookupGateway {
  held: HeldTransaction[];
  /** What the following POSTs do, consumed one per POST; empty = `ok`. */
  next: ('ok' | 'drop-after-create' | 'drop-before-create' | '500-after-create' | 'hang-after-create' | 'hang-before-create')[];
  /** What GETs do before answering, consumed one per GET; empty = answer. */
  nextGet: ('reset' | '503' | 'html404')[];
  /**
   * How long a POST takes, in milliseconds (default 0): the gateway creates the transaction when it
   * answers, as a loaded gateway behind a queue does, even when the client has gone meanwhile.
   */
  delayMs: number;
  responder: Responder;
}

/** Makes a {@link LookupGateway} responder (install it with `gw.respond(l.responder)`). */
export function lookupGateway(firstId = 500): LookupGateway {
  let id = firstId;
  const l: LookupGateway = {
    held: [],
    next: [],
    nextGet: [],
    delayMs: 0,
    responder: async (req, res) => {
      const path = req.path.split('?')[0]!;
      if (req.method === 'GET') {
        const what = l.nextGet.shift();
        if (what === 'reset') return void res.socket?.destroy();
        if (what === '503') return json(res, 503, { message: 'try later' });
        if (what === 'html404') {
          res.writeHead(404, { 'content-type': 'text/html' });
          return void res.end('<html><body>Cannot GET</body></html>');
        }
        if (path === '/transaction/get/balance') return json(res, 200, { balance: 2596878, retention: 5339, toAnticipate: 4990, finalBalance: 2586549 });
        const byId = /^\/transaction\/get\/by\/id\/([^/]+)$/.exec(path);
        const byOrder = /^\/transaction\/get\/by\/orderId\/([^/]+)$/.exec(path);
        const tx = byId
          ? l.held.find((t) => String(t.transactionId) === decodeURIComponent(byId[1]!))
          : byOrder
            ? l.held.find((t) => t.orderId === decodeURIComponent(byOrder[1]!))
            : undefined;
        if (!byId && !byOrder) return json(res, 404, { message: `no route ${path}` });
        return tx ? json(res, 200, tx) : json(res, 404, { message: 'Transaction not found' });
      }
      const body = (req.json ?? {}) as Record<string, unknown>;
      const what = l.next.shift() ?? 'ok';
      if (l.delayMs > 0) await new Promise((r) => setTimeout(r, l.delayMs));
      if (what === 'drop-before-create') return void res.socket?.destroy();
      if (what === 'hang-before-create') return;
      const cashout = path.endsWith('/cashout');
      const tx: HeldTransaction = {
        transactionId: id++,
        object: cashout ? 'transfer' : 'cashin',
        status: 'created',
        value: body.value as number,
        method: 'pix',
        processedAt: '2025-09-03T10:14:18.768543',
        ...(typeof body.orderId === 'string' ? { orderId: body.orderId } : {}),
      };
      l.held.push(tx);
      if (what === 'drop-after-create') return void res.socket?.destroy();
      if (what === 'hang-after-create') return;
      if (what === '500-after-create') return json(res, 500, { message: 'internal error' });
      return json(
        res,
        200,
        cashout
          ? { ...CASHOUT_OK, transactionId: tx.transactionId, gross: tx.value, liquid: String(tx.value - 65), orderId: tx.orderId }
          : { ...CASHIN_OK, transactionId: tx.transactionId, orderId: tx.orderId },
      );
    },
  };
  return l;
}
