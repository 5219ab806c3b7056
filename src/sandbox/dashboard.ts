/**
 * The sandbox's dashboard (docs/sandbox-and-postbacks.md, "Dashboard"): a page served by the
 * standalone sandbox under {@link DASHBOARD_PATH} on its own port, listing its transactions and
 * postbacks and acting on them with the same functions as the control routes (`act` and `resend`
 * of src/sandbox/server.ts: no second implementation). It exists only on the sandbox, so nothing
 * in it can move real money.
 *
 * Why a path prefix on the sandbox's port rather than a second port: the page and the gateway
 * routes share one address to remember, one listener and the process's state; the guards below
 * keep the page local whatever `--host` says.
 *
 * Guards, on every dashboard request:
 * - the peer must be a loopback address (403), and the `Host` header one of the names of the
 *   address served (`127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`), else 421 (a DNS
 *   rebinding page sends its own host name);
 * - every answer carries a strict Content-Security-Policy ({@link DASHBOARD_CSP}): no inline
 *   script, scripts, styles and requests from the page's own origin only, images from `data:`
 *   (the QR code); nothing is loaded from elsewhere, so it works offline;
 * - every POST carries the per-start token of the page's `<meta name="csrf-token">` in header
 *   {@link CSRF_HEADER}, and an `Origin` of the address served, else 403; a browser's `Sec-Fetch-Site`, when sent, must
 *   say `same-origin` (403 otherwise).
 *
 * Routes (JSON answers): `GET /_dashboard/` the page (in the run's language); `GET
 * /_dashboard/app.js|app.css` its assets (folder `dashboard/` of the package); `GET
 * /_dashboard/api/transactions?kind=&state=&offset=&limit=` a page of transactions, newest first;
 * `GET /_dashboard/api/transactions/<id>` one with its BR Code, QR image and postbacks; `GET
 * /_dashboard/api/balance`; `POST /_dashboard/api/transactions/<id>/<action>`; `POST
 * /_dashboard/api/events/<event id>/resend`; `GET /_dashboard/api/stream` Server-Sent Events
 * (`transaction` with `{id, status}`, `postback` with `{id, transactionId, state}`).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { formatReais } from '../pix/money.js';
import { POSTBACK_STATUSES, type PostbackStatus } from '../gateway/postback.js';
import { language, t } from '../core/i18n/index.js';
import { ACTION_TARGET, SANDBOX_ACTIONS, TRANSITIONS, type SandboxAction } from './lifecycle.js';
import type { SandboxEvent } from './events.js';
import type { SandboxBalance, SandboxTransaction, TransactionStore } from './store.js';
import { dashboardStrings } from './dashboard-strings.js';

/** Where the dashboard lives on the sandbox's port. */
export const DASHBOARD_PATH = '/_dashboard/';
/** The header a dashboard POST carries its token in. */
export const CSRF_HEADER = 'x-csrf-token';
/** The Content-Security-Policy of every dashboard answer. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Largest page of transactions one request returns. */
export const MAX_PAGE = 200;

/** What the dashboard needs from the sandbox it is part of (src/sandbox/server.ts). */
export interface DashboardDeps {
  store: TransactionStore;
  /** Every kept event, in creation order. */
  events: () => Iterable<SandboxEvent>;
  /** The balance with the opening balance, integer cents. */
  balance: () => SandboxBalance;
  /** The control routes' state change (same function). */
  act: (id: number, action: SandboxAction) => { status: number; body: Record<string, unknown> };
  /** The control routes' resend (same function); undefined for an unknown event. */
  resend: (eventId: string) => SandboxEvent | undefined;
  /** An event as the control routes show it. */
  eventView: (e: SandboxEvent) => Record<string, unknown>;
  /** A cash-in's BR Code and its QR code PNG (base64), as its creation answered them. */
  qr: (tx: SandboxTransaction) => Promise<{ qrCode: string; qrCodeBase64: string } | undefined>;
}

/** A running dashboard. */
export interface Dashboard {
  /** Answers a request whose path starts with {@link DASHBOARD_PATH} (or is it without the slash). */
  handle(req: IncomingMessage, res: ServerResponse, port: number): Promise<void>;
  /** Tells the open pages a transaction was created or changed. */
  transactionChanged(tx: SandboxTransaction): void;
  /** Tells the open pages a postback event was added or changed. */
  eventChanged(e: SandboxEvent): void;
  /** Ends the open streams. */
  close(): void;
}

/** The folder of the page's assets: `dashboard/` of the package (beside dist/, or two up from src/sandbox/). */
function assetDir(): string {
  const candidates = [resolve(__dirname, '..', 'dashboard'), resolve(__dirname, '..', '..', 'dashboard')];
  return candidates.find((d) => existsSync(resolve(d, 'app.js'))) ?? candidates[0]!;
}

const ASSETS: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };

