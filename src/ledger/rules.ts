/**
 * The rules of the payment ledger that need no database (docs/ledger-and-safety.md "Payment ledger" and
 * "Duplicate cash-outs"): what a payment's outcome is, what makes two cash-outs identical
 * (the gateway endpoint's identity, the fingerprint), which earlier entry blocks a new cash-out,
 * and the words of the refusal. The store itself is src/ledger/ledger.ts; these rules are kept apart so
 * that code which only needs them (a batch checking its own rows, the outcome of an error) does
 * not load SQLite.
 */
import { BUILT_IN_SANDBOX_TARGET, isSandboxTarget } from '../gateway/endpoint.js';
import { ExitCode, PaycliError, UsageError } from '../core/errors.js';
import { formatReais } from '../pix/money.js';
import { sanitizeText } from '../core/sanitize.js';
import { isPortuguese, t } from '../core/i18n/index.js';
import { formatLocalTime } from '../core/local-time.js';
import { sha256Hex } from '../core/random.js';

/** A recorded time (ISO 8601 UTC) as messages show it: local, with its offset (src/core/local-time.ts). */
const shownTime = (iso: string): string => formatLocalTime(iso, { portuguese: isPortuguese() });

/** What a ledger entry is about. */
export type PaymentKind = 'cashout' | 'cashin';

import type { EarlierPayment, Outcome } from './blocking.js';

export { OUTCOMES } from './blocking.js';

/** Characters RFC 3986 §2.3 calls unreserved: percent-encoding them changes nothing. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The one identity of a gateway endpoint, so that other spellings of the same URL are the same
 * gateway to the duplicate guard (RFC 3986 §6.2.2 syntax-based normalisation, plus two rules of
 * our own):
 * - scheme and host lower-cased, the default port dropped, user-info, query and fragment dropped;
 * - percent-encoding of unreserved characters decoded (`%6F` → `o`), other escapes upper-cased;
 * - repeated slashes collapsed (`//s/ok` → `/s/ok`), then dot segments resolved (`/a/./b/../c` → `/a/c`);
 * - the path compared without letter case (`/s/OK` = `/s/ok`): no gateway of this interface
 *   tells two paths apart by case, and treating them as one can only refuse more, never pay twice.
 *
 * @param url an absolute URL, or `sandbox` (src/gateway/endpoint.ts `BUILT_IN_SANDBOX_TARGET`, a recorded target)
 * @returns e.g. `https://api.gateway.example/v1/transaction/cashout`; `sandbox`; `invalid-url`
 */
export function endpointIdentity(url: string): string {
  return identityOf(url);
}

/**
 * `fn` remembering its last argument and answer: a batch asks about the same target for every row.
 * Only for pure functions of the URL.
 */
function rememberLast(fn: (url: string) => string): (url: string) => string {
  let last: [string, string] | undefined;
  return (url) => (last !== undefined && last[0] === url ? last[1] : (last = [url, fn(url)])[1]);
}

const identityOf = rememberLast(computeIdentity);
const displayOf = rememberLast(computeDisplay);

function computeIdentity(url: string): string {
  if (isSandboxTarget(url)) return BUILT_IN_SANDBOX_TARGET;
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return 'invalid-url';
  }
  const decoded = u.pathname.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
  });
  // Setting the path again makes the URL parser resolve the dot segments the decoding revealed.
  u.pathname = decoded.replace(/\/{2,}/g, '/');
  const path = u.pathname.replace(/\/{2,}/g, '/').toLowerCase();
  return `${u.protocol}//${u.host}${path}`;
}

/**
 * The endpoint URL as recorded for people to read (`history`): the URL as configured, without
 * user-info, query or fragment (which may hold credentials); `sandbox` for the built-in one.
 * The duplicate guard compares {@link endpointIdentity}, not this.
 */
export function displayTarget(url: string): string {
  return displayOf(url);
}

function computeDisplay(url: string): string {
  if (isSandboxTarget(url)) return url;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    const s = u.toString();
    return s.length > 300 ? `${s.slice(0, 299)}…` : s;
  } catch {
    return 'invalid-url';
  }
}

/**
 * What makes two cash-outs identical (docs/ledger-and-safety.md "Duplicate cash-outs"): the same endpoint (by its
 * {@link endpointIdentity}), the same amount in cents, the same key type and the same PIX key as
 * sent (after normalisation: DICT form, so `Fulano@Example.com` and `fulano@example.com` are one
 * key). The recipient's name, e-mail, phone and CPF/CNPJ are deliberately left out: the money
 * goes to the key, and a retry with a corrected phone number is still the same payout. The order
 * reference is left out too: an automatic one differs on every run.
 * @param endpoint a URL or `sandbox`; normalised here
 * @returns sha256 hex
 */
export function cashOutFingerprint(endpoint: string, body: { value: number; pixKeyType: number; pixKey: string }): string {
  return sha256Hex(JSON.stringify(['cashout', endpointIdentity(endpoint), body.value, body.pixKeyType, body.pixKey]));
}

/** The fingerprint of a cash-in (recorded, never used to refuse one): endpoint, cents, payer. */
export function cashInFingerprint(endpoint: string, body: { value: number; payer?: string }): string {
  return sha256Hex(JSON.stringify(['cashin', endpointIdentity(endpoint), body.value, body.payer ?? '']));
}

/**
 * What makes two payments identical, as the ledger records it: {@link cashOutFingerprint} of a cash-out,
 * {@link cashInFingerprint} of a cash-in. sha256 hex.
 * @param info a payment about to be recorded (src/ledger/schema.ts `BeginInfo`); a cash-out has its key type and key
 */
