/**
 * `paycli receipt <transactionId>` / `paycli receipt --order-id <ref>`: the comprovante of a
 * cash-out or of a paid cash-in (docs/receipts-and-statements.md "Receipts"), from the ledger's
 * entry and the gateway's answer to one lookup (src/payment/receipt.ts), as PDF (A4 or an 80 mm
 * roll), PNG or JSON, in the language in use. A refused, unknown, never sent or unpaid payment
 * gets none (exit 2, `no_receipt`, saying why).
 */
import { writeFileSync } from 'node:fs';
import { UsageError } from '../../core/errors.js';
import { isPortuguese, t } from '../../core/i18n/index.js';
import { logger } from '../../core/logger.js';
import { output, type Output, type StreamOutput } from '../../core/output.js';
import type { CommandContext } from '../context.js';
import { registerConfigSecrets } from '../../core/secrets.js';
import { sanitizeJson } from '../../core/sanitize.js';
import { interruptSignal } from '../../core/terminal.js';
import { readConfigFile, settingsFor, type GlobalFlags } from '../../config/settings.js';
import { CASHIN_PATH, CASHOUT_PATH } from '../../gateway/contract.js';
import { endpointTarget } from '../../gateway/endpoint.js';
import { findTransaction, whyNoLookup, type LookupKey } from '../../gateway/lookup.js';
import type { TransactionLookup } from '../../gateway/schemas.js';
import type { LedgerEntry } from '../../ledger/ledger.js';
import { endpointIdentity } from '../../ledger/rules.js';
import { openContractToRead } from '../../ledger/async-store.js';
import type { LedgerContract } from '../../ledger/contract.js';
import { buildReceipt, ledgerRefusal, type Receipt } from '../../payment/receipt.js';
import { layoutReceipt, PAPERS, type Paper } from '../receipt/layout.js';
import { statusKey } from './status.js';

/** Formats of `receipt`. */
export const RECEIPT_FORMATS = ['pdf', 'png', 'json'] as const;
export type ReceiptFormat = (typeof RECEIPT_FORMATS)[number];

/** Options of `receipt`: its flags plus the globals. */
export type ReceiptOptions = GlobalFlags & { orderId?: string; format?: string; paper?: string; output?: string };

/**
 * Format, paper and where to write, from the flags: `--json` is `--format json`; a PDF or PNG
 * goes to `receipt-<transactionId>.<ext>` unless `--output` names a file or `-` (stdout).
 * @throws UsageError (exit 2) on a bad or contradictory flag
 */
export function receiptOutput(opts: ReceiptOptions): { format: ReceiptFormat; paper: Paper; output?: string } {
  const f = opts.format?.trim().toLowerCase();
  if (f !== undefined && !(RECEIPT_FORMATS as readonly string[]).includes(f)) throw new UsageError(t('receipt.formatInvalid', opts.format!), { field: '--format' });
  if (opts.json && f !== undefined && f !== 'json') throw new UsageError(t('receipt.jsonAndFormat', f), { field: '--format' });
  const format = (opts.json ? 'json' : (f ?? 'pdf')) as ReceiptFormat;
  const p = (opts.paper ?? 'a4').trim().toLowerCase().replace(/\s+/g, '');
  if (!(PAPERS as readonly string[]).includes(p)) throw new UsageError(t('receipt.paperInvalid', opts.paper!), { field: '--paper' });
  if (format === 'json' && opts.paper !== undefined) throw new UsageError(t('receipt.paperWithJson'), { field: '--paper' });
  return { format, paper: p as Paper, ...(opts.output !== undefined ? { output: opts.output } : {}) };
}

/** The entry a key names: the latest created one (outcome `ok`) with that transaction id or order reference, else the latest. */
async function findEntry(ledger: LedgerContract | undefined, key: LookupKey, profile: string | undefined): Promise<LedgerEntry | undefined> {
  if (!ledger) return undefined;
  const q = 'orderId' in key ? { orderId: key.orderId } : { transactionId: String(key.transactionId) };
  const found = await ledger.query({ ...q, ...(profile ? { profile } : {}), limit: 20 });
  return found.find((e) => e.outcome === 'ok') ?? found[0];
}

/**
 * The gateway's answer about the entry's transaction, or undefined when it cannot be asked (the
 * built-in sandbox, `lookup` off, a gateway without lookups, or the profile now pointing
 * elsewhere: another gateway's transaction 77 is not this one).
 * @throws UsageError `no_receipt` when the gateway does not know the transaction; the errors of a lookup
 */