/** The names the served address answers to. */
function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** True for a loopback peer (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined || isIP(address) === 0) return false;
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page, in the run's language: its texts are in a JSON data block the module reads (no inline script runs). */
function pageHtml(token: string): string {
  const lang = language();
  const strings = JSON.stringify(dashboardStrings()).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${escapeHtml(token)}">
<title>${escapeHtml(t('dashboard.title'))}</title>
<link rel="stylesheet" href="/_dashboard/app.css">
<script type="module" src="/_dashboard/app.js"></script>
<script type="application/json" id="strings">${strings}</script>
</head>
<body>
<header>
<h1>${escapeHtml(t('dashboard.title'))}</h1>
<p class="note" data-testid="sandbox-note">${escapeHtml(t('dashboard.noMoney'))}</p>
<p id="live" data-testid="live" role="status" aria-live="polite"></p>
</header>
<main>
<section id="balance" data-testid="balance" aria-labelledby="balance-title"><h2 id="balance-title">${escapeHtml(t('dashboard.balance'))}</h2><dl id="balance-values"></dl></section>
<section id="list" aria-labelledby="list-title">
<h2 id="list-title">${escapeHtml(t('dashboard.transactions'))}</h2>
<div class="filters">
<label>${escapeHtml(t('dashboard.kind'))} <select id="filter-kind" data-testid="filter-kind"></select></label>
<label>${escapeHtml(t('dashboard.state'))} <select id="filter-state" data-testid="filter-state"></select></label>
</div>
<table id="transactions" data-testid="transactions"><thead><tr id="transactions-head"></tr></thead><tbody id="transactions-body"></tbody></table>
<nav class="pager" aria-label="${escapeHtml(t('dashboard.pages'))}">
<button type="button" id="page-prev" data-testid="page-prev"></button>
<span id="page-info" data-testid="page-info"></span>
<button type="button" id="page-next" data-testid="page-next"></button>
</nav>
</section>
<section id="detail" data-testid="detail" aria-live="polite" hidden></section>
</main>
</body>
</html>
`;
}

/** Parses the list query. @returns the filter, or a message for 400 */
function listQuery(q: URLSearchParams): { kind?: 'cashin' | 'cashout'; status?: PostbackStatus; offset: number; limit: number } | string {
  const kind = q.get('kind') || undefined;
  const status = q.get('state') || undefined;
  const offset = q.get('offset') ?? '0';
  const limit = q.get('limit') ?? '50';
  if (kind !== undefined && kind !== 'cashin' && kind !== 'cashout') return 'kind must be cashin or cashout';
  if (status !== undefined && !POSTBACK_STATUSES.includes(status as PostbackStatus)) return `state must be one of ${POSTBACK_STATUSES.join(', ')}`;
  if (!/^[0-9]{1,9}$/.test(offset)) return 'offset must be a whole number';
  if (!/^[0-9]{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_PAGE) return `limit must be 1 to ${MAX_PAGE}`;
  return { kind, status: status as PostbackStatus | undefined, offset: Number(offset), limit: Number(limit) };
}

/** A transaction as a row of the list: amounts in cents and in reais (src/pix/money.ts). */
function rowOf(tx: SandboxTransaction): Record<string, unknown> {
  return { id: tx.transactionId, kind: tx.kind, value: tx.value, amount: formatReais(tx.value), status: tx.status, createdAt: tx.createdAt, orderId: tx.orderId };
}

/** The balance with each amount also written in reais (`balanceText`…): integer cents stay the data. */
function balanceView(b: SandboxBalance): Record<string, unknown> {
  return { ...b, balanceText: formatReais(b.balance), retentionText: formatReais(b.retention), finalBalanceText: formatReais(b.finalBalance) };
}

/** The actions allowed from a transaction's state (src/sandbox/lifecycle.ts `TRANSITIONS`). */
export function allowedActions(tx: SandboxTransaction): SandboxAction[] {
  return SANDBOX_ACTIONS.filter((a) => TRANSITIONS[tx.status].includes(ACTION_TARGET[a]));
}

/** Answers with the dashboard's headers (CSP and the rest of the module doc). */
function send(res: ServerResponse, status: number, body: string | Buffer, type: string): void {
  res.writeHead(status, {
    'content-type': type,
    'content-security-policy': DASHBOARD_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

const json = (res: ServerResponse, status: number, body: unknown) => send(res, status, JSON.stringify(body), 'application/json; charset=utf-8');

/** The guards of the module doc; answers and returns false when one refuses. */
function guarded(req: IncomingMessage, res: ServerResponse, port: number, token: string): boolean {
  const hosts = allowedHosts(port);
  if (!isLoopback(req.socket.remoteAddress)) return (json(res, 403, { message: t('dashboard.refused.peer') }), false);
  if (!hosts.has((req.headers.host ?? '').toLowerCase())) return (json(res, 421, { message: t('dashboard.refused.host', [...hosts].join(', ')) }), false);
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  const origin = req.headers.origin ?? '';
  const sent = Buffer.from(String(req.headers[CSRF_HEADER] ?? ''));
  const want = Buffer.from(token);
  const tokenOk = sent.length === want.length && timingSafeEqual(sent, want);
  const site = req.headers['sec-fetch-site'];
  if (!tokenOk || (site !== undefined && site !== 'same-origin') || !origin.startsWith('http://') || !hosts.has(origin.slice('http://'.length).toLowerCase()))
    return (json(res, 403, { message: t('dashboard.refused.csrf') }), false);
  return true;
}

/** One transaction with its BR Code, QR image, allowed actions and postbacks (newest first). */
async function detail(deps: DashboardDeps, res: ServerResponse, id: number): Promise<void> {
  const tx = deps.store.get(id);
  if (!tx) return json(res, 404, { message: t('dashboard.notFound', id) });
  const events = [...deps.events()]
    .filter((e) => e.transactionId === id)
    .reverse()
    .map(deps.eventView);
  const qr = tx.kind === 'cashin' ? await deps.qr(tx) : undefined;
  json(res, 200, {
    ...rowOf(tx),
    processedAt: tx.processedAt,
    observation: tx.observation,
    endToEndId: tx.endToEndId ?? null,
    qrCode: qr?.qrCode ?? null,
    qrImage: qr ? `data:image/png;base64,${qr.qrCodeBase64}` : null,
    actions: allowedActions(tx),
    postbacks: events,
  });
}

/** The two POSTs: a control (the sandbox's `act`) and a resend (its `resend`). */
function control(deps: DashboardDeps, req: IncomingMessage, res: ServerResponse, path: string): void {
  req.resume();
  const act = /^api\/transactions\/([0-9]{1,15})\/([a-z]+)$/.exec(path);
  if (act && SANDBOX_ACTIONS.includes(act[2] as SandboxAction)) {
    const out = deps.act(Number(act[1]), act[2] as SandboxAction);
    return json(res, out.status, out.body);
  }
  const resend = /^api\/events\/(evt_[0-9]{1,15})\/resend$/.exec(path);
  if (!resend) return json(res, 404, { message: t('dashboard.noRoute', `POST /_dashboard/${path}`) });
  const e = deps.resend(resend[1]!);
  return e ? json(res, 200, { resent: [deps.eventView(e)] }) : json(res, 404, { message: t('dashboard.noEvent', resend[1]!) });
}

/** The JSON reads (GET). */
async function read(deps: DashboardDeps, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
  if (path === 'api/balance') return json(res, 200, balanceView(deps.balance()));
  const one = /^api\/transactions\/([0-9]{1,15})$/.exec(path);
  if (one) return detail(deps, res, Number(one[1]));
  if (path !== 'api/transactions') return json(res, 404, { message: t('dashboard.noRoute', `GET /_dashboard/${path}`) });
  const q = listQuery(query);
  if (typeof q === 'string') return json(res, 400, { message: q });
  const page = deps.store.page(q);
  return json(res, 200, { total: page.total, offset: q.offset, limit: q.limit, transactions: page.rows.map(rowOf), balance: balanceView(deps.balance()) });
}

/** Starts the dashboard of one sandbox. */
export function createDashboard(deps: DashboardDeps): Dashboard {
  const token = randomBytes(32).toString('base64url');
  const streams = new Set<ServerResponse>();
  const dir = assetDir();
  const heartbeat = setInterval(() => {
    for (const s of streams) s.write(': keep-alive\n\n');
  }, 20_000);
  heartbeat.unref();

  function broadcast(event: string, data: unknown): void {
    if (streams.size === 0) return;
    const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const s of streams) s.write(text);
  }

  function stream(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': DASHBOARD_CSP, connection: 'keep-alive' });
    res.write(': paycli sandbox\n\n');
    streams.add(res);
    res.on('close', () => streams.delete(res));
  }

  return {
    async handle(req, res, port) {
      if (!guarded(req, res, port, token)) return void req.resume();
      const url = new URL(req.url ?? '/', 'http://dashboard');
      const rest = url.pathname.slice(DASHBOARD_PATH.length);
      if (req.method === 'POST') return control(deps, req, res, rest);
      req.resume();
      if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { message: t('dashboard.noRoute', `${req.method} ${url.pathname}`) });
      if (url.pathname === '/_dashboard') {
        res.writeHead(308, { location: DASHBOARD_PATH, 'content-security-policy': DASHBOARD_CSP });
        return void res.end();
      }
      if (rest === 'api/stream') return stream(res);
      if (rest.startsWith('api/')) return read(deps, res, rest, url.searchParams);
      if (rest === '') return send(res, 200, pageHtml(token), 'text/html; charset=utf-8');
      const type = ASSETS[rest];
      if (type === undefined) return json(res, 404, { message: t('dashboard.noRoute', `GET ${url.pathname}`) });
      return send(res, 200, readFileSync(resolve(dir, rest)), type);
    },
    transactionChanged(tx) {
      broadcast('transaction', { id: tx.transactionId, status: tx.status });
    },
    eventChanged(e) {
      broadcast('postback', { id: e.id, transactionId: e.transactionId, state: e.state, attempts: e.attempts });
    },
    close() {
      clearInterval(heartbeat);
      for (const s of streams) s.end();
      streams.clear();
    },
  };
}
