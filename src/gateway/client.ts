/**
 * The HTTP client: one POST of a JSON body to the gateway (bytes carried by src/gateway/transport.ts),
 * with the response validated against the interface's schema; and the GET of a lookup
 * ({@link lookupGateway}: status, balance), which changes nothing at the gateway. Rules (docs/gateway-contract.md §4):
 * - a POST is never retried; nothing follows a redirect: a payout sent twice is money lost;
 * - a lookup GET is retried a bounded number of times on a network failure or a 502/503/504
 *   ({@link LOOKUP_ATTEMPTS}), since asking twice is harmless;
 * - a timeout ({@link Settings.timeoutMs}) and a response size cap ({@link MAX_RESPONSE_BYTES});
 * - unknown response fields are tolerated (the schemas are loose);
 * - every failure is a typed error (src/core/errors.ts) that says whether the request may have
 *   reached the gateway, in which case the outcome is unknown;
 * - `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` are honoured through undici's `EnvHttpProxyAgent`
 *   (src/gateway/transport.ts); `NODE_EXTRA_CA_CERTS` is read by Node.
 */
import type * as z from 'zod/mini';
import { AuthError, GatewayError, GatewayRefusedError, InterruptedError, NetworkError, type ErrorDetails } from '../core/errors.js';
import { checkWith, loadSchemas, type LazySchema } from './payment-schemas.js';
import { logger, isVerbose } from '../core/logger.js';
import { sanitizeJson, sanitizeText } from '../core/sanitize.js';
import { causeChain, errorCodeOf } from '../core/error-cause.js';
import { joinUrl } from './endpoint.js';
import { REDACTED, redactUrl } from '../core/secrets.js';
import type { Settings } from './connection.js';
import { post, Stop, type TransportResponse } from './transport.js';
import { VERSION } from '../core/version.js';
import { t } from '../core/i18n/index.js';

export { joinUrl } from './endpoint.js';

