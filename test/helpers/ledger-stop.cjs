// Preloaded into a paycli under test (`node -r ./test/helpers/ledger-stop.cjs bin/paycli.cjs ...`):
// right after paycli writes a payment into its ledger, inside the still open BEGIN IMMEDIATE
// transaction, the process stops itself with SIGSTOP, as a paused CI VM or `kill -STOP` would
// stop it while it holds the ledger's write lock. The test resumes it with SIGCONT.
// Whatever SQLite driver paycli uses (src/core/sqlite/connect.ts), its statements' `run` is patched here:
// `node:sqlite`'s StatementSync (SQL in `sourceSQL`), or better-sqlite3's compiled addon
// (better_sqlite3.node, required by path; SQL in `source`).
'use strict';
const Module = require('node:module');
const load = Module._load;
const patch = (Statement, sqlOf) => {
  if (!Statement || Statement.prototype.__stopsAfterInsert) return;
  const run = Statement.prototype.run;
  Statement.prototype.run = function runThenStop(...args) {
    const result = run.apply(this, args);
    if (/^\s*INSERT INTO payments/i.test(sqlOf(this))) process.kill(process.pid, 'SIGSTOP');
    return result;
  };
  Statement.prototype.__stopsAfterInsert = true;
};
Module._load = function loadAndPatch(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (/better_sqlite3\.node$/.test(request)) patch(exported.Statement, (s) => s.source);
  else if (request === 'node:sqlite' || request === 'sqlite') patch(exported.StatementSync, (s) => s.sourceSQL);
  return exported;
};
