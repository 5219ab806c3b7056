#!/usr/bin/env node
// paycli's launcher. `--version` is answered here without loading anything else; everything
// else runs the bundled CLI (dist/boot.cjs, built by `npm run build`), which turns on the code
// cache of src/compile-cache.ts and then loads the rest. CommonJS on purpose: Node 20's ESM
// loader costs a measurable part of paycli's start-up (README, "Speed").
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('../dist/boot.cjs').main();
}
