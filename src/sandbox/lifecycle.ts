/**
 * What happens to a sandbox transaction after it is created (issue #6): state changes asked for
 * through the control endpoint (`POST /_sandbox/transactions/<id>/<action>`, outside the gateway
 * interface) or by `--auto-pay`, and the postback each state change of a cash-in with a
 * `postbackUrl` sends. The interface says nothing of transitions (§3 "Transitions: not shown") nor
 * of postback payload, signing or retries (§6); the rules chosen here are documented in README
 * ("Postbacks"):
 *
 * - transitions, the same for cash-ins and cash-outs: pending → paid | failed | canceled,
 *   paid → refunded; failed, canceled and refunded are final;
 * - one postback per state change of a cash-in with a `postbackUrl` (cash-outs carry none);
 * - delivery: POST JSON, at most {@link POSTBACK_MAX_ATTEMPTS} attempts, each with a
 *   {@link POSTBACK_TIMEOUT_MS} timeout, waiting base·2^(n−1) between attempts n and n+1
 *   (base {@link POSTBACK_RETRY_BASE_MS} = 1 s, 2 s, 4 s, 8 s); any 2xx ends it; deliveries of one
 *   transaction go out in order; direct connection (proxy variables are not used).
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { errorCodeOf } from '../error-cause.js';
import { SIGNATURE_HEADER, signPostback, type PostbackBody, type PostbackStatus } from '../postback.js';
import type { CashInRequest } from '../schemas.js';
import { VERSION } from '../version.js';
import type { SandboxTransaction } from './server.js';

/** A state a sandbox transaction can be in. */
export type SandboxStatus = SandboxTransaction['status'];

/** A state change the control endpoint accepts, by the word used in the URL and the CLI. */
export type SandboxAction = 'pay' | 'fail' | 'cancel' | 'refund';

/** The actions, in the order they are documented. */
export const SANDBOX_ACTIONS: readonly SandboxAction[] = ['pay', 'fail', 'cancel', 'refund'];

/** State each action leads to. */
export const ACTION_TARGET: Record<SandboxAction, PostbackStatus> = { pay: 'paid', fail: 'failed', cancel: 'canceled', refund: 'refunded' };

/** Allowed transitions, by kind and current state (README "Postbacks", "Transitions"). */
export const TRANSITIONS: Record<SandboxTransaction['kind'], Record<SandboxStatus, readonly SandboxStatus[]>> = {
  cashin: { pending: ['paid', 'failed', 'canceled'], paid: ['refunded'], failed: [], canceled: [], refunded: [] },
  cashout: { pending: ['paid', 'failed', 'canceled'], paid: ['refunded'], failed: [], canceled: [], refunded: [] },
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
 * Sets `status`, `processedAt` (ISO now) and, on the first change, `endToEndId`.
 * @returns the previous state, or `{error}` with a message naming the allowed actions
 */
export function applyTransition(tx: SandboxTransaction, action: SandboxAction, now: Date = new Date()): { from: SandboxStatus } | { error: string } {
  const to = ACTION_TARGET[action];
  const from = tx.status;
  if (!TRANSITIONS[tx.kind][from].includes(to)) {
    const allowed = SANDBOX_ACTIONS.filter((a) => TRANSITIONS[tx.kind][from].includes(ACTION_TARGET[a]));
    const kind = tx.kind === 'cashin' ? 'cash-in' : 'cash-out';
    return { error: `${kind} ${tx.transactionId} is ${from}: cannot ${action} it (${allowed.length ? `allowed: ${allowed.join(', ')}` : `${from} is final`})` };
  }
  tx.status = to;
  tx.processedAt = now.toISOString();
  tx.endToEndId ??= endToEndId(SANDBOX_PAYER_BANK.bankIspb, now);
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

/** The postback body of a cash-in's current state (call after {@link applyTransition}). */
export function postbackBody(tx: SandboxTransaction): PostbackBody {
  const req = tx.request as CashInRequest;
  return {
    transactionId: tx.transactionId,
    object: 'cashin',
    status: tx.status as PostbackStatus,
    method: 'pix',
    value: tx.value,
    endToEndId: tx.endToEndId!,
    processedAt: tx.processedAt!,
    payer: { name: req.payerName, documentId: req.payerDocument, ...SANDBOX_PAYER_BANK },
  };
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
function shownUrl(url: string): string {
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

/**
 * Sends postbacks with bounded retries (module doc). Deliveries of one transaction are sent one
 * after the other, in the order of the state changes; `close()` abandons what is left.
 */
export class PostbackDeliverer {
  private readonly agent = new Agent({ connectTimeout: POSTBACK_TIMEOUT_MS, headersTimeout: POSTBACK_TIMEOUT_MS, bodyTimeout: POSTBACK_TIMEOUT_MS });
  private readonly stop = new AbortController();
  private readonly chains = new Map<number, Promise<void>>();
  private readonly opts: DelivererOptions;

  constructor(opts: DelivererOptions) {
    this.opts = opts;
  }

  /** Queues one postback of `body` to `url`, after the earlier ones of the same transaction. */
  enqueue(url: string, body: PostbackBody): void {
    const id = body.transactionId;
    const raw = JSON.stringify(body);
    const prev = this.chains.get(id) ?? Promise.resolve();
    const next = prev.then(() => this.deliver(url, raw, `cash-in ${id} ${body.status}`));
    this.chains.set(id, next);
    void next.then(() => {
      if (this.chains.get(id) === next) this.chains.delete(id);
    });
  }

  private async deliver(url: string, raw: string, label: string): Promise<void> {
    const base = this.opts.retryBaseMs ?? POSTBACK_RETRY_BASE_MS;
    const where = shownUrl(url);
    for (let attempt = 1; attempt <= POSTBACK_MAX_ATTEMPTS; attempt++) {
      if (this.stop.signal.aborted) return;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': `paycli-sandbox/${VERSION}` };
      if (this.opts.secret !== undefined) headers[SIGNATURE_HEADER] = signPostback(this.opts.secret, raw);
      const timeout = AbortSignal.timeout(POSTBACK_TIMEOUT_MS);
      let outcome: string;
      let ok = false;
      try {
        const res = await request(url, { method: 'POST', headers, body: raw, dispatcher: this.agent, signal: AbortSignal.any([this.stop.signal, timeout]) });
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        ok = res.statusCode >= 200 && res.statusCode < 300;
        outcome = `HTTP ${res.statusCode}`;
      } catch (err) {
        if (this.stop.signal.aborted) return;
        outcome = failureOf(err, timeout.aborted);
      }
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
