#!/usr/bin/env bash
# npm run bench: start-up and round-trip speed of paycli against Node's own floor.
# Times, with the interleaving timer (scripts/bench-interleave.mjs: every command once per iteration, in a new
# random order; the rows that run alone and those that talk to the sandbox in two groups): `node -e 0`, `paycli --version`, `paycli --help`,
# `paycli cashout --help`, `paycli --help` in Portuguese and in English (both through env), a `paycli cashin --json` against a standalone sandbox on 127.0.0.1 (also
# with the code cache off), scripts/bench-min-client.mjs (import undici + the same POST); and the
# ledger's rows: a `paycli cashout --json` with an empty ledger and with 1,000,000 payments in it
# (generated straight into the database by scripts/bench-ledger-fill.mjs), the empty-ledger one in Portuguese, the minimal node:http
# cash-out (scripts/bench-min-cashout.cjs), and `paycli history --limit 20` on the big ledger; in
# several rounds whose samples are pooled per command. Then peak memory (max RSS) with /usr/bin/time.
# The set-up (tools, sandbox, clean-up, max RSS, commit) is shared with scripts/bench-batch.sh:
# scripts/bench-lib.sh.
# Prints medians, ratios and targets (scripts/bench-report.mjs); asserts nothing; removes everything
# it made.
# BENCH_NODE=<path to a node binary>: every row runs on that Node (its folder goes first in PATH), e.g.
# the official binaries that `npm run test:node-matrix` caches (docs/node-versions.md); the report names
# the Node. The big ledger is still filled by the machine's node (scripts/bench-ledger-fill.mjs).
# It ends with the start-up targets in three lines (docs/speed.md, "Start-up targets"): the team-ledger
# cash-out against the local one (scripts/bench-team.sh), the local cash-out against the minimal
# node:http cash-out, and history against `node -e 0`, each with its target, the Node and the load.
# `BENCH_NODE=<node> BENCH_BATCH=0 npm run bench` gives them for one Node line.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
bench_require_tools
# Messages in English for every row but the Portuguese ones (docs/portugues.md), whatever the machine's locale.
unset LC_ALL LC_MESSAGES
export LANG=C.UTF-8
bench_use_node
RUNS=${BENCH_RUNS:-15}     # runs per command per round
ROUNDS=${BENCH_ROUNDS:-4}  # rounds; every sample of every round is pooled, so drift hits all commands alike
work=$(mktemp -d)
# The start-up targets' figures, one `name<TAB>ratio<TAB>target` line each, written by
# scripts/bench-report.mjs and scripts/bench-team.sh and printed together at the end.
export BENCH_FIGURES="$work/figures.tsv"
: >"$BENCH_FIGURES"
# PAYCLI_CACHE_DIR (set by bench_start): paycli's V8 code cache (src/cli/compile-cache.ts), filled by
# the warm-up runs as by any first run after an install; a row shows the cash-in without it.
bench_start "$work"
export PAYCLI_DATA_DIR="$work/data"

# The ledger (docs/ledger-and-safety.md "Payment ledger"): duplicate-window 0 lets the same cash-out be sent on every
# run (an ok one no longer blocks; the ledger is checked and written exactly as for any cash-out).
# The big ledger is made by a real paycli run (paycli's own schema), then filled.
node bin/paycli.cjs config set duplicate-window 0 >/dev/null
cashout_args=$BENCH_CASHOUT_ARGS
# shellcheck disable=SC2086
PAYCLI_DATA_DIR="$work/ledger-1m" node bin/paycli.cjs $cashout_args >/dev/null
"$HOST_NODE" scripts/bench-ledger-fill.mjs "$work/ledger-1m/ledger.db" "${BENCH_LEDGER_PAYMENTS:-1000000}"
cashout_empty="env PAYCLI_DATA_DIR=$work/ledger-empty node bin/paycli.cjs $cashout_args"
cashout_pt="env LANG=pt_BR.UTF-8 PAYCLI_DATA_DIR=$work/ledger-empty-pt node bin/paycli.cjs $cashout_args"
cashout_1m="env PAYCLI_DATA_DIR=$work/ledger-1m node bin/paycli.cjs $cashout_args"
history_1m="env PAYCLI_DATA_DIR=$work/ledger-1m node bin/paycli.cjs history --limit 20"
min_cashout="env BENCH=1 node scripts/bench-min-cashout.cjs" # env too, as the paycli rows have it
# history's target is against `node -e 0` started the same way, through env (the row `node -e 0, via env`): env's
# own start is 3-4% of node's (docs/speed.md "History's start-up: the end of the run")

