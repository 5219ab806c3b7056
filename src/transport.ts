/**
 * How the bytes of one POST travel. Two transports, one contract:
 * - direct (the usual case): Node's built-in `node:http`/`node:https`, which start in a few
 *   milliseconds (`npm run bench` measured undici's import plus its WebAssembly HTTP parser at
 *   several times Node's whole start-up on this project's machines, issue #7);
 * - through a proxy, when `HTTPS_PROXY`/`HTTP_PROXY` (or the lower-case forms) are set: undici's
 *   `EnvHttpProxyAgent`, loaded only then, which also applies `NO_PROXY` (field-notes: undici
 *   does not read these variables by itself; its `EnvHttpProxyAgent` does).
 * Neither transport retries or follows redirects. Both report, through `onSent`, the moment the
 * request may have reached the gateway (a connection was established), which decides whether a
 * later failure leaves the outcome unknown.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** One POST to send. */
export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Aborts the request: Ctrl-C or the overall timeout. */
  signal: AbortSignal;
  /** Idle timeout of the connection, in milliseconds. */
  timeoutMs: number;
  /** Ignore proxy variables (the in-process sandbox on 127.0.0.1). */
  direct?: boolean;
}

/** The answer: status, headers and a body stream that can be abandoned. */
export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: AsyncIterable<Buffer> & { destroy(): void };
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** True when a proxy variable is set (then undici's EnvHttpProxyAgent decides, NO_PROXY included). */
export function proxyConfigured(): boolean {
  return PROXY_VARIABLES.some((v) => (process.env[v] ?? '') !== '');
}

/**
 * Sends one POST. Resolves with the response head once it arrives; rejects with the transport's
 * error (its `code`, e.g. `ECONNREFUSED`, is kept for the caller to classify).
 * @param onSent called once a connection to the gateway (or the proxy) is established
 */
export async function post(req: TransportRequest, onSent: () => void): Promise<TransportResponse> {
  if (!req.direct && proxyConfigured()) return postViaProxy(req, onSent);
  const { request } = req.url.startsWith('https:') ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const r = request(req.url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
      signal: req.signal,
      agent: false, // one connection, closed after the answer: nothing keeps the process alive
      timeout: req.timeoutMs,
    });
    r.once('socket', (socket) => {
      const connected = () => onSent();
      if ((socket as { connecting?: boolean }).connecting) socket.once(req.url.startsWith('https:') ? 'secureConnect' : 'connect', connected);
      else connected();
    });
    r.once('timeout', () => r.destroy(Object.assign(new Error('socket idle timeout'), { code: 'UND_ERR_HEADERS_TIMEOUT' })));
    r.once('response', (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }));
    r.once('error', reject);
    r.end(req.body);
  });
}

/** The proxy path, on undici (see module doc). */
async function postViaProxy(req: TransportRequest, onSent: () => void): Promise<TransportResponse> {
  const { EnvHttpProxyAgent, request } = await import('undici');
  const { subscribe, unsubscribe } = await import('node:diagnostics_channel');
  const dispatcher = new EnvHttpProxyAgent({ headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs, connectTimeout: Math.min(req.timeoutMs, 10_000) });
  const sent = () => onSent();
  subscribe('undici:client:sendHeaders', sent);
  try {
    const res = await request(req.url, { method: 'POST', headers: req.headers, body: req.body, dispatcher, signal: req.signal });
    const body = res.body as TransportResponse['body'];
    const destroy = body.destroy.bind(body);
    body.destroy = () => {
      destroy();
      void dispatcher.destroy().catch(() => undefined);
    };
    res.body.once('close', () => void dispatcher.destroy().catch(() => undefined));
    return { status: res.statusCode, headers: res.headers as IncomingHttpHeaders, body };
  } catch (err) {
    void dispatcher.destroy().catch(() => undefined);
    throw err;
  } finally {
    unsubscribe('undici:client:sendHeaders', sent);
  }
}
