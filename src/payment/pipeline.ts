/**
 * One payment, step by step (docs/architecture.md, "The payment pipeline"): the sequence a
 * cash-in, a cash-out and each row of a batch go through, with their differences as data
 * ({@link PaymentSpec}) and dependencies ({@link PipelineDeps}).
 *
 *   settings → gather → validate → order reference → guard → confirm → record → send → settle → print
 *
 * record → send → classify → record end are the {@link steps} object, shared: `runPayment` runs
 * them for one payment, src/batch/row.ts for each batch row (whose file was gathered,
 * validated and guarded as a whole by src/batch/check.ts, and confirmed once).
 *
 * - settings: resolved once for the whole run ({@link RunSettings}: sending, lookups, settling);
 * - gather / validate: `--input`, the field flags, prompts, then the request schema
 *   (src/payment/request.ts), run by the CLI's edge (src/cli/run/payment.ts), which hands
 *   {@link runPayment} a {@link PaymentOrder}: the typed request and the resolved settings;
 * - order reference: the caller's, else the one of an identical earlier attempt that never reached
 *   the gateway (so a retry is the same order to the gateway), else a fresh one;
 * - guard (cash-outs): an identical earlier cash-out blocks (src/ledger/rules.ts `blocks`); one whose
 *   outcome is unknown is first settled by asking the gateway (src/payment/settle.ts), and a
 *   caller's reference is asked about at the gateway (the second witness);
 * - confirm (cash-outs): `--yes`, or a prompt in a terminal;
 * - record: in the ledger, with its deadline and run, before anything leaves;
 * - send: Ctrl-C once keeps waiting for the answer, twice stops waiting (src/core/terminal.ts
 *   `patientInterrupt`);
 * - settle: a failed send's outcome classified and recorded; an unknown one is asked about once
 *   by order reference;
 * - result: the spec's own result value (src/core/output.ts), which the CLI's printer renders.
 * Every step's dependency (clock, ledger, gateway, prompt) comes in {@link PipelineDeps}, so tests
 * drive the whole sequence in-process.
 *
 * Longer than 500 lines: the pipeline's steps read in order in one file (docs/architecture.md, "The payment
 * pipeline").
 */
import { recordEnd } from './record-end.js';
import type { Output } from '../core/output.js';
import { ExitCode, GatewayRefusedError, PaycliError, UsageError } from '../core/errors.js';
import { logger } from '../core/logger.js';
import { redact } from '../core/secrets.js';
import { patientInterrupt } from '../core/terminal.js';
import type { Settings } from '../gateway/connection.js';
import { endpointTarget, isSandbox } from '../gateway/endpoint.js';
import type { FieldSpec } from '../gateway/fields.js';
import { witnessCashOut } from '../gateway/lookup.js';
import { withOrderId } from '../gateway/order-id.js';
import type { GatewayResult } from '../gateway/client.js';
import type { LazySchema } from '../gateway/payment-schemas.js';
import { formatReais } from '../pix/money.js';
import { settingsFor, type GlobalFlags } from '../config/settings.js';
import type { BeginInfo, EndDetails, PaymentFacts } from '../ledger/ledger.js';
import { cashInFingerprint, cashOutFingerprint, duplicateError, outcomeOfError, type Outcome, type PaymentKind } from '../ledger/rules.js';
import { whenText } from '../ledger/settle-rule.js';
import type { EndRecord, LedgerContract } from '../ledger/contract.js';
import { printDryRun, send as sendRequest } from './request.js';
import { settleEntry, type AskByOrder, type Settled, type SettleLedger } from './settle.js';
import { t } from '../core/i18n/index.js';

/** The settings of one payment run, resolved once: where and how to send, and how to look up and settle. */
export interface RunSettings {
  /** The operation's settings (base URL, key, timeout, duplicate window, `settle-after`...). */
  send: Settings;
  /** The lookup settings of the same profile, or why there are none. */
  lookup: Settings | { problem: string };
}

