/**
 * Asking the gateway about a transaction: the lookups the gateway family documents beyond the
 * interface (docs/order-references.md "Beyond the interface"), `GET /transaction/get/by/id/{transactionId}` and
 * `GET /transaction/get/by/orderId/{orderId}` (paths per profile: `status-path`,
 * `status-by-order-path`), with a miss answered 404 `{"message":"Transaction not found"}`.
 *
 * Three uses (docs/order-references.md):
 * - `paycli status` shows what the gateway holds ({@link findTransaction});
 * - before a cash-out whose `orderId` the caller chose, the gateway is the duplicate guard's
 *   second witness ({@link witnessCashOut}): a retry from another machine sends nothing;
 * - after a payment ends with an unknown outcome, one lookup by `orderId` settles it
 *   ({@link resolveByOrder}); `paycli reconcile` does it for every unknown entry of the ledger.
 *
 * With the profile's `lookup` = `auto`, a gateway that turns out to have no lookup path (404 with
 * another answer than the documented miss, 405, 501) is remembered per profile and gateway in
 * `<data dir>/lookups.json` and not asked again there; `paycli status` always asks, and a
 * gateway that then answers is forgotten from that file. `lookup` = `off` never asks.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError, GatewayRefusedError, PaycliError, UsageError } from '../core/errors.js';
import { lookupGateway, LOOKUP_ATTEMPTS } from './client.js';
import { formatReais } from '../pix/money.js';
import { logger } from '../core/logger.js';
import { t } from '../core/i18n/index.js';
import { sanitizeText } from '../core/sanitize.js';
import { dataDir } from '../core/paths.js';
import type { TransactionLookup } from './schemas.js';
import { endpointSetting, isSandbox } from './endpoint.js';
import type { Settings } from './connection.js';

/** The documented answer to a lookup miss (the message of the 404 body). */
export const NOT_FOUND_MESSAGE = 'Transaction not found';

/** What to look up: a gateway transaction id, or an order reference. */
export type LookupKey = { transactionId: number } | { orderId: string };

/** What a lookup found out. */
export type LookupResult =
  /** The gateway holds it: the validated document and the JSON as received. */
  | { kind: 'found'; data: TransactionLookup; raw: unknown }
  /** 404 with the documented message: the gateway has no such transaction. */
  | { kind: 'not_found'; message: string }
  /** The gateway has no lookup at this path (404 with another answer, 405, 501): `answer` says what it said. */
  | { kind: 'unsupported'; answer: string };

/** Words for a key: `transaction 9029`, `order reference pedido-1`. */
export function describeKey(key: LookupKey): string {
  return 'orderId' in key ? t('lookup.orderKey', key.orderId) : t('lookup.transactionKey', String(key.transactionId));
}

/** The lookup path for a key, from the profile's templates, the value URL-encoded. */
export function lookupPath(settings: Settings, key: LookupKey): string {
  return 'orderId' in key
    ? settings.statusByOrderPath.replaceAll('{orderId}', encodeURIComponent(key.orderId))
    : settings.statusPath.replaceAll('{transactionId}', encodeURIComponent(String(key.transactionId)));
}

/**
 * Asks the gateway for one transaction (a GET, retried on network failures: src/gateway/client.ts).
 * @param opts.attempts how many tries in all (default {@link LOOKUP_ATTEMPTS})
 * @throws AuthError (401/403), GatewayRefusedError (another 4xx), GatewayError (5xx, redirect,
 *   not JSON, wrong shape), NetworkError, InterruptedError — all worded for a lookup
 */
