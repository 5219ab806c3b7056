/**
 * `paycli history`: what this machine sent, from the payment ledger (src/ledger/ledger.ts), newest first,
 * filtered in the database so that only the rows shown are read (docs/ledger-and-safety.md "History").
 * `paycli history resolve <entry> --outcome ok|not_sent|refused [--note TEXT]` settles an entry
 * whose outcome is unknown, after checking it at the gateway.
 */
import { UsageError } from '../../core/errors.js';
import type { LedgerListing } from '../../ledger/read.js';
import { ledgerPath } from '../../ledger/files.js';
import type { LedgerEntry, LedgerQuery } from '../../ledger/schema.js';
import type { TableEntry } from '../../ledger/entries.js';
import { OUTCOMES, type Outcome } from '../../ledger/blocking.js';
import type { PaymentKind } from '../../ledger/rules.js';
import { formatReais } from '../../pix/money.js';
import { logger } from '../../core/logger.js';
import { sanitizeText } from '../../core/sanitize.js';
import { output, type Output, type StreamOutput } from '../../core/output.js';
import type { CommandContext } from '../context.js';
import { registerConfigSecrets } from '../../core/secrets.js';
import { readConfigFile, type ConfigFile, type GlobalFlags } from '../../config/config-file.js';
import { outputWidth } from '../../core/terminal.js';
import { parseTimeBound } from '../time-bound.js';
import { formatLocalTime, localTimeColumn, localTimeZone } from '../../core/local-time.js';
import { isPortuguese, t } from '../../core/i18n/index.js';

/** Output formats of `history`. */
export const HISTORY_FORMATS = ['table', 'json', 'csv', 'ofx'] as const;
export type HistoryFormat = (typeof HISTORY_FORMATS)[number];

/** Options of `history`: its flags plus the globals (`--profile` filters by profile when given). */
export type HistoryOptions = GlobalFlags & {
  limit?: string;
  since?: string;
  until?: string;
  kind?: string;
  outcome?: string;
  orderId?: string;
  by?: string;
  format?: string;
  csvDialect?: string;
};

/** Options of `history resolve`. */
export type ResolveOptions = GlobalFlags & { outcome?: string; note?: string; force?: boolean };

/** Reads `--kind`: `cashin`/`cashout` (also `cash-in`, `cash-out`). */
function parseKind(text: string | undefined): PaymentKind | undefined {
  if (text === undefined) return undefined;
  const k = text.trim().toLowerCase().replace('-', '');
  if (k === 'cashin' || k === 'cashout') return k;
  throw new UsageError(t('history.kindInvalid', text), { field: '--kind' });
}

/** Reads an outcome flag (`not-sent` is accepted for `not_sent`). */
function parseOutcome(text: string | undefined, allowed: readonly Outcome[], flag: string): Outcome | undefined {
  if (text === undefined) return undefined;
  const o = text.trim().toLowerCase().replace('-', '_') as Outcome;
  if (allowed.includes(o)) return o;
  throw new UsageError(t('history.outcomeInvalid', flag, allowed.join(', '), text), { field: flag });
}

/**
 * Reads `--by`: `user@host`, `user` or `@host` (the last `@` parts them: a host name has none).
 * @throws UsageError (exit 2) when it names neither
 */
export function parseBy(text: string | undefined): LedgerQuery['by'] {
  if (text === undefined) return undefined;
  const by = text.trim();
  const at = by.lastIndexOf('@');
  const user = (at < 0 ? by : by.slice(0, at)).trim();
  const host = (at < 0 ? '' : by.slice(at + 1)).trim();
  if (!user && !host) throw new UsageError(t('history.byInvalid', text), { field: '--by' });
  return { ...(user ? { user } : {}), ...(host ? { host } : {}) };
}

/**
 * The query and format of a `history` run, from its flags.
 * @throws UsageError (exit 2) on a bad flag
 */
