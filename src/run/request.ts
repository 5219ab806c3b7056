/**
 * The pipeline shared by `cashin` and `cashout`: flags / `--input` file / prompts → schema →
 * settings → (dry run | sandbox or gateway) → validated response. Data flows one way.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { AuthError, UsageError } from '../errors.js';
import { fieldOf, type FieldSpec } from '../fields.js';
import { amountProblem, parseReais } from '../money.js';
import { callGateway, prepareRequest, type GatewayResult } from '../client.js';
import { logger, printResult } from '../output/logger.js';
import { registerRequestSecrets } from '../secrets.js';
import { problemsOf, type FieldProblem } from '../schemas.js';
import { resolveSettings, SANDBOX, type GlobalFlags, type Settings } from '../settings.js';
import { parsePixKeyType } from '../validate/pixkey.js';

/** Flags of `cashin`/`cashout` as commander gives them, plus the globals. */
export type RequestFlags = GlobalFlags & Record<string, unknown> & { input?: string; noInput?: boolean; dryRun?: boolean; amount?: string; value?: string };

/** True when paycli may prompt: stdin and stdout are terminals, no `--no-input`, no `PAYCLI_NO_INPUT=1`. */
export function canPrompt(flags: { noInput?: boolean }): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !flags.noInput && process.env.PAYCLI_NO_INPUT !== '1' && process.env.PAYCLI_NO_INPUT !== 'true';
}

/** Reads `--input <file|->`: a JSON object with the interface's field names. @throws UsageError */
export function readInput(source: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(source === '-' ? 0 : source, 'utf8');
  } catch (err) {
    throw new UsageError(`--input: cannot read ${source === '-' ? 'stdin' : source} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { field: '--input' });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--input: ${source === '-' ? 'stdin' : source} is not valid JSON (${(err as Error).message})`, { field: '--input' });
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new UsageError('--input: the JSON must be an object with the interface field names, e.g. {"value": 1000, ...}', { field: '--input' });
  return json as Record<string, unknown>;
}

/** Sets `obj[a][b]` for path `a.b`, creating objects on the way. */
export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = obj;
  for (const p of parts.slice(0, -1)) {
    if (!o[p] || typeof o[p] !== 'object') o[p] = {};
    o = o[p] as Record<string, unknown>;
  }
  o[parts[parts.length - 1]!] = value;
}

/** Reads `obj` at path `a.b`. */
export function getPath(obj: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((o, p) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[p] : undefined), obj);
}

/** Converts one field's text (flag or prompt answer) to its JSON value; the schema judges it. */
export function convertField(f: FieldSpec, raw: unknown): unknown {
  if (typeof raw !== 'string') {
    if (f.kind === 'splits' && Array.isArray(raw)) return raw.map((s) => (typeof s === 'string' ? parseSplit(s) : s));
    return raw;
  }
  switch (f.kind) {
    case 'cents':
      return /^\s*-?[0-9]+\s*$/.test(raw) ? Number(raw) : raw;
    case 'pixKeyType':
      return parsePixKeyType(raw) ?? raw;
    case 'splits':
      return [parseSplit(raw)];
    default:
      return raw;
  }
}

/** `clientId:cents` → `{clientId, value}`. */
export function parseSplit(text: string): { clientId: string; value: unknown } {
  const i = text.lastIndexOf(':');
  if (i < 0) return { clientId: text.trim(), value: undefined };
  const cents = text.slice(i + 1).trim();
  return { clientId: text.slice(0, i).trim(), value: /^[0-9]+$/.test(cents) ? Number(cents) : cents };
}

/**
 * Builds the request body from `--input` (if any), then flags over it, then `--amount`.
 * @throws UsageError on an unreadable input file, `--value` with `--amount`, a bad `--amount`
 */
export function bodyFromFlags(fields: readonly FieldSpec[], flags: RequestFlags): Record<string, unknown> {
  const body: Record<string, unknown> = flags.input ? readInput(flags.input) : {};
  if (flags.input) {
    const unknown = unknownFields(fields, body);
    if (unknown.length) logger.warn(`--input: ignoring field${unknown.length > 1 ? 's' : ''} the interface does not define: ${unknown.join(', ')}`);
  }
  for (const f of fields) {
    const raw = flags[f.attr];
    if (raw !== undefined) setPath(body, f.path, convertField(f, raw));
    else if (flags.input && getPath(body, f.path) !== undefined) setPath(body, f.path, convertField(f, getPath(body, f.path)));
  }
  if (flags.amount !== undefined) {
    if (flags.value !== undefined) throw new UsageError('give either --value (cents) or --amount (reais), not both; nothing was sent', { field: '--amount' });
    const problem = amountProblem(flags.amount);
    if (problem) throw new UsageError(`--amount: ${problem}; nothing was sent`, { field: '--amount' });
    body.value = parseReais(flags.amount);
  }
  return body;
}

