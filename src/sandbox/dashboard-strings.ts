/**
 * The texts the dashboard's page module (dashboard/app.js) shows, in the run's language, from the
 * catalogs (src/core/i18n/): the page carries them as a JSON data block, so the module holds no text
 * of its own. Placeholders `{name}` are filled in by the module.
 */
import { t, type Key } from '../core/i18n/index.js';

/** The catalog keys (plain texts) the page module reads, without their `dashboard.` prefix. */
const KEYS = [
  'balance.balance',
  'balance.retention',
  'balance.finalBalance',
  'any',
  'kind.cashin',
  'kind.cashout',
  'status.created',
  'status.paid',
  'status.failed',
  'status.canceled',
  'status.refund',
  'status.infraction',
  'col.id',
  'col.kind',
  'col.amount',
  'col.state',
  'col.created',
  'col.order',
  'prev',
  'next',
  'pageInfo',
  'empty',
  'detail',
  'close',
  'processed',
  'observation',
  'endToEnd',
  'qrAlt',
  'brCode',
  'copy',
  'copied',
  'actions',
  'action.pay',
  'action.fail',
  'action.cancel',
  'action.refund',
  'action.infraction',
  'noActions',
  'postbacks',
  'noPostbacks',
  'postback.state.pending',
  'postback.state.delivered',
  'postback.state.failed',
  'postback.summary',
  'attempt.time',
  'attempt.status',
  'attempt.answer',
  'resend',
  'live.on',
  'live.off',
  'failed',
] as const;

type PlainKey = (typeof KEYS)[number] extends infer K ? (K extends string ? `dashboard.${K}` & Key : never) : never;

/** `{ "balance.balance": "Balance", … }` in the run's language. */
export function dashboardStrings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of KEYS) out[k] = t(`dashboard.${k}` as PlainKey);
  return out;
}
