#!/usr/bin/env node
// paycli's launcher. `--version` is answered here without loading anything else; everything
// else runs the bundled CLI (dist/boot.cjs, built by `npm run build`), which turns on the code
// cache of src/compile-cache.ts and then loads the rest. CommonJS on purpose: Node 20's ESM
// loader costs a measurable part of paycli's start-up (docs/speed.md).
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  let boot;
  try {
    boot = require('../dist/boot.cjs');
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes('dist/boot.cjs')) throw err;
    // A checkout that was never built (e.g. linked by `npm install -g <checkout>` with its scripts blocked).
    const root = require('node:path').resolve(__dirname, '..');
    process.stderr.write(`error: paycli is not built (no ${root}/dist): run \`npm ci && npm run build\` in ${root}\n`);
    process.exit(2); // a usage problem of the installation, not a bug: nothing ran
  }
  boot.main();
}
