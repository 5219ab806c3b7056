/**
 * What happens to a sandbox transaction after it is created: state changes asked for through the
 * control endpoint (`POST /_sandbox/transactions/<id>/<action>`, outside the gateway interface)
 * or by `--auto-pay`, and the postbacks every state change sends. The interface says nothing of
 * transitions (§3 "Transitions: not shown") nor of postback payload, signing or retries (§6); the
 * rules here follow what the gateway family documents and are written down in
 * docs/sandbox-and-postbacks.md ("Postbacks"):
 *
 * - states are the postback words; transitions, the same for cash-ins and cash-outs:
 *   created → paid | failed | canceled, paid → refund | infraction, infraction → refund;
 *   failed, canceled and refund are final;
 * - one postback per state change, creation included (`created`), to the transaction's
 *   `postbackUrl` (cash-in or cash-out) and to the sandbox's `--webhook-url` (once when they are
 *   the same URL);
 * - delivery: POST JSON, at most {@link POSTBACK_MAX_ATTEMPTS} attempts, each with a
 *   {@link POSTBACK_TIMEOUT_MS} timeout, waiting base·2^(n−1) between attempts n and n+1
 *   (base {@link POSTBACK_RETRY_BASE_MS} = 1 s, 2 s, 4 s, 8 s); any 2xx ends it; deliveries of one
 *   transaction to one URL go out in order; direct connection (proxy variables are not used).
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { errorCodeOf } from '../core/error-cause.js';
import { SIGNATURE_HEADER, signPostback, type PostbackBody, type PostbackDestination, type PostbackStatus } from '../gateway/postback.js';
import { VERSION } from '../core/version.js';
import { kindWord, objectOf, type SandboxTransaction } from './store.js';

/** A state a sandbox transaction can be in: the postback status words. */
export type SandboxStatus = PostbackStatus;

/** A state change the control endpoint accepts, by the word used in the URL and the CLI. */
export type SandboxAction = 'pay' | 'fail' | 'cancel' | 'refund' | 'infraction';

/** The actions, in the order they are documented. */
export const SANDBOX_ACTIONS: readonly SandboxAction[] = ['pay', 'fail', 'cancel', 'refund', 'infraction'];

/** State each action leads to. */
export const ACTION_TARGET: Record<SandboxAction, PostbackStatus> = { pay: 'paid', fail: 'failed', cancel: 'canceled', refund: 'refund', infraction: 'infraction' };

/** Allowed transitions by current state, for cash-ins and cash-outs alike (docs/sandbox-and-postbacks.md "Postbacks"). */
export const TRANSITIONS: Record<SandboxStatus, readonly SandboxStatus[]> = {
  created: ['paid', 'failed', 'canceled'],
  paid: ['refund', 'infraction'],
  infraction: ['refund'],
  failed: [],
  canceled: [],
  refund: [],
};

/** What the `observation` of each state says (null: nothing to say). */
const OBSERVATION: Record<SandboxStatus, string | null> = {
  created: null,
  paid: null,
  failed: 'failed in the sandbox',
  canceled: 'canceled in the sandbox',
  refund: 'refunded in the sandbox',
  infraction: 'infraction report (MED) opened in the sandbox',
};

/** The payer's bank in every sandbox postback: fictional (no bank has ISPB 99999999 or code 999). */
export const SANDBOX_PAYER_BANK = { bankName: 'PAYCLI SANDBOX BANK', bankCode: '999', bankIspb: '99999999' };

/** Most delivery attempts of one postback. */
export const POSTBACK_MAX_ATTEMPTS = 5;
/** Wait before the 2nd attempt, in ms; it doubles after each further failure (1 s, 2 s, 4 s, 8 s). */
export const POSTBACK_RETRY_BASE_MS = 1000;
/** Timeout of one attempt (connect to end of the answer's headers), in ms. */
export const POSTBACK_TIMEOUT_MS = 5000;

/**
 * Applies `action` to `tx` in place when the transition is allowed.
 * Sets `status`, `processedAt` (ISO now), `observation` and, when paid, `endToEndId`.
 * @returns the previous state, or `{error}` with a message naming the allowed actions
 */
