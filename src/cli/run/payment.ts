/**
 * The CLI's edge of a single payment (`cashin`, `cashout`): the command line is narrowed here, once,
 * into what the payment pipeline (src/payment/pipeline.ts) takes, a {@link PaymentOrder}: the
 * request validated by the spec's zod schema (amounts in cents), the run's settings resolved once,
 * and the few things the run was asked to do (`--dry-run`, `--yes`, `--allow-duplicate`, whether a
 * person can be asked). The flag bag stops here (docs/architecture.md, "The payment pipeline").
 *
 * The order of the checks is the user's: batch-only flags refused, the encoding of `--input`
 * loaded, settings and credential (no question for someone who cannot send anyway), the sandbox
 * notice (before any question; with none to ask, once the flags are valid), the spec's own
 * checks (`--qr-file` writable), the clock, then gather and validate (with prompts in a terminal).
 */
import type { GlobalFlags } from '../../config/settings.js';
import { UsageError } from '../../core/errors.js';
import { t } from '../../core/i18n/index.js';
import type { Output } from '../../core/output.js';
import { canPrompt } from '../../core/terminal.js';
import { parseEncoding, useEncoding } from '../../core/text-encoding.js';
import type { FieldSpec } from '../../gateway/fields.js';
import { checkClock } from '../../ledger/rules.js';
import { runPayment, type PaymentBody, type PaymentOrder, type PaymentSpec, type PipelineDeps } from '../../payment/pipeline.js';
import { announceSandbox, gatherBody, validateBody, type BodySources } from '../../payment/request.js';

/**
 * Flags of `cashin`/`cashout` as commander gives them (the field flags by attribute name), plus the
 * globals; read only in this module and by the command's own output options.
 */
export type PaymentFlags = GlobalFlags &
  Record<string, unknown> & {
    input?: string;
    noInput?: boolean;
    dryRun?: boolean;
    amount?: string;
    value?: string;
    encoding?: string;
    yes?: boolean;
    allowDuplicate?: boolean;
  };

/** Flags that only a `--batch` run reads (docs/batch-runs.md), by option attribute. */
const BATCH_ONLY: ReadonlyArray<readonly [string, string]> = [
  ['csvDialect', '--csv-dialect'],
  ['batchFormat', '--batch-format'],
  ['concurrency', '--concurrency'],
  ['rate', '--rate'],
  ['results', '--results'],
  ['retryRefused', '--retry-refused'],
  ['qrDir', '--qr-dir'],
];

/**
 * Refuses a flag of batch runs given to a single payment, rather than ignore it.
 * @throws UsageError (exit 2, nothing sent) naming the flag
 */
export function refuseBatchOnlyFlags(flags: Record<string, unknown>): void {
  for (const [attr, flag] of BATCH_ONLY) {
    if (flags[attr] !== undefined) throw new UsageError(t('pay.batchOnly', flag), { field: flag });
  }
}

/** The global flags that settings are resolved from (src/config/settings.ts `settingsFor`), and `--dry-run`, which needs no credential. */
export function settingsFlags(flags: PaymentFlags): GlobalFlags & { dryRun?: boolean } {
  const { profile, baseUrl, timeout, json, verbose, color, allowInsecureHttp, dryRun } = flags;
  return Object.fromEntries(Object.entries({ profile, baseUrl, timeout, json, verbose, color, allowInsecureHttp, dryRun }).filter(([, v]) => v !== undefined));
}

/**
 * Where the request body comes from: `--input` (in `--encoding`), each field flag given (commander's
 * attribute of the field, src/gateway/fields.ts), `--amount`.
 */
export function bodySources(fields: readonly FieldSpec[], flags: PaymentFlags): BodySources {
  const given: Array<BodySources['given'][number]> = [];
  for (const field of fields) {
    const raw = flags[field.attr];
    if (raw === undefined) continue;
    given.push({ field, raw: Array.isArray(raw) ? raw.map(String) : String(raw) });
  }
  return {
    ...(flags.input ? { input: { source: flags.input, encoding: parseEncoding(flags.encoding) } } : {}),
    given,
    ...(flags.amount !== undefined ? { amount: flags.amount } : {}),
  };
}

/**
 * Narrows a payment's command line into a {@link PaymentOrder} (the steps above, in that order).
 * @param precheck the spec's checks before anything is asked or sent (e.g. that `--qr-file` can be written)
 * @throws UsageError (exit 2, nothing sent) for a bad flag, input, setting or clock; AuthError without a credential
 */
export async function narrowPayment<B extends PaymentBody, R>(spec: PaymentSpec<B, R>, flags: PaymentFlags, deps: PipelineDeps, precheck?: () => void): Promise<PaymentOrder<B>> {
  refuseBatchOnlyFlags(flags);
  await useEncoding(parseEncoding(flags.encoding)); // the decoder of an --input file not in UTF-8
  const run = deps.settings(settingsFlags(flags), spec.kind);
  const dryRun = Boolean(flags.dryRun);
  // A team ledger connects while the payment is validated and confirmed (awaited at the pipeline's guard).
  if (!dryRun) deps.prepareLedger?.(run.send.profile);
  await deps.ledgerTurn?.();
  const interactive = canPrompt(flags);
  if (!dryRun && interactive) announceSandbox(run.send);
  precheck?.();
  checkClock(deps.now()); // order references and the ledger's times come from this clock
  const sources = bodySources(spec.fields, flags);
  // stdin is asked for only with --input: creating process.stdin costs a stream (and on a file, fs's streams) that a payment from flags never reads
  const body = (await validateBody(spec.fields, spec.requestSchema, await gatherBody(spec.fields, sources, sources.input ? deps.stdin?.() : undefined), interactive)) as B;
  await deps.ledgerTurn?.();
  if (!dryRun && !interactive) announceSandbox(run.send);
  return { body, run, dryRun, yes: Boolean(flags.yes), allowDuplicate: Boolean(flags.allowDuplicate), interactive };
}

/**
 * Runs one payment from its command line: {@link narrowPayment}, then the pipeline.
 * @throws the typed errors of src/core/errors.ts
 */
export async function pay<B extends PaymentBody, R>(spec: PaymentSpec<B, R>, flags: PaymentFlags, deps: PipelineDeps, precheck?: () => void): Promise<Output> {
  return runPayment(spec, await narrowPayment(spec, flags, deps, precheck), deps);
}
