/**
 * `paycli sandbox pay|fail|cancel|refund|infraction <transactionId>`: asks a running standalone
 * sandbox to change a transaction's state, through its control endpoint
 * `POST <sandbox-url>/_sandbox/transactions/<id>/<action>` (src/sandbox/server.ts; outside the
 * gateway interface). Exit codes: 0 done, 1 refused (404 unknown id, 409 transition not allowed),
 * 2 usage, 3 API key refused, 4 no sandbox answers, 5 an answer that is not the sandbox's.
 *
 * `paycli sandbox ping [url]`: asks it to send the `{"test": true}` ping (`POST /_sandbox/ping`);
 * exit 0 when the receiver answered 2xx, 1 when it did not, the rest as above.
 *
 * `paycli sandbox events [--failed] [--transaction <id>] [--limit <n>]`: lists the running sandbox's
 * postback events, newest first (`GET /_sandbox/events`); `paycli sandbox resend <event id>|--failed`
 * has it send them again (`POST /_sandbox/events/<id>/resend`, `POST /_sandbox/events/resend`). Like
 * `stripe events resend`, they ask the server that owns the events: the running sandbox, which
 * also delivers them (docs/sandbox-and-postbacks.md, "Events and delivery").
 *
 * `paycli sandbox failure [insufficient-balance|key-not-found|bank-timeout] (--pix-key <key> | --value
 * <cents>)` adds a failure rule (`POST /_sandbox/failures`); without a failure it lists them, with
 * `--clear` it removes them (src/sandbox/failures.ts).
 *
 * Which sandbox: `--sandbox-url`, else the base URL every other command would use (`--base-url`,
 * `PAYCLI_BASE_URL`, the profile's `base-url`: src/config/settings.ts), else the standalone sandbox's
 * usual address {@link SANDBOX_DEFAULT_URL}. `--sandbox-url` and a different `--base-url` together are
 * a usage error, and so is a base URL of `sandbox` (the built-in sandbox lives inside one command:
 * there is nothing to control). The key: `--api-key` or `PAYCLI_API_KEY`, else the profile's `api-key`
 * (where it is kept: the config file or the keychain).
 */
import { Agent, request } from 'undici';
import { AuthError, GatewayError, GatewayRefusedError, NetworkError, UsageError } from '../../core/errors.js';
import { isHttpUrl } from '../../gateway/net.js';
import { errorCodeOf } from '../../core/error-cause.js';
import { logger } from '../../core/logger.js';
import { output, type Output } from '../../core/output.js';
import { registerSecret, sanitizeText } from '../../core/sanitize.js';
import { VERSION } from '../../core/version.js';
import type { RunContext } from '../../core/terminal.js';
import { t } from '../../core/i18n/index.js';
import { keptSecret, readConfigFile, selectProfile, settingsFrom, type GlobalFlags } from '../../config/settings.js';
import { isSandbox } from '../../gateway/endpoint.js';
import { SANDBOX_DEFAULT_URL } from '../../sandbox/address.js';
import { SANDBOX_FAILURES } from '../../sandbox/failures.js';
import { formatReais } from '../../pix/money.js';
import { SANDBOX_HEADER } from '../../gateway/postback.js';

/** Options of the control subcommands (plus the parent's `--api-key` and the globals). */
export interface SandboxControlOptions extends GlobalFlags {
  /** `--sandbox-url`; else the address every command uses (module doc, "Which sandbox"). */
  sandboxUrl?: string;
  apiKey?: string;
  json?: boolean | string;
  /** `events --failed`, `resend --failed`. */
  failed?: boolean;
  /** `events --transaction <id>`. */
  transaction?: string;
  /** `events --limit <n>`. */
  limit?: string;
  /** `failure --pix-key <key>`. */
  pixKey?: string;
  /** `failure --value <cents>`. */
  value?: string;
  /** `failure --clear`. */
  clear?: boolean;
}

/** An event as the sandbox's control endpoint shows it (src/sandbox/server.ts `eventView`). */
interface EventView {
  id: string;
  transactionId: number;
  object: string;
  status: string;
  url: string;
  state: string;
  attempts: number;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  lastAttempts: Array<{ n: number; at: string; outcome: string }>;
}

