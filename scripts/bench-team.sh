#!/usr/bin/env bash
# npm run bench, team ledger part (called by scripts/bench.sh; BENCH_TEAM=0 skips it; docs/speed.md).
# A private PostgreSQL cluster on 127.0.0.1 (initdb in the work folder; as the postgres user when run as
# root), then:
# - a cash-out with the team ledger (ledger-url) against the same cash-out with the local ledger,
#   both to a standalone sandbox, in BENCH_TEAM_ROUNDS (default 4) interleaved rounds of
#   BENCH_TEAM_RUNS (default 10) runs each, every sample pooled. Target: within 1.10x (docs/speed.md,
#   "Start-up targets"). BENCH_INSTRUCTIONS=1 adds both cash-outs' instruction counts (callgrind).
# - a 10,000-row batch at concurrency 8 against a gateway answering every POST in 50 ms
#   (scripts/bench-slow-gateway.mjs), team ledger against local ledger. Target: within 1.05x.
# Prints its own table of medians, ratios and targets, with the Node and the machine's load; asserts
# nothing. Skipped (a line says so) when PostgreSQL is not installed. BENCH_TEAM_BATCH_RUNS (default 1)
# batches, BENCH_TEAM_ROWS (default 10000) rows; BENCH_TEAM_BATCH=0 skips the batch rows.
# BENCH_NODE=<path to a node binary>: every paycli runs on that Node (scripts/bench-lib.sh
# `bench_use_node`). Run by scripts/bench.sh, it adds its figure to the start-up targets there
# (BENCH_FIGURES).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
bench_require_tools
bench_use_node
pgbin=$(find /usr/lib/postgresql -maxdepth 3 -name initdb -path '*/bin/*' 2>/dev/null | sort -V | tail -1 | xargs -r dirname)
if [ -z "$pgbin" ]; then
  echo "bench: PostgreSQL is not installed (apt-get install -y postgresql): team ledger rows skipped" >&2
  exit 0
fi
RUNS=${BENCH_TEAM_RUNS:-10}
ROUNDS=${BENCH_TEAM_ROUNDS:-4}
BATCH_RUNS=${BENCH_TEAM_BATCH_RUNS:-1}
ROWS=${BENCH_TEAM_ROWS:-10000}
work=$(mktemp -d)
bench_start "$work"
as_pg=()
if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); fi
# As root the cluster runs as postgres, which must reach its folder: one of its own in /tmp (the work
# folder may sit in a private TMPDIR), removed at exit like the rest.
if [ "$(id -u)" = 0 ]; then
  pgdir=$(mktemp -d /tmp/paycli-bench-pg.XXXXXX)
  chown postgres "$pgdir"
else
  pgdir="$work/pg"
  mkdir -p "$pgdir"
fi
port=$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
"${as_pg[@]}" "$pgbin/initdb" -D "$pgdir/data" -U postgres --auth-local=trust --auth-host=trust -E UTF8 --no-instructions >/dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" start -D "$pgdir/data" -w -l "$pgdir/log" -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1" >/dev/null
gateway_pid=''
stop_all() {
  "${as_pg[@]}" "$pgbin/pg_ctl" stop -D "$pgdir/data" -m fast -w >/dev/null 2>&1 || true
  if [ -n "$gateway_pid" ]; then kill "$gateway_pid" 2>/dev/null || true; fi
  rm -rf "$pgdir"
  bench_cleanup
}
trap stop_all EXIT
team_url="postgres://postgres@127.0.0.1:$port/postgres"
# The set-up commands write no code cache (src/cli/compile-cache.ts): an entry is written by the
# first run that loads its chunk, with the functions that run used, so a `ledger migrate` run first
# would leave the driver's chunks cached for the migration and the measured cash-outs compiling
# theirs on every run (about 10 M instructions on Node 24, docs/speed.md "Team ledger"). Each
# measured command's cache comes from its own warm-up runs, as on a machine that pays every day.
NODE_DISABLE_COMPILE_CACHE=1 PAYCLI_LEDGER_URL=$team_url node bin/paycli.cjs ledger migrate >/dev/null 2>&1
NODE_DISABLE_COMPILE_CACHE=1 node bin/paycli.cjs config set duplicate-window 0 >/dev/null 2>&1
psql_cmd="${as_pg[*]} $pgbin/psql -h $pgdir -p $port -U postgres -d postgres -qAt -c"

cashout_args=$BENCH_CASHOUT_ARGS
local_cashout="env PAYCLI_DATA_DIR=$work/local node bin/paycli.cjs $cashout_args"
team_cashout="env PAYCLI_DATA_DIR=$work/team PAYCLI_LEDGER_URL=$team_url node bin/paycli.cjs $cashout_args"
bench_rounds "$ROUNDS" "$RUNS" "$work/cashout" \
  -n 'paycli cashout --json, local ledger' "$local_cashout" \
  -n 'paycli cashout --json, team ledger on loopback' "$team_cashout"