/**
 * Resolves a run's settings, once (src/config/settings.ts `settingsFor`, for the operation and for
 * its lookups).
 * @throws UsageError as `settingsFor` for the operation (a lookup problem is kept, not thrown)
 */
export function resolveRunSettings(flags: GlobalFlags & { dryRun?: boolean }, kind: PaymentKind, env: NodeJS.ProcessEnv = process.env): RunSettings {
  const sendSettings = settingsFor(flags, kind, undefined, { env });
  let lookup: RunSettings['lookup'];
  try {
    lookup = settingsFor(flags, 'lookup', kind, { quiet: true, env });
  } catch (err) {
    lookup = { problem: (err as Error).message };
  }
  return { send: sendSettings, lookup };
}

/** A request body as the pipeline handles it: an amount in cents and an optional order reference. */
export interface PaymentBody {
  /** Amount in cents. */
  value: number;
  orderId?: string;
}

/** What the gateway answered to a payment that was created. */
export interface Created<B, R> {
  body: B;
  data: R;
  /** The JSON as received (for `--json`). */
  raw: unknown;
  sandbox: boolean;
  /** The ledger entry. */
  entry: number;
  settings: Settings;
}

/** What the gateway holds for a payment whose answer was lost (found by its order reference). */
export interface FoundLater<B> {
  body: B;
  settled: Extract<Settled, { state: 'ok' }>;
  entry: number;
  /** What became of the answer, for the heading: `the answer was lost`, or `its answer was outside the interface` (exit 5). */
  answer: string;
}

/** What differs between a cash-in and a cash-out: data and small functions, not separate code paths. */
export interface PaymentSpec<B extends PaymentBody, R> {
  kind: PaymentKind;
  /** `cash-in` / `cash-out`, for messages. */
  noun: string;
  /** The interface path (src/gateway/contract.ts). */
  path: string;
  fields: readonly FieldSpec[];
  /** The request body's schema, loaded on first use, and its check without zod if any (src/gateway/payment-schemas.ts). */
  requestSchema: LazySchema;
  /** The answer's schema, likewise: a sound answer to a cash-out loads no zod. */
  responseSchema: LazySchema;
  /** What the ledger keeps of the body besides the amount and order reference. */
  ledgerFacts(body: B): Pick<BeginInfo, 'pixKeyType' | 'pixKey' | 'recipient' | 'payer' | 'product'>;
  /** Cash-outs: identical earlier ones block it, and it must be confirmed (`--yes` or a prompt). */
  guarded: boolean;
  /** The summary shown before a prompt confirms it. */
  summary?(body: B, settings: Settings): string;
  /** Advice for an unknown outcome (src/gateway/client.ts `unknownAdvice`). */
  unknownAdvice: string;
  /**
   * Called with the body once it is checked and confirmed, before it is recorded and sent (`cashin --watch`
   * starts its postback receiver there: src/payment/watch-postbacks.ts). Must not throw.
   */
  beforeSend?(body: B): Promise<void>;
  /** The result of a created payment; its `attention` says when a person must look (exit 6 once printed). */
  print(created: Created<B, R>): Promise<Output>;
  /** The result of a payment found at the gateway after its answer was lost (with `attention` when it differs). */
  printFound(found: FoundLater<B>): Output;
}

/**
 * What the pipeline needs of the ledger: the ledger contract's methods (src/ledger/contract.ts,
 * asynchronous; tests pass one in memory).
 */
export type PaymentLedger = SettleLedger & Pick<LedgerContract, 'blockingCashOut' | 'reusableOrderId' | 'begin' | 'end' | 'get'>;

