/**
 * The built-in sandbox: an HTTP server on 127.0.0.1 that answers like the gateway (interface §4,
 * plus what the gateway family documents beyond it), for trying paycli and for other programs'
 * tests. No money moves. Behaviour (documented in docs/sandbox-and-postbacks.md "The built-in sandbox" and "Postbacks"):
 * - `POST /transaction/qrcode/cashin` and `POST /transaction/cashout`, checked like the gateway
 *   (src/sandbox/validate.ts; format rules only with `strict`); a failure is HTTP 400
 *   `{"message": "Validation Failed - <field> is required"}` or similar;
 * - cash-in answer: the interface's fields, plus `orderId` (echoed, null when none was sent) and
 *   `success: true`; `qrCode` is a real single-use PIX BR Code (valid CRC, amount = `value`, txid
 *   from the externalId) and `qrCodeBase64` a PNG of it (raw base64);
 * - cash-out answer: the interface's fields (`tax` = R$ 0,50 + 1% of gross rounded down, never
 *   more than gross; `liquid` = gross − tax, both strings of integers; `status` "0"; `createdAt`
 *   ISO 8601 UTC with 7 fractional digits and Z), plus `orderId`, `success: "true"` (a string, as documented) and
 *   `description: null`;
 * - lookups: `GET /transaction/get/by/id/{id}`, `GET /transaction/get/by/orderId/{orderId}`
 *   (404 `{"message":"Transaction not found"}`) and `GET /transaction/get/balance`
 *   (src/sandbox/store.ts);
 * - `noAcquirer`: every cash-in gets 400 `{"message":"No active acquirer"}`;
 * - `apiKey`: a request without `Authorization: Bearer <apiKey>` (scheme in any letter case) or
 *   the raw `<apiKey>` gets 401 `{"message":"Invalid token."}`;
 * - `dropAfterCreate`: the n-th transaction created is kept, and its connection reset before the
 *   answer (for testing what a client does when it cannot know the outcome);
 * - `transactionId`s keep increasing across runs (src/sandbox/counter.ts, reserved a block at a time);
 * - outside the interface, under `/_sandbox/` (src/sandbox/lifecycle.ts):
 *   `POST /_sandbox/transactions/<id>/<pay|fail|cancel|refund|infraction>` changes a transaction's
 *   state (200 `{transactionId, kind, status, previousStatus, postback}`, 404 unknown id, 409
 *   transition not allowed, all with `{message}` on failure), `GET /_sandbox/transactions/<id>`
 *   reads it, `POST /_sandbox/ping` `{"url"}` sends the `{"test": true}` ping once and answers
 *   `{url, delivered, status, outcome}`; `GET|POST|DELETE /_sandbox/failures` lists, adds or clears
 *   the failure rules (src/sandbox/failures.ts);
 * - balance: the opening balance plus the store's movements; a cash-out over it, or matched by a
 *   failure rule, gets the failure's answer (src/sandbox/failures.ts);
 * - with `sendPostbacks`, every state change (creation included) POSTs a postback to the
 *   transaction's `postbackUrl` and to `webhookUrl`, each an event (src/sandbox/events.ts) delivered
 *   by src/sandbox/delivery.ts and listed or resent under `/_sandbox/events`; `autoPayMs` pays every
 *   cash-in that long after it was created.
 *
 * Longer than 500 lines: the routes of the gateway interface are read side by side with their behaviour.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import { buildBrCode } from '../pix/brcode.js';
import { CASHIN_PATH, CASHOUT_PATH, DEFAULT_LOOKUP_PATHS, templatePrefix } from '../gateway/contract.js';
import { readCappedBody, sendJson } from '../core/http-server.js';
import { PING_BODY, SANDBOX_HEADER } from '../gateway/postback.js';
import { TransactionIds } from './counter.js';
import { applyTransition, gatewayTime, postbackBody, SANDBOX_ACTIONS, type SandboxAction } from './lifecycle.js';
import { PostbackDeliverer, shownUrl, type RetrySchedule } from './delivery.js';
import { EventStore, type SandboxEvent } from './events.js';
import { TransactionStore, type SandboxTransaction } from './store.js';
import { canonicalBody, validationProblem } from './validate.js';
import { BANK_TIMEOUT_OBSERVATION, cashoutFate, DEFAULT_OPENING_BALANCE, failuresAnswer, FailureRules, withOpening, type FailureRule } from './failures.js';
import { isHttpUrl } from '../gateway/net.js';
import { createDashboard, DASHBOARD_PATH, isLoopback, type Dashboard } from './dashboard.js';
import { t } from '../core/i18n/index.js';
import { VERSION } from '../core/version.js';

export type { SandboxTransaction } from './store.js';

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
/** Message of the no-active-acquirer refusal (interface §4.1), in the gateway family's documented wording. */
export const NO_ACQUIRER_MESSAGE = 'No active acquirer';
/** Message of a refused credential (the gateway family's documented wording). */
export const INVALID_TOKEN_MESSAGE = 'Invalid token.';
/** Message of a lookup that finds nothing (the gateway family's documented wording). */
export const NOT_FOUND_MESSAGE = 'Transaction not found';