/** Keys of an `--input` body that are not fields of the request (they would not be sent). */
export function unknownFields(fields: readonly FieldSpec[], body: Record<string, unknown>): string[] {
  const known = new Set(fields.map((f) => f.path));
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    const children = fields.filter((f) => f.path.startsWith(`${k}.`));
    if (children.length && v && typeof v === 'object' && !Array.isArray(v)) {
      for (const c of Object.keys(v)) if (!known.has(`${k}.${c}`)) out.push(`${k}.${c}`);
    } else if (!known.has(k) && !children.length) out.push(k);
  }
  return out;
}

/** Words for one problem, naming the flag: `--payer-document: is not a valid CPF …`. */
export function describeProblem(fields: readonly FieldSpec[], p: FieldProblem): string {
  const f = fieldOf(fields, p.path);
  if (!f) return `${p.path ? `${p.path} (in --input)` : 'request'}: ${p.message}`;
  let msg = p.message;
  if (f.kind === 'cents' && /integer/.test(msg)) msg += ' (for reais, use --amount 10,50)';
  if (f.kind === 'splits') {
    const m = /^splits\.(\d+)(?:\.(\w+))?/.exec(p.path);
    if (!m) return `${f.flag}: the splits ${msg}`;
    const n = `split #${Number(m[1]) + 1}`;
    if (m[2] === 'value' && msg === 'is required') return `${f.flag}: ${n} has no amount in cents; write clientId:cents, e.g. ${f.flag} ${f.example}`;
    if (m[2] === 'clientId' && msg === 'is required') return `${f.flag}: ${n} has no client id; write clientId:cents, e.g. ${f.flag} ${f.example}`;
    const what = m[2] === 'value' ? 'amount' : m[2] === 'clientId' ? 'client id' : undefined;
    return `${f.flag}: ${n}${what ? ` ${what}` : ''} ${msg}`;
  }
  return `${f.flag}: ${msg}${msg === 'is required' ? ` (e.g. ${f.flag} ${JSON.stringify(f.example)})` : ''}`;
}

/**
 * The required fields a "missing" problem stands for: the field itself, or every required field
 * under a missing object (`person` → `person.name`, `person.email`, `person.phone`); empty when
 * the problem is not a missing field (e.g. a split entry without an amount).
 */
export function missingFields(fields: readonly FieldSpec[], p: FieldProblem): FieldSpec[] {
  if (p.message !== 'is required') return [];
  const exact = fields.find((f) => f.path === p.path);
  if (exact) return [exact];
  return fields.filter((f) => f.required && f.path.startsWith(`${p.path}.`));
}

/**
 * Turns schema problems into one UsageError (exit 2) listing every missing flag and every
 * invalid value, each with the flag's name (one problem per field path).
 */