/** Everything outside the pipeline, injectable: the clock, settings, ledger, gateway and prompt. */
export interface PipelineDeps {
  now(): number;
  /** Resolves a run's settings from the global flags, profile, environment and config (the CLI's edge calls it once). */
  settings(flags: GlobalFlags & { dryRun?: boolean }, kind: PaymentKind): RunSettings;
  /**
   * Starts opening the ledger of the profile in use without waiting (a team ledger connects while
   * the payment is validated and confirmed; the CLI's edge calls it once settings are resolved);
   * nothing is thrown here.
   */
  prepareLedger?(profile?: string): void;
  /**
   * One turn of the event loop while a team ledger is being opened (undefined when none is): its
   * connection reads what the database answered meanwhile and sends what comes next, so that the
   * database works while the payment is validated (src/ledger/team.ts `ledgerTurn`).
   */
  ledgerTurn?(): Promise<void> | undefined;
  /** The ledger of the profile in use (its `ledger-url`, else the local one). */
  ledger(profile?: string): Promise<PaymentLedger>;
  /** Sends the request; `onSent` is called the moment it may have reached the gateway. */
  send(
    settings: Settings,
    path: string,
    body: unknown,
    schema: LazySchema,
    advice: string,
    signal: AbortSignal,
    onSent: () => void,
  ): Promise<GatewayResult<unknown> & { sandbox: boolean }>;
  ask: AskByOrder;
  /** The confirmation prompt of a guarded payment; resolves true when confirmed. */
  confirm(summary: string): Promise<boolean>;
  /** The second witness for a caller's order reference (src/gateway/lookup.ts `witnessCashOut`). */
  witness(settings: Settings, orderId: string): Promise<void>;
  /** Where `--input -` is read from: the run's stdin (the process's when not given). */
  stdin?(): NodeJS.ReadableStream;
}

/** The real dependencies (the process's clock, config, ledger, HTTP client and terminal). */
export async function realDeps(): Promise<PipelineDeps> {
  const { openContract } = await import('../ledger/async-store.js');
  const { prepareLedger, ledgerTurn } = await import('../ledger/team.js');
  const { resolveByOrder } = await import('../gateway/lookup.js');
  return {
    now: Date.now,
    settings: resolveRunSettings,
    prepareLedger,
    ledgerTurn,
    ledger: openContract,
    send: sendRequest,
    ask: (s, o, a) => resolveByOrder(s, o, a),
    confirm: async (summary) => (await import('./prompts.js')).confirmCashOut(summary),
    witness: witnessCashOut,
  };
}

/** How one request is sent: its interface path, body, answer schema and the advice for an unknown outcome. */
export interface PaymentRequest {
  path: string;
  body: unknown;
  schema: LazySchema;
  /** Said when the outcome is unknown (src/gateway/client.ts `unknownAdvice`). */
  advice: string;
}

/** How a send ended: created (the gateway's answer), or failed with the outcome the error means and what the ledger keeps of it. */
export type Sent = { created: true; result: GatewayResult<unknown> & { sandbox: boolean } } | { created: false; err: unknown; outcome: Outcome; details: EndDetails };

/** How {@link steps.classify} reads a failure: `tooManyRequests: 'not_sent'` counts a 429 as not sent. */
export interface ClassifyOptions {
  tooManyRequests?: 'not_sent';
}

/**
 * The named steps of a recorded payment, after its checks: record → send → classify → record end.
 * `runPayment` runs them for a single cash-in or cash-out, src/batch/row.ts for each row of a
 * batch (with its own deps: rows recorded ahead in groups, a shared connection pool, outcomes
 * written in groups). Both call them through this object, and only through it (a test watches it).
 */
