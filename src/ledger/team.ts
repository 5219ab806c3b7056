/**
 * Which team ledger a profile names (docs/ledger-and-safety.md, "Team ledger"), and the start of
 * its opening ahead of time. Apart from src/ledger/store.ts so that a payment can start connecting
 * (src/payment/pipeline.ts `runPayment`) without loading the ledgers' code first. Nothing of the
 * driver's side (src/ledger/pg/) loads with this file: a local ledger's commands (`history`) never
 * load it (docs/speed.md, "History's start-up").
 */
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { shownUrlInput } from '../core/secrets.js';
import { keptSecret } from '../config/settings.js';
import { ledgerUrlSetting } from '../config/config-file.js';
import type { PgOpening } from './pg/opening.js';
import { closeAtEnd } from '../core/at-end.js';

/** A team ledger's address and the password from the config (the URL's own, PGPASSWORD or ~/.pgpass otherwise). */
export interface TeamLedger {
  /** `postgres://user@host:port/database?...` (may hold a password: a secret). */
  url: string;
  /** Config key `ledger-password` (from the keychain when kept there). */
  password?: string;
}

/**
 * The team ledger of a profile: `PAYCLI_LEDGER_URL`, else the profile's `ledger-url`
 * (src/config/config-file.ts `ledgerUrlSetting`), checked, with its password; undefined for the local ledger.
 * @param profile the profile in use (default: `PAYCLI_PROFILE`, else `default`)
 * @throws UsageError (exit 2) when the URL is not a `postgres://` or `postgresql://` URL
 */
export function teamLedger(profile?: string, env: NodeJS.ProcessEnv = process.env): TeamLedger | undefined {
  const named = ledgerUrlSetting(profile, env);
  if (!named) return undefined;
  const { url, name, config } = named;
  if (!/^postgres(ql)?:\/\//i.test(url) || !URL.canParse(url)) {
    throw new UsageError(t('team.urlInvalid', env.PAYCLI_LEDGER_URL ? 'PAYCLI_LEDGER_URL' : t('settings.configKey', 'ledger-url', name), shownUrlInput(url)), {
      field: 'ledger-url',
    });
  }
  const password = keptSecret(config, name, 'ledger-password');
  return { url, ...(password ? { password } : {}) };
}

/** The team ledger {@link prepareLedger} started opening, not taken yet. */
let preparing: Promise<PgOpening> | undefined;

/**
 * Starts opening the team ledger of `profile`, when one is configured, without waiting: the driver
 * loads and connects while the caller goes on (a payment validates its flags, asks its questions
 * meanwhile); src/ledger/store.ts `openTeamLedger` takes it over, and closes it at the end of the
 * command. Nothing is sent or recorded here, and nothing thrown: any problem shows when the ledger is opened.
 */
export function prepareLedger(profile?: string): void {
  if (preparing) return;
  try {
    const team = teamLedger(profile);
    if (!team) return;
    preparing = import('./pg/opening.js').then(({ startOpening }) => startOpening(team.url, { ...(team.password ? { password: team.password } : {}), beforeSend: true }));
    // Not taken by the end of the command (it failed before its guard): let go, never waited for.
    closeAtEnd(async () => {
      await (await takePrepared())?.connection.close();
    });
  } catch {
    /* said by openLedger */
  }
}

/**
 * {@link prepareLedger} at the very start of a command that pays, before its implementation loads
 * (src/cli/commands/cashout.ts): resolves once connecting has begun (the driver loaded, the socket
 * opening), so that the database server accepts the connection and starts its session while the
 * rest of the command loads (docs/speed.md, "Start-up targets"). At once, and without a turn of
 * the event loop, when the profile has no team ledger. Never throws.
 */
export async function prepareLedgerEarly(profile?: string): Promise<void> {
  prepareLedger(profile);
  if (!preparing) return;
  await preparing.catch(() => undefined);
  // One turn of the event loop: the driver loads (queued above) and the socket's connect is issued.
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * One turn of the event loop while a team ledger {@link prepareLedger} started is still being
 * opened; undefined (nothing to wait for) otherwise. A command loads and validates without
 * giving the event loop a turn, so the database's answer to connecting would wait until the
 * command needs the ledger: a turn here lets the driver read it and send the schema check
 * (src/ledger/pg/connection.ts `connect`), which the database then runs while the command goes
 * on (docs/speed.md, "Team ledger").
 */
export function ledgerTurn(): Promise<void> | undefined {
  return preparing ? new Promise<void>((resolve) => setImmediate(resolve)) : undefined;
}

/** The team ledger {@link prepareLedger} started, if any, handed over once (src/ledger/store.ts `openTeamLedger`). */
export function takePrepared(): Promise<PgOpening> | undefined {
  const p = preparing;
  preparing = undefined;
  return p;
}
