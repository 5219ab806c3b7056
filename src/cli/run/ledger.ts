/**
 * `paycli ledger migrate` (the team ledger's schema, src/ledger/pg/schema.ts) and `paycli ledger push`
 * (the local ledger's entries copied into the team ledger, by uuid: pushing twice adds nothing);
 * docs/ledger-and-safety.md, "Team ledger".
 */
import { UsageError } from '../../core/errors.js';
import { logger, printResult } from '../../core/logger.js';
import type { GlobalFlags } from '../../config/settings.js';
import type { RunContext } from '../../core/terminal.js';
import { Ledger, ledgerPath } from '../../ledger/ledger.js';
import { PgLedger } from '../../ledger/pg/ledger.js';
import { PG_MIGRATIONS } from '../../ledger/pg/schema.js';
import { teamLedger, type TeamLedger } from '../../ledger/store.js';

function configured(opts: GlobalFlags): TeamLedger {
  const team = teamLedger(opts.profile);
  if (!team) throw new UsageError('no team ledger is configured: set ledger-url (paycli config set ledger-url postgres://db.internal:5432/payments) or PAYCLI_LEDGER_URL; nothing was done', { field: 'ledger-url' });
  return team;
}

/** Runs `ledger migrate` or `ledger push`. @throws LedgerUnavailableError (exit 2) */
export async function run(opts: GlobalFlags, { command }: RunContext): Promise<void> {
  const team = configured(opts);
  const pw = team.password ? { password: team.password } : {};
  if (command?.name() === 'migrate') {
    const pg = PgLedger.open(team.url, { ...pw, migrating: true });
    try {
      const { from, to } = pg.migrate(PG_MIGRATIONS);
      if (opts.json) return printResult({ json: { from, to } });
      logger.notice(from === to ? `the team ledger at ${pg.file} is at schema ${to} already: nothing to do` : `the team ledger at ${pg.file} is now at schema ${to} (was ${from})`);
      return;
    } finally {
      pg.close();
    }
  }
  const local = Ledger.open({ create: false });
  if (!local) {
    if (opts.json) return printResult({ json: { entries: 0, added: 0 } });
    return logger.notice(`nothing to push: there is no local ledger (${ledgerPath()})`);
  }
  // An entry still being sent by a local run would be pushed without its outcome: push once it ended.
  for (const e of local.listUnknown()) {
    if (e.completed) continue;
    const { owner } = local.inFlight(e);
    if (owner === 'alive' || owner === 'unknown') throw new UsageError(`local ledger entry ${e.id} belongs to a paycli run that is still going; nothing was pushed`, { hint: 'let it end, then push again' });
  }
  const pg = PgLedger.open(team.url, pw);
  try {
    const runs = new Map(local.runs().map((r) => [r.id, r]));
    let total = 0;
    const added = pg.push(
      (function* () {
        for (const e of local.iterate({ limit: -1 })) {
          total++;
          yield e;
        }
      })(),
      (id) => runs.get(id),
    );
    if (opts.json) return printResult({ json: { entries: total, added } });
    logger.notice(`${added} of ${total} local entries added to the team ledger at ${pg.file}${added < total ? ` (${total - added} it held already)` : ''}`);
  } finally {
    pg.close();
    local.close();
  }
}
