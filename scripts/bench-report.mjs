// Prints the table of scripts/bench.sh: medians (of every sample of every round), ratios to
// `node -e 0` and to the minimal undici script, targets of README "Speed", and peak memory.
// Usage: bench-report.mjs <folder of times-N.json> minRssKiB paycliRssKiB commit
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, minRss, paycliRss, commit] = process.argv.slice(2);
const samples = new Map();
for (const f of readdirSync(dir).filter((n) => /^times-\d+\.json$/.test(n))) {
  for (const r of JSON.parse(readFileSync(join(dir, f), 'utf8')).results) samples.set(r.command, [...(samples.get(r.command) ?? []), ...r.times]);
}
const mid = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const results = [...samples].map(([command, times]) => ({ command, median: mid(times), n: times.length }));
const median = (name) => results.find((r) => r.command === name).median * 1000;
const floor = median('node -e 0');
const min = median('minimal undici script');
const targets = {
  'paycli --version': ['≤ 1.3× node', (m) => m / floor <= 1.3],
  'paycli --help': ['≤ 1.3× node', (m) => m / floor <= 1.3],
  'paycli cashin --json': ['≤ 2.0× node and ≤ 1.3× minimal', (m) => m / floor <= 2 && m / min <= 1.3],
};
console.log(`commit ${commit}, ${new Date().toISOString()}, node ${process.version}`);
console.log('| command | runs | median ms | × node -e 0 | × minimal script | target |');
console.log('|---|---:|---:|---:|---:|---|');
for (const r of results) {
  const m = r.median * 1000;
  const t = targets[r.command];
  const verdict = t ? `${t[0]}: ${t[1](m) ? 'met' : 'MISSED'}` : '';
  console.log(`| ${r.command} | ${r.n} | ${m.toFixed(1)} | ${(m / floor).toFixed(2)} | ${(m / min).toFixed(2)} | ${verdict} |`);
}
const ratio = Number(paycliRss) / Number(minRss);
console.log(`\npeak memory (median max RSS): paycli cashin ${(paycliRss / 1024).toFixed(1)} MiB, minimal script ${(minRss / 1024).toFixed(1)} MiB, ratio ${ratio.toFixed(2)} (target ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'MISSED'})`);
