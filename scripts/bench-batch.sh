#!/usr/bin/env bash
# npm run bench, batch part (called by scripts/bench.sh; BENCH_BATCH=0 skips it; docs/speed.md).
# Against a standalone sandbox on 127.0.0.1, in one run:
# - 10,000 cash-outs with `paycli cashout --batch` at concurrency 8, against the floor: a minimal
#   node:http script POSTing the same 10,000 bodies at concurrency 8 over kept-alive connections
#   (scripts/bench-batch-floor.mjs). Target: within 1.15x.
# - the resume of that file once every row is done, against `node -e 0` and a node that reads
#   the file once. Target: within 1.5x of the latter.
# - peak RSS (max RSS, /usr/bin/time) of a 1,000-row and a 100,000-row run. Target: within 1.2x.
# Prints its own table of medians, ratios and targets (the node program at the end, not
# scripts/bench-report.mjs); asserts nothing. BENCH_BATCH_RUNS (default 3) runs of the 10,000;
# BENCH_BATCH_ROWS, BENCH_BATCH_SMALL, BENCH_BATCH_BIG shrink the files (the 10,000-row labels stay).
# The set-up (tools, sandbox, clean-up, max RSS, commit) is shared with scripts/bench.sh:
# scripts/bench-lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
bench_require_tools
RUNS=${BENCH_BATCH_RUNS:-3}
ROWS=${BENCH_BATCH_ROWS:-10000}  # rows of the send and resume file
SMALL=${BENCH_BATCH_SMALL:-1000}  # rows of the small peak-RSS file
BIG=${BENCH_BATCH_BIG:-100000}    # rows of the big peak-RSS file
work=$(mktemp -d)
bench_start "$work"

node scripts/bench-batch-gen.mjs "$ROWS" "$work/10k.csv" "$work/10k.jsonl"
node scripts/bench-batch-gen.mjs "$SMALL" "$work/1k.csv"
node scripts/bench-batch-gen.mjs "$BIG" "$work/big.csv"
send="node bin/paycli.cjs cashout --batch $work/10k.csv --yes --concurrency 8 --results $work/out.csv"

hyperfine --runs "$RUNS" --warmup 1 --style basic --export-json "$work/send.json" \
  --prepare "rm -rf $work/data $work/out.csv" \
  -n 'node:http floor, 10,000 cash-outs' "node scripts/bench-batch-floor.mjs $work/10k.jsonl 8" \
  -n 'paycli cashout --batch, 10,000 rows' "PAYCLI_DATA_DIR=$work/data $send 2>/dev/null" >&2

echo "require('node:fs').readFileSync(process.argv[1].replace(/read\\.cjs$/, '10k.csv'));" >"$work/read.cjs"
# The last run above left every row of the file done in $work/data: now only the resume.
hyperfine -N --runs 10 --warmup 2 --style basic --export-json "$work/resume.json" \
  -n 'node -e 0' 'node -e 0' \
  -n 'node reads the file once' "node $work/read.cjs" >&2
# -i: until every row is found done in the ledger, a resume run may end with exit 6 (rows refused as duplicates).
hyperfine -i --runs 10 --warmup 1 --style basic --export-json "$work/resume-paycli.json" \
  --prepare "rm -f $work/out.csv" \
  -n 'paycli resume, 10,000 rows all done' "PAYCLI_DATA_DIR=$work/data $send 2>/dev/null" >&2

rss() { # max RSS in KiB of one run with a fresh ledger
  rm -rf "$work/rss-data" "$work/rss.csv"
  PAYCLI_DATA_DIR="$work/rss-data" bench_rss 1 node bin/paycli.cjs cashout --batch "$1" --yes --concurrency 8 --results "$work/rss.csv"
}
rss_small=$(rss "$work/1k.csv")
rss_big=$(rss "$work/big.csv")

node - "$work" "$rss_small" "$rss_big" "$BIG" "$(bench_commit)" <<'JS'
const [work, small, big, rows, commit] = process.argv.slice(2);
const fs = require('node:fs');
const med = (f, i = 0) => JSON.parse(fs.readFileSync(`${work}/${f}`, 'utf8')).results[i].median;
const floor = med('send.json', 0), send = med('send.json', 1);
const node0 = med('resume.json', 0), read = med('resume.json', 1), resume = med('resume-paycli.json');
const s = (x) => `${x.toFixed(3)} s`;
console.log(`\nBatch runs (commit ${commit}, medians)\n`);
console.log('| measure | value | ratio | target |');
console.log('|---|---:|---:|---:|');
console.log(`| node:http floor, 10,000 cash-outs, concurrency 8 | ${s(floor)} | 1.00 | |`);
console.log(`| paycli cashout --batch, 10,000 rows, concurrency 8 | ${s(send)} | ${(send / floor).toFixed(2)} | ≤ 1.15 |`);
console.log(`| node -e 0 | ${s(node0)} | | |`);
console.log(`| node reads the 10,000-row file once | ${s(read)} | 1.00 | |`);
console.log(`| paycli resume, 10,000 rows all done | ${s(resume)} | ${(resume / read).toFixed(2)} | ≤ 1.5 |`);
console.log(`| peak RSS, 1,000 rows | ${(small / 1024).toFixed(1)} MiB | 1.00 | |`);
console.log(`| peak RSS, ${Number(rows).toLocaleString('en')} rows | ${(big / 1024).toFixed(1)} MiB | ${(big / small).toFixed(2)} | ≤ 1.2 |`);
JS
