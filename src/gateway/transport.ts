/**
 * How the bytes of one request (a POST, or a lookup's GET) travel. Two transports, one contract:
 * - direct (the usual case): Node's built-in `node:http`/`node:https`, which start in a few
 *   milliseconds; undici's import plus its WebAssembly HTTP parser cost several times Node's
 *   whole start-up on this project's machines (`npm run bench`, docs/speed.md);
 * - through a proxy, when `HTTPS_PROXY`/`HTTP_PROXY` (or the lower-case forms) are set: undici's
 *   `EnvHttpProxyAgent`, loaded only then, which also applies `NO_PROXY` (undici
 *   does not read these variables by itself; its `EnvHttpProxyAgent` does).
 * Neither transport retries or follows redirects, and both give up at once when the signal
 * aborts. Both report, through `onSent`, the moment the request may have reached the gateway,
 * which decides whether a later failure leaves the outcome unknown.
 */
import type { Agent, IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/** One request to send: a POST (a payment) or a GET (a lookup, no body). */
export interface TransportRequest {
  /** Default `POST`. */
  method?: 'POST' | 'GET';
  url: string;
  headers: Record<string, string>;
  /** The JSON text of a POST; absent for a GET. */
  body?: string;
  /** Stops the request: Ctrl-C or the overall timeout. */
  stop: Stop;
  /** Timeout of each phase (connect, headers, body) on the proxy path, in milliseconds. */
  timeoutMs: number;
  /** Ignore proxy variables (the in-process sandbox on 127.0.0.1). */
  direct?: boolean;
  /**
   * Connection pool of the direct path (batch runs keep connections alive); without one, each
   * request has its own connection, closed after the answer.
   */
  agent?: Agent;
}

/**
 * The stop switch of one exchange (src/gateway/client.ts sets it off on its timeout or on the
 * caller's signal): one callback slot, set by the transport while the request is open. An
 * `AbortController` with its `EventTarget` listeners per request costs a batch measurably
 * (docs/speed.md, "The batch send's CPU"); the proxy path, which needs a real signal for undici,
 * gets one from {@link Stop.signal}.
 */
export class Stop {
  aborted = false;
  /** Why it was stopped (an Error: the timeout's, or the caller's signal's reason). */
  reason: unknown;
  private hook: ((reason: unknown) => void) | undefined;

  /** Stops the exchange (only the first call counts). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const hook = this.hook;
    this.hook = undefined;
    hook?.(reason);
  }

  /** Calls `hook` once if the exchange is stopped; replaces any earlier hook. */
  onAbort(hook: ((reason: unknown) => void) | undefined): void {
    this.hook = hook;
  }

  /** An `AbortSignal` that aborts with this switch (the proxy path: undici takes a signal). */
  signal(): AbortSignal {
    const c = new AbortController();
    if (this.aborted) c.abort(this.reason);
    else this.hook = (reason) => c.abort(reason);
    return c.signal;
  }
}

/** The answer: status, headers and a body stream (bytes) that can be abandoned (`destroy()`). */
export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** True when a proxy variable is set (then undici's EnvHttpProxyAgent decides, NO_PROXY included). */
export function proxyConfigured(): boolean {
  return PROXY_VARIABLES.some((v) => (process.env[v] ?? '') !== '');
}

/**
 * Sends one request (POST unless `method` says GET). Resolves with the response head once it arrives; rejects with the transport's
 * error (its `code`, e.g. `ECONNREFUSED`, is kept for the caller to classify) or, once the signal
 * aborts, with the signal's reason.
 * @param onSent called when the request may have reached the gateway: the connection to it is up
 *   (direct), or undici wrote this POST's headers (proxy; a CONNECT to the proxy does not count)
 */
export function post(req: TransportRequest, onSent: () => void): Promise<TransportResponse> {
  return req.direct || !proxyConfigured() ? postDirect(req, onSent) : postViaProxy(req, onSent);
}

/** `node:http` and `node:https`, each loaded on its first request (a batch sends thousands). */
let httpModule: typeof import('node:http') | undefined;
let httpsModule: typeof import('node:https') | undefined;

/** The parts of a URL `node:http`'s `request` takes, parsed once per URL (a batch POSTs to one URL thousands of times). */
interface Target {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  auth?: string;
}
const targets = new Map<string, Target>();

/** The {@link Target} of `url`, parsed on its first request. @throws TypeError for a URL that is not absolute */
function targetOf(url: string): Target {
  let target = targets.get(url);
  if (target === undefined) {
    const u = new URL(url);
    // As node:http reads a URL (urlToHttpOptions): an IPv6 host without its brackets, credentials decoded.
    const hostname = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    const auth = u.username || u.password ? `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` : undefined;
    target = { protocol: u.protocol, hostname, ...(u.port !== '' ? { port: Number(u.port) } : {}), path: `${u.pathname}${u.search}`, ...(auth !== undefined ? { auth } : {}) };
    if (targets.size >= 64) targets.clear();
    targets.set(url, target);
  }
  return target;
}

function postDirect(req: TransportRequest, onSent: () => void): Promise<TransportResponse> {
  const https = req.url.startsWith('https:');
  const mod = https ? httpsModule : httpModule;
  // node:http and node:https loaded on first use; after that, no await (a batch sends thousands)
  if (mod === undefined) return loadHttp(https).then(() => postDirect(req, onSent));
  const { stop } = req;
  if (stop.aborted) return Promise.reject(abortReason(stop.reason));
  return new Promise((resolve, reject) => {
    const target = targetOf(req.url);
    const r = mod.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      auth: target.auth,
      method: req.method ?? 'POST',
      headers: req.body === undefined ? req.headers : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
      agent: req.agent ?? false, // by default one connection, closed after the answer: nothing keeps the process alive
    });
    // Stopping destroys the request, its connection and the answer's body; the hook is dropped
    // when the exchange is over (request closed before an answer, or the answer's body closed).
    const done = () => stop.onAbort(undefined);
    let answered = false; // then the answer's body, read by the caller, ends the exchange
    stop.onAbort((reason) => r.destroy(abortReason(reason)));
    // plain listeners (each fires once at most, or its repeat is ignored): no `once` wrapper per request
    r.on('close', () => answered || done());
    r.on('socket', (socket) => {
      if ((socket as { connecting?: boolean }).connecting) socket.once(https ? 'secureConnect' : 'connect', onSent);
      else onSent();
    });
    r.on('response', (res) => {
      answered = true;
      res.on('close', done);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    r.on('error', (err) => reject(stop.aborted ? abortReason(stop.reason) : err));
    r.end(req.body);
  });
}

/** Loads `node:https` or `node:http` (the first request of a process). */
async function loadHttp(https: boolean): Promise<void> {
  if (https) httpsModule ??= await import('node:https');
  else httpModule ??= await import('node:http');
}

async function postViaProxy(req: TransportRequest, onSent: () => void): Promise<TransportResponse> {
  const signal = req.stop.signal();
  // undici is CommonJS: in the bundle its dynamic import gives the exports as `default` only.
  const undici = await import('undici');
  const { EnvHttpProxyAgent, Pool, request } = (undici as unknown as { default?: typeof undici }).default ?? undici;
  const { subscribe, unsubscribe } = await import('node:diagnostics_channel');
  const phases = { headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs, connectTimeout: Math.min(req.timeoutMs, 10_000) };
  // The proxy's own client gets the same timeouts: a proxy that never answers CONNECT would
  // otherwise hold the process for undici's default 300 s after paycli has given up.
  const dispatcher = new EnvHttpProxyAgent({ ...phases, clientFactory: (origin: URL, opts: object) => new Pool(origin, { ...opts, ...phases }) } as ConstructorParameters<
    typeof EnvHttpProxyAgent
  >[0]);
  const release = () => void dispatcher.destroy().catch(() => undefined);
  // undici does not give up a connection still being set up (a CONNECT to a silent proxy) when
  // the signal fires; destroying the dispatcher does.
  signal.addEventListener('abort', release, { once: true });
  const target = new URL(req.url);
  const sent = (message: unknown) => {
    const r = (message as { request?: { method?: string; path?: string } }).request;
    if (!r || (r.method === (req.method ?? 'POST') && (r.path === `${target.pathname}${target.search}` || r.path === req.url))) onSent();
  };
  subscribe('undici:client:sendHeaders', sent);
  try {
    const res = await Promise.race([
      // a copy: undici's proxy agent adds `host` to the headers it is given, and the client keeps them across requests (src/gateway/client.ts `prepareRequest`)
      request(req.url, { method: req.method ?? 'POST', headers: { ...req.headers }, body: req.body, dispatcher, signal }),
      rejectOnAbort(signal),
    ]);
    res.body.once('close', release);
    return { status: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: res.body };
  } catch (err) {
    release();
    throw signal.aborted ? abortReason(signal.reason) : err;
  } finally {
    unsubscribe('undici:client:sendHeaders', sent);
  }
}

function abortReason(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error('aborted');
}

/** A promise that rejects with the signal's reason once it aborts (never resolves). */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(abortReason(signal.reason));
    else signal.addEventListener('abort', () => reject(abortReason(signal.reason)), { once: true });
  });
}
