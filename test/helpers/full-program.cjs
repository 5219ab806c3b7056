// Runs the built paycli with every command line through the command tree, the direct route's
// lines (`history`, a batch run) too (src/cli/boot.ts `main` with `direct: false`), to compare the two paths
// (test/e2e/history-direct.test.ts, test/e2e/batch-direct.test.ts). Started as `node full-program.cjs <bin/paycli.cjs> <args...>`
// (test/helpers/cli.ts `runPaycli` with this file in `nodeArgs`): the launcher's path stands where
// the program's name does.
'use strict';
require('../../dist/boot.cjs').main([process.argv[0], ...process.argv.slice(2)], { direct: false });