export const steps = {
  /**
   * record: checked again against the ledger's rules and recorded, in one transaction, before
   * anything leaves (src/ledger/ledger.ts `begin`).
   * @throws UsageError `duplicate_cashout` / `duplicate_order`; the ledger's errors (nothing sent)
   */
  record<R>(ledger: { begin(info: BeginInfo, opts: { windowMin: number; allowDuplicate: boolean }): R }, info: BeginInfo, opts: { windowMin: number; allowDuplicate: boolean }): R {
    return ledger.begin(info, opts);
  },
  /**
   * record, for many payments at once (a batch's wave, recorded just before it leaves): the
   * outcomes held back (`ends`) written, then each payment checked and recorded as {@link steps.record}
   * records it, in order, so each sees the ones before it, all in one transaction
   * (src/ledger/contract.ts `recordMany`). A refusal (`duplicate_cashout`, `duplicate_order`) is
   * that payment's answer, not thrown.
   * @returns per payment, in order: its entry, or the UsageError that refused it
   * @throws the ledger's errors (then nothing of the call is recorded; nothing sent)
   */
  recordMany<R>(
    ledger: { recordMany(infos: readonly BeginInfo[], opts: { windowMin: number; allowDuplicate: boolean }, ends?: readonly EndRecord[]): Promise<Array<R | UsageError>> },
    infos: readonly BeginInfo[],
    opts: { windowMin: number; allowDuplicate: boolean },
    ends: readonly EndRecord[] = [],
  ): Promise<Array<R | UsageError>> {
    return ledger.recordMany(infos, opts, ends);
  },
  /**
   * send, then classify: one request (never retried here); an error is classified
   * ({@link steps.classify}, with `classify` as its options) instead of thrown.
   * @param onSent called the moment the request may have reached the gateway
   */
  async send(
    deps: Pick<PipelineDeps, 'send'>,
    settings: Settings,
    req: PaymentRequest,
    signal: AbortSignal,
    onSent: () => void = () => undefined,
    classify: ClassifyOptions = {},
  ): Promise<Sent> {
    try {
      return { created: true, result: await deps.send(settings, req.path, req.body, req.schema, req.advice, signal, onSent) };
    } catch (err) {
      return { created: false, err, ...steps.classify(err, classify) };
    }
  },
  /**
   * classify: the outcome a failed send means (src/ledger/rules.ts `outcomeOfError`) and what the
   * ledger keeps of it (HTTP status, redacted message). `tooManyRequests: 'not_sent'`: a 429 (the
   * gateway says it did not process it) counts as not sent, as a batch that gave up sending it
   * again after `Retry-After` records it.
   */
  classify(err: unknown, opts: ClassifyOptions = {}): { outcome: Outcome; details: EndDetails } {
    const status = err instanceof PaycliError ? err.details.status : undefined;
    const outcome = opts.tooManyRequests === 'not_sent' && err instanceof GatewayRefusedError && status === 429 ? 'not_sent' : outcomeOfError(err);
    return { outcome, details: { ...(status !== undefined ? { httpStatus: status } : {}), message: redact(err instanceof Error ? err.message : String(err)) } };
  },
  /**
   * record end: how the payment ended, after it was sent; a ledger that cannot take it only warns,
   * truthfully (src/payment/record-end.ts). A created payment keeps its transaction id and status,
   * and `attention`, what was wrong in its answer (it then needs a person until `history resolve`).
   */
  async recordEnd(
    kind: PaymentKind,
    ledger: { end(id: number, outcome: Outcome, extra?: EndDetails): unknown },
    entry: number,
    sent: Sent,
    attention: readonly string[] = [],
  ): Promise<void> {
    if (sent.created) {
      const data = sent.result.data as { transactionId?: number | string; status?: unknown };
      const facts = paymentFacts(sent.result.data);
      const answer = attention.length ? { ...facts, attention: [...attention] } : facts;
      // built field by field (a batch records one a row): transactionId, status, answer, each when there is one
      const details: EndDetails = {};
      if (data.transactionId !== undefined) details.transactionId = data.transactionId;
      if (typeof data.status === 'string') details.status = data.status;
      if (answer) details.answer = answer;
      await recordEnd(kind, entry, 'ok', () => ledger.end(entry, 'ok', details));
    } else await recordEnd(kind, entry, sent.outcome, () => ledger.end(entry, sent.outcome, sent.details));
  },
};