export function historyQuery(opts: HistoryOptions, now = Date.now()): { query: LedgerQuery; format: HistoryFormat } {
  // a statement (ofx) covers the whole period unless --limit says otherwise
  const limitText = String(opts.limit ?? (opts.format?.trim().toLowerCase() === 'ofx' ? 'all' : '20')).trim();
  let limit: number;
  if (limitText === 'all')
    limit = -1; // SQLite: no limit
  else if (/^[0-9]+$/.test(limitText) && Number(limitText) >= 1) limit = Number(limitText);
  else throw new UsageError(t('history.limitInvalid', String(opts.limit)), { field: '--limit' });
  const formatText = opts.format?.trim().toLowerCase();
  if (formatText !== undefined && !(HISTORY_FORMATS as readonly string[]).includes(formatText))
    throw new UsageError(t('history.formatInvalid', opts.format), { field: '--format' });
  if (opts.json && formatText !== undefined && formatText !== 'json') throw new UsageError(t('history.jsonAndFormat', formatText), { field: '--format' });
  const format = (opts.json ? 'json' : (formatText ?? 'table')) as HistoryFormat;
  const since = opts.since !== undefined ? parseTimeBound(opts.since, '--since', { now }) : undefined;
  const until = opts.until !== undefined ? parseTimeBound(opts.until, '--until', { now, endOfDay: true }) : undefined;
  if (since !== undefined && until !== undefined && until <= since) throw new UsageError(t('history.untilBeforeSince'), { field: '--until' });
  const query: LedgerQuery = { limit };
  if (since !== undefined) query.since = new Date(since).toISOString();
  if (until !== undefined) query.until = new Date(until).toISOString();
  const kind = parseKind(opts.kind);
  if (kind) query.kind = kind;
  const outcome = parseOutcome(opts.outcome, OUTCOMES, '--outcome');
  if (outcome) query.outcome = outcome;
  if (opts.profile) query.profile = opts.profile;
  if (opts.orderId !== undefined) query.orderId = opts.orderId;
  const by = parseBy(opts.by);
  if (by) query.by = by;
  return { query, format };
}

/** The PIX key of a cash-out (its type is in JSON and CSV), or the payer of a cash-in. */
function counterpart(e: Pick<LedgerEntry, 'kind' | 'pixKey' | 'payer'>): string {
  return (e.kind === 'cashout' ? e.pixKey : e.payer) ?? '?';
}

/** A kind as the table says it: cash-out / cash-in (saque / cobrança). */
function kindWord(kind: PaymentKind): string {
  return kind === 'cashout' ? t('history.kind.cashout') : t('history.kind.cashin');
}

/** An outcome as the table says it (`not_sent` in English, as `--outcome` takes it; in words in Portuguese). */
function outcomeWord(outcome: Outcome): string {
  return t(`history.outcome.${outcome}`);
}

const cut = (s: string, width: number): string => (s.length <= width ? s : width <= 1 ? '…'.slice(0, width) : `${s.slice(0, width - 1)}…`);

/** Who sent an entry, as the table shows it: `user@host` (`?` for a part not recorded), or `?`. */
export function sentBy(e: Pick<LedgerEntry, 'user' | 'host'>): string {
  return e.user === undefined && e.host === undefined ? '?' : `${e.user ?? '?'}@${e.host ?? '?'}`;
}

/** The last column keeps at least this many characters (or its whole width, when less) before BY is left out. */
const TO_FROM_MIN = 20;

/**
 * The human table, at most `width` columns wide (80 when stdout is not a terminal): entry number,
 * local time (to the minute; its offset in the header: src/core/local-time.ts `localTimeColumn`),
 * who sent it (`BY`, `user@host`), kind (`*` = sandbox), amount,
 * outcome, then the PIX key (cash-out) or payer (cash-in), shortened to fit. BY is shown where it
 * fits: when some entry records who sent it and the last column still gets its whole width, or at
 * least 20 characters. `--format json|csv` have every field.
 */
