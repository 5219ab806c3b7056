/**
 * `paycli reconcile [--since 7d]`: settles every payment of the ledger whose outcome is unknown by
 * asking the gateway for its order reference (src/payment/settle.ts), with the settings of the profile that
 * sent it. Found: recorded `ok` with the gateway's transaction id; "Transaction not found":
 * recorded `not_sent` once the run that sent it has ended and its deadline plus `settle-after`
 * has passed (before that it proves nothing); otherwise it stays unknown and the table says why. Exit 0 when nothing is
 * left unknown, 4 otherwise (6 when all are settled but one needs a person: an amount or kind
 * that differs from what was sent).
 */
import { CASHIN_PATH, CASHOUT_PATH } from '../../gateway/contract.js';
import { endpointTarget } from '../../gateway/endpoint.js';
import { InterruptedError, NeedsAttentionError, NetworkError } from '../../core/errors.js';
import type { LedgerEntry } from '../../ledger/ledger.js';
import { openContractToRead } from '../../ledger/async-store.js';
import type { LedgerContract } from '../../ledger/contract.js';
import { endpointIdentity } from '../../ledger/rules.js';
import { settleEntry } from '../../payment/settle.js';
import { formatReais } from '../../pix/money.js';
import { statusWord } from '../../gateway/status-words.js';
import { logger } from '../../core/logger.js';
import { output, type Output } from '../../core/output.js';
import { sanitizeJson, sanitizeText } from '../../core/sanitize.js';
import type { GlobalFlags, Settings } from '../../config/settings.js';
import { parseTimeBound } from '../time-bound.js';
import { localTimeColumn } from '../../core/local-time.js';
import { isPortuguese, t } from '../../core/i18n/index.js';
import { interruptSignal } from '../../core/terminal.js';
import { settingsFor } from '../../config/settings.js';

/** Options of `reconcile`: its flags plus the globals. */
export type ReconcileOptions = GlobalFlags & { since?: string };

/** What became of one unknown payment. */
export interface ReconcileRow {
  /** Ledger entry number (`paycli history resolve <entry>`). */
  id: number;
  time: string;
  kind: 'cashin' | 'cashout';
  /** Amount in cents. */
  value: number;
  profile: string;
  orderId?: string;
  /** `ok` (the gateway holds it), `not_sent` (it does not), `unknown` (could not be settled). */
  result: 'ok' | 'not_sent' | 'unknown';
  transactionId?: number;
  /** The gateway's status word, when found. */
  status?: string;
  /** Why it stays unknown, or what needs attention. */
  reason?: string;
}

/**
 * Parses `--since` (src/cli/time-bound.ts: `7d`, `24h`, `30m`, `2w`, a local day or an ISO time).
 * @returns epoch milliseconds
 * @throws UsageError
 */
export function parseSince(text: string, now = Date.now()): number {
  return parseTimeBound(text, '--since', { now });
}

// The ledger (src/ledger/contract.ts).

/** Ledger entries whose outcome is unknown, recorded at or after `since`, oldest first. */
async function unknownEntries(ledger: LedgerContract | undefined, since: number | undefined): Promise<LedgerEntry[]> {
  return ledger ? ledger.listUnknown(since === undefined ? {} : { since: new Date(since).toISOString() }) : [];
}

/**
 * Where a payment of `kind` goes with `settings`, as the ledger records it (src/cli/run/cashin.ts,
 * cashout.ts; the paths from src/gateway/contract.ts).
 */
function targetOf(settings: Settings, kind: 'cashin' | 'cashout'): string {
  return endpointTarget(settings.endpoint, kind === 'cashout' ? CASHOUT_PATH : CASHIN_PATH);
}

/**
 * Settles one entry through the settle step of every payment (src/payment/settle.ts): an entry
 * whose run is still alive, or whose deadline plus `settle-after` has not passed, is not taken for
 * "not sent" on a "not found". Never throws (except an interruption, which stops the run).
 */