export async function findTransaction(settings: Settings, key: LookupKey, opts: { signal?: AbortSignal; attempts?: number; timeoutMs?: number } = {}): Promise<LookupResult> {
  if (isSandbox(settings.endpoint)) throw builtInSandboxError();
  const s = opts.timeoutMs ? { ...settings, timeoutMs: Math.min(settings.timeoutMs, opts.timeoutMs) } : settings;
  try {
    // zod and the schemas are loaded when a lookup is made, not with this module (a cash-out's path: docs/speed.md "A cash-out without zod").
    const { transactionLookupSchema } = await import('./schemas.js');
    const res = await lookupGateway(
      { path: lookupPath(settings, key), schema: transactionLookupSchema(), settings: s, baseUrl: settings.endpoint.url, signal: opts.signal },
      opts.attempts,
    );
    return { kind: 'found', data: res.data, raw: res.raw };
  } catch (err) {
    const status = err instanceof PaycliError ? err.details.status : undefined;
    if (err instanceof GatewayRefusedError && status === 404 && err.message.toLowerCase().includes(NOT_FOUND_MESSAGE.toLowerCase()))
      return { kind: 'not_found', message: err.message };
    if ((err instanceof GatewayRefusedError && (status === 404 || status === 405)) || (err instanceof GatewayError && status === 501)) {
      return { kind: 'unsupported', answer: `HTTP ${status}: ${err.message}` };
    }
    throw err;
  }
}

/** The refusal of a lookup against the built-in sandbox, which keeps nothing between runs (exit 2). */
export function builtInSandboxError(): UsageError {
  return new UsageError(t('lookup.builtInSandbox'), { hint: t('lookup.builtInSandboxHint') });
}

// ── Remembering a gateway without lookups (lookup = auto) ──

/** File of the memory, in the data folder. */
const MEMORY_NAME = 'lookups.json';
type Memory = Record<string, { answer: string; time: string }>;

const memoryKey = (settings: Settings) => `${settings.profile} ${endpointSetting(settings.endpoint)}`;

function readMemory(): Memory {
  try {
    const m = JSON.parse(readFileSync(join(dataDir(), MEMORY_NAME), 'utf8')) as unknown;
    return m && typeof m === 'object' && !Array.isArray(m) ? (m as Memory) : {};
  } catch {
    return {};
  }
}