/**
 * What a create answer says of the payment that its receipt shows (src/ledger/schema.ts
 * `PaymentFacts`): a cash-in's `qrCode` and `externalId` (interface §2.2), a cash-out's `gross`,
 * `tax`, `liquid` (integer cents; the last two carried as strings of digits, interface §2.4) and
 * `createdAt`. Undefined when it says none of them.
 */
export function paymentFacts(data: unknown): PaymentFacts | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  const facts: PaymentFacts = {};
  let any = false;
  if (typeof d.qrCode === 'string') {
    facts.qrCode = d.qrCode;
    any = true;
  }
  if (typeof d.externalId === 'string') {
    facts.externalId = d.externalId;
    any = true;
  }
  if (typeof d.createdAt === 'string') {
    facts.createdAt = d.createdAt;
    any = true;
  }
  for (const k of FACT_CENTS) {
    const c = factCents(d[k]);
    if (c !== undefined) {
      facts[k] = c;
      any = true;
    }
  }
  return any ? facts : undefined;
}

/** The amounts {@link paymentFacts} keeps, in this order. */
const FACT_CENTS = ['gross', 'tax', 'liquid'] as const;
/** Cents carried as a safe integer or as a string of at most 15 digits (interface §2.4), else undefined. */
const factCents = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : typeof v === 'string' && /^-?[0-9]{1,15}$/.test(v) ? Number(v) : undefined);

/** Minutes of the duplicate window (at least the default 10) within which an earlier order reference is reused. */
const reuseWindowMs = (windowMin: number): number => Math.max(windowMin, 10) * 60_000;

/**
 * One payment as the CLI's edge narrowed it (src/cli/run/payment.ts): the request validated by the
 * spec's schema, the run's settings resolved once, and what the run was asked to do. Nothing of
 * the command line travels further.
 */
export interface PaymentOrder<B extends PaymentBody> {
  /** The validated request (amounts in cents); its `orderId` is the caller's, if any. */
  body: B;
  /** The run's settings (src/config/settings.ts), resolved once. */
  run: RunSettings;
  /** `--dry-run`: print the request that would be sent, send nothing. */
  dryRun: boolean;
  /** `--yes`: a guarded payment (a cash-out) is confirmed without a prompt. */
  yes: boolean;
  /** `--allow-duplicate`: an identical earlier cash-out does not block this one. */
  allowDuplicate: boolean;
  /** A person at a terminal can be asked (the confirmation prompt). */
  interactive: boolean;
}

/**
 * Runs one payment through every step after the CLI's edge (settings, gather, validate: see
 * src/cli/run/payment.ts): dry run, order reference, guard, confirm, record, send, settle, result.
 * @returns the result: created, found at the gateway after its answer was lost, or a dry run's request
 * @throws the typed errors of src/core/errors.ts, with the exit code that tells what happened
 */
