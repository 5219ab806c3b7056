/**
 * `paycli listen`: a small HTTP server that receives postbacks (interface §6), prints each one and
 * optionally forwards it to the user's app, like `stripe listen` does for Stripe events. The server
 * and its refusals are the postback receiver's (src/gateway/receiver.ts), the one `--watch` starts too.
 *
 * - stdout: one line per accepted notification: `<received at ISO>  <cash-in|cash-out>
 *   <transactionId>  <status>  <amount in reais>[  order <orderId>][  to <recipient>]`, or
 *   `<received at ISO>  ping (test postback)` for the `{"test": true}` ping; with `--json`, the
 *   body as received, one JSON document per line (JSON Lines). Everything else (banner, warnings,
 *   forward results) goes to stderr; with `--json` every stderr line is a JSON document too
 *   (`{"listening": url}`, `{"notice": …}`, `{"warning": …}`, `{"forwarded": {…}}`,
 *   `{"debug": …}`).
 * - answers: 200 `{"received":true}`; 405 for a method other than POST; 413 for a body above
 *   {@link LISTEN_MAX_BODY}; 401 when `--secret` is given and the signature (src/gateway/postback.ts) is
 *   missing, stale or wrong; 400 for a body that is not a JSON object. Only 200s are printed and
 *   forwarded.
 * - `--forward-to`: the same raw body and the received headers (but hop-by-hop ones and `host`)
 *   are POSTed there, one at a time in arrival order; "→ forwarded: HTTP <status>" on stderr. The
 *   sender is answered only then, with what the application did: 200 when it answered 2xx; 502
 *   when it answered anything else or could not be reached, 504 when it did not answer within
 *   {@link FORWARD_TIMEOUT_MS}, so that the sender keeps the postback and sends it again (a
 *   postback is never both acknowledged and lost). A notification whose sender stopped waiting
 *   before its turn is not forwarded (the sender sends it again). What waits to be forwarded is
 *   bounded ({@link FORWARD_QUEUE_MAX} notifications and {@link FORWARD_QUEUE_MAX_BYTES} bytes):
 *   one that does not fit is answered 503 with `retry-after: 1` and not printed; a warning says so
 *   (the first time, then at most once a second, with the running count), and the counts are in the
 *   final line.
 * - Redeliveries: a postback whose `x-paycli-delivery-attempt` is above 1, or whose
 *   `x-paycli-event-id` this listener already printed (the last {@link SEEN_EVENTS_MAX} ids), gets
 *   `  redelivery (attempt <n>[, already received])` at the end of its line; with `--json`, a
 *   `{"redelivery": {"eventId", "attempt", "alreadyReceived"}}` line on stderr (stdout keeps the
 *   body as received). The sandbox restarting changes nothing here: it sends the same event ids.
 * - Text from the wire is sanitised before it reaches the terminal (src/core/sanitize.ts).
 * - SIGINT/SIGTERM: stops listening, abandons forwards in flight, exits 0.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Agent, request as undiciRequest } from 'undici';
import { UsageError } from '../../core/errors.js';
import { isHttpUrl, portFlag } from '../../gateway/net.js';
import { errorCodeOf } from '../../core/error-cause.js';
import { isCredentialHeader, REDACTED } from '../../core/secrets.js';
import { sendJson } from '../../core/http-server.js';
import { formatReais } from '../../pix/money.js';
import { logger, printResult, runStreams } from '../../core/logger.js';
import { redact, registerSecret, sanitizeText } from '../../core/sanitize.js';
import { formatLocalTime } from '../../core/local-time.js';
import { isPortuguese, t } from '../../core/i18n/index.js';
import { lookupWithin } from '../../gateway/resolve-within.js';
import { ATTEMPT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../gateway/postback.js';
import { RECEIVER_MAX_BODY, startReceiver, type ReceivedPostback, type Receiver } from '../../gateway/receiver.js';

/** Largest postback body accepted, in bytes (1 MiB); larger gets 413 (src/gateway/receiver.ts). */
export const LISTEN_MAX_BODY = RECEIVER_MAX_BODY;
/** Timeout of one forward to `--forward-to`, in ms. */
export const FORWARD_TIMEOUT_MS = 10_000;
/** Most notifications waiting to be forwarded (the one in flight included). */
export const FORWARD_QUEUE_MAX = 100;
/** Most bytes of bodies waiting to be forwarded (the one in flight included): 8 MiB. */
export const FORWARD_QUEUE_MAX_BYTES = 8 * 1024 * 1024;
/** Event ids remembered to recognise one received again (the oldest forgotten first). */
export const SEEN_EVENTS_MAX = 10_000;
/** Least time between two "dropped" warnings, in ms. */
const DROP_WARNING_INTERVAL_MS = 1000;

