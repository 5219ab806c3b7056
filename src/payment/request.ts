/**
 * The pipeline shared by `cashin` and `cashout`: body sources (`--input` file, field flags,
 * narrowed by the CLI) / prompts → schema → settings → (dry run | sandbox or gateway) → validated
 * response. Data flows one way.
 */
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import type * as z from 'zod/mini';
import { UsageError } from '../core/errors.js';
import { problemsError, type FieldSpec } from '../gateway/fields.js';
import { mergeProblems, type GatheredBody } from './input.js';
import { callGateway, prepareRequest, type GatewayResult } from '../gateway/client.js';
import { logger } from '../core/logger.js';
import { output, type Output } from '../core/output.js';
import { checkWith, loadSchemas, type LazySchema } from '../gateway/payment-schemas.js';
import { isSandbox } from '../gateway/endpoint.js';
import { keylessLoopback, type Settings } from '../config/settings.js';
import { t } from '../core/i18n/index.js';

export { gatherBody, type BodySources } from './input.js';

/**
 * Validates the gathered body (src/payment/input.ts) with the request schema (src/gateway/payment-schemas.ts
 * `checkWith`): a body its check without zod accepts as it gives it, any other with the schema, loaded then, whose
 * issues word the problems; when `interactive` (a person at a terminal, src/core/terminal.ts `canPrompt`), prompts
 * for what is missing or wrong (src/payment/prompts.ts) until it validates.
 * @returns the typed request (amounts in cents)
 * @throws UsageError listing every problem (flags by name, `--input` values by JSON path) when it cannot prompt
 */
export async function validateBody<S extends z.ZodMiniType>(fields: readonly FieldSpec[], lazy: LazySchema<S>, gathered: GatheredBody, interactive: boolean): Promise<z.output<S>> {
  const { body } = gathered;
  // A cash-out's body its schema accepts is checked without zod (the same result): zod is loaded for any other.
  const accepted = checkWith(lazy, body);
  if (accepted?.success && !gathered.problems.length) return accepted.data;
  const [schema, { problemsOf }] = await Promise.all([lazy.load(), loadSchemas()]);
  const parsed = accepted ?? checkWith(lazy, body, schema);
  if (parsed.success && !gathered.problems.length) return parsed.data;
  const problems = mergeProblems(gathered, parsed.success ? [] : problemsOf(parsed.error));
  if (!interactive) throw problemsError(fields, problems, gathered);
  const { promptForFields } = await import('./prompts.js');
  const completed = await promptForFields(fields, schema, body, problems, gathered);
  const again = schema.safeParse(completed);
  if (!again.success) throw problemsError(fields, problemsOf(again.error));
  return again.data;
}

/** Says once, before any prompt, that the request goes to the built-in sandbox (no money moves). */
export function announceSandbox(settings: Settings): void {
  if (isSandbox(settings.endpoint)) logger.notice(t('pay.sandboxNotice'));
}

/**
 * Checks, before anything is sent, that `file` can be written (its folder exists and is writable;
 * an existing file is a writable regular file), so a created payment never ends on "cannot write".
 * @throws UsageError (exit 2, nothing sent)
 */
export function checkWritable(file: string, flag: string): void {
  const problem = (() => {
    try {
      const st = statSync(file);
      if (!st.isFile()) return t('pay.notRegularFile');
      accessSync(file, fsConstants.W_OK);
      return null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return t('pay.cannotWrite', String((err as NodeJS.ErrnoException).code));
    }
    try {
      accessSync(dirname(resolvePath(file)), fsConstants.W_OK);
      return null;
    } catch (err) {
      return t('pay.cannotCreate', (err as NodeJS.ErrnoException).code === 'ENOENT' ? t('pay.noSuchFolder') : String((err as NodeJS.ErrnoException).code));
    }
  })();
  if (problem) throw new UsageError(t('pay.fileProblem', flag, file, problem), { field: flag });
}

/**
 * `--dry-run`: the request that would be sent (method, URL, headers with the credential
 * redacted, body) as a result — the JSON document `{dryRun, method, url, headers, body}` — and
 * nothing sent. Against the built-in sandbox the URL shows
 * `<sandbox port>` (a port is chosen when a real run starts it).
 */
export function printDryRun(settings: Settings, path: string, body: unknown): Output {
  const sandbox = isSandbox(settings.endpoint);
  const req = prepareRequest(settings, isSandbox(settings.endpoint) ? 'http://127.0.0.1' : settings.endpoint.url, path, body, true);
  if (sandbox) req.url = req.url.replace('http://127.0.0.1/', 'http://127.0.0.1:<sandbox port>/');
  if (!sandbox && !settings.apiKey && !keylessLoopback(settings)) logger.warn(t('pay.dryRunNoKey', settings.profile));
  const headers = Object.entries(req.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  return output({ dryRun: true, ...req }, `${req.method} ${req.url}\n${headers}\n\n${JSON.stringify(body, null, 2)}`, { after: () => logger.notice(t('pay.dryRun', sandbox)) });
}

/**
 * Sends the request to the configured gateway, or to an in-process sandbox (with one stderr
 * notice) when the base URL is "sandbox" or unset.
 */
export async function send<S extends z.ZodMiniType>(
  settings: Settings,
  path: string,
  body: unknown,
  schema: LazySchema<S>,
  unknownAdvice: string,
  signal: AbortSignal,
  onSent?: () => void,
): Promise<GatewayResult<z.output<S>> & { sandbox: boolean }> {
  if (!isSandbox(settings.endpoint)) {
    return { ...(await callGateway({ path, body, schema, settings, baseUrl: settings.endpoint.url, signal, unknownAdvice, ...(onSent ? { onSent } : {}) })), sandbox: false };
  }
  const { startSandbox } = await import('../sandbox/server.js');
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  try {
    return { ...(await callGateway({ path, body, schema, settings, baseUrl: sandbox.url, signal, direct: true, unknownAdvice, ...(onSent ? { onSent } : {}) })), sandbox: true };
  } finally {
    await sandbox.close();
  }
}
