// Prints the table of scripts/bench.sh: medians (of every sample of every round), ratios to
// `node -e 0` and to the minimal undici script, each row's target, and peak memory.
// Usage: bench-report.mjs <folder of times-local-N.json, times-sandbox-N.json and rss.tsv> commit [load]
// With BENCH_FIGURES=<file> (scripts/bench.sh), it also appends two of the start-up targets'
// figures there (`name<TAB>ratio<TAB>target`): the local cash-out against the minimal node:http
// cash-out, and history against `node -e 0` (both started through env).
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, commit, load = 'unknown'] = process.argv.slice(2);
const samples = new Map();
for (const f of readdirSync(dir).filter((n) => /^times-(local|sandbox)-\d+\.json$/.test(n))) {
  for (const r of JSON.parse(readFileSync(join(dir, f), 'utf8')).results) samples.set(r.command, [...(samples.get(r.command) ?? []), ...r.times]);
}
const mid = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const results = [...samples].map(([command, times]) => ({ command, median: mid(times) * 1000, n: times.length }));
const median = (name) => results.find((r) => r.command === name)?.median ?? NaN;
const rss = new Map(
  readFileSync(join(dir, 'rss.tsv'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'))
    .map(([name, kib]) => [name, Number(kib)]),
);

const floor = median('node -e 0');
// history runs through env (its ledger's folder): its target is against `node -e 0` started the same way
const envFloor = median('node -e 0, via env');
const min = median('minimal undici script');
const EMPTY = 'paycli cashout --json, empty ledger';
const BIG = 'paycli cashout --json, 1,000,000 payments';
// Each target: its words, and whether the row meets it (m = the row's median in ms).
const targets = {
  'paycli --version': ['≤ 1.3× node', (m) => m / floor <= 1.3],
  'paycli --help': ['≤ 1.3× node', (m) => m / floor <= 1.3],
  'paycli cashin --json': ['≤ 2.0× node and ≤ 1.3× minimal', (m) => m / floor <= 2 && m / min <= 1.3],
  [EMPTY]: ['≤ 1.4× minimal node:http cash-out', (m) => m / median('minimal node:http cash-out') <= 1.4],
  [BIG]: ['≤ 1.15× empty ledger', (m) => m / median(EMPTY) <= 1.15],
  'paycli history --limit 20, 1,000,000 payments': [
    `≤ 1.3× node -e 0 via env (${(median('paycli history --limit 20, 1,000,000 payments') / envFloor).toFixed(2)})`,
    (m) => m / envFloor <= 1.3,
  ],
  // Portuguese costs its catalog chunk only (docs/portugues.md): within 5% of the same run in English.
  'paycli --help, Portuguese': ['≤ 1.05× --help in English', (m) => m / median('paycli --help, English (via env)') <= 1.05],
  [`${EMPTY}, Portuguese`]: ['≤ 1.05× the same in English', (m) => m / median(EMPTY) <= 1.05],
};
const verdict = (ok) => (ok ? 'met' : 'MISSED');
console.log(`commit ${commit}, ${new Date().toISOString()}, node ${process.version}, load ${load}`);
console.log('| command | runs | median ms | × node -e 0 | × minimal script | target |');
console.log('|---|---:|---:|---:|---:|---|');
for (const r of results) {
  const t = targets[r.command];
  console.log(
    `| ${r.command} | ${r.n} | ${r.median.toFixed(1)} | ${(r.median / floor).toFixed(2)} | ${(r.median / min).toFixed(2)} | ${t ? `${t[0]}: ${verdict(t[1](r.median))}` : ''} |`,
  );
}
const HISTORY = 'paycli history --limit 20, 1,000,000 payments';
if (process.env.BENCH_FIGURES) {
  appendFileSync(
    process.env.BENCH_FIGURES,
    `local-ledger cash-out ÷ minimal node:http cash-out\t${median(EMPTY) / median('minimal node:http cash-out')}\t1.4\n` +
      `history --limit 20, 1,000,000 payments ÷ node -e 0 (both through env)\t${median(HISTORY) / envFloor}\t1.3\n`,
  );
}
const mib = (name) => `${(rss.get(name) / 1024).toFixed(1)} MiB`;
const ratio = (a, b) => rss.get(a) / rss.get(b);
console.log('\npeak memory (median max RSS of 15 runs):');
console.log('| command | max RSS | target |');
console.log('|---|---:|---|');
const rssTargets = {
  'paycli cashin --json': ['≤ 1.5× minimal undici script', () => ratio('paycli cashin --json', 'minimal undici script') <= 1.5],
  [BIG]: ['≤ 1.15× empty ledger', () => ratio(BIG, EMPTY) <= 1.15],
};
for (const name of rss.keys()) {
  const t = rssTargets[name];
  console.log(`| ${name} | ${mib(name)} | ${t ? `${t[0]} (${(name === BIG ? ratio(BIG, EMPTY) : ratio(name, 'minimal undici script')).toFixed(2)}): ${verdict(t[1]())}` : ''} |`);
}