/**
 * The gateway paths the sandbox serves (interface §4, and the documented lookups), from
 * src/gateway/contract.ts; a lookup by id or orderId is its template's prefix followed by the value.
 */
export const SERVED_PATHS = {
  cashin: CASHIN_PATH,
  cashout: CASHOUT_PATH,
  byId: templatePrefix(DEFAULT_LOOKUP_PATHS.statusPath),
  byOrderId: templatePrefix(DEFAULT_LOOKUP_PATHS.statusByOrderPath),
  balance: DEFAULT_LOOKUP_PATHS.balancePath,
} as const;

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  host?: string;
  /** 0 for an ephemeral port. */
  port?: number;
  /** Require this API key (`Authorization: Bearer <apiKey>`, or the raw key). */
  apiKey?: string;
  /** Refuse every cash-in with "no active acquirer". */
  noAcquirer?: boolean;
  /** Also apply the format rules (src/sandbox/validate.ts). */
  strict?: boolean;
  /** Called with one line per request (standalone mode logs them to stderr). */
  log?: (line: string) => void;
  /**
   * Send postbacks (default false: the in-process sandbox of a single paycli run stops when the
   * command ends, and sends none).
   */
  sendPostbacks?: boolean;
  /** Also send every postback of every transaction here (the account-wide webhook). */
  webhookUrl?: string;
  /** Sign every postback with this secret (src/gateway/postback.ts); unsigned when absent. */
  postbackSecret?: string;
  /** Pay every cash-in this many milliseconds after it was created. */
  autoPayMs?: number;
  /** Keep postback events in this folder across restarts (src/sandbox/events.ts); in memory when absent. */
  stateDir?: string;
  /** Cap on kept events (src/sandbox/events.ts `DEFAULT_MAX_EVENTS`). */
  maxEvents?: number;
  /** Waits between attempts (src/sandbox/delivery.ts `RETRY_SCHEDULES`; standard by default). */
  retrySchedule?: RetrySchedule;
  /** How long an event is retried, in ms (default 24 h). */
  retryForMs?: number;
  /** Timeout of one postback attempt, in ms (src/sandbox/delivery.ts `ATTEMPT_TIMEOUT_MS`). */
  attemptTimeoutMs?: number;
  /** Reset the connection of the n-th created transaction (counting from 1) before answering. */
  dropAfterCreate?: readonly number[];
  /** The account's opening balance, cents (src/sandbox/failures.ts `DEFAULT_OPENING_BALANCE`). */
  openingBalance?: number;
  /** Failure rules from the start (src/sandbox/failures.ts). */
  failures?: readonly FailureRule[];
  /** Serve the dashboard under `/_dashboard/` (src/sandbox/dashboard.ts); default false. */
  dashboard?: boolean;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  server: Server;
  transactions: TransactionStore;
  events: EventStore;
  /** What the state folder held at start: events kept, and how many still to deliver. */
  /** What a state folder gave back at start: events, those still pending, transactions. */
  restored: { events: number; pending: number; transactions: number };
  /** The dashboard's address (`<url>/_dashboard/`), when it is served. */
  dashboardUrl?: string;
  close(): Promise<void>;
}