async function askGateway(e: LedgerEntry, opts: ReceiptOptions): Promise<TransactionLookup | undefined> {
  if (e.sandbox) return undefined;
  const flags = { ...opts, profile: e.profile, profileFromLedger: true };
  const now = endpointTarget(settingsFor(flags, e.kind, undefined, { quiet: true }).endpoint, e.kind === 'cashout' ? CASHOUT_PATH : CASHIN_PATH);
  if (endpointIdentity(now) !== e.endpoint) {
    logger.warn(t('receipt.otherGateway', e.target, e.profile));
    return undefined;
  }
  const settings = settingsFor(flags, 'lookup', e.kind, { quiet: true });
  const why = whyNoLookup(settings);
  if (why) {
    logger.notice(t('receipt.noLookup', why));
    return undefined;
  }
  const key: LookupKey =
    typeof e.transactionId === 'number' || /^[0-9]{1,15}$/.test(String(e.transactionId)) ? { transactionId: Number(e.transactionId) } : { orderId: e.orderId! };
  const interrupt = interruptSignal();
  try {
    const r = await findTransaction(settings, key, { signal: interrupt.signal });
    if (r.kind === 'not_found') throw new UsageError(t('receipt.noAtGateway', e.id, r.message), { field: 'transactionId' }, 'no_receipt');
    return r.kind === 'found' ? r.data : undefined;
  } finally {
    interrupt.dispose();
  }
}

/** The receipt of the payment a key names. @throws UsageError `no_receipt` (exit 2) saying why there is none */
export async function receiptFor(key: LookupKey, opts: ReceiptOptions): Promise<Receipt> {
  try {
    registerConfigSecrets(readConfigFile());
  } catch {
    /* an unreadable config has no secrets to hide */
  }
  const ledger = await openContractToRead(opts.profile);
  const e = await findEntry(ledger, key, opts.profile);
  if (!e)
    throw new UsageError(
      t('receipt.noEntry', 'orderId' in key ? t('lookup.orderKey', key.orderId) : t('lookup.transactionKey', String(key.transactionId))),
      { field: 'orderId' in key ? '--order-id' : 'transactionId', hint: t('receipt.noEntryHint') },
      'no_receipt',
    );
  const why = ledgerRefusal(e);
  if (why) throw new UsageError(why, { field: 'transactionId' }, 'no_receipt');
  const found = await askGateway(e, opts);
  // the gateway's latest word, kept: a cash-in seen paid enters the statements (history --format ofx)
  if (found && ledger && String(found.status) !== e.status) {
    try {
      await ledger.noteStatus(e.id, String(found.status));
    } catch (err) {
      logger.warn(t('receipt.statusNotKept', (err as Error).message));
    }
  }
  return buildReceipt(e, found, { gateway: e.sandbox ? 'sandbox' : new URL(e.target).host });
}

/** Runs `receipt`. @throws the typed errors of src/core/errors.ts */
export async function run(opts: ReceiptOptions, ctx: CommandContext): Promise<Output | StreamOutput> {
  const key = statusKey(ctx.args[0], opts.orderId);
  // --jq and --template shape the JSON receipt
  const shaped = ctx.output.mode === 'jq' || ctx.output.mode === 'template';
  const { format, paper, output: target } = receiptOutput(shaped ? { ...opts, json: true } : opts);
  if (target === '-' && format !== 'json' && ctx.isTTY.stdout) throw new UsageError(t('receipt.binaryToTerminal', format), { field: '--output' });
  const receipt = await receiptFor(key, opts);
  // the text of `--format json` is the document as `--json` prints it: every string cleaned (src/core/sanitize.ts)
  if (format === 'json') return output(receipt, () => JSON.stringify(sanitizeJson(receipt), null, ctx.isTTY.stdout ? 2 : undefined));
  const page = layoutReceipt(receipt, paper);
  const bytes = format === 'pdf' ? await (await import('../receipt/pdf.js')).renderPdf(page) : await (await import('../receipt/png.js')).renderPng(page);
  if (target === '-') return { docs: () => [], textOnly: true, text: () => [bytes] };
  const file = target ?? `receipt-${receipt.transactionId.replace(/[^0-9A-Za-z_-]/g, '_')}${paper === '80mm' ? '-80mm' : ''}.${format}`;
  writeFileSync(file, bytes);
  if (receipt.sandbox) logger.notice(t('receipt.sandboxNotice'));
  logger.notice(t('receipt.written', file, isPortuguese() ? 'pt-BR' : 'en'));
  return output({ file }, file);
}
