// Preloaded into a paycli under test (`node -r ./test/helpers/ledger-protocol.cjs bin/paycli.cjs ...`):
// the first write of a payment into the ledger fails with SQLITE_PROTOCOL, the error SQLite gives
// when another process (a paycli stopped with SIGSTOP) keeps a lock of the write-ahead log's index.
// Whatever SQLite driver paycli uses (src/core/sqlite/connect.ts), its statements' `run` is patched here and
// throws that driver's own error: `node:sqlite`'s (code ERR_SQLITE_ERROR, errcode 15) or
// better-sqlite3's (a SqliteError with code SQLITE_PROTOCOL), as in ledger-stop.cjs.
'use strict';
const Module = require('node:module');
const load = Module._load;
const patch = (Statement, sqlOf, error) => {
  if (!Statement || Statement.prototype.__protocolOnInsert) return;
  const run = Statement.prototype.run;
  Statement.prototype.run = function runOrFail(...args) {
    if (/^\s*INSERT INTO payments/i.test(sqlOf(this))) throw error();
    return run.apply(this, args);
  };
  Statement.prototype.__protocolOnInsert = true;
};
Module._load = function loadAndPatch(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (/better_sqlite3\.node$/.test(request)) {
    patch(exported.Statement, (s) => s.source, () => Object.assign(new Error('locking protocol'), { name: 'SqliteError', code: 'SQLITE_PROTOCOL' }));
  } else if (request === 'node:sqlite' || request === 'sqlite') {
    patch(exported.StatementSync, (s) => s.sourceSQL, () => Object.assign(new Error('locking protocol'), { code: 'ERR_SQLITE_ERROR', errcode: 15, errstr: 'locking protocol' }));
  }
  return exported;
};