/** Timeout of the control request, in ms. */
const CONTROL_TIMEOUT_MS = 10_000;
/** Largest answer read: 64 MiB (an event list of many events with their bodies). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Runs one control subcommand; the action is the subcommand's name. */
export async function run(opts: SandboxControlOptions, { args, command }: RunContext): Promise<Output> {
  const action = command?.name();
  if (action === 'ping') return ping(opts, args[0]);
  if (action === 'events') return events(opts);
  if (action === 'resend') return resend(opts, args[0]);
  if (action === 'failure') return failure(opts, args[0]);
  const id = args[0] ?? '';
  if (!/^[0-9]{1,15}$/.test(id)) throw new UsageError(t('sandbox.idInvalid', '<transactionId>', sanitizeText(id, true)), { field: 'transactionId' });
  const { status, json, message, host } = await callSandbox(opts, `_sandbox/transactions/${id}/${action}`);
  if (status >= 400 && status < 500) throw new GatewayRefusedError(message ?? `HTTP ${status}`, { status });
  const doc = json as { transactionId?: unknown; kind?: unknown; status?: unknown; previousStatus?: unknown; postback?: unknown };
  if (status !== 200 || typeof doc.status !== 'string' || typeof doc.previousStatus !== 'string') {
    throw new GatewayError(t('sandbox.notASandbox', host, status, message ?? ''), { status });
  }
  const kind = doc.kind === 'cashout' ? t('sandbox.log.cashout') : t('sandbox.log.cashin');
  const postback = doc.postback === 'queued' ? t('sandbox.postbackQueued') : '';
  return output(json, sanitizeText(`${kind} ${id}: ${doc.previousStatus} → ${doc.status}${postback}`, true));
}

/** `sandbox ping [url]`. */
async function ping(opts: SandboxControlOptions, target: string | undefined): Promise<Output> {
  if (target !== undefined && !isHttpUrl(target)) {
    throw new UsageError(t('sandbox.urlInvalid', '[url]', sanitizeText(target, true)), { field: 'url' });
  }
  const { status, json, message, host } = await callSandbox(opts, '_sandbox/ping', target === undefined ? {} : { url: target });
  // Without a URL, a sandbox started without --webhook-url has nowhere to send it: said in the
  // command's words, not the control endpoint's.
  if (status === 400 && target === undefined) throw new UsageError(t('sandbox.noPingUrl', host), { status, field: 'url', hint: t('sandbox.noPingUrlHint') });
  if (status >= 400 && status < 500) throw new UsageError(message ?? `HTTP ${status}`, { status });
  const doc = json as { url?: unknown; delivered?: unknown; outcome?: unknown };
  if (status !== 200 || typeof doc.delivered !== 'boolean' || typeof doc.outcome !== 'string') {
    throw new GatewayError(t('sandbox.notASandbox', host, status, message ?? ''), { status });
  }
  const line = sanitizeText(`ping → ${String(doc.url)}: ${doc.outcome}`, true);
  if (!doc.delivered) throw new GatewayRefusedError(`${line}${t('sandbox.notDelivered')}`);
  return output(json, `${line}${t('sandbox.log.delivered')}`);
}

/** True when `doc.events` / `doc.resent` is a list of event views. */
function eventList(v: unknown): v is EventView[] {
  return Array.isArray(v) && v.every((e) => e && typeof e === 'object' && typeof (e as EventView).id === 'string' && typeof (e as EventView).state === 'string');
}

/** One event as a line: id, transaction, status, where, state, attempts, then the last outcome or the next attempt. */
export function eventLine(e: EventView): string {
  const kind = e.object === 'transfer' ? t('sandbox.log.cashout') : t('sandbox.log.cashin');
  const last = e.lastAttempts.at(-1);
  const tries = t('sandbox.attempts', e.attempts);
  const lastNote = last ? t('sandbox.lastOutcome', last.outcome) : '';
  const tail =
    e.state === 'delivered'
      ? t('sandbox.deliveredAt', e.deliveredAt ?? '').trim()
      : e.state === 'failed'
        ? `${t('sandbox.gaveUp')}${lastNote}`
        : `${t('sandbox.pending', e.nextAttemptAt ?? '')}${lastNote}`;
  return sanitizeText(`${e.id}  ${kind} ${e.transactionId}  ${e.status}  → ${e.url}  ${tries}  ${tail}`, true);
}