/** Options of `paycli listen` (plus the globals). */
export interface ListenOptions {
  port: string;
  host: string;
  forwardTo?: string;
  /** `--secret`, else env PAYCLI_POSTBACK_SECRET. */
  secret?: string;
  json?: boolean | string;
  verbose?: boolean;
}

/** What became of one forward: the application's 2xx, or why it did not take the notification. */
type ForwardResult = { ok: true; status: number } | { ok: false; status?: number; reason: string; timedOut?: boolean };

/** Headers not passed on to `--forward-to` (hop-by-hop, or set anew by the forwarding request). */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  'content-length',
  'expect',
]);

/** Raw characters that are valid inside JSON strings but unsafe on a terminal or in a JSON line. */
const UNSAFE_IN_LINE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A valid JSON text as one terminal-safe line with the same meaning: line breaks (which valid JSON
 * can only hold between tokens) become spaces, and DEL, C1 controls, line separators and bidi
 * controls (which can only be inside strings) become `\uXXXX` escapes. A body without any of these,
 * as the sandbox sends, is printed byte for byte.
 */
export function jsonLine(text: string): string {
  return text
    .trim()
    .replace(/[\r\n]+/g, ' ')
    .replace(UNSAFE_IN_LINE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function field(v: unknown, max: number): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && v.trim() !== '') return sanitizeText(v, true).trim().slice(0, max) || '?';
  return '?';
}

/** True for the connectivity test a gateway sends to a new webhook URL: `{"test": true}`. */
export function isPing(body: Record<string, unknown>): boolean {
  return body.test === true && body.transactionId === undefined;
}

/** `cashin` → `cash-in`, `transfer` → `cash-out`; another word as it came. */
function objectWord(object: unknown): string {
  if (object === 'cashin') return t('listen.cashin');
  if (object === 'transfer') return t('listen.cashout');
  return typeof object === 'string' ? field(object, 16) : 'postback';
}

/** The recipient of a transfer, from `destinationBank`: name, PIX key, bank. */
function destination(body: Record<string, unknown>): string | undefined {
  const d = body.destinationBank;
  if (!d || typeof d !== 'object') return undefined;
  const { name, pixKey, bank } = d as Record<string, unknown>;
  const parts = [name, pixKey, bank].filter((p) => typeof p === 'string' && p.trim() !== '').map((p) => field(p, 60));
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : `${parts[0]} (${parts.slice(1).join(', ')})`;
}

/**
 * The human line of one notification: time received (local, with its offset), kind and transaction id, status, amount,
 * then the order reference and, for a transfer, its recipient when the body has them.
 */
export function humanLine(body: Record<string, unknown>, receivedAt: Date, timeZone?: string): string {
  const when = formatLocalTime(receivedAt.getTime(), { portuguese: isPortuguese(), ...(timeZone ? { timeZone } : {}) });
  if (isPing(body)) return `${when}  ${t('listen.ping')}`;
  const amount = typeof body.value === 'number' && Number.isSafeInteger(body.value) ? formatReais(body.value) : t('listen.amountUnknown');
  const order = typeof body.orderId === 'string' && body.orderId.trim() !== '' ? `  ${t('listen.order', field(body.orderId, 80))}` : '';
  const to = body.object === 'transfer' ? destination(body) : undefined;
  return `${when}  ${objectWord(body.object)} ${field(body.transactionId, 40)}  ${field(body.status, 24)}  ${amount}${order}${to ? `  ${t('listen.to', to)}` : ''}`;
}

/** What marks a delivery as a redelivery (module doc). */
export interface Redelivery {
  eventId: string | null;
  attempt: number | null;
  alreadyReceived: boolean;
}

/**
 * Reads the sandbox's event headers and remembers the event id in `seen` (bounded by
 * {@link SEEN_EVENTS_MAX}). @returns the redelivery, or undefined for a first delivery (or no headers)
 */
