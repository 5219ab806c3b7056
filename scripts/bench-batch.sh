#!/usr/bin/env bash
# npm run bench, batch part (called by scripts/bench.sh; BENCH_BATCH=0 skips it; docs/speed.md).
# Every figure is a ratio to a baseline measured in the same round, the two runs one right after the
# other, rounds repeated (BENCH_BATCH_RUNS, default 3) and the median ratio reported: a load that
# comes and goes on the machine moves both sides of a ratio alike.
# - Send: 10,000 cash-outs (BENCH_BATCH_ROWS) at concurrency 8 against scripts/bench-slow-gateway.mjs
#   (every POST answered after 50 ms), against a node:http script POSTing the same bodies at
#   concurrency 8 over kept-alive connections (scripts/bench-batch-floor.cjs). Targets: wall within
#   1.10x the physical floor (rows / 8 x 50 ms), CPU (user + system) within 1.5x the script's.
# - Disk written per row by that send (GNU time's file system outputs, 512-byte blocks: the ledger,
#   its write-ahead log and checkpoints, the results file, the spool). Target: 4 KiB on average.
# - The re-run of that file once every row is done, against a node that reads and hashes the file
#   once, both timed by scripts/bench-interleave.mjs (run by run, in turn) after the send's rounds (BENCH_BATCH_RERUN_ROUNDS rounds, default 4, of
#   BENCH_BATCH_RERUN_RUNS runs a command, default 10; every sample pooled, medians compared: a run of
#   about 0.1 s needs more than GNU time's 10 ms and one run a round). Target: within 1.5x.
# - Peak RSS (max RSS) of a 1,000-row run (the median of BENCH_BATCH_SMALL_RUNS) and a 100,000-row run (BENCH_BATCH_SMALL, BENCH_BATCH_BIG)
#   against the 0 ms gateway (the standalone sandbox) and the 50 ms one (BENCH_BATCH_BIG_SLOW=0
#   skips the 100,000 rows at 50 ms: 625 s at least). Target: within 1.2x.
# Prints its own table; asserts nothing. The set-up (tools, sandbox, clean-up, max RSS, commit) is
# shared with scripts/bench.sh: scripts/bench-lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
bench_require_tools
RUNS=${BENCH_BATCH_RUNS:-3}
RERUN_ROUNDS=${BENCH_BATCH_RERUN_ROUNDS:-4}
RERUN_RUNS=${BENCH_BATCH_RERUN_RUNS:-10}
ROWS=${BENCH_BATCH_ROWS:-10000}  # rows of the send and resume file
SMALL=${BENCH_BATCH_SMALL:-1000}  # rows of the small peak-RSS file
SMALL_RUNS=${BENCH_BATCH_SMALL_RUNS:-5}  # runs of the small file a gateway (the median max RSS)
BIG=${BENCH_BATCH_BIG:-100000}    # rows of the big peak-RSS file
work=$(mktemp -d)
bench_start "$work"
sandbox_url=$BENCH_URL
node scripts/bench-slow-gateway.mjs 50 >"$work/slow.url" &
slow_pid=$!
trap 'kill $slow_pid 2>/dev/null || true; bench_cleanup' EXIT
for _ in $(seq 50); do [ -s "$work/slow.url" ] && break; sleep 0.1; done
slow_url=$(cat "$work/slow.url")

node scripts/bench-batch-gen.mjs "$ROWS" "$work/send.csv" "$work/send.jsonl"
node scripts/bench-batch-gen.mjs "$SMALL" "$work/small.csv"
node scripts/bench-batch-gen.mjs "$BIG" "$work/big.csv"
echo "const h = require('node:crypto').createHash('sha256'); h.update(require('node:fs').readFileSync(process.argv[2])); h.digest('hex');" >"$work/read.cjs"

# measure <name> <command...>: one run, appended to $work/runs.tsv as name, wall s, cpu s, 512-byte blocks written, max RSS KiB.
measure() {
  local name=$1
  shift
  /usr/bin/time -q -f "$name	%e	%U	%S	%O	%M" -a -o "$work/runs.tsv" "$@" >/dev/null 2>"$work/last.err" || {
    echo "bench: $name failed:" >&2
    tail -5 "$work/last.err" >&2
    exit 2
  }
}
# send.sh <csv> <gateway url> <data dir>: a batch run with a fresh ledger.
cat >"$work/send.sh" <<SH
rm -rf "\$3" "$work/out.csv"
PAYCLI_DATA_DIR="\$3" PAYCLI_BASE_URL="\$2" exec node bin/paycli.cjs cashout --batch "\$1" --yes --concurrency 8 --results "$work/out.csv"
SH
: >"$work/runs.tsv"
for round in $(seq "$RUNS"); do
  echo "bench: batch round $round of $RUNS" >&2
  BENCH_URL=$slow_url measure floor node scripts/bench-batch-floor.cjs "$work/send.jsonl" 8
  measure send bash "$work/send.sh" "$work/send.csv" "$slow_url" "$work/data"