/** `sandbox events`. */
async function events(opts: SandboxControlOptions): Promise<Output> {
  const params = new URLSearchParams();
  if (opts.failed) params.set('failed', 'true');
  if (opts.transaction !== undefined) {
    if (!/^[0-9]{1,15}$/.test(opts.transaction.trim()))
      throw new UsageError(t('sandbox.idInvalid', '--transaction', sanitizeText(opts.transaction, true)), { field: '--transaction' });
    params.set('transaction', opts.transaction.trim());
  }
  if (opts.limit !== undefined) {
    if (!/^[0-9]{1,6}$/.test(opts.limit.trim()) || Number(opts.limit) < 1) throw new UsageError(t('sandbox.limitInvalid', sanitizeText(opts.limit, true)), { field: '--limit' });
    params.set('limit', opts.limit.trim());
  }
  const query = params.toString();
  const { status, json, message, host } = await callSandbox(opts, `_sandbox/events${query ? `?${query}` : ''}`, undefined, 'GET');
  const doc = json as { events?: unknown; total?: unknown; persistent?: unknown };
  if (status === 404) throw new GatewayError(t('sandbox.noEventList', host), { status });
  if (status >= 400 && status < 500) throw new UsageError(message ?? `HTTP ${status}`, { status });
  if (status !== 200 || !eventList(doc.events) || typeof doc.total !== 'number') throw new GatewayError(t('sandbox.notASandbox', host, status, message ?? ''), { status });
  const list = doc.events;
  if (list.length < doc.total) logger.notice(t('sandbox.showingNewest', list.length, doc.total));
  return output(list, () => {
    if (list.length === 0) logger.notice(opts.failed ? t('sandbox.noneWaiting') : t('sandbox.noEvents'));
    return list.map(eventLine).join('\n');
  });
}

/** `sandbox resend <event id>|--failed`. */
async function resend(opts: SandboxControlOptions, id: string | undefined): Promise<Output> {
  if ((id === undefined) === !opts.failed) throw new UsageError(id === undefined ? t('sandbox.resendWhich') : t('sandbox.resendBoth'), { field: 'eventId' });
  if (id !== undefined && !/^evt_[0-9]{1,15}$/.test(id.trim())) throw new UsageError(t('sandbox.eventIdInvalid', sanitizeText(id, true)), { field: 'eventId' });
  const { status, json, message, host } =
    id !== undefined ? await callSandbox(opts, `_sandbox/events/${id.trim()}/resend`) : await callSandbox(opts, '_sandbox/events/resend', { failed: true });
  const doc = json as { resent?: unknown };
  if (status === 404 && message?.startsWith('no event')) throw new GatewayRefusedError(message, { status });
  if (status >= 400 && status < 500) throw new GatewayError(t('sandbox.olderSandbox', host, status, message ?? ''), { status });
  if (status !== 200 || !eventList(doc.resent)) throw new GatewayError(t('sandbox.notASandbox', host, status, message ?? ''), { status });
  const resent = doc.resent;
  return output(resent, () => {
    if (resent.length === 0) logger.notice(t('sandbox.nothingToResend'));
    return resent
      .map((e) =>
        sanitizeText(
          `${e.id}  ${e.object === 'transfer' ? t('sandbox.log.cashout') : t('sandbox.log.cashin')} ${e.transactionId}  ${e.status}  → ${e.url}${t('sandbox.queued')}`,
          true,
        ),
      )
      .join('\n');
  });
}