function writeMemory(m: Memory): void {
  try {
    mkdirSync(dataDir(), { recursive: true, mode: 0o700 });
    const file = join(dataDir(), MEMORY_NAME);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(m, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    logger.debug(`could not write ${MEMORY_NAME}: ${(err as Error).message}`);
  }
}

/** What the profile's gateway answered when it was found to have no lookups, if it was. */
export function rememberedUnsupported(settings: Settings): { answer: string; time: string } | undefined {
  return readMemory()[memoryKey(settings)];
}

/** Remembers (true) or forgets (false) that the profile's gateway has no lookup path. */
export function rememberUnsupported(settings: Settings, answer: string | false): void {
  const m = readMemory();
  const k = memoryKey(settings);
  if (answer === false) {
    if (!(k in m)) return;
    delete m[k];
  } else m[k] = { answer: sanitizeText(answer, true).slice(0, 300), time: new Date().toISOString() };
  writeMemory(m);
}

/**
 * Whether paycli may ask the profile's gateway by itself (second witness, resolution): `lookup`
 * is `auto`, the gateway is not the built-in sandbox, and it was not found to lack lookups.
 * @returns null when it may, else why not (for messages)
 */
export function whyNoLookup(settings: Settings): string | null {
  if (settings.lookup === 'off') return t('lookup.whyOff', settings.profile);
  if (isSandbox(settings.endpoint)) return t('lookup.whySandbox');
  const known = rememberedUnsupported(settings);
  if (known) return t('lookup.whyNoPath', known.answer, known.time);
  return null;
}

function noteUnsupported(settings: Settings, answer: string): void {
  rememberUnsupported(settings, answer);
  logger.warn(t('lookup.unsupported', answer, settings.profile));
}

/** One line about a transaction the gateway holds: `transaction 100 (cash-out, R$ 150,00, paid)`. */
export function describeFound(doc: TransactionLookup): string {
  const kind = doc.object === 'transfer' ? t('history.kind.cashout') : doc.object === 'cashin' ? t('history.kind.cashin') : doc.object ? sanitizeText(doc.object, true) : undefined;
  const parts = [kind, Number.isSafeInteger(doc.value) ? formatReais(doc.value) : undefined, sanitizeText(String(doc.status), true)].filter(Boolean);
  return t('lookup.found', String(doc.transactionId), parts.join(', '));
}

/**
 * Asks the gateway, as the duplicate guard's second witness, whether it already holds the order
 * reference `orderId` (docs/order-references.md). Skipped when {@link whyNoLookup}
 * says so; a gateway found to have no lookup path is remembered (and said once) and not asked again.
 * @returns `held` with the gateway's document when it holds the order; `absent` when it does not
 *   (or was not asked: `skipped` says why)
 * @throws the typed error of the lookup when the gateway cannot be asked (network, 5xx, hostile
 *   answer, 401/403), reworded to say that nothing was sent (fail closed); InterruptedError as is
 */
export async function witnessOrder(
  settings: Settings,
  orderId: string,
  signal?: AbortSignal,
): Promise<{ kind: 'held'; data: TransactionLookup } | { kind: 'absent'; skipped?: string }> {
  const why = whyNoLookup(settings);
  if (why) {
    logger.debug(`second witness skipped: ${why}`);
    return { kind: 'absent', skipped: why };
  }
  let found: LookupResult;
  try {
    found = await findTransaction(settings, { orderId }, { signal });
  } catch (err) {
    if (!(err instanceof PaycliError) || err.exitCode === 130) throw err;
    const hint = err.details.hint ?? `to send it without asking, \`paycli config set lookup off${settings.profile === 'default' ? '' : ` --profile ${settings.profile}`}\``;
    throw new PaycliError(err.code, err.exitCode, `could not ask the gateway whether order ${orderId} already exists (${err.message}); nothing was sent`, {
      ...err.details,
      maybeSent: false,
      hint,
    });
  }
  if (found.kind === 'unsupported') {
    noteUnsupported(settings, found.answer);
    return { kind: 'absent', skipped: `the gateway has no lookup by order reference (${found.answer})` };
  }
  if (found.kind === 'not_found') return { kind: 'absent' };
  return { kind: 'held', data: found.data };
}

/**
 * The gateway as the duplicate guard's second witness for a single cash-out: before a cash-out
 * with order reference `orderId` is sent, asks the gateway for it ({@link witnessOrder}).
 * @throws UsageError `duplicate_cashout` (exit 2, nothing sent) when the gateway holds the order;
 *   when the gateway cannot be asked, the errors of {@link witnessOrder}
 */
export async function witnessCashOut(settings: Settings, orderId: string, signal?: AbortSignal): Promise<void> {
  const w = await witnessOrder(settings, orderId, signal);
  if (w.kind === 'absent') return;
  throw new UsageError(t('lookup.alreadyHeld', orderId, describeFound(w.data)), { field: '--order-id', hint: t('lookup.alreadyHeldHint', orderId) }, 'duplicate_cashout');
}

/** How asking about an unknown outcome ended. */
export type Resolution =
  | { kind: 'found'; data: TransactionLookup; raw: unknown }
  | { kind: 'not_found' }
  /** Could not be settled: `why` says why (lookups off, no reference, the lookup failed…). */
  | { kind: 'unresolved'; why: string };

/**
 * Settles an unknown outcome by asking the gateway once for its order reference.
 * @param opts.after how the send failed: after a timeout or Ctrl-C the lookup is tried once (at
 *   most 5 s after Ctrl-C), so that a gateway that does not answer is not waited for again and again
 * @returns never throws (a failed lookup is `unresolved`)
 */
export async function resolveByOrder(settings: Settings, orderId: string | undefined, opts: { signal?: AbortSignal; after?: 'timeout' | 'interrupt' } = {}): Promise<Resolution> {
  if (orderId === undefined) return { kind: 'unresolved', why: t('lookup.noOrderToAsk') };
  const why = whyNoLookup(settings);
  if (why) return { kind: 'unresolved', why };
  const once = opts.after === 'interrupt' ? { attempts: 1, timeoutMs: 5000 } : opts.after === 'timeout' ? { attempts: 1 } : {};
  try {
    const r = await findTransaction(settings, { orderId }, { signal: opts.signal, ...once });
    if (r.kind === 'found') return r;
    if (r.kind === 'not_found') return { kind: 'not_found' };
    noteUnsupported(settings, r.answer);
    return { kind: 'unresolved', why: t('lookup.noLookupByOrder', r.answer) };
  } catch (err) {
    return { kind: 'unresolved', why: t('lookup.askFailed', err instanceof Error ? err.message : String(err)) };
  }
}