export function applyTransition(tx: SandboxTransaction, action: SandboxAction, now: Date = new Date()): { from: SandboxStatus } | { error: string } {
  const to = ACTION_TARGET[action];
  const from = tx.status;
  if (!TRANSITIONS[from].includes(to)) {
    const allowed = SANDBOX_ACTIONS.filter((a) => TRANSITIONS[from].includes(ACTION_TARGET[a]));
    return { error: `${kindWord(tx)} ${tx.transactionId} is ${from}: cannot ${action} it (${allowed.length ? `allowed: ${allowed.join(', ')}` : `${from} is final`})` };
  }
  tx.status = to;
  tx.processedAt = now.toISOString();
  tx.observation = OBSERVATION[to];
  if (to === 'paid') tx.endToEndId ??= endToEndId(SANDBOX_PAYER_BANK.bankIspb, now);
  return { from };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A PIX end-to-end id as the Banco Central formats it: "E" + the payer institution's 8-digit ISPB
 * + yyyyMMddHHmm (UTC) + 11 alphanumerics = 32 characters.
 */
export function endToEndId(ispb: string, at: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}${p(at.getUTCHours())}${p(at.getUTCMinutes())}`;
  let tail = '';
  for (let i = 0; i < 11; i++) tail += ALNUM[randomInt(ALNUM.length)];
  return `E${ispb.padStart(8, '0').slice(-8)}${stamp}${tail}`;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A document as banks write it: letters and digits only (CPF, CNPJ), or null. */
function bareId(v: unknown): string | null {
  const s = str(v);
  return s === null ? null : s.replace(/[^0-9A-Za-z]/g, '').toUpperCase() || null;
}

/** The recipient of a cash-out as its postbacks and lookups show it. */
function destinationOf(tx: SandboxTransaction): PostbackDestination {
  const req = tx.request;
  const person = (req.person ?? {}) as Record<string, unknown>;
  return {
    name: str(person.name),
    cpfCnpj: bareId(req.cpfCnpj),
    email: str(person.email),
    pixKey: str(req.pixKey),
    pixKeyType: typeof req.pixKeyType === 'number' ? req.pixKeyType : null,
    bank: SANDBOX_PAYER_BANK.bankName,
    bankId: SANDBOX_PAYER_BANK.bankCode,
    ispb: SANDBOX_PAYER_BANK.bankIspb,
  };
}

/**
 * The postback body of a transaction's current state, which is also what the lookups answer:
 * `payer` only once a cash-in was paid, `destinationBank` on every transfer, `endToEndId` once paid.
 */
export function postbackBody(tx: SandboxTransaction): PostbackBody {
  const body: PostbackBody = {
    transactionId: tx.transactionId,
    object: objectOf(tx),
    status: tx.status,
    method: 'pix',
    value: tx.value,
    processedAt: tx.processedAt,
    orderId: tx.orderId,
    observation: tx.observation,
  };
  if (tx.endToEndId !== undefined) body.endToEndId = tx.endToEndId;
  if (tx.kind === 'cashin' && tx.endToEndId !== undefined) {
    const req = tx.request;
    body.payer = { transactionId: tx.transactionId, name: str(req.payerName), documentId: bareId(req.payerDocument), ...SANDBOX_PAYER_BANK };
  }
  if (tx.kind === 'cashout') body.destinationBank = destinationOf(tx);
  return body;
}

/** Options of a {@link PostbackDeliverer}. */
export interface DelivererOptions {
  /** Sign each attempt with this secret ({@link SIGNATURE_HEADER}); unsigned when absent. */
  secret?: string;
  /** Wait before the 2nd attempt in ms (default {@link POSTBACK_RETRY_BASE_MS}); doubles after. */
  retryBaseMs?: number;
  /** One line per attempt. */
  log: (line: string) => void;
}

/** Where a URL points, without query or credentials (they may hold tokens), for the log. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

function failureOf(err: unknown, timedOut: boolean): string {
  if (timedOut) return `no answer within ${POSTBACK_TIMEOUT_MS} ms`;
  const code = errorCodeOf(err);
  return `connection failed (${code ?? (err as Error)?.message ?? 'unknown error'})`;
}

/** The outcome of one delivery attempt. */
export interface AttemptOutcome {
  /** True for a 2xx answer. */
  ok: boolean;
  /** The answer's HTTP status, when there was one. */
  status?: number;
  /** `HTTP 200`, `no answer within 5000 ms`, `connection failed (ECONNREFUSED)`. */
  outcome: string;
}

/**
 * Sends postbacks with bounded retries (module doc). Deliveries of one transaction to one URL are
 * sent one after the other, in the order of the state changes; `close()` abandons what is left.
 */
export class PostbackDeliverer {
  private readonly agent = new Agent({ connectTimeout: POSTBACK_TIMEOUT_MS, headersTimeout: POSTBACK_TIMEOUT_MS, bodyTimeout: POSTBACK_TIMEOUT_MS });
  private readonly stop = new AbortController();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly opts: DelivererOptions;

  constructor(opts: DelivererOptions) {
    this.opts = opts;
  }

  /**
   * Queues one postback of `body` to `url`, after the earlier ones of the same transaction to the
   * same URL. `label` names it in the log (`cash-in 12 paid`).
   */
  enqueue(url: string, body: PostbackBody, label: string): void {
    const key = `${body.transactionId} ${url}`;
    const raw = JSON.stringify(body);
    const prev = this.chains.get(key) ?? Promise.resolve();
    const next = prev.then(() => this.deliver(url, raw, label));
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  /** One attempt: POST `raw` to `url`, signed when there is a secret. Never throws. */
  async attempt(url: string, raw: string): Promise<AttemptOutcome> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': `paycli-sandbox/${VERSION}` };
    if (this.opts.secret !== undefined) headers[SIGNATURE_HEADER] = signPostback(this.opts.secret, raw);
    const timeout = AbortSignal.timeout(POSTBACK_TIMEOUT_MS);
    try {
      const res = await request(url, { method: 'POST', headers, body: raw, dispatcher: this.agent, signal: AbortSignal.any([this.stop.signal, timeout]) });
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, outcome: `HTTP ${res.statusCode}` };
    } catch (err) {
      return { ok: false, outcome: failureOf(err, timeout.aborted) };
    }
  }

  /** Sends the `{"test": true}` ping to `url`: one attempt, logged. */
  async ping(url: string, raw: string): Promise<AttemptOutcome> {
    const result = await this.attempt(url, raw);
    this.opts.log(`ping → ${shownUrl(url)}: ${result.outcome}${result.ok ? ', delivered' : ''}`);
    return result;
  }

  private async deliver(url: string, raw: string, label: string): Promise<void> {
    const base = this.opts.retryBaseMs ?? POSTBACK_RETRY_BASE_MS;
    const where = shownUrl(url);
    for (let attempt = 1; attempt <= POSTBACK_MAX_ATTEMPTS; attempt++) {
      if (this.stop.signal.aborted) return;
      const { ok, outcome } = await this.attempt(url, raw);
      if (this.stop.signal.aborted) return;
      const head = `postback ${label} → ${where} attempt ${attempt}/${POSTBACK_MAX_ATTEMPTS}: ${outcome}`;
      if (ok) return this.opts.log(`${head}, delivered`);
      if (attempt === POSTBACK_MAX_ATTEMPTS) return this.opts.log(`${head}; giving up`);
      const delay = base * 2 ** (attempt - 1);
      this.opts.log(`${head}; retry in ${delay} ms`);
      try {
        await sleep(delay, undefined, { signal: this.stop.signal });
      } catch {
        return;
      }
    }
  }

  /** Stops: cancels waits and attempts in flight; resolves when every delivery has ended. */
  async close(): Promise<void> {
    const pending = this.chains.size;
    this.stop.abort();
    await Promise.allSettled([...this.chains.values()]);
    if (pending > 0) this.opts.log(`postbacks of ${pending} transaction${pending === 1 ? '' : 's'} not delivered: abandoned (sandbox stopped)`);
    await this.agent.destroy().catch(() => undefined);
  }
}
