/**
 * A test gateway on 127.0.0.1 that records every request and answers as each test tells it,
 * including on purpose outside the interface (HTML, bad JSON, huge bodies, resets, silence).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
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
  // Banco Central manual example, amount-less (static) BR Code with a valid CRC.
  qrCode: '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
  qrCodeBase64: 'iVBORw0KGgo=',
};

/** A well-formed cash-out answer (interface §2.4). */
export const CASHOUT_OK = { transactionId: 77, gross: 1550, tax: '65', liquid: '1485', status: '0', createdAt: '2026-11-21T12:00:00.000Z' };

/** Starts a test gateway (on `port`, default any free one); by default answers 200 with {@link CASHIN_OK} / {@link CASHOUT_OK}. */
export async function startGateway(responder?: Responder, port = 0): Promise<TestGateway> {
  const received: Received[] = [];
  let fn: Responder =
    responder ??
    ((req, res) => json(res, 200, req.path.endsWith('/cashout') ? CASHOUT_OK : CASHIN_OK));
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
