// Preloaded into a paycli under test (`node -r ./test/helpers/ledger-stop.cjs bin/paycli.cjs ...`):
// right after paycli writes a payment into its ledger, inside the still open BEGIN IMMEDIATE
// transaction, the process stops itself with SIGSTOP, as a paused CI VM or `kill -STOP` would
// stop it while it holds the ledger's write lock. The test resumes it with SIGCONT.
'use strict';
const Module = require('node:module');
const load = Module._load;
Module._load = function loadAndPatch(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (request === 'better-sqlite3' && !exported.__stopsAfterInsert) {
    const prepare = exported.prototype.prepare;
    exported.prototype.prepare = function prepareAndPatch(sql) {
      const statement = prepare.call(this, sql);
      if (/^\s*INSERT INTO payments/i.test(sql)) {
        const run = statement.run;
        statement.run = function runThenStop(...args) {
          const result = run.apply(this, args);
          process.kill(process.pid, 'SIGSTOP');
          return result;
        };
      }
      return statement;
    };
    exported.__stopsAfterInsert = true;
  }
  return exported;
};