done
# The re-run of the last round's finished file (every row already_ok, nothing sent) and node reading and
# hashing the file, both started directly (no shell), the results file removed before each run.
echo "bench: re-run of the finished file, $RERUN_ROUNDS rounds of $RERUN_RUNS runs" >&2
(
  export PAYCLI_DATA_DIR="$work/data" PAYCLI_BASE_URL="$slow_url"
  bench_rounds "$RERUN_ROUNDS" "$RERUN_RUNS" "$work/rerun" --prepare "rm -f $work/out.csv" \
    -n read "node $work/read.cjs $work/send.csv" \
    -n resume "node bin/paycli.cjs cashout --batch $work/send.csv --yes --concurrency 8 --results $work/out.csv"
)
# The small run's peak RSS moves by a few MiB from one run to the next (when V8's collections come): its median of
# BENCH_BATCH_SMALL_RUNS runs (default 5, a few seconds each); the big runs once each (minutes).
for _ in $(seq "$SMALL_RUNS"); do measure rss-small-0 bash "$work/send.sh" "$work/small.csv" "$sandbox_url" "$work/rss-data"; done
measure rss-big-0 bash "$work/send.sh" "$work/big.csv" "$sandbox_url" "$work/rss-data"
for _ in $(seq "$SMALL_RUNS"); do measure rss-small-50 bash "$work/send.sh" "$work/small.csv" "$slow_url" "$work/rss-data"; done
if [ "${BENCH_BATCH_BIG_SLOW:-1}" = 1 ]; then measure rss-big-50 bash "$work/send.sh" "$work/big.csv" "$slow_url" "$work/rss-data"; fi

node - "$work/runs.tsv" "$ROWS" "$BIG" "$SMALL" "$RUNS" "$(bench_commit)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$work"/rerun-*.json <<'JS'
const [file, rows, big, smallRows, runs, commit, load, ...rerunFiles] = process.argv.slice(2);
const fs = require('node:fs');
const all = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split('\t'));
const of = (name) => all.filter((r) => r[0] === name).map(([, wall, user, sys, out, rss]) => ({ wall: +wall, cpu: +user + +sys, bytes: +out * 512, rss: +rss }));
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const pairs = (a, b, f) => of(a).map((x, i) => f(x, of(b)[i]));
const floorWall = (Number(rows) / 8) * 0.05;
const send = of('send');
const r = (x) => x.toFixed(2);
console.log(`\nBatch runs (commit ${commit}, ${runs} interleaved rounds, median ratio of each round; load ${load})\n`);
console.log('| measure | value | ratio | target |');
console.log('|---|---:|---:|---:|');
console.log(`| send ${Number(rows).toLocaleString('en')} rows, concurrency 8, gateway 50 ms: wall vs rows / 8 x 50 ms | ${med(send.map((s) => s.wall)).toFixed(2)} s | ${r(med(send.map((s) => s.wall / floorWall)))} | ≤ 1.10 |`);
console.log(`| same: wall vs the node:http script | | ${r(med(pairs('send', 'floor', (s, f) => s.wall / f.wall)))} | |`);
console.log(`| same: CPU vs the node:http script | ${med(send.map((s) => s.cpu)).toFixed(2)} s | ${r(med(pairs('send', 'floor', (s, f) => s.cpu / f.cpu)))} | ≤ 1.5 |`);
const perRow = (bytes, n) => `${(bytes / n / 1024).toFixed(2)} KiB (${Math.round(bytes / n).toLocaleString('en')} bytes)`;
console.log(`| disk written per row (send) | ${perRow(med(send.map((s) => s.bytes)), Number(rows))} | | ≤ 4 KiB |`);
const bigRun = of('rss-big-0')[0];
if (bigRun) console.log(`| disk written per row (${Number(big).toLocaleString('en')} rows, 0 ms gateway) | ${perRow(bigRun.bytes, Number(big))} | | ≤ 4 KiB |`);
// the timer's samples of every round pooled per command (seconds)
const rerun = { read: [], resume: [] };
for (const f of rerunFiles) for (const c of JSON.parse(fs.readFileSync(f, 'utf8')).results) rerun[c.command].push(...c.times);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };
console.log(`| resume of the finished file vs node reading and hashing it | ${median(rerun.resume).toFixed(3)} s | ${r(median(rerun.resume) / median(rerun.read))} | ≤ 1.5 |`);
for (const g of ['0', '50']) {
  const smalls = of(`rss-small-${g}`).map((s) => s.rss), bigR = of(`rss-big-${g}`)[0];
  if (smalls.length && bigR) console.log(`| peak RSS ${Number(big).toLocaleString('en')} vs ${Number(smallRows).toLocaleString('en')} rows, gateway ${g} ms | ${(bigR.rss / 1024).toFixed(1)} MiB | ${r(bigR.rss / median(smalls))} | ≤ 1.2 |`);
}
console.log(`\nThe re-run and its baseline: interleaved run by run, ${rerunFiles.length} rounds, ${rerun.resume.length} runs each pooled; node reading and hashing the file ${(median(rerun.read) * 1000).toFixed(1)} ms (medians).`);
JS