export function formatHistory(entries: readonly TableEntry[], width = 80, opts: { portuguese?: boolean; timeZone?: string } = {}): string {
  const time = localTimeColumn(
    entries.map((e) => e.time),
    { portuguese: opts.portuguese ?? isPortuguese(), timeZone: opts.timeZone ?? localTimeZone(), label: t('time.column') },
  );
  const head = [t('history.col.entry'), time.header, t('history.col.by'), t('history.col.kind'), t('history.col.amount'), t('history.col.outcome'), t('history.col.toFrom')];
  const right = [true, false, false, false, true, false, false];
  let rows = entries.map((e, i) => [
    String(e.id),
    time.cells[i]!,
    sanitizeText(sentBy(e), true),
    `${kindWord(e.kind)}${e.sandbox ? '*' : ''}`,
    formatReais(e.value),
    outcomeWord(e.outcome),
    sanitizeText(counterpart(e), true),
  ]);
  const measure = (cols: string[], body: string[][]) => cols.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  let widths = measure(head, rows);
  const fixedOf = (w: number[]) => w.slice(0, -1).reduce((a, b) => a + b + 2, 0);
  const last = widths[widths.length - 1]!;
  const byFits = entries.some((e) => e.user !== undefined || e.host !== undefined) && fixedOf(widths) + Math.min(last, TO_FROM_MIN) <= width;
  if (!byFits) {
    head.splice(2, 1);
    right.splice(2, 1);
    rows = rows.map((r) => r.filter((_c, i) => i !== 2));
    widths = widths.filter((_w, i) => i !== 2);
  }
  widths[widths.length - 1] = Math.max(8, Math.min(widths[widths.length - 1]!, width - fixedOf(widths)));
  return [head, ...rows]
    .map((r) =>
      r
        .map((c, i) => {
          const w = widths[i]!;
          if (i === r.length - 1) return cut(c, w);
          return right[i] ? c.padStart(w) : c.padEnd(w);
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Runs `history` (or `history resolve`). @throws UsageError on a bad flag; LedgerUnavailableError on an unusable ledger */
/**
 * Runs `history` (or `history resolve`): the entries as a stream (src/core/output.ts), read from
 * the ledger while they are written, so that an export of a million payments, its `--jq` or its
 * `--template` stays small in memory.
 * @throws UsageError on a bad flag; LedgerUnavailableError on an unusable ledger
 */
export async function run(opts: HistoryOptions & ResolveOptions, ctx: CommandContext): Promise<StreamOutput | Output> {
  if (ctx.command?.name() === 'resolve') return resolve(opts, ctx.args[0], ctx);
  const { query, format } = historyQuery(opts, ctx.now().getTime());
  // the CSV dialects and the documents load only for the formats that use them (src/cli/run/history-export.ts)
  const dialect = opts.csvDialect !== undefined || format === 'csv' ? (await import('../csv-dialect.js')).csvDialect(opts.csvDialect) : undefined;
  if (opts.csvDialect !== undefined && format !== 'csv') throw new UsageError(t('csv.dialectNeedsCsv'), { field: '--csv-dialect' });
  if ((format === 'csv' || format === 'ofx') && ctx.output.mode !== 'text') throw new UsageError(t('history.jsonAndFormat', format), { field: '--format' });
  registerSecretsOfConfig();
  const ledger = await ctx.listLedger(opts.profile);
  await checkFilterProfile(opts.profile, ledger);
  const entries = () => (ledger ? ledger.iterate(query) : []);
  const docs = async function* () {
    const { historyEntryDoc } = await import('../output/history-doc.js');
    for await (const e of entries()) yield historyEntryDoc(e);
  };
  if (format === 'json' || format === 'csv') {
    const { csvChunks, jsonChunks } = await import('./history-export.js');
    if (format === 'json') return { docs, text: () => jsonChunks(entries(), ctx.isTTY.stdout) };
    return { docs, textOnly: true, text: () => csvChunks(entries(), { dialect: dialect!, timeZone: localTimeZone() }) };
  }
  if (format === 'ofx') {
    const statement = await ofxBytes(ledger ? await ledger.query(query) : [], query, opts, ctx.now().getTime());
    return { docs, textOnly: true, text: () => [statement] };
  }
  let sandbox = false;
  return {
    docs,
    async *text() {
      const shown = !ledger ? [] : ledger.tableRows ? await ledger.tableRows(query) : await ledger.query(query);
      sandbox = shown.some((e) => e.sandbox);
      if (shown.length) yield `${formatHistory(shown, outputWidth(ctx))}\n`;
      else logger.notice(Object.keys(query).length > 1 ? t('history.noneMatches') : t('history.noneYet', ledgerPath()));
    },
    after: () => {
      if (sandbox) logger.notice(t('history.sandboxFootnote'));
    },
  };
}

/** The OFX statement of `entries` (src/cli/run/history-ofx.ts), its bytes in Windows-1252, its texts redacted as they were written. */
async function ofxBytes(entries: LedgerEntry[], query: LedgerQuery, opts: HistoryOptions, now: number): Promise<Uint8Array> {
  const { ofxStatement, isSettled } = await import('./history-ofx.js');
  const bytes = ofxStatement(entries, {
    ...(query.since !== undefined ? { since: Date.parse(query.since) } : {}),
    ...(query.until !== undefined ? { until: Date.parse(query.until) } : {}),
    account: opts.profile ?? 'paycli',
    now,
  });
  const left = entries.filter((e) => !isSettled(e)).length;
  if (left) logger.notice(t('ofx.leftOut', left));
  return bytes;
}

/** `history resolve <entry>`: records the outcome found at the gateway for an unknown entry. */
async function resolve(opts: ResolveOptions, entryText: string | undefined, ctx: CommandContext): Promise<Output> {
  const text = (entryText ?? '').trim().replace(/^#/, '');
  if (!/^[0-9]+$/.test(text) || Number(text) < 1) throw new UsageError(t('history.entryInvalid', entryText ?? ''), { field: 'entry' });
  const outcome = parseOutcome(opts.outcome, ['ok', 'not_sent', 'refused'], '--outcome');
  if (!outcome) throw new UsageError(t('history.outcomeRequired'), { field: '--outcome' });
  registerSecretsOfConfig();
  const ledger = await ctx.readLedger(opts.profile);
  await checkFilterProfile(opts.profile, ledger);
  if (!ledger) throw new UsageError(t('history.noLedger', text, ledgerPath()), { field: 'entry' });
  // An entry whose run is still alive (running, or stopped) may still be sent or answered: that run settles it (docs/ledger-and-safety.md, "In flight").
  const before = await ledger.get(Number(text));
  if (before && !before.completed && !opts.force) {
    const { owner, run } = await ledger.inFlight(before);
    if (owner === 'alive' || owner === 'unknown') {
      const { describeRun } = await import('../../ledger/runs.js');
      throw new UsageError(t('history.inFlight', before.id, run ? describeRun(run) : ''), {
        field: '--force',
        hint: t('history.inFlightHint', owner === 'unknown'),
      });
    }
  }
  const e = await ledger.resolve(Number(text), outcome as Exclude<Outcome, 'unknown'>, { by: 'hand', ...(opts.note !== undefined ? { note: opts.note } : {}) });
  const what = t(
    e.kind === 'cashout' ? 'history.resolvedCashout' : 'history.resolvedCashin',
    formatReais(e.value),
    sanitizeText(counterpart(e), true),
    formatLocalTime(e.time, { portuguese: isPortuguese() }),
  );
  const effect = e.kind !== 'cashout' ? '' : outcome === 'ok' ? t('history.resolvedOkEffect') : t('history.resolvedFreedEffect');
  const { historyEntryDoc } = await import('../output/history-doc.js');
  return output(historyEntryDoc(e), t('history.resolved', e.id, what, outcomeWord(outcome), effect));
}

/**
 * `--profile` (the filter) is checked as every command's: a typo is exit 2, not "no payment
 * matches"; a profile removed from the config file still names its payments in the ledger.
 * @throws UsageError `unknown_profile`
 */
async function checkFilterProfile(profile: string | undefined, ledger: LedgerListing | undefined): Promise<void> {
  if (!profile) return;
  const inLedger = Boolean(ledger && (await ledger.query({ profile, limit: 1 })).length);
  const { checkProfile } = await import('../../config/settings.js'); // the settings' rules only with --profile
  checkProfile({ profile }, {}, configOrEmpty(), { action: 'nothing was shown', extra: (name) => name === profile && inLedger });
}

/**
 * Defence in depth: what the ledger holds was redacted when written, but an entry written by an
 * older paycli may not be; the configured secrets are registered so that output hides them.
 */
function configOrEmpty(): ConfigFile {
  try {
    return readConfigFile();
  } catch {
    return {};
  }
}

function registerSecretsOfConfig(): void {
  try {
    registerConfigSecrets(readConfigFile());
  } catch {
    /* an unreadable config has no secrets to hide; history does not depend on it */
  }
}
