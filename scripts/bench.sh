#!/usr/bin/env bash
# npm run bench: start-up and round-trip speed of paycli against Node's own floor (README "Speed").
# Times, in one hyperfine run: `node -e 0`, `paycli --version`, `paycli --help`,
# `paycli cashout --help`, a `paycli cashin --json` against a standalone sandbox on 127.0.0.1 (also
# with the code cache off), and
# scripts/bench-min-client.mjs (import undici + the same POST), in several rounds whose samples are
# pooled per command. Then peak memory (max RSS) of the
# cash-in and of the minimal script, with /usr/bin/time. Prints medians and ratios; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in hyperfine /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench needs $tool: apt-get install -y hyperfine time" >&2; exit 2; }
done
RUNS=${BENCH_RUNS:-15}     # runs per command per round
ROUNDS=${BENCH_ROUNDS:-4}  # rounds; every sample of every round is pooled, so drift hits all commands alike
work=$(mktemp -d)
# PAYCLI_CACHE_DIR: paycli's V8 code cache (src/compile-cache.ts), filled by the warm-up runs
# as by any first run after an install; the last row shows the cash-in without it.
export PAYCLI_CONFIG_DIR="$work/config" PAYCLI_DATA_DIR="$work/data" PAYCLI_CACHE_DIR="$work/cache" NO_COLOR=1
node bin/paycli.cjs sandbox --port 0 2>"$work/sandbox.log" &
sandbox=$!
# The sandbox writes its code cache as it exits: wait for it before removing the folder.
cleanup() { kill "$sandbox" 2>/dev/null || true; wait "$sandbox" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 50); do grep -q 'listening on' "$work/sandbox.log" && break; sleep 0.1; done
url=$(grep -o 'listening on http://[^ ]*' "$work/sandbox.log" | head -1 | cut -d' ' -f3)
export BENCH_URL="$url" PAYCLI_BASE_URL="$url" PAYCLI_API_KEY=bench

cashin="node bin/paycli.cjs --json cashin --value 1000 --payer-name Fulano --payer-document 12345678909 --payer-email fulano@example.com --payer-phone 11987654321 --product-name Camiseta --product-description Azul"
for round in $(seq "$ROUNDS"); do
  hyperfine -N --warmup 3 --runs "$RUNS" --style basic --export-json "$work/times-$round.json" \
    -n 'node -e 0' 'node -e 0' \
    -n 'paycli --version' 'node bin/paycli.cjs --version' \
    -n 'paycli --help' 'node bin/paycli.cjs --help' \
    -n 'paycli cashout --help' 'node bin/paycli.cjs cashout --help' \
    -n 'minimal undici script' 'node scripts/bench-min-client.mjs' \
    -n 'paycli cashin --json' "$cashin" \
    -n 'paycli cashin --json, no code cache (via env)' "env NODE_DISABLE_COMPILE_CACHE=1 $cashin" >&2
done

rss() { # median max RSS in KiB over 15 runs
  for _ in $(seq 15); do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 8p
}
min_rss=$(rss node scripts/bench-min-client.mjs)
# shellcheck disable=SC2086
paycli_rss=$(rss $cashin)
node scripts/bench-report.mjs "$work" "$min_rss" "$paycli_rss" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# BENCH_INSTRUCTIONS=1: also count instructions with valgrind's callgrind (about 5 s a command),
# a measure that a busy or noisy machine does not move; the sandbox's own work is not counted.
if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ] && command -v valgrind >/dev/null; then
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
  floor_i=$(count node -e 0)
  echo
  echo "| command | instructions (M) | × node -e 0 |"
  echo "|---|---:|---:|"
  for name in 'node -e 0' 'paycli --version' 'paycli --help' 'paycli cashout --help' 'minimal undici script' 'paycli cashin --json'; do
    case "$name" in
      'node -e 0') i=$floor_i ;;
      'paycli --version') i=$(count node bin/paycli.cjs --version) ;;
      'paycli --help') i=$(count node bin/paycli.cjs --help) ;;
      'paycli cashout --help') i=$(count node bin/paycli.cjs cashout --help) ;;
      'minimal undici script') i=$(count node scripts/bench-min-client.mjs) ;;
      # shellcheck disable=SC2086
      'paycli cashin --json') i=$(count $cashin) ;;
    esac
    awk -v n="$name" -v i="$i" -v f="$floor_i" 'BEGIN { printf "| %s | %.0f | %.2f |\n", n, i / 1e6, i / f }'
  done
fi

# Batch runs: their own sandbox, files and ledgers (scripts/bench-batch.sh; BENCH_BATCH=0 skips them).
if [ "${BENCH_BATCH:-1}" = 1 ]; then bash scripts/bench-batch.sh; fi
