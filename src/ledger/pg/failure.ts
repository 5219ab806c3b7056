/**
 * How the team ledger's failures read (docs/ledger-and-safety.md, "Team ledger"): where it is, without
 * the password, and what each driver error means for the user, as a LedgerUnavailableError (exit 2).
 */
import { redactUrls } from '../../core/secrets.js';
import { t } from '../../core/i18n/index.js';
import { LedgerUnavailableError } from '../errors.js';
import { PgCallError } from './connection.js';

/** Where a team ledger is, for messages: `host:port/database` (never user-info). */
export function ledgerWhere(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || new URLSearchParams(u.search).get('host') || 'localhost';
    return `${host}:${u.port || '5432'}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
  } catch {
    return redactUrls(url);
  }
}

/** Why a team ledger failed, in words, with what to do (a {@link LedgerUnavailableError}, exit 2). */
export function pgFailure(err: unknown, where: string, note: string): unknown {
  if (!(err instanceof PgCallError)) return err;
  const code = err.code;
  // The driver's text and a code; the words are said here.
  const msg = code === 'CONNECTION_LOST' && !err.message ? t('team.serverClosed') : redactUrls(err.message);
  if (code === 'NO_ANSWER') return new LedgerUnavailableError(t('team.noAnswer', where, msg, note), { hint: t('team.unreachableHint') });
  if (code === '28P01' || code === '28000') return new LedgerUnavailableError(t('team.authRefused', where, msg, note), { hint: t('team.authRefusedHint') });
  if (code === 'NO_PASSWORD') return new LedgerUnavailableError(t('team.noPassword', where, note), { hint: t('team.noPasswordHint') });
  if (code === '3D000') return new LedgerUnavailableError(t('team.cannotUse', where, msg, note), { hint: t('team.cannotUseHint') });
  if (code === '42P01' || code === '3F000') return new LedgerUnavailableError(t('team.noSchema', where, note), { hint: t('team.noSchemaHint') });
  if (
    code === 'CONNECTION_LOST' ||
    /Connection terminated|terminating connection|Client has encountered a connection error|not queryable/i.test(err.message) ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03'
  ) {
    return new LedgerUnavailableError(t('team.lost', where, msg, note), { hint: t('team.lostHint') });
  }
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'ETIMEDOUT' ||
    code === 'EHOSTUNREACH' ||
    code === 'ECONNRESET' ||
    /timeout/i.test(err.message)
  ) {
    return new LedgerUnavailableError(t('team.unreachable', where, code ?? msg, note), { hint: t('team.unreachableHint') });
  }
  return new LedgerUnavailableError(t('team.failed', where, `${msg}${code ? ` (${code})` : ''}`, note), { hint: t('team.failedHint') });
}