/** The state folder (`stateDir`) cannot be read or written. */
export class SandboxStateError extends Error {}

/** Cash-out fee of the sandbox, in cents: 50 + floor(gross / 100), at most `gross`. */
export function sandboxTax(gross: number): number {
  return Math.min(gross, 50 + Math.floor(gross / 100));
}

/**
 * True when an `Authorization` header carries `apiKey`: `Bearer <key>` with the scheme in any
 * letter case (RFC 7235), or the raw key as the gateway family's lookup examples send it.
 */
export function authorizationCarries(header: string | undefined, apiKey: string): boolean {
  if (header === undefined) return false;
  const token = header.trim().replace(/^bearer\s+/i, '');
  const a = Buffer.from(token);
  const b = Buffer.from(apiKey);
  return a.length === b.length && timingSafeEqual(a, b);
}

const optionalText = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** A transaction's kind in a log line, in the run's language (cash-in / cobrança, cash-out / saque). */
function logKind(tx: SandboxTransaction): string {
  return tx.kind === 'cashin' ? t('sandbox.log.cashin') : t('sandbox.log.cashout');
}

/** Starts the sandbox; resolves once it listens. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const log = opts.log ?? (() => undefined);
  let store: TransactionStore;
  let events: EventStore;
  let restored: ReturnType<EventStore['load']>;
  try {
    store = new TransactionStore(opts.stateDir);
    events = new EventStore({ dir: opts.stateDir, maxEvents: opts.maxEvents, log });
    restored = events.load();
  } catch (err) {
    throw new SandboxStateError(t('sandbox.stateDirUnusable', String(opts.stateDir), (err as NodeJS.ErrnoException).code ?? (err as Error).message), { cause: err });
  }
  const deliverer = new PostbackDeliverer({
    store: events,
    secret: opts.postbackSecret,
    schedule: opts.retrySchedule,
    retryForMs: opts.retryForMs,
    attemptTimeoutMs: opts.attemptTimeoutMs,
    log,
  });
  const autoPayTimers = new Set<NodeJS.Timeout>();
  const dropAt = new Set(opts.dropAfterCreate ?? []);
  const rules = new FailureRules();
  for (const rule of opts.failures ?? []) rules.add(rule);
  const opening = opts.openingBalance ?? DEFAULT_OPENING_BALANCE;
  let created = 0;
  const transactionIds = new TransactionIds();
  const dashboard: Dashboard | undefined = opts.dashboard
    ? createDashboard({
        store,
        events: () => events.all(),
        balance: () => withOpening(store.balance(), opening),
        act: (id, action) => act(id, action, 'dashboard'),
        resend: (id) => resend(id),
        eventView,
        qr: async (tx) => (tx.externalId === undefined ? undefined : qrOf(tx.value, tx.externalId)),
      })
    : undefined;
  if (dashboard) events.onChange = (e) => dashboard.eventChanged(e);

  /** Where a transaction's postbacks go: its own URL and the webhook, once each. */
  function targets(tx: SandboxTransaction): string[] {
    if (!opts.sendPostbacks) return [];
    return [...new Set([tx.postbackUrl, opts.webhookUrl].filter((u): u is string => u !== undefined))];
  }

  /** Queues the postbacks of a transaction's current state; returns how many. */
  function notify(tx: SandboxTransaction): number {
    const urls = targets(tx);
    const body = postbackBody(tx);
    for (const url of urls) deliverer.enqueue(url, body);
    return urls.length;
  }

  /** Changes a transaction's state and queues its postbacks; the control endpoint's answer. */
  function act(id: number, action: SandboxAction, by: string, observation?: string): { status: number; body: Record<string, unknown> } {
    const tx = store.get(id);
    if (!tx)
      return {
        status: 404,
        body: {
          message: `no transaction ${id} in this sandbox (a sandbox with a state folder keeps its transactions across restarts; one without keeps them as long as its process)`,
        },
      };
    const done = applyTransition(tx, action, new Date(), observation);
    if ('error' in done) return { status: 409, body: { message: done.error } };
    store.save(tx);
    dashboard?.transactionChanged(tx);
    const sent = notify(tx);
    log(
      t(
        'sandbox.log.changed',
        logKind(tx),
        id,
        done.from,
        tx.status,
        by === 'auto-pay' ? t('sandbox.log.byAutoPay') : by === 'failure rule' ? t('sandbox.log.byFailureRule', 'bank-timeout') : t('sandbox.log.byControl'),
        sent,
      ),
    );
    return { status: 200, body: { transactionId: id, kind: tx.kind, status: tx.status, previousStatus: done.from, postback: sent ? 'queued' : 'none' } };
  }

  /** Remembers a new transaction and sends its `created` postbacks. */
  function remember(tx: SandboxTransaction): void {
    store.add(tx);
    dashboard?.transactionChanged(tx);
    const sent = notify(tx);
    if (sent) log(t('sandbox.log.created', tx.kind === 'cashout', tx.transactionId, sent));
  }

  async function control(req: IncomingMessage, path: string, reply: (status: number, body: unknown) => void): Promise<void> {
    if (path === '/_sandbox/ping') {
      if (req.method !== 'POST') {
        req.resume();
        return reply(405, { message: `use POST for ${path}` });
      }
      const text = (await readCappedBody(req, SANDBOX_MAX_BODY))?.toString('utf8') ?? '';
      let url: unknown;
      try {
        url = text.trim() === '' ? undefined : (JSON.parse(text) as { url?: unknown }).url;
      } catch {
        return reply(400, { message: 'the body must be JSON: {"url": "<where to send the ping>"}' });
      }
      const target = optionalText(url) ?? opts.webhookUrl;
      if (target === undefined) return reply(400, { message: 'no URL to ping: send {"url": "<where to send the ping>"}, or start the sandbox with a webhook URL' });
      if (!isHttpUrl(target)) return reply(400, { message: 'url must be an absolute http(s) URL' });
      const result = await deliverer.ping(target, JSON.stringify(PING_BODY));
      return reply(200, { url: shownUrl(target), delivered: result.ok, status: result.status ?? null, outcome: result.outcome });
    }
    if (path === '/_sandbox/events' || path.startsWith('/_sandbox/events/')) return eventsEndpoint(req, path, reply);
    if (path === '/_sandbox/failures') return failuresEndpoint(req, path, reply);
    req.resume();
    const m = /^\/_sandbox\/transactions\/([0-9]{1,15})(?:\/([a-z]+))?$/.exec(path);
    const action = m?.[2] as SandboxAction | undefined;
    if (!m || (action !== undefined && !SANDBOX_ACTIONS.includes(action))) {
      return reply(404, { message: `no such sandbox endpoint: ${req.method} ${path} (use POST /_sandbox/transactions/<id>/<${SANDBOX_ACTIONS.join('|')}>)` });
    }
    const id = Number(m[1]);
    if (action === undefined) {
      if (req.method !== 'GET') return reply(405, { message: `use GET for ${path}` });
      const tx = store.get(id);
      if (!tx) return reply(404, { message: `no transaction ${id} in this sandbox` });
      return reply(200, {
        transactionId: id,
        kind: tx.kind,
        status: tx.status,
        value: tx.value,
        orderId: tx.orderId,
        createdAt: tx.createdAt,
        processedAt: tx.processedAt,
        endToEndId: tx.endToEndId ?? null,
      });
    }
    if (req.method !== 'POST') return reply(405, { message: `use POST for ${path}` });
    const out = act(id, action, 'control endpoint');
    return reply(out.status, out.body);
  }

  /**
   * The event endpoints (outside the interface): `GET /_sandbox/events[?failed=true][&transaction=<id>][&limit=<n>]`
   * answers `{events: [view, newest first], total, kept, persistent}`; `POST /_sandbox/events/<id>/resend`
   * answers `{resent: [view]}` (404 unknown id); `POST /_sandbox/events/resend` with `{"failed": true}`
   * resends every event not delivered and answers `{resent: [view…]}`.
   */
  async function eventsEndpoint(req: IncomingMessage, path: string, reply: (status: number, body: unknown) => void): Promise<void> {
    const query = new URL(req.url ?? '/', 'http://sandbox').searchParams;
    if (path === '/_sandbox/events') {
      req.resume();
      if (req.method !== 'GET') return reply(405, { message: `use GET for ${path}` });
      const failed = query.get('failed') === 'true';
      const txText = query.get('transaction');
      if (txText !== null && !/^[0-9]{1,15}$/.test(txText)) return reply(400, { message: 'transaction must be a transaction id (digits)' });
      const limitText = query.get('limit') ?? '100';
      if (!/^[0-9]{1,6}$/.test(limitText) || Number(limitText) < 1) return reply(400, { message: 'limit must be a number from 1 to 999999' });
      const limit = Number(limitText);
      const matching: SandboxEvent[] = [];
      for (const e of events.all()) {
        if (failed && e.state === 'delivered') continue;
        if (txText !== null && e.transactionId !== Number(txText)) continue;
        matching.push(e);
      }
      const shown = matching.slice(-limit).reverse().map(eventView);
      return reply(200, { events: shown, total: matching.length, kept: events.size, persistent: opts.stateDir !== undefined });
    }
    if (req.method !== 'POST') {
      req.resume();
      return reply(405, { message: `use POST for ${path}` });
    }
    if (path === '/_sandbox/events/resend') {
      const text = (await readCappedBody(req, SANDBOX_MAX_BODY))?.toString('utf8') ?? '';
      let failed: unknown;
      try {
        failed = text.trim() === '' ? undefined : (JSON.parse(text) as { failed?: unknown }).failed;
      } catch {
        failed = undefined;
      }
      if (failed !== true) return reply(400, { message: 'send {"failed": true} to resend every event not delivered, or POST /_sandbox/events/<id>/resend' });
      const ids = [...events.all()].filter((e) => e.state !== 'delivered').map((e) => e.id);
      const resent = ids.map((id) => deliverer.resend(id)!);
      log(t('sandbox.log.resendAll', resent.length));
      return reply(200, { resent: resent.map(eventView) });
    }
    req.resume();
    const m = /^\/_sandbox\/events\/(evt_[0-9]{1,15})\/resend$/.exec(path);
    if (!m) return reply(404, { message: `no such sandbox endpoint: ${req.method} ${path} (use POST /_sandbox/events/<event id>/resend)` });
    const e = resend(m[1]!);
    if (!e) return reply(404, { message: `no event ${m[1]} in this sandbox` });
    return reply(200, { resent: [eventView(e)] });
  }

  /** Resends one event (the control route's and the dashboard's); undefined for an unknown id. */
  function resend(id: string): SandboxEvent | undefined {
    const e = deliverer.resend(id);
    if (e) log(t('sandbox.log.resendOne', e.id, e.status, e.transactionId));
    return e;
  }

  /** A cash-in's BR Code (a real one, amount = `value`, txid from the externalId) and its QR code PNG, base64. */
  async function qrOf(value: number, externalId: string): Promise<{ qrCode: string; qrCodeBase64: string }> {
    const qrCode = buildBrCode({
      ...SANDBOX_MERCHANT,
      merchantName: SANDBOX_MERCHANT.name,
      merchantCity: SANDBOX_MERCHANT.city,
      amountCents: value,
      txid: externalId.replace(/-/g, '').slice(0, 25),
    });
    return { qrCode, qrCodeBase64: (await QRCode.toBuffer(qrCode, QR_PNG_OPTIONS)).toString('base64') };
  }

  /** The failure rules' endpoint (src/sandbox/failures.ts `failuresAnswer`). */
  async function failuresEndpoint(req: IncomingMessage, path: string, reply: (status: number, body: unknown) => void): Promise<void> {
    let text = '';
    if (req.method === 'POST') text = (await readCappedBody(req, SANDBOX_MAX_BODY))?.toString('utf8') ?? '';
    else req.resume();
    const out = failuresAnswer(req.method ?? '', path, text, rules);
    if (out.added) log(t('sandbox.log.failureRule', out.added.failure, out.added.pixKey ?? out.added.value!));
    return reply(out.status, out.body);
  }

  /** An event as the control endpoints show it: the URL without its query, the body parsed. */
  function eventView(e: SandboxEvent): Record<string, unknown> {
    return {
      id: e.id,
      transactionId: e.transactionId,
      object: e.object,
      status: e.status,
      url: shownUrl(e.url),
      state: e.state,
      attempts: e.attempts,
      createdAt: e.createdAt,
      deliveredAt: e.deliveredAt,
      nextAttemptAt: e.state === 'pending' ? new Date(e.nextAt).toISOString() : null,
      giveUpAt: e.state === 'pending' ? new Date(e.deadline).toISOString() : null,
      lastAttempts: e.recent,
      body: JSON.parse(e.body) as unknown,
    };
  }

  /** The lookups (GET): by id, by orderId, balance. */
  function lookup(req: IncomingMessage, path: string, reply: (status: number, body: unknown) => void): void {
    req.resume();
    if (req.method !== 'GET') return reply(405, { message: `use GET for ${path}` });
    if (path === SERVED_PATHS.balance) return reply(200, withOpening(store.balance(), opening));
    let tx: SandboxTransaction | undefined;
    if (path.startsWith(SERVED_PATHS.byId)) {
      const id = path.slice(SERVED_PATHS.byId.length);
      tx = /^[0-9]{1,15}$/.test(id) ? store.get(Number(id)) : undefined;
    } else {
      let orderId: string | undefined;
      try {
        orderId = decodeURIComponent(path.slice(SERVED_PATHS.byOrderId.length));
      } catch {
        orderId = undefined;
      }
      tx = orderId ? store.byOrderId(orderId) : undefined;
    }
    if (!tx) return reply(404, { message: NOT_FOUND_MESSAGE });
    return reply(200, postbackBody(tx));
  }

  /** Answers a create request, or resets its connection when it is one to drop. */
  function answerCreated(res: ServerResponse, tx: SandboxTransaction, body: Record<string, unknown>, reply: (status: number, body: unknown, note?: string) => void): void {
    created++;
    if (dropAt.has(created)) {
      log(t('sandbox.log.dropped', tx.kind === 'cashout', tx.transactionId, created));
      res.socket?.resetAndDestroy();
      return;
    }
    reply(200, body, ` (${logKind(tx)} ${tx.transactionId}${tx.orderId !== null ? `, ${t('sandbox.log.order', tx.orderId)}` : ''})`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (dashboard && (path === DASHBOARD_PATH.slice(0, -1) || path.startsWith(DASHBOARD_PATH))) return dashboard.handle(req, res, (server.address() as AddressInfo).port);
    const reply = (status: number, body: unknown, note = '', headers: Record<string, string> = {}) => {
      sendJson(res, status, body, headers);
      log(`${req.method} ${path} → ${status}${note}`);
    };
    const route =
      path === SERVED_PATHS.cashin
        ? 'cashin'
        : path === SERVED_PATHS.cashout
          ? 'cashout'
          : path === SERVED_PATHS.balance || path.startsWith(SERVED_PATHS.byId) || path.startsWith(SERVED_PATHS.byOrderId)
            ? 'lookup'
            : path.startsWith('/_sandbox/')
              ? 'control'
              : null;
    if (!route) {
      req.resume();
      return reply(404, { message: `no such endpoint: ${req.method} ${path}` });
    }
    if ((route === 'cashin' || route === 'cashout') && req.method !== 'POST') {
      req.resume();
      return reply(405, { message: `use POST for ${path}` });
    }
    if (opts.apiKey !== undefined && !authorizationCarries(req.headers.authorization, opts.apiKey)) {
      req.resume();
      return reply(401, { message: INVALID_TOKEN_MESSAGE });
    }
    if (route === 'control') return control(req, path, reply);
    if (route === 'lookup') return lookup(req, path, reply);
    const text = (await readCappedBody(req, SANDBOX_MAX_BODY))?.toString('utf8') ?? null;
    if (text === null) return reply(413, { message: `body larger than ${SANDBOX_MAX_BODY} bytes` }, '', { connection: 'close' });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return reply(400, { message: 'the body is not valid JSON' });
    }
    if (route === 'cashin' && opts.noAcquirer) return reply(400, { message: NO_ACQUIRER_MESSAGE });
    const folded = canonicalBody(route, json, Boolean(opts.strict));
    if ('problem' in folded) return reply(400, { message: folded.problem });
    const problem = validationProblem(route, folded.body, Boolean(opts.strict));
    if (problem) return reply(400, { message: problem });
    const body = folded.body as Record<string, unknown>;
    const value = body.value as number;
    const orderId = optionalText(body.orderId) ?? null;
    const now = gatewayTime();
    const transactionId = transactionIds.take();
    const base = {
      transactionId,
      value,
      status: 'created',
      createdAt: now,
      processedAt: now,
      request: body,
      orderId,
      postbackUrl: optionalText(body.postbackUrl)?.trim(),
      observation: null,
    } as const;

    if (route === 'cashin') {
      const externalId = randomUUID();
      const { qrCode, qrCodeBase64 } = await qrOf(value, externalId);
      const tx: SandboxTransaction = { ...base, kind: 'cashin', externalId };
      remember(tx);
      if (opts.autoPayMs !== undefined) {
        const timer = setTimeout(() => {
          autoPayTimers.delete(timer);
          if (store.get(transactionId)?.status === 'created') act(transactionId, 'pay', 'auto-pay');
        }, opts.autoPayMs);
        autoPayTimers.add(timer);
      }
      return answerCreated(res, tx, { transactionId, externalId, orderId, qrCode, qrCodeBase64, success: true }, reply);
    }
    const fate = cashoutFate(body, withOpening(store.balance(), opening), rules);
    if (fate !== null && fate !== 'bank-timeout') return reply(400, { message: fate.refuse });
    const tax = sandboxTax(value);
    const tx: SandboxTransaction = { ...base, kind: 'cashout' };
    remember(tx);
    if (fate === 'bank-timeout') setImmediate(() => act(transactionId, 'fail', 'failure rule', BANK_TIMEOUT_OBSERVATION));
    return answerCreated(
      res,
      tx,
      { transactionId, orderId, gross: value, tax: String(tax), liquid: String(value - tax), status: '0', createdAt: now, success: 'true', description: null },
      reply,
    );
  }

  const server = createServer((req, res) => {
    res.setHeader(SANDBOX_HEADER, VERSION);
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: `sandbox error: ${(err as Error).message}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  deliverer.start();
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    server,
    transactions: store,
    events,
    restored: { events: restored.events, pending: restored.pending, transactions: store.size },
    dashboardUrl: dashboard ? `http://${isLoopback(addr.address) ? host : '127.0.0.1'}:${addr.port}${DASHBOARD_PATH}` : undefined,
    close: async () => {
      for (const t of autoPayTimers) clearTimeout(t);
      autoPayTimers.clear();
      dashboard?.close();
      const [pending] = await Promise.all([
        deliverer.close(),
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
      ]);
      events.close();
      store.close();
      transactionIds.release();
      if (pending > 0) log(t('sandbox.log.pendingAtStop', pending, opts.stateDir !== undefined));
    },
  };
}