/** `sandbox failure [name] --pix-key K | --value N`, `--clear`, or the list. */
async function failure(opts: SandboxControlOptions, name: string | undefined): Promise<Output> {
  const given = [opts.pixKey !== undefined, opts.value !== undefined];
  if (opts.clear) {
    if (name !== undefined || given.some(Boolean)) throw new UsageError(t('sandbox.failure.clearAlone'), { field: '--clear' });
    const { status, json, message, host } = await callSandbox(opts, '_sandbox/failures', undefined, 'DELETE');
    const doc = json as { cleared?: unknown };
    if (status !== 200 || typeof doc.cleared !== 'number') throw new GatewayError(t('sandbox.olderSandbox', host, status, message ?? ''), { status });
    return output(json, t('sandbox.failure.cleared', doc.cleared));
  }
  if (name === undefined) {
    if (given.some(Boolean)) throw new UsageError(t('sandbox.failure.which', SANDBOX_FAILURES.join('|')), { field: 'failure' });
    const { status, json, message, host } = await callSandbox(opts, '_sandbox/failures', undefined, 'GET');
    const doc = json as { failures?: unknown };
    if (status !== 200 || !Array.isArray(doc.failures)) throw new GatewayError(t('sandbox.olderSandbox', host, status, message ?? ''), { status });
    const failures = doc.failures as Array<{ failure: string; pixKey?: string; value?: number }>;
    return output(failures, () => {
      if (failures.length === 0) logger.notice(t('sandbox.failure.none'));
      return failures.map(failureLine).join('\n');
    });
  }
  if (!(SANDBOX_FAILURES as readonly string[]).includes(name))
    throw new UsageError(t('sandbox.failure.unknown', sanitizeText(name, true), SANDBOX_FAILURES.join(', ')), { field: 'failure' });
  if (given[0] === given[1]) throw new UsageError(t('sandbox.failure.keyOrValue'), { field: '--pix-key' });
  if (opts.value !== undefined && (!/^[0-9]{1,15}$/.test(opts.value.trim()) || Number(opts.value) < 1))
    throw new UsageError(t('sandbox.failure.valueInvalid', sanitizeText(opts.value, true)), { field: '--value' });
  if (opts.pixKey !== undefined && opts.pixKey.trim() === '') throw new UsageError(t('sandbox.failure.keyOrValue'), { field: '--pix-key' });
  const rule = opts.pixKey !== undefined ? { failure: name, pixKey: opts.pixKey.trim() } : { failure: name, value: Number(opts.value!.trim()) };
  const { status, json, message, host } = await callSandbox(opts, '_sandbox/failures', rule);
  const doc = json as { added?: unknown };
  if (status === 404 || status === 405) throw new GatewayError(t('sandbox.olderSandbox', host, status, message ?? ''), { status });
  if (status >= 400 && status < 500) throw new UsageError(message ?? `HTTP ${status}`, { status });
  if (status !== 200 || !doc.added || typeof doc.added !== 'object') throw new GatewayError(t('sandbox.notASandbox', host, status, message ?? ''), { status });
  return output(doc.added, failureLine(doc.added as { failure: string; pixKey?: string; value?: number }));
}

/** One failure rule as a line: `insufficient-balance  value 66600` / `key-not-found  Pix key x@y.com`. */
function failureLine(r: { failure: string; pixKey?: string; value?: number }): string {
  return sanitizeText(
    `${r.failure}  ${r.pixKey !== undefined ? t('sandbox.failure.forKey', r.pixKey) : t('sandbox.failure.forValue', r.value ?? 0, formatReais(r.value ?? 0))}`,
    true,
  );
}

/**
 * The running sandbox the control subcommands talk to, and its key (module doc, "Which sandbox").
 * @throws UsageError for two different addresses, the built-in sandbox, or a base URL that is not one
 */