export async function runPayment<B extends PaymentBody, R>(spec: PaymentSpec<B, R>, order: PaymentOrder<B>, deps?: PipelineDeps): Promise<Output> {
  const d = deps ?? (await realDeps());
  const { body: validated, run } = order;
  const settings = run.send;
  const callerOrderId = validated.orderId;
  const target = endpointTarget(settings.endpoint, spec.path);
  const sandbox = isSandbox(settings.endpoint);
  if (order.dryRun) return printDryRun(settings, spec.path, withOrderId(validated, settings.orderId).body);

  // guard: the ledger must be usable (else nothing is sent); an identical earlier payment blocks,
  // after its unknown outcome, if any, was settled by asking the gateway.
  const ledger = await d.ledger(settings.profile);
  const facts = spec.ledgerFacts(validated);
  const fingerprint =
    spec.kind === 'cashout'
      ? cashOutFingerprint(target, { value: validated.value, pixKeyType: facts.pixKeyType!, pixKey: facts.pixKey! })
      : cashInFingerprint(target, { value: validated.value, payer: facts.payer });
  let reuse: string | undefined;
  if (spec.guarded && !order.allowDuplicate) reuse = await guardIdentical(spec, ledger, run, fingerprint, d);
  reuse ??= callerOrderId === undefined ? await ledger.reusableOrderId(fingerprint, d.now() - reuseWindowMs(settings.duplicateWindowMin)) : undefined;
  const body = (callerOrderId === undefined && reuse !== undefined ? { ...validated, orderId: reuse } : withOrderId(validated, settings.orderId).body) as B;
  if (reuse !== undefined && callerOrderId === undefined) logger.notice(t('pay.reusedOrder', reuse, spec.kind));
  // The second witness: a reference the caller chose may already be at the gateway (another machine, another HOME).
  if (spec.guarded && callerOrderId !== undefined && !sandbox && !('problem' in run.lookup)) await d.witness(run.lookup, callerOrderId);

  // confirm
  if (spec.guarded && !order.yes) {
    if (!order.interactive) {
      throw new UsageError(t('pay.needsYes', spec.kind), { field: '--yes', hint: t('pay.needsYesHint') }, 'confirmation_required');
    }
    if (!(await d.confirm(spec.summary!(body, settings)))) throw new UsageError(t('pay.notConfirmed', spec.kind), {}, 'confirmation_required');
  }

  await spec.beforeSend?.(body);
  // record: checked again and recorded in one transaction, on disk before anything is sent
  const begun = await steps.record(
    ledger,
    {
      kind: spec.kind,
      value: body.value,
      target,
      sandbox,
      profile: settings.profile,
      ...facts,
      ...(body.orderId !== undefined ? { orderId: body.orderId } : {}),
      timeoutMs: settings.timeoutMs,
    },
    { windowMin: settings.duplicateWindowMin, allowDuplicate: order.allowDuplicate },
  );
  const entry = begun.id;
  if (begun.earlier)
    logger.warn(t('pay.allowDuplicate', spec.kind, begun.earlier.id, formatReais(begun.earlier.value), whenText(Date.parse(begun.earlier.time)), begun.earlier.outcome, entry));

  // send
  // Ctrl-C before the request can have reached the gateway cancels it (nothing sent); after, it only
  // stops the wait at the second press (docs/ledger-and-safety.md, "In flight").
  let sent = false;
  const interrupt = patientInterrupt(() => {
    if (!sent) return true;
    logger.notice(t('pay.waiting', spec.kind, Math.round(settings.timeoutMs / 1000)));
    return false;
  });
  let sentAs: Sent;
  try {
    sentAs = await steps.send(d, settings, { path: spec.path, body, schema: spec.responseSchema, advice: spec.unknownAdvice }, interrupt.signal, () => (sent = true));
  } finally {
    interrupt.dispose();
  }

  // classify / settle, record the answer, print
  await steps.recordEnd(spec.kind, ledger, entry, sentAs);
  if (!sentAs.created) return settleOwn(spec, ledger, run, body, entry, sentAs, d);
  const { result } = sentAs;
  return spec.print({ body, data: result.data as R, raw: result.raw, sandbox: result.sandbox, entry, settings });
}

/**
 * The guard against an identical earlier cash-out. One created within the window refuses this one;
 * one whose outcome is unknown is first settled by asking the gateway: created → refused;
 * never got it (after its deadline) → this one is sent, with that attempt's order reference;
 * still unknown → refused, saying when a lookup can decide.
 * @returns the order reference to reuse, if any
 * @throws UsageError `duplicate_cashout` (exit 2, nothing sent)
 */
