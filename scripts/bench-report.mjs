// Prints the table of scripts/bench.sh: medians, ratios to `node -e 0` and to the minimal
// undici script, targets of issue #7, and peak memory. Usage: bench-report.mjs times.json minRssKiB paycliRssKiB commit
import { readFileSync } from 'node:fs';

const [file, minRss, paycliRss, commit] = process.argv.slice(2);
const { results } = JSON.parse(readFileSync(file, 'utf8'));
const median = (name) => results.find((r) => r.command === name).median * 1000;
const floor = median('node -e 0');
const min = median('minimal undici script');
const targets = {
  'paycli --version': ['≤ 1.3× node', (m) => m / floor <= 1.3],
  'paycli --help': ['≤ 1.3× node', (m) => m / floor <= 1.3],
  'paycli cashin --json': ['≤ 2.0× node and ≤ 1.3× minimal', (m) => m / floor <= 2 && m / min <= 1.3],
};
console.log(`commit ${commit}, ${new Date().toISOString()}, node ${process.version}`);
console.log('| command | median ms | × node -e 0 | × minimal script | target |');
console.log('|---|---:|---:|---:|---|');
for (const r of results) {
  const m = r.median * 1000;
  const t = targets[r.command];
  const verdict = t ? `${t[0]}: ${t[1](m) ? 'met' : 'MISSED'}` : '';
  console.log(`| ${r.command} | ${m.toFixed(1)} | ${(m / floor).toFixed(2)} | ${(m / min).toFixed(2)} | ${verdict} |`);
}
const ratio = Number(paycliRss) / Number(minRss);
console.log(`\npeak memory (median max RSS): paycli cashin ${(paycliRss / 1024).toFixed(1)} MiB, minimal script ${(minRss / 1024).toFixed(1)} MiB, ratio ${ratio.toFixed(2)} (target ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'MISSED'})`);