export function controlTarget(opts: SandboxControlOptions, env: NodeJS.ProcessEnv = process.env): { url: string; flag: string; apiKey?: string } {
  const flagUrl = opts.sandboxUrl?.trim();
  const baseFlag = opts.baseUrl?.trim();
  if (flagUrl && baseFlag && stripSlash(flagUrl) !== stripSlash(baseFlag)) {
    throw new UsageError(t('sandbox.twoAddresses', sanitizeText(flagUrl, true), sanitizeText(baseFlag, true)), { field: '--sandbox-url' });
  }
  if (flagUrl) return { url: flagUrl, flag: '--sandbox-url', apiKey: opts.apiKey };
  const config = readConfigFile();
  // PAYCLI_API_KEY is this command's own --api-key (the running sandbox's key), not a sign that a
  // gateway was meant: it does not make a missing base URL an error here.
  const settings = settingsFrom({ flags: opts, env: { ...env, PAYCLI_API_KEY: undefined }, config, op: 'lookup' });
  const apiKey = opts.apiKey ?? settings.apiKey ?? keptSecret(config, settings.profile, 'api-key');
  const source = baseFlag ? '--base-url' : env.PAYCLI_BASE_URL?.trim() ? 'PAYCLI_BASE_URL' : t('settings.configKey', 'base-url', settings.profile);
  if (!isSandbox(settings.endpoint)) return { url: settings.endpoint.url, flag: source, apiKey };
  const profile = selectProfile(opts, env, config).keys;
  const named = baseFlag || env.PAYCLI_BASE_URL?.trim() || profile['base-url'] || profile['lookup-base-url'];
  if (named) throw new UsageError(t('sandbox.builtInNotControllable', source), { field: '--base-url', hint: t('sandbox.builtInNotControllableHint') });
  return { url: SANDBOX_DEFAULT_URL, flag: '--sandbox-url', apiKey };
}

const stripSlash = (u: string) => u.replace(/\/+$/, '');

/** What the sandbox answered a control request. */
interface ControlAnswer {
  status: number;
  json: unknown;
  message?: string;
  host: string;
}

/**
 * POSTs to the running sandbox's control endpoint `path` (relative to `--sandbox-url`).
 * @throws UsageError (bad --sandbox-url), NetworkError (no answer), AuthError (401/403),
 *   GatewayError (an answer that is not JSON or too large)
 */
async function callSandbox(opts: SandboxControlOptions, path: string, body?: unknown, method: 'GET' | 'POST' | 'DELETE' = 'POST'): Promise<ControlAnswer> {
  const target = controlTarget(opts);
  let base: URL;
  try {
    base = new URL(target.url);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new UsageError(t('sandbox.sandboxUrlInvalid', target.flag, sanitizeText(target.url, true)), { field: target.flag });
  }
  const apiKey = target.apiKey;
  registerSecret(apiKey);
  const url = new URL(path, base.href.endsWith('/') ? base.href : `${base.href}/`).toString();
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `paycli/${VERSION}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const dispatcher = new Agent({ connectTimeout: CONTROL_TIMEOUT_MS, headersTimeout: CONTROL_TIMEOUT_MS, bodyTimeout: CONTROL_TIMEOUT_MS });
  let status: number;
  let text: string;
  let fromSandbox: boolean;
  try {
    const res = await request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher, signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS) });
    status = res.statusCode;
    fromSandbox = res.headers[SANDBOX_HEADER] !== undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of res.body) {
      size += (c as Buffer).length;
      if (size > MAX_ANSWER_BYTES) {
        res.body.destroy();
        throw new GatewayError(t('sandbox.answerTooLarge', base.host, MAX_ANSWER_BYTES));
      }
      chunks.push(c as Buffer);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    const code = errorCodeOf(err) ?? (err as Error).name;
    throw new NetworkError(t('sandbox.noAnswer', base.host, code), { cause: err, hint: t('sandbox.noAnswerHint') });
  } finally {
    void dispatcher.close().catch(() => undefined);
  }
  if (!fromSandbox) throw new GatewayError(t('sandbox.notFromSandbox', base.host, status), { status });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new GatewayError(t('sandbox.notJson', base.host, status), { status });
  }
  const message =
    json && typeof json === 'object' && typeof (json as { message?: unknown }).message === 'string' ? sanitizeText((json as { message: string }).message, true) : undefined;
  if (status === 401 || status === 403) throw new AuthError(t('sandbox.refused', status, message ?? ''), { status, hint: t('sandbox.refusedHint') });
  return { status, json, message, host: base.host };
}