/** Largest response body read, in bytes (1 MiB); a larger one is refused with exit 5. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** A request as it would be sent; what `--dry-run` and `--verbose` show (credential redacted). */
export interface PreparedRequest {
  method: 'POST' | 'GET';
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Builds the request: JSON body, `Authorization: Bearer <key>` (or the key raw under
 * `auth-header`), the profile's static headers. A GET (a lookup) has no body and no content type.
 * @param redacted replace the credential with `[redacted]` (for display)
 */
export function prepareRequest(settings: Settings, baseUrl: string, path: string, body: unknown, redacted = false, method: 'POST' | 'GET' = 'POST'): PreparedRequest {
  if (redacted) return buildRequest(settings, baseUrl, path, body, true, method);
  // A batch sends thousands of requests with the same settings to the same URL: the last URL and headers are kept.
  const l = last;
  if (
    l &&
    l.settings === settings &&
    l.headersIn === settings.headers &&
    l.apiKey === settings.apiKey &&
    l.authHeader === settings.authHeader &&
    l.baseUrl === baseUrl &&
    l.path === path &&
    l.method === method
  ) {
    return { method, url: l.url, headers: l.headers, body };
  }
  const req = buildRequest(settings, baseUrl, path, body, false, method);
  last = {
    settings,
    headersIn: settings.headers,
    apiKey: settings.apiKey,
    authHeader: settings.authHeader,
    baseUrl,
    path,
    method,
    url: req.url,
    headers: Object.freeze(req.headers),
  };
  return req;
}

/** What {@link prepareRequest} built last (not redacted), with what it was built from. */
let last:
  | {
      settings: Settings;
      headersIn: Settings['headers'];
      apiKey: Settings['apiKey'];
      authHeader: Settings['authHeader'];
      baseUrl: string;
      path: string;
      method: 'POST' | 'GET';
      url: string;
      headers: Record<string, string>;
    }
  | undefined;

function buildRequest(settings: Settings, baseUrl: string, path: string, body: unknown, redacted: boolean, method: 'POST' | 'GET'): PreparedRequest {
  const headers: Record<string, string> = {
    ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    accept: 'application/json',
    'user-agent': `paycli/${VERSION}`,
  };
  // Every `header.<Name>` value is a secret, as the API key is (src/core/secrets.ts).
  for (const [k, v] of Object.entries(settings.headers)) headers[k.toLowerCase()] = redacted ? REDACTED : v;
  if (settings.apiKey) {
    const key = redacted ? REDACTED : settings.apiKey;
    if (settings.authHeader) headers[settings.authHeader.toLowerCase()] = key;
    else headers.authorization = `Bearer ${key}`;
  }
  return { method, url: redacted ? redactUrl(joinUrl(baseUrl, path)) : joinUrl(baseUrl, path), headers, body };
}

/** Connection errors that prove nothing reached the gateway. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

/** One call to the gateway. */
export interface GatewayCall<T extends z.ZodMiniType> {
  /** `POST` (default: a payment) or `GET` (a lookup, which changes nothing: failures say so). */
  method?: 'POST' | 'GET';
  /** Interface path, e.g. `/transaction/cashout`. */
  path: string;
  /** The validated request body (ignored for a GET). */
  body: unknown;
  /**
   * Schema of the HTTP 200 body, or its loader with its check without zod (src/gateway/accepted.ts): an answer that
   * check accepts loads no zod.
   */
  schema: T | LazySchema<T>;
  settings: Settings;
  /** The actual base URL (the sandbox's address when the sandbox is in use). */
  baseUrl: string;
  /** Aborts the request (Ctrl-C). */
  signal?: AbortSignal;
  /** Use a direct connection even if proxy variables are set (in-process sandbox). */
  direct?: boolean;
  /** Kept-alive connections to reuse on the direct path (batch runs; src/gateway/transport.ts). */
  agent?: import('node:http').Agent;
  /** Words for "what happens if unknown", e.g. "check the gateway before retrying this cash-out". */
  unknownAdvice: string;
  /** Called the moment the request may have reached the gateway (the connection to it is up). */
  onSent?: () => void;
}

/** What the gateway answered with, validated. `raw` is the JSON document as received. */
export interface GatewayResult<T> {
  status: number;
  data: T;
  raw: unknown;
}

/**
 * The exchanges in flight under each caller's signal: ONE listener per signal stops them all (a
 * batch run's thousands of requests share its signal; a listener added and removed per request
 * costs it measurably: docs/speed.md, "The batch send's CPU"). The listener stays for the
 * signal's life and finds nothing to stop once its requests are over.
 */
const following = new WeakMap<AbortSignal, Set<Stop>>();

/** Stops `stop` when `signal` aborts (at once if it has). */
function follow(signal: AbortSignal, stop: Stop): void {
  if (signal.aborted) return stop.abort(signal.reason);
  let stops = following.get(signal);
  if (stops === undefined) {
    const all = new Set<Stop>();
    stops = all;
    following.set(signal, all);
    signal.addEventListener(
      'abort',
      () => {
        for (const s of all) s.abort(signal.reason);
        all.clear();
      },
      { once: true },
    );
  }
  stops.add(stop);
}

/** The exchange of `stop` is over: `signal` no longer stops it. */
function unfollow(signal: AbortSignal, stop: Stop): void {
  following.get(signal)?.delete(stop);
}

/**
 * Sends one POST and validates the answer.
 * @throws AuthError (401/403), GatewayRefusedError (other 4xx), GatewayError (3xx, 5xx, not
 *   JSON, too large, wrong shape), NetworkError (no connection, reset, timeout),
 *   InterruptedError (signal aborted)
 */
export async function callGateway<T extends z.ZodMiniType>(call: GatewayCall<T>): Promise<GatewayResult<z.output<T>>> {
  const method = call.method ?? 'POST';
  const lookup = method === 'GET';
  const req = prepareRequest(call.settings, call.baseUrl, call.path, call.body, false, method);
  if (isVerbose()) {
    const shown = prepareRequest(call.settings, call.baseUrl, call.path, call.body, true, method);
    logger.debug(`> ${method} ${shown.url}`);
    for (const [k, v] of Object.entries(shown.headers)) logger.debug(`> ${k}: ${v}`);
    if (!lookup) logger.debug(`> ${JSON.stringify(sanitizeJson(call.body))}`);
  }
  let sent = false;
  const unknown = (what: string, code: 'network' | 'timeout', cause: unknown): NetworkError => {
    const details: ErrorDetails = { maybeSent: lookup ? false : sent, cause };
    if (lookup) return new NetworkError(t('net.lookupFailed', what), details, code);
    return sent ? new NetworkError(t('net.afterSent', what, call.unknownAdvice), details, code) : new NetworkError(t('net.beforeSent', what), details, code);
  };
  const timeoutMs = call.settings.timeoutMs;
  // One stop switch for the timeout and the caller's signal, released when the answer is read
  // (an AbortController per request, or AbortSignal.timeout/any, cost a batch measurably: docs/speed.md).
  const stop = new Stop();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  const caller = call.signal;
  if (caller) follow(caller, stop);
  try {
    return await exchange();
  } finally {
    clearTimeout(timer);
    if (caller) unfollow(caller, stop);
  }

  async function exchange(): Promise<GatewayResult<z.output<T>>> {
    const t0 = Date.now();
    let res: TransportResponse;
    try {
      res = await post(
        { method, url: req.url, headers: req.headers, body: lookup ? undefined : JSON.stringify(req.body), stop, timeoutMs, direct: call.direct, agent: call.agent },
        () => {
          sent = true;
          call.onSent?.();
        },
      );
    } catch (err) {
      throw classify(err);
    }
    let text: string;
    try {
      text = await readCapped(res.body, res.headers['content-length'], lookup);
    } catch (err) {
      if (err instanceof GatewayError) throw err;
      throw classify(err);
    }
    if (isVerbose()) {
      logger.debug(`< HTTP ${res.status} (${Date.now() - t0} ms)`);
      for (const [k, v] of Object.entries(res.headers)) logger.debug(`< ${sanitizeText(k, true)}: ${sanitizeText(Array.isArray(v) ? v.join(', ') : String(v), true)}`);
      logger.debug(`< ${traceBody(text)}`);
    }
    return interpret(res.status, res.headers, text, call);
  }

  function classify(err: unknown): Error {
    if (err instanceof GatewayError) return err;
    if (call.signal?.aborted) {
      if (lookup) return new InterruptedError(t('net.interruptedLookup'), { maybeSent: false });
      return new InterruptedError(sent ? t('net.interruptedAfter', call.unknownAdvice) : t('net.interruptedBefore'), { maybeSent: sent });
    }
    const refusedByProxy = proxyRefusal(err);
    if (refusedByProxy) return refusedByProxy;
    const code = errorCodeOf(err);
    if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return unknown(t('net.noAnswer', timeoutMs), 'timeout', err);
    }
    if (code && NOT_SENT.has(code)) {
      return new NetworkError(t('net.cannotConnect', new URL(req.url).host, code), { maybeSent: false, cause: err, hint: t('net.cannotConnectHint') });
    }
    return unknown(t('net.connectionFailed', code ?? (err as Error)?.message ?? t('net.unknownError')), 'network', err);
  }
}

