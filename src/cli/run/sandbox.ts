/**
 * `paycli sandbox`: runs the built-in sandbox standalone until Ctrl-C or SIGTERM; one log line per
 * request, state change and postback attempt on stderr (with `--json`, every stderr line is a JSON
 * document: `{"listening": url}`, `{"notice": text}`, `{"time": iso, "log": text}`). See
 * src/sandbox/server.ts for what it implements and src/sandbox/lifecycle.ts for state changes and
 * postbacks.
 */
import { UsageError } from '../../core/errors.js';
import { isHttpUrl, portFlag } from '../../gateway/net.js';
import { logger } from '../../core/logger.js';
import { redact, registerSecret, sanitizeText } from '../../core/sanitize.js';
import { shownUrl } from '../../sandbox/lifecycle.js';
import { startSandbox } from '../../sandbox/server.js';

/** Options of `paycli sandbox`. */
export interface SandboxRunOptions {
  port: string;
  host: string;
  apiKey?: string;
  acquirer?: boolean;
  json?: boolean;
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
}

/**
 * Reads `PAYCLI_SANDBOX_RETRY_BASE_MS` (for tests: shortens the postback retry waits).
 * @throws UsageError when it is set but not an integer 1..60000
 */
function retryBaseMs(): number | undefined {
  const raw = process.env.PAYCLI_SANDBOX_RETRY_BASE_MS;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 60_000) throw new UsageError(`PAYCLI_SANDBOX_RETRY_BASE_MS must be milliseconds 1-60000, got "${raw}"`);
  return Number(raw);
}

/** `--auto-pay` seconds as integer milliseconds. @throws UsageError */
function autoPayMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^([0-9]{1,5})(?:\.([0-9]{1,3}))?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0')) : NaN;
  if (!m || ms > 86_400_000) throw new UsageError(`--auto-pay must be seconds 0-86400 (up to 3 decimals, e.g. 2 or 0.5), got "${text}"`, { field: '--auto-pay' });
  return ms;
}

/** `--webhook-url`: an absolute http(s) URL. @throws UsageError */
function webhookUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (isHttpUrl(text)) return text.trim();
  throw new UsageError(`--webhook-url must be an absolute http(s) URL, e.g. http://127.0.0.1:4011/, got "${sanitizeText(text, true)}"`, { field: '--webhook-url' });
}

/** `--drop-after-create`: positive integers separated by commas. @throws UsageError */
function dropList(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^[1-9][0-9]{0,8}$/.test(p))) throw new UsageError(`--drop-after-create must be a request number from 1, or several separated by commas (e.g. 1 or 2,5), got "${sanitizeText(text, true)}"`, { field: '--drop-after-create' });
  return parts.map(Number);
}

/** Starts the sandbox and resolves when it is stopped by SIGINT/SIGTERM. */
export async function run(opts: SandboxRunOptions): Promise<void> {
  const port = portFlag(opts.port);
  const postbackSecret = opts.postbackSecret ?? (process.env.PAYCLI_POSTBACK_SECRET || undefined);
  if (postbackSecret === '') throw new UsageError('--postback-secret must not be empty', { field: '--postback-secret' });
  registerSecret(postbackSecret);
  registerSecret(opts.apiKey);
  const autoPay = autoPayMs(opts.autoPay);
  const retryBase = retryBaseMs();
  const webhook = webhookUrl(opts.webhookUrl);
  const drops = dropList(opts.dropAfterCreate);
  const json = Boolean(opts.json);
  const write = (line: string) => process.stderr.write(redact(`${line}\n`));
  const log = json ? (text: string) => write(JSON.stringify({ time: new Date().toISOString(), log: sanitizeText(text, true) })) : (text: string) => write(`${new Date().toISOString()} ${text}`);
  let sandbox;
  try {
    sandbox = await startSandbox({
      host: opts.host,
      port,
      apiKey: opts.apiKey,
      noAcquirer: opts.acquirer === false,
      postbackSecret,
      autoPayMs: autoPay,
      retryBaseMs: retryBase,
      strict: Boolean(opts.strict),
      sendPostbacks: true,
      webhookUrl: webhook,
      dropAfterCreate: drops,
      log,
    });
  } catch (err) {
    throw new UsageError(`cannot listen on ${opts.host}:${opts.port} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { field: '--port' });
  }
  const notes = [
    'no money moves',
    opts.apiKey ? 'API key required' : '',
    opts.acquirer === false ? 'no active acquirer' : '',
    postbackSecret !== undefined ? 'postbacks signed (x-paycli-signature; a sandbox feature, a real gateway may not sign)' : '',
    autoPay !== undefined ? `cash-ins paid after ${autoPay / 1000} s` : '',
    opts.strict ? 'strict: format rules on' : '',
    webhook !== undefined ? `every postback also to ${shownUrl(webhook)}` : '',
    drops !== undefined ? `connection reset after creating transaction${drops.length > 1 ? 's' : ''} #${drops.join(', #')}` : '',
  ].filter(Boolean);
  // Handlers before the "listening on" line, so that a signal sent as soon as it is read stops
  // the sandbox cleanly instead of killing it.
  const stopped = new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
  logger.notice(`sandbox listening on ${sandbox.url} (${notes.join('; ')})`);
  write(json ? JSON.stringify({ listening: sandbox.url }) : `listening on ${sandbox.url}`);
  await stopped;
  await sandbox.close();
}
