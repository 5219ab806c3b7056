/**
 * `paycli sandbox`: runs the built-in sandbox standalone until Ctrl-C or SIGTERM; one log line per
 * request, state change and postback attempt on stderr. See src/sandbox/server.ts for what it
 * implements and src/sandbox/lifecycle.ts for state changes and postbacks.
 */
import { UsageError } from '../errors.js';
import { portFlag } from '../validate/net.js';
import { logger } from '../output/logger.js';
import { redact, registerSecret } from '../output/sanitize.js';
import { startSandbox } from '../sandbox/server.js';

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

/** Starts the sandbox and resolves when it is stopped by SIGINT/SIGTERM. */
export async function run(opts: SandboxRunOptions): Promise<void> {
  const port = portFlag(opts.port);
  const postbackSecret = opts.postbackSecret ?? (process.env.PAYCLI_POSTBACK_SECRET || undefined);
  if (postbackSecret === '') throw new UsageError('--postback-secret must not be empty', { field: '--postback-secret' });
  registerSecret(postbackSecret);
  registerSecret(opts.apiKey);
  const autoPay = autoPayMs(opts.autoPay);
  const retryBase = retryBaseMs();
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
      log: (line) => process.stderr.write(redact(`${new Date().toISOString()} ${line}\n`)),
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
  ].filter(Boolean);
  // Handlers before the "listening on" line, so that a signal sent as soon as it is read stops
  // the sandbox cleanly instead of killing it.
  const stopped = new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
  logger.notice(`sandbox listening on ${sandbox.url} (${notes.join('; ')})`);
  process.stderr.write(`listening on ${sandbox.url}\n`);
  await stopped;
  await sandbox.close();
}