export function paymentFingerprint(info: { kind: PaymentKind; target: string; value: number; pixKeyType?: number; pixKey?: string; payer?: string }): string {
  return info.kind === 'cashout'
    ? cashOutFingerprint(info.target, { value: info.value, pixKeyType: info.pixKeyType!, pixKey: info.pixKey! })
    : cashInFingerprint(info.target, { value: info.value, payer: info.payer });
}

/**
 * The outcome of a failed send, from its typed error (src/core/errors.ts): a 4xx refusal or 401/403
 * is `refused`; an error that proves nothing was sent is `not_sent`; everything else
 * (timeouts and resets after sending, 5xx, a wrong or oversized answer, a redirect, Ctrl-C
 * after sending, an unexpected error) is `unknown`.
 */
export function outcomeOfError(err: unknown): Outcome {
  if (err instanceof PaycliError) {
    if (err.exitCode === ExitCode.REFUSED || (err.exitCode === ExitCode.AUTH && err.details.status !== undefined)) return 'refused';
    if ((err.exitCode === ExitCode.NETWORK || err.exitCode === ExitCode.INTERRUPTED) && err.details.maybeSent === false) return 'not_sent';
    if (err.exitCode === ExitCode.AUTH || err.exitCode === ExitCode.USAGE) return 'not_sent';
  }
  return 'unknown';
}

export { blocks, blockingSql, DEFAULT_WINDOW_MIN, orderHeldSql, refuses, windowStart, type EarlierPayment, type Outcome } from './blocking.js';

/** The first and the last moment (epoch ms) a clock may show for paycli to record payments: years 2000 to 9999. */
export const CLOCK_RANGE = { from: Date.UTC(2000, 0, 1), to: Date.UTC(10000, 0, 1) - 1 } as const;

/**
 * Refuses a clock outside years 2000-9999 (docs/ledger-and-safety.md): payment times are recorded
 * and compared by it (the duplicate window, deadlines), so a clock that far off cannot be trusted
 * to keep two identical cash-outs apart.
 * @param note appended to the message (the ledger's "; nothing was sent")
 * @throws UsageError `clock_invalid` (exit 2)
 */
export function checkClock(now: number, note = `; ${t('common.nothingSent')}`): void {
  if (Number.isFinite(now) && now >= CLOCK_RANGE.from && now <= CLOCK_RANGE.to) return;
  const shown = Number.isFinite(now) && Math.abs(now) <= 8.64e15 ? new Date(now).toISOString() : String(now);
  throw new UsageError(t('rules.clock', shown, note), { hint: t('rules.clockHint') }, 'clock_invalid');
}

/**
 * The refusal of a payment whose order reference the ledger already holds at the same gateway,
 * still open (no outcome, or unknown) or created (exit 2, `duplicate_order`): one reference is
 * one payment (docs/order-references.md).
 */
export function orderTakenError(earlier: EarlierPayment & { orderId?: string }, note = `; ${t('common.nothingSent')}`): UsageError {
  const ref = sanitizeText(earlier.orderId ?? '?', true);
  if (earlier.outcome === 'ok') {
    return new UsageError(
      t('rules.orderOk', ref, earlier.id, String(earlier.transactionId ?? '?'), formatReais(earlier.value), shownTime(earlier.time), note),
      { field: '--order-id', hint: t('rules.orderOkHint') },
      'duplicate_order',
    );
  }
  return new UsageError(
    t('rules.orderUnknown', ref, earlier.id, formatReais(earlier.value), shownTime(earlier.time), note),
    { field: '--order-id', hint: t('rules.orderUnknownHint') },
    'duplicate_order',
  );
}

function ago(time: string, now: number): string {
  const s = Math.round((now - Date.parse(time)) / 1000);
  if (s < 0) return t('rules.aheadOfClock', Math.round(-s / 60));
  return s < 90
    ? t('rules.ago', s, 's')
    : s < 5400
      ? t('rules.ago', Math.round(s / 60), 'min')
      : s < 172_800
        ? t('rules.ago', Math.round(s / 3600), 'h')
        : t('rules.ago', Math.round(s / 86_400), 'days');
}

/** The window's words for messages: `within 10 min, config key duplicate-window`. */
function windowWords(windowMin: number): string {
  return windowMin > 0 ? t('rules.window', windowMin) : t('rules.windowOff');
}

/** The refusal of a duplicate cash-out (exit 2, `duplicate_cashout`), describing the earlier one. */
export function duplicateError(earlier: EarlierPayment, windowMin: number, now = Date.now()): UsageError {
  const what = t(
    'rules.dupWhat',
    formatReais(earlier.value),
    sanitizeText(earlier.pixKey ?? '?', true),
    Boolean(earlier.sandbox),
    shownTime(earlier.time),
    ago(earlier.time, now),
    earlier.id,
  );
  if (earlier.outcome === 'ok') {
    return new UsageError(
      t('rules.dupOk', what, String(earlier.transactionId ?? '?')),
      { field: '--allow-duplicate', hint: t('rules.dupOkHint', windowWords(windowMin)) },
      'duplicate_cashout',
    );
  }
  const why = earlier.completed ? t('rules.unknownCompleted') : t('rules.unknownKilled');
  return new UsageError(
    t('rules.dupUnknown', what, why),
    {
      field: '--allow-duplicate',
      hint: t('rules.dupUnknownHint', earlier.id),
    },
    'duplicate_cashout',
  );
}