/**
 * The proxy (HTTPS_PROXY / HTTP_PROXY) refused to open the tunnel (undici: "Proxy response (407)
 * !== 200 when HTTP Tunneling"): the request never left for the gateway, so exit 4 with
 * `maybeSent: false`; a 407 says the proxy wants credentials (docs/output-for-scripts.md "Exit codes").
 */
function proxyRefusal(err: unknown): NetworkError | undefined {
  for (const e of causeChain(err)) {
    const m = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec((e as Error)?.message ?? '');
    if (!m) continue;
    const status = Number(m[1]);
    return status === 407
      ? new NetworkError(t('net.proxyAuth'), { maybeSent: false, cause: err, hint: t('net.proxyAuthHint') }, 'proxy_auth_required')
      : new NetworkError(t('net.proxyRefused', status), { maybeSent: false, cause: err, hint: t('net.proxyRefusedHint') });
  }
  return undefined;
}

/**
 * The response body as the `--verbose` trace shows it: a JSON body re-serialised with every
 * string sanitised (so not even a `\u001b` escape survives), other text sanitised; at most
 * 4000 characters.
 */
function traceBody(text: string): string {
  let shown: string;
  try {
    shown = JSON.stringify(sanitizeJson(JSON.parse(text)));
  } catch {
    shown = sanitizeText(text);
  }
  return shown.length > 4000 ? `${shown.slice(0, 4000)}… (${text.length} characters)` : shown;
}

