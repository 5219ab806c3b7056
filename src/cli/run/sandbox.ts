/**
 * `paycli sandbox`: runs the built-in sandbox standalone until Ctrl-C or SIGTERM; one log line per
 * request, state change and postback attempt on stderr (with `--json`, every stderr line is a JSON
 * document: `{"listening": url}`, `{"notice": text}`, `{"time": iso, "log": text}`). See
 * src/sandbox/server.ts for what it implements and src/sandbox/lifecycle.ts for state changes and
 * postbacks.
 */
import { parseDuration as parseAnyDuration } from '../../core/duration.js';
import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { isHttpUrl, portFlag } from '../../gateway/net.js';
import { logger, runStreams } from '../../core/logger.js';
import { redact, registerSecret, sanitizeText } from '../../core/sanitize.js';
import { DEFAULT_RETRY_FOR_MS, formatDuration, parseDuration, RETRY_SCHEDULES, shownUrl, type RetrySchedule } from '../../sandbox/delivery.js';
import { DEFAULT_MAX_EVENTS, lockStateDir, releaseStateDir, type StateDirLock } from '../../sandbox/events.js';
import { SandboxStateError, startSandbox } from '../../sandbox/server.js';
import { defaultStateDir } from '../../sandbox/state.js';
import { t } from '../../core/i18n/index.js';
import { formatReais } from '../../pix/money.js';
import { DEFAULT_OPENING_BALANCE, parseFailureRule, SANDBOX_FAILURES, type FailureRule } from '../../sandbox/failures.js';

/** Options of `paycli sandbox`. */
export interface SandboxRunOptions {
  port: string;
  host: string;
  apiKey?: string;
  acquirer?: boolean;
  json?: boolean | string;
  /** `--postback-secret`, else env PAYCLI_POSTBACK_SECRET. */
  postbackSecret?: string;
  /** `--auto-pay <seconds>`: decimal seconds, at most 3 decimals, ≤ 86400. */
  autoPay?: string;
  /** `--strict`: also the format rules. */
  strict?: boolean;
  /** `--webhook-url <url>`: receives every postback of every transaction. */
  webhookUrl?: string;
  /** `--drop-after-create <n[,n...]>`. */
  dropAfterCreate?: string;
  /** `--retry-for <duration>`: how long a postback is retried (default 24h). */
  retryFor?: string;
  /** `--retry-schedule <standard|fast>`. */
  retrySchedule?: string;
  /** `--data-dir <folder>`: where the state is kept (default `<data folder>/sandbox/<port>`, src/sandbox/state.ts). */
  dataDir?: string;
  /** `--keep-events <n>`: cap on kept events. */
  keepEvents?: string;
  /** `--opening-balance <cents>`: the account's balance before any transaction. */
  openingBalance?: string;
  /** `--failure <failure>:pix-key=<key>|value=<cents>`, repeatable: failure rules from the start. */
  failure?: string[];
  /** `--open`: open the dashboard in the browser. */
  open?: boolean;
  /** `--no-dashboard` makes it false. */
  dashboard?: boolean;
}

/**
 * `--failure` rules: `<failure>:pix-key=<key>` or `<failure>:value=<cents>` (src/sandbox/failures.ts).
 * @throws UsageError naming the rule that is not one
 */
function failureRules(texts: readonly string[] | undefined): FailureRule[] {
  return (texts ?? []).map((text) => {
    const m = /^([a-z-]+):(pix-key|value)=(.*)$/.exec(text.trim());
    const rule = m
      ? parseFailureRule(m[2] === 'value' ? { failure: m[1], value: /^[0-9]{1,15}$/.test(m[3]!) ? Number(m[3]) : m[3] } : { failure: m[1], pixKey: m[3] })
      : 'not a rule';
    if (typeof rule === 'string') throw new UsageError(t('sandbox.failureRuleInvalid', sanitizeText(text, true), SANDBOX_FAILURES.join('|')), { field: '--failure' });
    return rule;
  });
}

/** `--opening-balance`: whole cents, 0 to 10^15. @throws UsageError */
function openingBalance(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]{1,15}$/.test(text.trim())) throw new UsageError(t('sandbox.openingBalanceInvalid', sanitizeText(text, true)), { field: '--opening-balance' });
  return Number(text.trim());
}

/**
 * The retry schedule: `--retry-schedule standard|fast`, else env PAYCLI_SANDBOX_RETRY_SCHEDULE;
 * env `PAYCLI_SANDBOX_RETRY_BASE_MS` (1-60000) replaces the first wait (the largest becomes 16 times it).
 * @throws UsageError on a name or a number that is not one
 */