export function redeliveryOf(headers: IncomingHttpHeaders, seen: Set<string>): Redelivery | undefined {
  const idRaw = headers[EVENT_ID_HEADER];
  const attemptRaw = headers[ATTEMPT_HEADER];
  const eventId = typeof idRaw === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(idRaw) ? idRaw : null;
  const attempt = typeof attemptRaw === 'string' && /^[0-9]{1,9}$/.test(attemptRaw) ? Number(attemptRaw) : null;
  const alreadyReceived = eventId !== null && seen.has(eventId);
  if (eventId !== null) {
    seen.delete(eventId);
    seen.add(eventId);
    if (seen.size > SEEN_EVENTS_MAX) seen.delete(seen.values().next().value!);
  }
  return alreadyReceived || (attempt !== null && attempt > 1) ? { eventId, attempt, alreadyReceived } : undefined;
}

/** `redelivery (attempt 3, already received)`. */
export function redeliveryNote(r: Redelivery): string {
  const parts = [r.attempt !== null ? t('listen.attempt', r.attempt) : '', r.alreadyReceived ? t('listen.alreadyReceived') : ''].filter(Boolean);
  return `${t('listen.redelivery')}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

function shownHeaders(headers: IncomingHttpHeaders): string[] {
  return Object.entries(headers).map(([k, v]) => {
    const value = isCredentialHeader(k) ? REDACTED : Array.isArray(v) ? v.join(', ') : (v ?? '');
    return sanitizeText(`< ${k}: ${value}`, true);
  });
}

function checkUrl(text: string): URL {
  if (isHttpUrl(text)) return new URL(text.trim());
  throw new UsageError(t('listen.forwardToInvalid', sanitizeText(text, true)), { field: '--forward-to' });
}

/** Runs the listener; resolves when stopped by SIGINT/SIGTERM. @throws UsageError (bad flags, port taken) */
export async function run(opts: ListenOptions): Promise<void> {
  const port = portFlag(opts.port);
  const forwardTo = opts.forwardTo === undefined ? undefined : checkUrl(opts.forwardTo);
  const secret = opts.secret ?? (process.env.PAYCLI_POSTBACK_SECRET || undefined);
  if (secret === '') throw new UsageError(t('listen.secretEmpty'), { field: '--secret' });
  registerSecret(secret);
  const json = Boolean(opts.json);
  /** One stderr line: text, or with `--json` the JSON document `{[kind]: value}`. */
  const say = (kind: string, value: unknown, text: string) => runStreams().stderr.write(redact(`${json ? JSON.stringify({ [kind]: value }) : text}\n`));

  const agent = forwardTo
    ? new Agent({ connectTimeout: FORWARD_TIMEOUT_MS, headersTimeout: FORWARD_TIMEOUT_MS, bodyTimeout: FORWARD_TIMEOUT_MS, connect: { lookup: lookupWithin(FORWARD_TIMEOUT_MS) } })
    : undefined;
  const stopping = new AbortController();
  let forwards: Promise<void> = Promise.resolve();
  let received = 0;
  /** What waits to be forwarded, the one in flight included. */
  const queue = { count: 0, bytes: 0 };
  /** Refused with 503 (queue full), and not taken by the application (answered 502/504). */
  let dropped = 0;
  let notTaken = 0;
  let lastDropWarning = 0;
  /** Event ids printed so far, oldest first (bounded). */
  const seen = new Set<string>();

  /** Forwards one notification (its sender still waiting); never throws. */
  async function forward(raw: Buffer, headers: IncomingHttpHeaders, res: ServerResponse): Promise<ForwardResult> {
    if (!forwardTo || !agent || stopping.signal.aborted) return { ok: false, reason: t('listen.stopping') };
    if (res.destroyed) return { ok: false, reason: t('listen.senderGone') };
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== undefined && !NOT_FORWARDED.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
    const timeout = AbortSignal.timeout(FORWARD_TIMEOUT_MS);
    try {
      const answer = await undiciRequest(forwardTo.href, { method: 'POST', headers: out, body: raw, dispatcher: agent, signal: AbortSignal.any([stopping.signal, timeout]) });
      await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      say('forwarded', { status: answer.statusCode }, t('listen.forwarded', answer.statusCode));
      if (answer.statusCode >= 200 && answer.statusCode < 300) return { ok: true, status: answer.statusCode };
      return { ok: false, status: answer.statusCode, reason: `HTTP ${answer.statusCode}` };
    } catch (err) {
      if (stopping.signal.aborted) return { ok: false, reason: t('listen.stopping') };
      const code = errorCodeOf(err);
      const why = timeout.aborted ? t('listen.noAnswerWithin', FORWARD_TIMEOUT_MS) : sanitizeText(code ?? (err as Error).message, true);
      logger.warn(t('listen.forwardFailed', forwardTo.host, why));
      return { ok: false, reason: why, timedOut: timeout.aborted };
    }
  }

  /**
   * Queues a forward when it fits ({@link FORWARD_QUEUE_MAX}, {@link FORWARD_QUEUE_MAX_BYTES});
   * @returns its result once its turn came and it ended, or null when it does not fit (counted, warned)
   */
  function enqueueForward(raw: Buffer, headers: IncomingHttpHeaders, res: ServerResponse, what: string): Promise<ForwardResult> | null {
    if (queue.count + 1 > FORWARD_QUEUE_MAX || queue.bytes + raw.length > FORWARD_QUEUE_MAX_BYTES) {
      dropped++;
      const now = Date.now();
      if (dropped === 1 || now - lastDropWarning >= DROP_WARNING_INTERVAL_MS) {
        lastDropWarning = now;
        logger.warn(t('listen.queueFull', queue.count, queue.bytes, forwardTo!.host, what, dropped));
      }
      return null;
    }
    queue.count++;
    queue.bytes += raw.length;
    const result = forwards.then(() =>
      forward(raw, headers, res).finally(() => {
        queue.count--;
        queue.bytes -= raw.length;
      }),
    );
    forwards = result.then(() => undefined);
    return result;
  }

  /** Answers the sender of a forwarded notification with what the application did (module doc). */
  function answerForwarded(res: ServerResponse, result: ForwardResult): void {
    if (!result.ok) notTaken++;
    if (res.destroyed) return; // the sender stopped waiting (its own timeout): it sends it again
    if (result.ok) return sendJson(res, 200, { received: true, forwarded: result.status });
    sendJson(res, result.timedOut ? 504 : 502, { message: `the application did not take the postback (${result.reason}): send it again` });
  }

  /** One notification accepted by the receiver (src/gateway/receiver.ts): printed, forwarded when asked. */
  async function handle(p: ReceivedPostback, res: ServerResponse): Promise<void> {
    const doc = p.body;
    const forwarded = forwardTo
      ? enqueueForward(p.raw, p.headers, res, isPing(doc) ? t('listen.aPing') : t('listen.transaction', field(doc.transactionId, 40), field(doc.status, 24)))
      : undefined;
    if (forwarded === null) return sendJson(res, 503, { message: 'forward queue full: send it again later' }, { 'retry-after': '1' });
    if (forwarded === undefined) sendJson(res, 200, { received: true });
    received++;
    const redelivery = redeliveryOf(p.headers, seen);
    printResult(json ? jsonLine(p.text) : `${humanLine(doc, p.receivedAt)}${redelivery ? `  ${redeliveryNote(redelivery)}` : ''}`);
    if (json && redelivery) say('redelivery', redelivery, '');
    if (forwarded) answerForwarded(res, await forwarded);
  }

  const showHeaders = (headers: IncomingHttpHeaders) => {
    for (const line of shownHeaders(headers)) {
      if (json) say('debug', line, line);
      else logger.debug(line);
    }
  };
  let receiver: Receiver;
  try {
    receiver = await startReceiver({ port, host: opts.host, ...(secret !== undefined ? { secret } : {}), ...(opts.verbose ? { onHeaders: showHeaders } : {}), onPostback: handle });
  } catch (err) {
    await agent?.destroy().catch(() => undefined);
    throw new UsageError(t('server.cannotListen', `${opts.host}:${opts.port}`, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--port' });
  }
  // Handlers first, then the "listening on" line: a signal sent as soon as it is read must not
  // find the default disposition (death by signal). They stay on until exit, so a second Ctrl-C
  // during the (bounded) shutdown changes nothing.
  const stopped = new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
  const url = receiver.url;
  const notes = [
    secret !== undefined ? t('listen.verifying', SIGNATURE_HEADER) : t('listen.notVerifying'),
    forwardTo ? t('listen.forwarding', `${forwardTo.origin}${forwardTo.pathname}`) : '',
  ].filter(Boolean);
  logger.notice(t('listen.ready', url, notes.join('; ')));
  say('listening', url, `listening on ${url}`);

  await stopped;
  stopping.abort();
  await receiver.close();
  await forwards;
  await agent?.destroy().catch(() => undefined);
  logger.notice(t('listen.stopped', received, dropped, notTaken));
}
