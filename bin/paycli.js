#!/usr/bin/env node
// paycli's launcher. `--version` is answered here without loading anything else;
// everything else runs the bundled CLI (dist/cli.js, built by `npm run build`).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const { main } = await import('../dist/cli.js');
  await main();
}
