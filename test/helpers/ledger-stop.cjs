// Preloaded into a paycli under test (`node -r ./test/helpers/ledger-stop.cjs bin/paycli.cjs ...`):
// right after paycli writes a payment into its ledger, inside the still open BEGIN IMMEDIATE
// transaction, the process stops itself with SIGSTOP, as a paused CI VM or `kill -STOP` would
// stop it while it holds the ledger's write lock. The test resumes it with SIGCONT.
// better-sqlite3's JavaScript is bundled into paycli; its compiled addon (better_sqlite3.node) is
// required by path, and its statements' `run` is patched here.
'use strict';
const Module = require('node:module');
const load = Module._load;
Module._load = function loadAndPatch(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (/better_sqlite3\.node$/.test(request) && !exported.__stopsAfterInsert) {
    const run = exported.Statement.prototype.run;
    exported.Statement.prototype.run = function runThenStop(...args) {
      const result = run.apply(this, args);
      if (/^\s*INSERT INTO payments/i.test(this.source)) process.kill(process.pid, 'SIGSTOP');
      return result;
    };
    exported.__stopsAfterInsert = true;
  }
  return exported;
};