export function problemsError(fields: readonly FieldSpec[], problems: FieldProblem[]): UsageError {
  const seen = new Set<string>();
  const unique = problems.filter((p) => (seen.has(p.path) ? false : (seen.add(p.path), true)));
  const missing = [...new Set(unique.flatMap((p) => missingFields(fields, p)).map((f) => f.flag))];
  const invalid = unique.filter((p) => missingFields(fields, p).length === 0);
  const lines: string[] = [];
  if (missing.length) lines.push(`missing required flag${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  for (const p of invalid) lines.push(describeProblem(fields, p));
  const firstMissing = unique[0] ? missingFields(fields, unique[0])[0] : undefined;
  const first = unique[0] ? (firstMissing?.flag ?? fieldOf(fields, unique[0].path)?.flag ?? unique[0].path) : undefined;
  const message = lines.length === 1 ? `${lines[0]}; nothing was sent` : `the request has ${lines.length} problems; nothing was sent:\n  ${lines.join('\n  ')}`;
  return new UsageError(message, { field: first, hint: missing.length && !invalid.length ? 'pass the flags, use --input <file>, or run in a terminal to be prompted' : undefined }, missing.length ? 'missing_fields' : 'validation');
}

/**
 * Validates the body with the request schema; in a terminal, prompts for what is missing or
 * wrong (src/run/prompts.ts) until it validates.
 * @throws UsageError listing every problem when it cannot prompt
 */
export async function validateBody<S extends z.ZodType>(fields: readonly FieldSpec[], schema: S, body: Record<string, unknown>, flags: RequestFlags): Promise<z.output<S>> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = problemsOf(parsed.error);
  if (!canPrompt(flags)) throw problemsError(fields, problems);
  const { promptForFields } = await import('./prompts.js');
  const completed = await promptForFields(fields, schema, body, problems);
  const again = schema.safeParse(completed);
  if (!again.success) throw problemsError(fields, problemsOf(again.error));
  return again.data;
}

/**
 * Resolves settings and checks the credential: a real gateway needs an API key (exit 3 before
 * anything is sent; `--dry-run` only warns); the sandbox does not. Registers the key for redaction.
 */
export function settingsFor(flags: GlobalFlags, op: 'cashin' | 'cashout'): Settings {
  const settings = resolveSettings(flags, op);
  registerRequestSecrets(settings);
  if (settings.baseUrl !== SANDBOX && !settings.apiKey && !(flags as RequestFlags).dryRun) {
    throw new AuthError(`no API key for profile "${settings.profile}": nothing was sent`, {
      hint: `run \`paycli config set api-key${settings.profile === 'default' ? '' : ` --profile ${settings.profile}`}\` or set PAYCLI_API_KEY`,
    }, 'no_credential');
  }
  return settings;
}

/**
 * `--dry-run`: prints the request that would be sent (method, URL, headers with the credential
 * redacted, body) on stdout — one JSON document `{dryRun, method, url, headers, body}` with
 * `--json` — and returns without sending. Against the built-in sandbox the URL shows
 * `<sandbox port>` (a port is chosen when a real run starts it).
 */
export function printDryRun(settings: Settings, path: string, body: unknown, json: boolean): void {
  const sandbox = settings.baseUrl === SANDBOX;
  const req = prepareRequest(settings, sandbox ? 'http://127.0.0.1' : settings.baseUrl, path, body, true);
  if (sandbox) req.url = req.url.replace('http://127.0.0.1/', 'http://127.0.0.1:<sandbox port>/');
  if (settings.baseUrl !== SANDBOX && !settings.apiKey) logger.warn(`no API key for profile "${settings.profile}": a real run would stop here (exit 3)`);
  if (json) printResult({ json: { dryRun: true, ...req } });
  else {
    const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\n');
    printResult(`${req.method} ${req.url}\n${headers}\n\n${JSON.stringify(body, null, 2)}`);
  }
  logger.notice(`dry run: nothing was sent${sandbox ? ' (the request would go to the built-in sandbox)' : ''}`);
}

/**
 * Sends the request to the configured gateway, or to an in-process sandbox (with one stderr
 * notice) when the base URL is "sandbox" or unset.
 */
export async function send<S extends z.ZodType>(settings: Settings, path: string, body: unknown, schema: S, unknownAdvice: string, signal: AbortSignal): Promise<GatewayResult<z.output<S>> & { sandbox: boolean }> {
  if (settings.baseUrl !== SANDBOX) {
    return { ...(await callGateway({ path, body, schema, settings, baseUrl: settings.baseUrl, signal, unknownAdvice })), sandbox: false };
  }
  logger.notice('sandbox: this runs against the built-in sandbox; no money moves. Configure a gateway with `paycli config set base-url <url>` and `paycli config set api-key`.');
  const { startSandbox } = await import('../sandbox/server.js');
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  try {
    return { ...(await callGateway({ path, body, schema, settings, baseUrl: sandbox.url, signal, direct: true, unknownAdvice })), sandbox: true };
  } finally {
    await sandbox.close();
  }
}

/** An AbortSignal fired by Ctrl-C (SIGINT) or SIGTERM while a request is in flight. */
export function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onSignal = () => ac.abort();
  // SIGTERM is how CI cancels a job: treated as Ctrl-C, so paycli says whether the request had
  // gone out and records the outcome in the journal before it exits.
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: ac.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