function retrySchedule(flag: string | undefined): { name: string; schedule: RetrySchedule } {
  const name = flag ?? (process.env.PAYCLI_SANDBOX_RETRY_SCHEDULE || 'standard');
  if (name !== 'standard' && name !== 'fast') throw new UsageError(t('sandbox.retryScheduleInvalid', sanitizeText(name, true)), { field: '--retry-schedule' });
  const raw = process.env.PAYCLI_SANDBOX_RETRY_BASE_MS;
  if (raw === undefined || raw === '') return { name, schedule: RETRY_SCHEDULES[name] };
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 60_000) throw new UsageError(t('sandbox.envMs', 'PAYCLI_SANDBOX_RETRY_BASE_MS', '1-60000', raw));
  return { name: t('sandbox.firstWait', raw), schedule: { firstWaitMs: Number(raw), maxWaitMs: Number(raw) * 16 } };
}

/**
 * Env `PAYCLI_SANDBOX_ATTEMPT_TIMEOUT_MS` (for tests: 100-60000) replaces the 10 s timeout of one
 * postback attempt. @throws UsageError when it is set but not such a number
 */
function attemptTimeoutMs(): number | undefined {
  const raw = process.env.PAYCLI_SANDBOX_ATTEMPT_TIMEOUT_MS;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[0-9]{3,5}$/.test(raw) || Number(raw) < 100 || Number(raw) > 60_000) throw new UsageError(t('sandbox.envMs', 'PAYCLI_SANDBOX_ATTEMPT_TIMEOUT_MS', '100-60000', raw));
  return Number(raw);
}

/** `--retry-for`: a duration (`90s`, `30m`, `24h`, `2d`). @throws UsageError */
function retryForMs(text: string | undefined): number {
  if (text === undefined) return DEFAULT_RETRY_FOR_MS;
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(t('sandbox.retryForInvalid', sanitizeText(text, true)), { field: '--retry-for' });
  return ms;
}

/** `--keep-events`: 100 to 1000000. @throws UsageError */
function keepEvents(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_EVENTS;
  if (!/^[0-9]{3,7}$/.test(text.trim()) || Number(text) < 100 || Number(text) > 1_000_000)
    throw new UsageError(t('sandbox.keepEventsInvalid', sanitizeText(text, true)), { field: '--keep-events' });
  return Number(text);
}

/**
 * The state folder, held for this process: `--data-dir`, else the port's own folder
 * (`<data folder>/sandbox/<port>`, src/sandbox/state.ts `defaultStateDir`). When the
 * default folder is held by another running sandbox, this one keeps its events in memory (a
 * notice says so); a `--data-dir` held by another is a usage error (exit 2).
 * @returns the lock, or undefined for memory only
 * @throws UsageError
 */
function takeStateDir(flag: string | undefined, port: number): { lock?: StateDirLock; note: string } {
  const dir = flag !== undefined ? resolve(flag) : defaultStateDir(port);
  let got;
  try {
    got = lockStateDir(dir);
  } catch (err) {
    throw new UsageError(t('sandbox.dataDirUnusable', dir, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--data-dir', hint: t('sandbox.dataDirHint') });
  }
  if ('dir' in got) return { lock: got, note: t('sandbox.eventsKeptIn', dir) };
  const who = Number.isNaN(got.heldBy) ? t('sandbox.anotherProcess') : t('sandbox.anotherSandbox', got.heldBy);
  if (flag !== undefined) throw new UsageError(t('sandbox.dataDirInUse', dir, who), { field: '--data-dir', hint: t('sandbox.dataDirInUseHint') });
  return { note: t('sandbox.eventsInMemory', dir, who) };
}

/** `--auto-pay` seconds as integer milliseconds. @throws UsageError */
function autoPayMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseAnyDuration(text, 's') ?? NaN; // src/core/duration.ts: 2, 0.5, 500ms, 1m
  if (!(ms >= 0 && ms <= 86_400_000)) throw new UsageError(t('sandbox.autoPayInvalid', text), { field: '--auto-pay' });
  return ms;
}

/** `--webhook-url`: an absolute http(s) URL. @throws UsageError */
function webhookUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (isHttpUrl(text)) return text.trim();
  throw new UsageError(t('sandbox.urlInvalid', '--webhook-url', sanitizeText(text, true)), { field: '--webhook-url' });
}

/** `--drop-after-create`: positive integers separated by commas. @throws UsageError */
function dropList(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^[1-9][0-9]{0,8}$/.test(p))) throw new UsageError(t('sandbox.dropInvalid', sanitizeText(text, true)), { field: '--drop-after-create' });
  return parts.map(Number);
}

/**
 * Opens `url` in the browser: the command named by env `BROWSER` (the convention of xdg-open and
 * Python's webbrowser; its first word is the program, the URL its last argument), else the
 * system's opener (`open` on macOS, `cmd /c start` on Windows, `xdg-open` elsewhere). Not the `open`
 * npm package: it is ESM only and reads `import.meta.url`, which the CommonJS bundle cannot carry
 * (tsup.config.ts). A failure is reported through `warn`, never thrown: the sandbox keeps running.
 */