cashin="node bin/paycli.cjs --json cashin --value 1000 --payer-name Fulano --payer-document 12345678909 --payer-email fulano@example.com --payer-phone 11987654321 --product-name Camiseta --product-description Azul"
# Two groups, each interleaved run by run within itself: the rows that run alone on the machine, then the rows that
# talk to the standalone sandbox. The sandbox works on after an answer (it writes its log 200 ms after a change,
# src/sandbox/events.ts), and that work lands on whichever run comes next; mixed in one group, a local row such as
# history paid for it at random (1.45x node -e 0 on Node 26 in the whole bench, 1.29x with node -e 0 alone). The
# history and cash-out targets compare rows of one group; the × node -e 0 column of the second group spans the two.
bench_rounds "$ROUNDS" "$RUNS" "$work/times-local" \
  -n 'node -e 0' 'node -e 0' \
  -n 'node -e 0, via env' "env PAYCLI_DATA_DIR=$work/ledger-1m node -e 0" \
  -n 'paycli --version' 'node bin/paycli.cjs --version' \
  -n 'paycli --help' 'node bin/paycli.cjs --help' \
  -n 'paycli cashout --help' 'node bin/paycli.cjs cashout --help' \
  -n 'paycli --help, Portuguese' 'env LANG=pt_BR.UTF-8 node bin/paycli.cjs --help' \
  -n 'paycli --help, English (via env)' 'env LANG=C.UTF-8 node bin/paycli.cjs --help' \
  -n 'paycli history --limit 20, 1,000,000 payments' "$history_1m"
bench_rounds "$ROUNDS" "$RUNS" "$work/times-sandbox" \
  -n 'minimal undici script' 'node scripts/bench-min-client.mjs' \
  -n 'paycli cashin --json' "$cashin" \
  -n 'paycli cashin --json, no code cache (via env)' "env NODE_DISABLE_COMPILE_CACHE=1 $cashin" \
  -n 'minimal node:http cash-out' "$min_cashout" \
  -n 'paycli cashout --json, empty ledger' "$cashout_empty" \
  -n 'paycli cashout --json, empty ledger, Portuguese' "$cashout_pt" \
  -n 'paycli cashout --json, 1,000,000 payments' "$cashout_1m"

rss() { bench_rss 15 "$@"; } # median max RSS in KiB over 15 runs
# shellcheck disable=SC2086
{
  printf 'minimal undici script\t%s\n' "$(rss node scripts/bench-min-client.mjs)"
  printf 'paycli cashin --json\t%s\n' "$(rss $cashin)"
  printf 'minimal node:http cash-out\t%s\n' "$(rss $min_cashout)"
  printf 'paycli cashout --json, empty ledger\t%s\n' "$(rss $cashout_empty)"
  printf 'paycli cashout --json, 1,000,000 payments\t%s\n' "$(rss $cashout_1m)"
  printf 'paycli history --limit 20, 1,000,000 payments\t%s\n' "$(rss $history_1m)"
} >"$work/rss.tsv"
node scripts/bench-report.mjs "$work" "$(bench_commit)" "$(bench_load)"

# BENCH_INSTRUCTIONS=1: also count instructions with valgrind's callgrind (about 5 s a command),
# a measure that a busy or noisy machine does not move; the sandbox's own work is not counted.
if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ] && command -v valgrind >/dev/null; then
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
  floor_i=$(count node -e 0)
  echo
  echo "| command | instructions (M) | × node -e 0 |"
  echo "|---|---:|---:|"
  for name in 'node -e 0' 'paycli --version' 'paycli --help' 'paycli cashout --help' 'minimal undici script' 'paycli cashin --json' \
    'minimal node:http cash-out' 'paycli cashout --json, empty ledger' 'paycli history --limit 20, 1,000,000 payments'; do
    # shellcheck disable=SC2086
    case "$name" in
      'node -e 0') i=$floor_i ;;
      'paycli --version') i=$(count node bin/paycli.cjs --version) ;;
      'paycli --help') i=$(count node bin/paycli.cjs --help) ;;
      'paycli cashout --help') i=$(count node bin/paycli.cjs cashout --help) ;;
      'minimal undici script') i=$(count node scripts/bench-min-client.mjs) ;;
      'paycli cashin --json') i=$(count $cashin) ;;
      'minimal node:http cash-out') i=$(BENCH=1 count node scripts/bench-min-cashout.cjs) ;;
      'paycli cashout --json, empty ledger') i=$(PAYCLI_DATA_DIR="$work/ledger-empty" count node bin/paycli.cjs $cashout_args) ;;
      'paycli history --limit 20, 1,000,000 payments') i=$(PAYCLI_DATA_DIR="$work/ledger-1m" count node bin/paycli.cjs history --limit 20) ;;
    esac
    awk -v n="$name" -v i="$i" -v f="$floor_i" 'BEGIN { printf "| %s | %.0f | %.2f |\n", n, i / 1e6, i / f }'
  done
fi

# Batch runs: their own sandbox, files and ledgers (scripts/bench-batch.sh; BENCH_BATCH=0 skips them).
if [ "${BENCH_BATCH:-1}" = 1 ]; then bash scripts/bench-batch.sh; fi
# The team ledger on a private PostgreSQL cluster (scripts/bench-team.sh; BENCH_TEAM=0 skips it).
if [ "${BENCH_TEAM:-1}" = 1 ]; then bash scripts/bench-team.sh; fi

# The start-up targets together (docs/speed.md, "Start-up targets").
node - "$BENCH_FIGURES" "$(bench_commit)" "$(bench_load)" <<'JS'
const [file, commit, load] = process.argv.slice(2);
const lines = require('node:fs').readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
console.log(`\nStart-up targets (commit ${commit}, node ${process.version}; load ${load})\n`);
console.log('| figure | ratio | target |');
console.log('|---|---:|---|');
for (const [name, ratio, target] of lines) console.log(`| ${name} | ${Number(ratio).toFixed(2)} | ≤ ${target}: ${Number(ratio) <= Number(target) ? 'met' : 'MISSED'} |`);
JS
