#!/usr/bin/env node
// The benches' timer (scripts/bench-lib.sh `bench_rounds`; docs/speed.md): runs every command once per iteration, in
// a new random order each time, so that the machine's drift and other work hit every command alike (hyperfine runs
// each command's runs in a row, and on a shared machine its ratios moved by more than the differences measured).
//
//   node scripts/bench-interleave.mjs [--warmup N] [--runs N] [--prepare CMD] --export-json FILE -n NAME CMD ...
//
// Like `hyperfine -N` with the same options: each CMD is split on spaces and started without a shell, its input and
// output /dev/null; --prepare runs through `sh -c` before every timed run of every command (and is not timed); --warmup
// runs (default 3) of every command come first and are not kept. A command that exits with a code other than 0 stops
// the bench (exit 1, with the stderr of one more run of it). FILE gets hyperfine's JSON shape, the part the benches read:
// `{ "results": [{ "command": NAME, "times": [seconds, …], "exit_codes": [0, …] }] }`. A line a command (its
// median, its runs) goes to stderr. Wall time is taken around `spawnSync`, so it includes starting the process,
// as hyperfine's does; every command pays that alike.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const commands = [];
let warmup = 3;
let runs = 10;
let prepare;
let exportJson;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--warmup') warmup = Number(args[++i]);
  else if (a === '--runs') runs = Number(args[++i]);
  else if (a === '--prepare') prepare = args[++i];
  else if (a === '--export-json') exportJson = args[++i];
  else if (a === '-n') commands.push({ name: args[++i], argv: args[++i].split(' ').filter(Boolean), times: [] });
  else {
    console.error(`bench-interleave: unknown argument ${a}`);
    process.exit(2);
  }
}
if (!exportJson || commands.length === 0 || !(runs > 0) || !(warmup >= 0)) {
  console.error('bench-interleave: usage: [--warmup N] [--runs N] [--prepare CMD] --export-json FILE -n NAME CMD ...');
  process.exit(2);
}

/** One run of `c`, its wall time in seconds; exits the bench when it fails. */
function runOnce(c) {
  if (prepare !== undefined && spawnSync('sh', ['-c', prepare], { stdio: 'ignore' }).status !== 0) {
    console.error(`bench-interleave: --prepare failed: ${prepare}`);
    process.exit(1);
  }
  const start = process.hrtime.bigint();
  const r = spawnSync(c.argv[0], c.argv.slice(1), { stdio: 'ignore' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) {
    // the timed run's output went to /dev/null (as hyperfine's does: a pipe would cost the command a stream): once more, for its words
    const again = spawnSync(c.argv[0], c.argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    console.error(`bench-interleave: ${c.name} exited with ${r.status ?? r.signal}:\n${String(again.stderr).slice(-2000)}`);
    process.exit(1);
  }
  return seconds;
}

/** The commands in a new random order (Fisher-Yates). */
function shuffled() {
  const order = [...commands];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

for (let i = 0; i < warmup; i++) for (const c of shuffled()) runOnce(c);
for (let i = 0; i < runs; i++) for (const c of shuffled()) c.times.push(runOnce(c));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
writeFileSync(exportJson, JSON.stringify({ results: commands.map((c) => ({ command: c.name, times: c.times, exit_codes: c.times.map(() => 0) })) }));
for (const c of commands) console.error(`${c.name}: ${(median(c.times) * 1000).toFixed(1)} ms (median of ${c.times.length})`);
