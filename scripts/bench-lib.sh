#!/usr/bin/env bash
# Set-up shared by the benchmark scripts (scripts/bench.sh, scripts/bench-batch.sh,
# scripts/bench-team.sh, scripts/bench-history.sh), each rule written once: the tools a bench needs,
# the Node it runs on (BENCH_NODE), a temporary work folder, a standalone `paycli sandbox` on
# 127.0.0.1 that the paycli rows talk to, removing both at exit, peak memory (max RSS), the commit
# and the machine's load a report names.
# Sourced, not run: `. scripts/bench-lib.sh`.

# The cash-out every ledger bench sends (bench.sh, bench-team.sh, bench-history.sh), as words for
# `node bin/paycli.cjs $BENCH_CASHOUT_ARGS`.
# shellcheck disable=SC2034
BENCH_CASHOUT_ARGS="--json cashout --value 1550 --pix-key-type email --pix-key fulano@example.com --person-name Fulano --person-email fulano@example.com --person-phone 11987654321 --yes"

# Exits 2 (nothing measured) when hyperfine or GNU time is missing.
bench_require_tools() {
  local tool
  for tool in hyperfine /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench needs $tool: apt-get install -y hyperfine time" >&2; exit 2; }
  done
}

# bench_use_node: BENCH_NODE=<path to a node binary> puts its folder first in PATH, so that every
# `node` of the bench (paycli's rows and their baselines) is that Node, e.g. one of the official
# binaries `npm run test:node-matrix` caches (docs/node-versions.md). HOST_NODE keeps the machine's
# node, which fills the big ledger (scripts/bench-ledger-fill.mjs uses the driver built for it).
bench_use_node() {
  HOST_NODE=${HOST_NODE:-$(command -v node)}
  export HOST_NODE
  if [ -n "${BENCH_NODE:-}" ]; then
    [ -x "$BENCH_NODE" ] || { echo "bench: BENCH_NODE=$BENCH_NODE is not an executable node" >&2; exit 2; }
    PATH="$(cd "$(dirname "$BENCH_NODE")" && pwd):$PATH"
    export PATH
  fi
}

# bench_load: the machine's load average now (1, 5 and 15 minutes), which every report prints
# beside its figures: other work on the machine moves wall times, never instruction counts.
bench_load() {
  cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown
}

# bench_start <work-folder>: points paycli's config and code cache into the folder, starts a
# standalone sandbox on a free port (its state in a fresh folder: the sandbox keeps its balance and
# transactions across starts), waits until it listens, and exports its URL as BENCH_URL
# and PAYCLI_BASE_URL (with PAYCLI_API_KEY=bench). At exit the sandbox is stopped (it writes its
# code cache as it exits, so it is waited for) and the folder removed.
bench_start() {
  BENCH_WORK=$1
  export PAYCLI_CONFIG_DIR="$BENCH_WORK/config" PAYCLI_CACHE_DIR="$BENCH_WORK/cache" NO_COLOR=1
  # an opening balance for the batch bench's 100,000 rows (about R$ 50 million; the default R$ 1 million refuses most of them)
  node bin/paycli.cjs sandbox --port 0 --opening-balance 1000000000000 --data-dir "$BENCH_WORK/sandbox-data" 2>"$BENCH_WORK/sandbox.log" &
  BENCH_SANDBOX=$!
  trap bench_cleanup EXIT
  local url='' _
  for _ in $(seq 50); do
    url=$(grep -o 'listening on http://[^ ]*' "$BENCH_WORK/sandbox.log" | head -1 | cut -d' ' -f3) && [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { echo "bench: the sandbox did not start:" >&2; cat "$BENCH_WORK/sandbox.log" >&2; exit 2; }
  export BENCH_URL="$url" PAYCLI_BASE_URL="$url" PAYCLI_API_KEY=bench
}

bench_cleanup() {
  kill "$BENCH_SANDBOX" 2>/dev/null || true
  wait "$BENCH_SANDBOX" 2>/dev/null || true
  rm -rf "$BENCH_WORK"
}

# bench_rounds <rounds> <runs> <json prefix> <timer arguments...>: <rounds> rounds of scripts/bench-interleave.mjs
# (hyperfine -N's arguments: `-n <name> <command>`, `--prepare <command>`), <runs> runs a command a round, every
# command once per iteration in a new random order (so the machine's drift hits every command alike; hyperfine ran
# each command's runs in a row), each round's results in <json prefix>-<round>.json (hyperfine's JSON shape); the
# timer's lines go to stderr.
bench_rounds() {
  local rounds=$1 runs=$2 prefix=$3 round
  shift 3
  for round in $(seq "$rounds"); do
    node scripts/bench-interleave.mjs --warmup 3 --runs "$runs" --export-json "$prefix-$round.json" "$@" >&2
  done
}

# bench_rss <runs> <command...>: the median max RSS in KiB of <runs> runs (GNU time's %M).
bench_rss() {
  local runs=$1 _
  shift
  for _ in $(seq "$runs"); do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | sed -n "$(((runs + 1) / 2))p"
}

# bench_commit: the short commit the reports name ("unknown" outside a git checkout).
bench_commit() {
  git rev-parse --short HEAD 2>/dev/null || echo unknown
}