async function openBrowser(url: string, warn: (reason: string) => void): Promise<void> {
  const browser = process.env.BROWSER?.trim().split(/\s+/);
  const [program, ...args]: string[] = browser?.[0]
    ? browser
    : process.platform === 'darwin'
      ? ['open']
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""']
        : ['xdg-open'];
  try {
    const { spawn } = await import('node:child_process');
    const child = spawn(program!, [...args, url], { stdio: 'ignore', detached: true });
    child.once('error', (err: NodeJS.ErrnoException) => warn(err.code ?? err.message));
    child.unref();
  } catch (err) {
    warn((err as Error).message);
  }
}

/** Starts the sandbox and resolves when it is stopped by SIGINT/SIGTERM. */
export async function run(opts: SandboxRunOptions): Promise<void> {
  const port = portFlag(opts.port);
  const postbackSecret = opts.postbackSecret ?? (process.env.PAYCLI_POSTBACK_SECRET || undefined);
  if (postbackSecret === '') throw new UsageError(t('sandbox.secretEmpty'), { field: '--postback-secret' });
  registerSecret(postbackSecret);
  registerSecret(opts.apiKey);
  const autoPay = autoPayMs(opts.autoPay);
  const retry = retrySchedule(opts.retrySchedule);
  const retryFor = retryForMs(opts.retryFor);
  const maxEvents = keepEvents(opts.keepEvents);
  const webhook = webhookUrl(opts.webhookUrl);
  const drops = dropList(opts.dropAfterCreate);
  const opening = openingBalance(opts.openingBalance);
  const failures = failureRules(opts.failure);
  const json = Boolean(opts.json);
  const write = (line: string) => runStreams().stderr.write(redact(`${line}\n`));
  const log = json
    ? (text: string) => write(JSON.stringify({ time: new Date().toISOString(), log: sanitizeText(text, true) }))
    : (text: string) => write(`${new Date().toISOString()} ${text}`);
  const state = takeStateDir(opts.dataDir, port);
  let sandbox;
  try {
    sandbox = await startSandbox({
      host: opts.host,
      port,
      apiKey: opts.apiKey,
      noAcquirer: opts.acquirer === false,
      postbackSecret,
      autoPayMs: autoPay,
      retrySchedule: retry.schedule,
      retryForMs: retryFor,
      attemptTimeoutMs: attemptTimeoutMs(),
      stateDir: state.lock?.dir,
      maxEvents,
      strict: Boolean(opts.strict),
      sendPostbacks: true,
      webhookUrl: webhook,
      dropAfterCreate: drops,
      openingBalance: opening,
      failures,
      dashboard: opts.dashboard !== false,
      log,
    });
  } catch (err) {
    if (state.lock) releaseStateDir(state.lock);
    if (err instanceof SandboxStateError) throw new UsageError(err.message, { field: '--data-dir', hint: t('sandbox.stateDirHint') });
    throw new UsageError(t('server.cannotListen', `${opts.host}:${opts.port}`, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--port' });
  }
  const notes = [
    t('sandbox.note.noMoney'),
    opts.apiKey ? t('sandbox.note.apiKey') : '',
    opts.acquirer === false ? t('sandbox.note.noAcquirer') : '',
    postbackSecret !== undefined ? t('sandbox.note.signed') : '',
    autoPay !== undefined ? t('sandbox.note.autoPay', autoPay / 1000) : '',
    opts.strict ? t('sandbox.note.strict') : '',
    webhook !== undefined ? t('sandbox.note.webhook', shownUrl(webhook)) : '',
    drops !== undefined ? t('sandbox.note.drops', drops.length, `#${drops.join(', #')}`) : '',
    t('sandbox.note.retried', formatDuration(retryFor), retry.name === 'standard' ? '' : retry.name),
    t('sandbox.note.openingBalance', formatReais(opening ?? DEFAULT_OPENING_BALANCE)),
    failures.length > 0 ? t('sandbox.note.failureRules', failures.length) : '',
    state.note,
    sandbox.restored.transactions > 0 ? t('sandbox.note.restoredTransactions', sandbox.restored.transactions) : '',
    sandbox.restored.events > 0 ? t('sandbox.note.restored', sandbox.restored.events, sandbox.restored.pending) : '',
  ].filter(Boolean);
  // Handlers before the "listening on" line, so that a signal sent as soon as it is read stops
  // the sandbox cleanly instead of killing it.
  const stopped = new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
  logger.notice(t('sandbox.listening', sandbox.url, notes.join('; ')));
  write(json ? JSON.stringify({ listening: sandbox.url }) : `listening on ${sandbox.url}`);
  if (sandbox.dashboardUrl !== undefined) {
    write(json ? JSON.stringify({ dashboard: sandbox.dashboardUrl }) : `dashboard on ${sandbox.dashboardUrl}`);
    if (opts.open) await openBrowser(sandbox.dashboardUrl, (reason) => logger.warn(t('sandbox.dashboardOpenFailed', reason)));
  }
  await stopped;
  await sandbox.close();
  if (state.lock) releaseStateDir(state.lock);
}
