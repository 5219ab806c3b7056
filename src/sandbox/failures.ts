/**
 * The sandbox's account balance rule and the failures it can be told to answer
 * (docs/sandbox-and-postbacks.md, "What it answers" and "Failures on demand"):
 *
 * - the account starts with an opening balance ({@link DEFAULT_OPENING_BALANCE}, `paycli sandbox
 *   --opening-balance`), and every figure of the balance lookup includes it; a cash-out whose `value`
 *   (fee included) is more than the final balance is refused with 400
 *   `{"message": "Insufficient balance"}` and nothing is created, so the balance never goes below 0;
 * - a failure rule names a failure and what it applies to: the cash-outs to one PIX key, or of one
 *   `value` (cents). `insufficient-balance` answers as above whatever the balance; `key-not-found`
 *   answers 400 `{"message": "Pix key not found"}`, nothing created; `bank-timeout` creates the
 *   cash-out (200, as usual) and fails it at once, its `failed` postback saying the recipient's bank did
 *   not answer in time. Rules live as long as the sandbox process.
 *
 * The gateway family's documents show none of these answers; the wording is the sandbox's, in the
 * family's `{"message"}` shape with the status of its other refusals (400).
 */
import type { SandboxBalance } from './store.js';

/** The failures a rule can name. */
export const SANDBOX_FAILURES = ['insufficient-balance', 'key-not-found', 'bank-timeout'] as const;

/** A failure a rule can name. */
export type SandboxFailure = (typeof SANDBOX_FAILURES)[number];

/** Default opening balance of a sandbox account: R$ 1.000.000,00, in cents. */
export const DEFAULT_OPENING_BALANCE = 100_000_000;

/** The message of a refused cash-out over the balance. */
export const INSUFFICIENT_BALANCE_MESSAGE = 'Insufficient balance';
/** The message of a cash-out to a PIX key the DICT does not know (a `key-not-found` rule). */
export const KEY_NOT_FOUND_MESSAGE = 'Pix key not found';
/** The `observation` of a cash-out failed by a `bank-timeout` rule. */
export const BANK_TIMEOUT_OBSERVATION = "the recipient's bank did not answer in time (sandbox failure bank-timeout)";

/** A failure rule: the failure, and the PIX key or the value (cents) of the cash-outs it applies to. */
export interface FailureRule {
  failure: SandboxFailure;
  pixKey?: string;
  value?: number;
}

/** A PIX key as rules compare it: trimmed, lower case; outside e-mails, without mask characters. */
function keyForm(key: string): string {
  const k = key.trim().toLowerCase();
  return k.includes('@') ? k : k.replace(/[\s.()/-]/g, '');
}

/**
 * Reads a rule from a control request's JSON body `{"failure", "pixKey"?, "value"?}`: exactly one of
 * `pixKey` (a non-empty string) and `value` (an integer of cents, at least 1).
 * @returns the rule, or a message for a 400 answer
 */
export function parseFailureRule(body: unknown): FailureRule | string {
  const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  if (!SANDBOX_FAILURES.includes(b.failure as SandboxFailure)) return `failure must be one of ${SANDBOX_FAILURES.join(', ')}`;
  const hasKey = b.pixKey !== undefined && b.pixKey !== null;
  const hasValue = b.value !== undefined && b.value !== null;
  if (hasKey === hasValue) return 'send exactly one of pixKey and value';
  if (hasKey && (typeof b.pixKey !== 'string' || keyForm(b.pixKey) === '')) return 'pixKey must be a non-empty string';
  if (hasValue && (typeof b.value !== 'number' || !Number.isSafeInteger(b.value) || b.value < 1)) return 'value must be an integer of cents, at least 1';
  return hasKey ? { failure: b.failure as SandboxFailure, pixKey: (b.pixKey as string).trim() } : { failure: b.failure as SandboxFailure, value: b.value as number };
}

/** The failure rules of one sandbox, in the order they were added. */
export class FailureRules {
  private readonly rules: FailureRule[] = [];

  /** Adds a rule (replacing one for the same key or value). */
  add(rule: FailureRule): void {
    const i = this.rules.findIndex((r) => (rule.pixKey !== undefined ? r.pixKey !== undefined && keyForm(r.pixKey) === keyForm(rule.pixKey) : r.value === rule.value));
    if (i >= 0) this.rules.splice(i, 1);
    this.rules.push(rule);
  }

  /** Removes every rule; @returns how many there were. */
  clear(): number {
    return this.rules.splice(0).length;
  }

  /** The rules, oldest first. */
  list(): FailureRule[] {
    return [...this.rules];
  }

  /** The rule for a cash-out request (its key first, then its value), if any. */
  match(body: Record<string, unknown>): FailureRule | undefined {
    const key = typeof body.pixKey === 'string' ? keyForm(body.pixKey) : undefined;
    return this.rules.find((r) => r.pixKey !== undefined && keyForm(r.pixKey) === key) ?? this.rules.find((r) => r.value !== undefined && r.value === body.value);
  }
}

/**
 * The answer of the failure rules' control endpoint (outside the interface): `GET /_sandbox/failures`
 * answers `{failures: [rule]}`; `POST` with `{"failure", "pixKey"}` or `{"failure", "value"}` adds one
 * and answers `{added, failures}` (400 `{message}` for a body that is not a rule); `DELETE` removes
 * them all and answers `{cleared: n}`; another method 405.
 * @param text the request body (POST), as received
 * @returns the status and body, and the rule added (for the log)
 */
export function failuresAnswer(method: string, path: string, text: string, rules: FailureRules): { status: number; body: unknown; added?: FailureRule } {
  if (method === 'GET') return { status: 200, body: { failures: rules.list() } };
  if (method === 'DELETE') return { status: 200, body: { cleared: rules.clear() } };
  if (method !== 'POST') return { status: 405, body: { message: `use GET, POST or DELETE for ${path}` } };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const rule = parseFailureRule(body);
  if (typeof rule === 'string') return { status: 400, body: { message: rule } };
  rules.add(rule);
  return { status: 200, body: { added: rule, failures: rules.list() }, added: rule };
}

/**
 * The balance with the opening balance added to every figure but retention and anticipation.
 * @param movements the store's balance (src/sandbox/store.ts: paid cash-ins minus live cash-outs)
 * @param opening the opening balance, cents
 */
export function withOpening(movements: SandboxBalance, opening: number): SandboxBalance {
  return { ...movements, balance: movements.balance + opening, finalBalance: movements.finalBalance + opening };
}

/**
 * What a new cash-out gets before it is created: a refusal message (400), `bank-timeout` (created,
 * then failed), or null (created as usual).
 * @param balance the balance before it, opening included ({@link withOpening})
 */
export function cashoutFate(body: Record<string, unknown>, balance: SandboxBalance, rules: FailureRules): { refuse: string } | 'bank-timeout' | null {
  const rule = rules.match(body);
  if (rule?.failure === 'insufficient-balance') return { refuse: INSUFFICIENT_BALANCE_MESSAGE };
  if (rule?.failure === 'key-not-found') return { refuse: KEY_NOT_FOUND_MESSAGE };
  if ((body.value as number) > balance.finalBalance) return { refuse: INSUFFICIENT_BALANCE_MESSAGE };
  return rule?.failure === 'bank-timeout' ? 'bank-timeout' : null;
}
