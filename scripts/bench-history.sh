#!/usr/bin/env bash
# npm run bench:history: `paycli history --limit 20` on a ledger of 1,000,000 payments against
# `node -e 0`, alone (the same row as in scripts/bench.sh, for a short run; its ratio against `node -e 0` started
# through env, as history is, docs/speed.md "History's start-up: the end of the run"). The commands
# alternate run by run (scripts/bench-interleave.mjs: every command once per iteration, in a new random
# order) in each of several rounds, and every sample of every round is pooled, so a machine that gets
# busier or quieter during the run moves both alike. Prints medians and the ratio against its target (docs/speed.md).
# BENCH_RUNS (default 15) runs per command per round, BENCH_ROUNDS (default 4) rounds,
# BENCH_LEDGER_PAYMENTS (default 1000000) payments in the ledger. BENCH_INSTRUCTIONS=1: also the
# instructions of each command (valgrind's callgrind), which a busy shared machine does not move.
# BENCH_NODE=<path to a node binary>: both commands run on that Node (scripts/bench-lib.sh
# `bench_use_node`); the report names the Node and the machine's load. Removes everything it made.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
bench_require_tools
bench_use_node
unset LC_ALL LC_MESSAGES
export LANG=C.UTF-8
RUNS=${BENCH_RUNS:-15}
ROUNDS=${BENCH_ROUNDS:-4}
work=$(mktemp -d)
bench_start "$work"
# The ledger is made by a real paycli run (paycli's own schema), then filled straight in SQL.
# shellcheck disable=SC2086
PAYCLI_DATA_DIR="$work/ledger-1m" node bin/paycli.cjs $BENCH_CASHOUT_ARGS >/dev/null
"$HOST_NODE" scripts/bench-ledger-fill.mjs "$work/ledger-1m/ledger.db" "${BENCH_LEDGER_PAYMENTS:-1000000}"
history_1m="env PAYCLI_DATA_DIR=$work/ledger-1m node bin/paycli.cjs history --limit 20"
bench_rounds "$ROUNDS" "$RUNS" "$work/times" \
  -n 'node -e 0' 'node -e 0' \
  -n 'node -e 0, via env' "env PAYCLI_DATA_DIR=$work/ledger-1m node -e 0" \
  -n 'paycli history --limit 20, 1,000,000 payments' "$history_1m"
node - "$work" "$(bench_commit)" "$(bench_load)" <<'JS'
const { readdirSync, readFileSync } = require('node:fs');
const [dir, commit, load] = process.argv.slice(2);
const samples = new Map();
for (const f of readdirSync(dir).filter((n) => /^times-\d+\.json$/.test(n))) {
  for (const r of JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')).results) samples.set(r.command, [...(samples.get(r.command) ?? []), ...r.times]);
}
const mid = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const floor = mid(samples.get('node -e 0')) * 1000;
const envFloor = mid(samples.get('node -e 0, via env')) * 1000; // history is started through env too
const history = mid(samples.get('paycli history --limit 20, 1,000,000 payments')) * 1000;
console.log(`commit ${commit}, ${new Date().toISOString()}, node ${process.version}, load ${load}`);
console.log('| command | runs | median ms | × node -e 0 | × node -e 0 via env | target |');
console.log('|---|---:|---:|---:|---:|---|');
console.log(`| node -e 0 | ${samples.get('node -e 0').length} | ${floor.toFixed(1)} | 1.00 | | |`);
console.log(`| node -e 0, via env | ${samples.get('node -e 0, via env').length} | ${envFloor.toFixed(1)} | ${(envFloor / floor).toFixed(2)} | 1.00 | |`);
const ratio = history / envFloor;
console.log(`| paycli history --limit 20, 1,000,000 payments | ${samples.get('paycli history --limit 20, 1,000,000 payments').length} | ${history.toFixed(1)} | ${(history / floor).toFixed(2)} | ${ratio.toFixed(2)} | ≤ 1.3× node via env: ${ratio <= 1.3 ? 'met' : 'MISSED'} |`);
JS

if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ] && command -v valgrind >/dev/null; then
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null </dev/null | sed -n 's/.*Collected : //p'; }
  floor_i=$(count node -e 0)
  history_i=$(PAYCLI_DATA_DIR="$work/ledger-1m" count node bin/paycli.cjs history --limit 20)
  echo
  echo "| command | instructions (M) | × node -e 0 |"
  echo "|---|---:|---:|"
  awk -v f="$floor_i" -v h="$history_i" 'BEGIN { printf "| node -e 0 | %.0f | 1.00 |\n| paycli history --limit 20, 1,000,000 payments | %.0f | %.2f |\n", f / 1e6, h / 1e6, h / f }'
fi