async function guardIdentical<B extends PaymentBody, R>(
  spec: PaymentSpec<B, R>,
  ledger: PaymentLedger,
  run: RunSettings,
  fingerprint: string,
  d: PipelineDeps,
): Promise<string | undefined> {
  const windowMin = run.send.duplicateWindowMin;
  const earlier = await ledger.blockingCashOut(fingerprint, windowMin, d.now());
  if (!earlier) return undefined;
  if (earlier.outcome !== 'unknown') throw duplicateError(earlier, windowMin, d.now());
  if (earlier.sandbox) throw duplicateError(earlier, windowMin, d.now()); // the sandbox keeps nothing to ask
  logger.notice(t('pay.askingFirst', spec.kind, earlier.id, earlier.orderId ?? t('pay.none')));
  // One try, as after a timeout: the person is waiting for a yes or a no, not for retries.
  const settled = await settleEntry(ledger, earlier, run.lookup, { note: `${spec.noun} sent again`, after: 'timeout', ask: d.ask, now: d.now });
  if (settled.state === 'not_sent') {
    logger.notice(t('pay.neverGot', earlier.id));
    return earlier.orderId;
  }
  const now = d.now();
  const after = (await ledger.get(earlier.id)) ?? earlier;
  const err = duplicateError(after, windowMin, now);
  if (settled.state === 'ok') throw err;
  throw new UsageError(
    t('pay.askedNow', err.message.replace(new RegExp(`; ${t('common.nothingSent')}$`), ''), settled.why),
    { ...err.details, hint: settled.decidableAt !== undefined ? t('pay.askAfter', whenText(settled.decidableAt)) : err.details.hint },
    'duplicate_cashout',
  );
}

/**
 * The settle step of this run's own failed send (its outcome already recorded by
 * `steps.recordEnd`): a known outcome's error is thrown; an unknown one is asked about once by
 * order reference (unless Ctrl-C or SIGTERM stopped the wait): found → printed as created;
 * otherwise it stays unknown and the error says when a lookup can decide.
 */
async function settleOwn<B extends PaymentBody, R>(
  spec: PaymentSpec<B, R>,
  ledger: PaymentLedger,
  run: RunSettings,
  body: B,
  entry: number,
  failed: Extract<Sent, { created: false }>,
  d: PipelineDeps,
): Promise<Output> {
  const { err, outcome } = failed;
  if (outcome !== 'unknown') throw err;
  const interrupted = err instanceof PaycliError && err.exitCode === ExitCode.INTERRUPTED;
  const e = await ledger.get(entry);
  let settled: Settled = { state: 'unknown', why: 'the wait was stopped (Ctrl-C twice, or SIGTERM)' };
  if (e && !interrupted && body.orderId !== undefined) {
    logger.notice(t('pay.askingOwn', body.orderId));
    settled = await settleEntry(ledger, e, run.lookup, {
      note: 'own lookup',
      selfOpen: false,
      after: err instanceof PaycliError && err.code === 'timeout' ? 'timeout' : undefined,
      ask: d.ask,
      now: d.now,
    });
  }
  if (settled.state === 'ok') {
    logger.notice(t('pay.holdsIt', entry));
    // A malformed answer (exit 5) arrived but could not be trusted; anything else never arrived.
    const answer = err instanceof PaycliError && err.exitCode === ExitCode.GATEWAY ? 'its answer was outside the interface' : 'the answer was lost';
    return spec.printFound({ body, settled, entry, answer });
  }
  if (settled.state === 'not_sent' && err instanceof PaycliError) {
    // Its deadline and settle-after had passed already (settle-after 0): the gateway's "not found" counts.
    throw new PaycliError(err.code, err.exitCode, t('pay.notSentAfterDeadline', err.message, String(body.orderId), spec.kind, entry), {
      ...err.details,
      maybeSent: false,
      hint: t('pay.sendAgainHint'),
    });
  }
  const deadline = e?.deadlineMs;
  const when = settled.state === 'unknown' && settled.decidableAt !== undefined ? settled.decidableAt : deadline !== undefined ? deadline + run.send.settleAfterMs : undefined;
  const later = t('pay.unknownRecorded', entry, spec.kind, when !== undefined ? whenText(when) : '');
  if (err instanceof PaycliError) {
    throw new PaycliError(err.code, err.exitCode, `${err.message}; ${later}`, {
      ...err.details,
      hint: t('pay.reconcileHint', when !== undefined ? whenText(when) : '', body.orderId ?? t('pay.none')),
    });
  }
  throw err;
}
