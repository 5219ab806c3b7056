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
 * - delivery: src/sandbox/delivery.ts (every postback an event, retried with backoff).
 */
import { randomInt } from 'node:crypto';
import type { PostbackBody, PostbackDestination, PostbackStatus } from '../gateway/postback.js';
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

/**
 * Applies `action` to `tx` in place when the transition is allowed.
 * Sets `status`, `processedAt` (ISO now), `observation` (the state's, or `observation` when given) and,
 * when paid, `endToEndId`.
 * @returns the previous state, or `{error}` with a message naming the allowed actions
 */
export function applyTransition(tx: SandboxTransaction, action: SandboxAction, now: Date = new Date(), observation?: string): { from: SandboxStatus } | { error: string } {
  const to = ACTION_TARGET[action];
  const from = tx.status;
  if (!TRANSITIONS[from].includes(to)) {
    const allowed = SANDBOX_ACTIONS.filter((a) => TRANSITIONS[from].includes(ACTION_TARGET[a]));
    return { error: `${kindWord(tx)} ${tx.transactionId} is ${from}: cannot ${action} it (${allowed.length ? `allowed: ${allowed.join(', ')}` : `${from} is final`})` };
  }
  tx.status = to;
  tx.processedAt = gatewayTime(now);
  tx.observation = observation ?? OBSERVATION[to];
  if (to === 'paid') tx.endToEndId ??= endToEndId(SANDBOX_PAYER_BANK.bankIspb, now);
  return { from };
}

/**
 * A time as the gateway family writes it: ISO 8601 UTC with 7 fractional digits and `Z`
 * (`2025-04-02T13:26:52.0365664Z`, the documented cash-out answer; docs/sandbox-and-postbacks.md).
 * The milliseconds come from `at`; the 4 digits below them from the high-resolution clock.
 */
export function gatewayTime(at: Date = new Date()): string {
  const below = String(Math.floor((performance.now() % 1) * 10_000)).padStart(4, '0');
  return at.toISOString().replace(/\.(\d{3})Z$/, `.$1${below}Z`);
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

/**
 * The recipient of a cash-out as its postbacks and lookups show it. `pixKeyType` is the request's
 * digit as a string (`"2"`), as the gateway family's documents show it (docs/sandbox-and-postbacks.md).
 */
function destinationOf(tx: SandboxTransaction): PostbackDestination {
  const req = tx.request;
  const person = (req.person ?? {}) as Record<string, unknown>;
  return {
    name: str(person.name),
    cpfCnpj: bareId(req.cpfCnpj),
    email: str(person.email),
    pixKey: str(req.pixKey),
    pixKeyType: typeof req.pixKeyType === 'number' ? String(req.pixKeyType) : null,
    bank: SANDBOX_PAYER_BANK.bankName,
    bankId: SANDBOX_PAYER_BANK.bankCode,
    ispb: SANDBOX_PAYER_BANK.bankIspb,
  };
}

/**
 * Where a cash-in's refund goes: back to its payer. As the gateway family's documented refund shows
 * it, `pixKey` and `pixKeyType` are strings: the key is the payer's document as banks write it
 * (`"80683806556"`, empty when the cash-in had none) and its type is empty (`""`: the refund goes back
 * through the payment, not to a key of a known type) (docs/sandbox-and-postbacks.md, "Bodies by state").
 */
function refundDestinationOf(tx: SandboxTransaction): PostbackDestination {
  const req = tx.request;
  const document = bareId(req.payerDocument);
  return {
    name: str(req.payerName),
    cpfCnpj: document,
    email: str(req.payerEmail),
    pixKey: document ?? '',
    pixKeyType: '',
    bank: SANDBOX_PAYER_BANK.bankName,
    bankId: SANDBOX_PAYER_BANK.bankCode,
    ispb: SANDBOX_PAYER_BANK.bankIspb,
  };
}

/**
 * The postback body of a transaction's current state, which is also what the lookups answer. The
 * fields each state carries follow the gateway family's documented examples
 * (docs/sandbox-and-postbacks.md, "Bodies by state"):
 * - cash-in: `endToEndId` and `payer` only when `paid`; `refund` carries `destinationBank` (the payer,
 *   where the money goes back) and neither `payer` nor `endToEndId`; `infraction` neither;
 * - transfer: `destinationBank: null` when `created`, the recipient in every later state but
 *   `refund`, which has neither `destinationBank` nor `endToEndId`; `endToEndId` once paid.
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
  if (tx.kind === 'cashin') {
    if (tx.status === 'paid' && tx.endToEndId !== undefined) {
      const req = tx.request;
      body.endToEndId = tx.endToEndId;
      body.payer = { transactionId: tx.transactionId, name: str(req.payerName), documentId: bareId(req.payerDocument), ...SANDBOX_PAYER_BANK };
    }
    if (tx.status === 'refund') body.destinationBank = refundDestinationOf(tx);
    return body;
  }
  if (tx.status === 'refund') return body;
  if (tx.endToEndId !== undefined) body.endToEndId = tx.endToEndId;
  body.destinationBank = tx.status === 'created' ? null : destinationOf(tx);
  return body;
}
