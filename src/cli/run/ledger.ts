/**
 * `paycli ledger migrate` (the team ledger's schema, src/ledger/pg/schema.ts) and `paycli ledger push`
 * (the local ledger's entries copied into the team ledger, by uuid: pushing twice adds nothing);
 * docs/ledger-and-safety.md, "Team ledger".
 */
import { UsageError } from '../../core/errors.js';
import { logger } from '../../core/logger.js';
import { output, type Output } from '../../core/output.js';
import { t } from '../../core/i18n/index.js';
import type { GlobalFlags } from '../../config/settings.js';
import type { RunContext } from '../../core/terminal.js';
import { Ledger, ledgerPath } from '../../ledger/ledger.js';
import { asContract } from '../../ledger/async-store.js';
import { PgLedger } from '../../ledger/pg/ledger.js';
import { PG_MIGRATIONS } from '../../ledger/pg/schema.js';
import { teamLedger, type TeamLedger } from '../../ledger/store.js';

function configured(opts: GlobalFlags): TeamLedger {
  const team = teamLedger(opts.profile);
  if (!team) throw new UsageError(t('team.notConfigured'), { field: 'ledger-url' });
  return team;
}

/** Runs `ledger migrate` or `ledger push`. @throws LedgerUnavailableError (exit 2) */
export async function run(opts: GlobalFlags, { command }: RunContext): Promise<Output> {
  const team = configured(opts);
  const pw = team.password ? { password: team.password } : {};
  if (command?.name() === 'migrate') {
    const pg = await PgLedger.open(team.url, { ...pw, migrating: true });
    try {
      const { from, to } = await pg.migrate(PG_MIGRATIONS);
      const said = from === to ? t('team.migrateNothing', pg.file, to) : t('team.migrated', pg.file, to, from);
      return output({ from, to }, '', { after: () => logger.notice(said) });
    } finally {
      await pg.close();
    }
  }
  const opened = Ledger.open({ create: false });
  if (!opened) {
    return output({ entries: 0, added: 0 }, '', { after: () => logger.notice(t('team.pushNoLocal', ledgerPath())) });
  }
  const local = asContract(opened);
  // An entry still being sent by a local run would be pushed without its outcome: push once it ended.
  for (const e of await local.listUnknown()) {
    if (e.completed) continue;
    const { owner } = await local.inFlight(e);
    if (owner === 'alive' || owner === 'unknown') throw new UsageError(t('team.pushRunGoing', e.id), { hint: t('team.pushRunGoingHint') });
  }
  let pg: PgLedger;
  try {
    pg = await PgLedger.open(team.url, pw);
  } catch (err) {
    await local.close();
    throw err;
  }
  try {
    const runs = new Map(opened.runs().map((r) => [r.id, r]));
    let total = 0;
    const entries = (function* () {
      for (const e of opened.iterate({ limit: -1 })) {
        total++;
        yield e;
      }
    })();
    // A push that fails part-way leaves the local read open: ended here, so the local ledger closes and the push's own error is the one reported.
    const added = await pg.push(entries, (id) => runs.get(id)).finally(() => entries.return(undefined));
    const said = t('team.pushed', added, total, pg.file, total - added);
    return output({ entries: total, added }, '', { after: () => logger.notice(said) });
  } finally {
    await pg.close();
    await local.close();
  }
}