async function settle(ledger: LedgerContract, e: LedgerEntry, opts: ReconcileOptions, signal: AbortSignal): Promise<ReconcileRow> {
  const row: ReconcileRow = { id: e.id, time: e.time, kind: e.kind, value: e.value, profile: e.profile, ...(e.orderId ? { orderId: e.orderId } : {}), result: 'unknown' };
  const unknown = (reason: string) => ({ ...row, reason });
  if (e.sandbox) return unknown(t('reconcile.why.sandbox'));
  if (!e.orderId) return unknown(t('settle.noOrderRef'));
  const flags = { ...opts, profile: e.profile, profileFromLedger: true };
  let lookup: Settings | { problem: string };
  try {
    const sendSettings = settingsFor(flags, e.kind);
    const now = targetOf(sendSettings, e.kind);
    if (endpointIdentity(now) !== e.endpoint) return unknown(t('reconcile.why.otherGateway', e.target, e.profile, now));
    lookup = settingsFor(flags, 'lookup', e.kind);
  } catch (err) {
    return unknown((err as Error).message);
  }
  const r = await settleEntry(ledger, e, lookup, { signal, note: 'reconcile' });
  if (signal.aborted) throw new InterruptedError(t('reconcile.interrupted'));
  if (r.state === 'unknown') return unknown(r.why);
  if (r.state === 'not_sent') return { ...row, result: 'not_sent' };
  const problems: string[] = [];
  const expected = e.kind === 'cashout' ? 'transfer' : 'cashin';
  if (r.found.object && r.found.object !== expected) problems.push(t('reconcile.why.otherObject', sanitizeText(r.found.object, true), expected));
  if (r.found.value !== e.value) problems.push(t('reconcile.why.otherValue', formatReais(r.found.value), formatReais(e.value)));
  return {
    ...row,
    result: 'ok',
    transactionId: r.found.transactionId,
    status: statusWord(r.found.status),
    ...(problems.length ? { reason: t('reconcile.why.attention', problems.join('; ')) } : {}),
  };
}

const RESULT_WORDS = { ok: 'reconcile.result.ok', not_sent: 'reconcile.result.not_sent', unknown: 'reconcile.result.unknown' } as const;

/** The human table: one line per payment; the last column says what was found or why not. */
export function formatReconcile(rows: readonly ReconcileRow[], opts: { portuguese?: boolean; timeZone?: string } = {}): string {
  const time = localTimeColumn(
    rows.map((r) => r.time),
    { portuguese: opts.portuguese ?? isPortuguese(), ...(opts.timeZone ? { timeZone: opts.timeZone } : {}), label: t('time.column'), seconds: true },
  );
  const cells = rows.map((r, i) => [
    time.cells[i]!,
    r.kind === 'cashout' ? t('history.kind.cashout') : t('history.kind.cashin'),
    formatReais(r.value),
    sanitizeText(r.orderId ?? '-', true),
    t(RESULT_WORDS[r.result]),
    sanitizeText(
      [r.transactionId !== undefined ? t('reconcile.transaction', String(r.transactionId), r.status ?? '') : '', r.reason ?? ''].filter(Boolean).join('; ') || '-',
      true,
    ),
  ]);
  const head = [time.header, t('reconcile.head.kind'), t('reconcile.head.amount'), t('reconcile.head.orderId'), t('reconcile.head.result'), t('reconcile.head.detail')];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return [head, ...cells].map((c) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** Runs `reconcile`. @throws NetworkError `unresolved` (exit 4) when some stay unknown */
export async function run(opts: ReconcileOptions): Promise<Output> {
  const since = opts.since !== undefined ? parseSince(opts.since) : undefined;
  const ledger = await openContractToRead(opts.profile);
  const entries = await unknownEntries(ledger, since);
  const rows: ReconcileRow[] = [];
  const interrupt = interruptSignal();
  try {
    for (const e of entries) rows.push(await settle(ledger!, e, opts, interrupt.signal));
  } finally {
    interrupt.dispose();
  }
  const left = rows.filter((r) => r.result === 'unknown').length;
  const attention = rows.filter((r) => r.result === 'ok' && r.reason).length;
  return output(sanitizeJson({ entries: rows, settled: rows.length - left, unknown: left }), () => (rows.length ? formatReconcile(rows) : ''), {
    // what was settled is shown first; then the exit code says what is left
    after: () => {
      if (!rows.length) logger.notice(t('reconcile.nothing', opts.since ?? ''));
      else logger.notice(t('reconcile.settled', rows.length - left, rows.length, left));
      if (left) throw new NetworkError(t('reconcile.unresolved', left, Boolean(opts.json)), { hint: t('reconcile.unresolvedHint') }, 'unresolved');
      if (attention) throw new NeedsAttentionError(rows.filter((r) => r.reason).map((r) => `${r.orderId}: ${r.reason}`));
    },
  });
}