/**
 * Reads a body up to {@link MAX_RESPONSE_BYTES}; destroys the stream past it. Listens to the
 * stream's events rather than iterating it (an async iterator per answer costs a batch
 * measurably: docs/speed.md).
 * @throws GatewayError (too large); the stream's error, or a premature close, as the transport gives it
 */
function readCapped(body: TransportResponse['body'], contentLength: string | string[] | undefined, lookup = false): Promise<string> {
  const tooBig = () => new GatewayError(t('gw.tooBig', MAX_RESPONSE_BYTES, lookup), { maybeSent: !lookup }, 'bad_response');
  if (typeof contentLength === 'string' && Number(contentLength) > MAX_RESPONSE_BYTES) {
    body.destroy();
    return Promise.reject(tooBig());
  }
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const fail = (err: Error) => {
      if (ended) return;
      ended = true;
      reject(err);
    };
    // plain listeners: each fires once at most (a repeat is ignored); no `once` wrapper per answer
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
      else {
        fail(tooBig());
        body.destroy();
      }
    });
    body.on('end', () => {
      if (ended) return;
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    body.on('error', fail);
    // Closed before its end without an error (a connection cut mid-body): as a stream iterator says it.
    body.on('close', () => ended || fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
  });
}

/**
 * An answer checked against `schema`: a zod schema's parse (the lookups'), or a payment's (src/gateway/payment-schemas.ts
 * `checkWith`: its check without zod, then, for an answer that check does not accept, its schema, loaded then).
 */
async function checkAnswer<T extends z.ZodMiniType>(schema: T | LazySchema<T>, json: unknown): Promise<z.core.util.SafeParseResult<z.output<T>>> {
  if ('_zod' in schema) return schema.safeParse(json) as z.core.util.SafeParseResult<z.output<T>>;
  return checkWith(schema, json) ?? checkWith(schema, json, await schema.load());
}