load=$(bench_load)
instructions=''
if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ] && command -v valgrind >/dev/null; then
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null </dev/null | sed -n 's/.*Collected : //p'; }
  # shellcheck disable=SC2086
  instructions="$(PAYCLI_DATA_DIR="$work/local" count node bin/paycli.cjs $cashout_args) $(PAYCLI_DATA_DIR="$work/team" PAYCLI_LEDGER_URL=$team_url count node bin/paycli.cjs $cashout_args)"
fi

if [ "${BENCH_TEAM_BATCH:-1}" = 1 ]; then
  node scripts/bench-slow-gateway.mjs 50 >"$work/gateway.url" &
  gateway_pid=$!
  for _ in $(seq 50); do [ -s "$work/gateway.url" ] && break; sleep 0.1; done
  slow_url=$(cat "$work/gateway.url")
  node scripts/bench-batch-gen.mjs "$ROWS" "$work/rows.csv"
  send="node bin/paycli.cjs --base-url $slow_url cashout --batch $work/rows.csv --yes --concurrency 8 --results $work/out.csv"
  hyperfine --runs "$BATCH_RUNS" --style basic --export-json "$work/batch.json" \
    -n "paycli cashout --batch, $ROWS rows, local ledger" --prepare "rm -rf $work/batch-local $work/out.csv" "PAYCLI_DATA_DIR=$work/batch-local $send 2>/dev/null" \
    -n "paycli cashout --batch, $ROWS rows, team ledger" --prepare "rm -f $work/out.csv; $psql_cmd 'TRUNCATE paycli.payments, paycli.runs; DELETE FROM paycli.meta WHERE key LIKE '\"'\"'batch:%'\"'\"''" "PAYCLI_DATA_DIR=$work/batch-team PAYCLI_LEDGER_URL=$team_url $send 2>/dev/null" >&2
fi

node - "$work" "$ROWS" "$(bench_commit)" "$load" "$instructions" <<'JS'
const [work, rows, commit, load, instructions] = process.argv.slice(2);
const fs = require('node:fs');
// Every sample of every round, pooled per command (the rounds interleave the two, so a machine that
// gets busier or quieter moves both alike).
const samples = new Map();
for (const f of fs.readdirSync(work).filter((n) => /^cashout-\d+\.json$/.test(n))) {
  for (const r of JSON.parse(fs.readFileSync(`${work}/${f}`, 'utf8')).results) samples.set(r.command, [...(samples.get(r.command) ?? []), ...r.times]);
}
const mid = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const LOCAL = 'paycli cashout --json, local ledger';
const TEAM = 'paycli cashout --json, team ledger on loopback';
const local = mid(samples.get(LOCAL)), team = mid(samples.get(TEAM));
const ms = (x) => `${(x * 1000).toFixed(1)} ms`, s = (x) => `${x.toFixed(2)} s`;
const verdict = (ratio, target) => `≤ ${target}: ${ratio <= Number(target) ? 'met' : 'MISSED'}`;
const ratio = team / local;
console.log(`\nTeam ledger (commit ${commit}, node ${process.version}, ${samples.get(LOCAL).length} runs a command in interleaved rounds, pooled medians; load ${load})\n`);
console.log('| measure | value | ratio | target |');
console.log('|---|---:|---:|---|');
console.log(`| ${LOCAL} | ${ms(local)} | 1.00 | |`);
console.log(`| ${TEAM} | ${ms(team)} | ${ratio.toFixed(2)} | ${verdict(ratio, '1.10')} |`);
if (instructions) {
  const [li, ti] = instructions.split(' ').map(Number);
  console.log(`| instructions: local ledger cash-out | ${(li / 1e6).toFixed(0)} M | 1.00 | |`);
  console.log(`| instructions: team ledger cash-out | ${(ti / 1e6).toFixed(0)} M | ${(ti / li).toFixed(2)} | |`);
}
if (fs.existsSync(`${work}/batch.json`)) {
  const batch = JSON.parse(fs.readFileSync(`${work}/batch.json`, 'utf8')).results;
  const bLocal = batch[0].median, bTeam = batch[1].median;
  console.log(`| batch, ${Number(rows).toLocaleString('en')} rows, concurrency 8, gateway 50 ms, local ledger | ${s(bLocal)} | 1.00 | |`);
  console.log(`| batch, ${Number(rows).toLocaleString('en')} rows, concurrency 8, gateway 50 ms, team ledger | ${s(bTeam)} | ${(bTeam / bLocal).toFixed(2)} | ${verdict(bTeam / bLocal, '1.05')} |`);
}
if (process.env.BENCH_FIGURES) fs.appendFileSync(process.env.BENCH_FIGURES, `team-ledger cash-out ÷ local-ledger cash-out\t${ratio}\t1.10\n`);
JS