/** Maps an HTTP answer to a result or a typed error (exit codes: docs/output-for-scripts.md "Exit codes"). */
async function interpret<T extends z.ZodMiniType>(status: number, headers: TransportResponse['headers'], text: string, call: GatewayCall<T>): Promise<GatewayResult<z.output<T>>> {
  let json: unknown;
  let isJson = true;
  try {
    json = JSON.parse(text);
  } catch {
    isJson = false;
  }
  const lookup = call.method === 'GET';
  // What a failure means for the caller: a POST's outcome is unknown, a lookup just failed (worded only for a failure).
  const unknownTail = (): string => (lookup ? '' : t('gw.unknownTail', call.unknownAdvice));
  // The interface's error body, read only from an answer that is not a success (a 200's body has no message: parsing it costs a batch per row).
  const parsedMessage = isJson && status >= 300 ? (await loadSchemas()).errorBodySchema.safeParse(json) : undefined;
  const message = parsedMessage?.success ? sanitizeText(parsedMessage.data.message, true).trim() : undefined;

  if (status >= 300 && status < 400) {
    const location = typeof headers.location === 'string' ? sanitizeText(headers.location, true) : t('gw.nowhere');
    throw new GatewayError(lookup ? t('gw.redirectLookup', status, location) : t('gw.redirectPost', status, location), {
      status,
      hint: lookup ? t('gw.redirectLookupHint') : t('gw.redirectPostHint'),
    });
  }
  if (status === 401 || status === 403) {
    throw new AuthError(t('gw.unauthorized', status, message ?? ''), {
      status,
      hint: t('gw.unauthorizedHint', `paycli auth login${call.settings.profile === 'default' ? '' : ` --profile ${call.settings.profile}`}`),
    });
  }
  if (status >= 400 && status < 500) {
    const text2 = message ?? t('gw.noMessage', status);
    const field = message
      ? /\b(payerName|payerDocument|payerEmail|payerPhone|productName|productDescription|value|postbackUrl|splits|pixKeyType|pixKey|cpfCnpj|person(?:\.\w+)?)\b/.exec(message)?.[1]
      : undefined;
    const retryAfter = status === 429 && typeof headers['retry-after'] === 'string' ? headers['retry-after'] : undefined;
    throw new GatewayRefusedError(
      text2,
      { status, field, ...(retryAfter !== undefined ? { retryAfter } : {}) },
      message && /acquirer|adquirente/i.test(message) ? 'no_active_acquirer' : 'gateway_refused',
    );
  }
  if (status >= 500) {
    const what = message ? `: ${message}` : isJson ? '' : t('gw.with', describeNonJson(headers, text));
    throw new GatewayError(t('gw.failed', status, what, unknownTail()), { status, maybeSent: !lookup });
  }
  if (!isJson) {
    throw new GatewayError(t('gw.notJson', status, describeNonJson(headers, text), unknownTail()), { status, maybeSent: !lookup }, 'bad_response');
  }
  const parsed = await checkAnswer(call.schema, json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(body)'} ${i.message}`);
    const field = parsed.error.issues[0]?.path.map(String).join('.');
    throw new GatewayError(t('gw.shape', lookup, sanitizeText(issues.join('; '), true), unknownTail()), { status, field, maybeSent: !lookup }, 'bad_response');
  }
  return { status, data: parsed.data as z.output<T>, raw: json };
}

function describeNonJson(headers: Record<string, string | string[] | undefined>, text: string): string {
  if (text.length === 0) return t('gw.emptyBody');
  const type = typeof headers['content-type'] === 'string' ? headers['content-type'].split(';')[0] : undefined;
  if (/html/i.test(type ?? '') || /^\s*</.test(text)) return t('gw.html');
  return type ? t('gw.bodyOfType', sanitizeText(type, true)) : t('gw.notJsonBody');
}

/** How many times a lookup GET is tried in all (network failure, 502, 503, 504), at 0.3 s, then 0.9 s. */
export const LOOKUP_ATTEMPTS = 3;

/** True for a failure after which asking again may help: no connection, a reset, a timeout, 502/503/504. */
function retryable(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  return err instanceof GatewayError && (err.details.status === 502 || err.details.status === 503 || err.details.status === 504);
}

/**
 * A lookup: `GET {baseUrl}{path}`, the answer validated with `schema`. Tried up to `attempts`
 * times ({@link LOOKUP_ATTEMPTS}) while it fails with a network error or 502/503/504, with a short
 * pause between tries; a GET changes nothing at the gateway, so asking again is safe. Errors are
 * those of {@link callGateway}, worded for a lookup (never "the outcome is unknown").
 * @throws AuthError, GatewayRefusedError (e.g. 404 `Transaction not found`), GatewayError,
 *   NetworkError (after the last try), InterruptedError
 */
export async function lookupGateway<T extends z.ZodMiniType>(
  call: Omit<GatewayCall<T>, 'method' | 'body' | 'unknownAdvice'>,
  attempts = LOOKUP_ATTEMPTS,
): Promise<GatewayResult<z.output<T>>> {
  for (let i = 1; ; i++) {
    try {
      return await callGateway({ ...call, method: 'GET', body: undefined, unknownAdvice: '' });
    } catch (err) {
      if (i >= attempts || !retryable(err) || call.signal?.aborted) throw err;
      const pause = 300 * 3 ** (i - 1);
      logger.debug(`lookup failed (${(err as Error).message}); asking again in ${pause} ms (try ${i + 1} of ${attempts})`);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
