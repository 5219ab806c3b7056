/**
 * EXPERIMENT, not shipped (docs/speed.md "A startup snapshot for history: measured"): the direct route of
 * `paycli history` (src/cli/direct.ts) as the entry of a V8 user-land startup snapshot. The
 * modules below are evaluated while the snapshot is built; the main function set here runs in the
 * process started from the blob, and reads argv, env, cwd, streams and the ledger only then.
 *
 * Built by ./build.mjs; started as `node --snapshot-blob <blob> -- <paycli>/bin/paycli.cjs <args...>`.
 */
import v8 from 'node:v8';
import { createRequire } from 'node:module';
import { historyLine } from '../../../src/cli/history-line.js';
import { main } from '../../../src/cli/direct.js';
// Dynamically imported on the route: imported here too, so that they are evaluated at build time.
import '../../../src/cli/run/history.js';
import '../../../src/cli/output/shape.js';
import '../../../src/cli/output/printer.js';
import '../../../src/ledger/read.js';
import { useBaseContext } from '../../../src/cli/base-context.js';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

/** Set by the banner of ./build.mjs: where the bundle's `require` goes once the process runs. */
declare const __paycliSnapshotRequire: { set(req: NodeJS.Require): void };

/**
 * With PAYCLI_SNAPSHOT_WARMUP=1 at build time: runs the route once, before the snapshot is taken, so that the
 * functions it runs are compiled into the blob. Against an empty data folder (no ledger: the notice path) and a
 * config folder of its own (never the user's: nothing of theirs may end up in the blob), with streams that go
 * nowhere; every piece of state it leaves (context, language, exit code) is put back.
 */
async function warmUp(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'paycli-snapshot-'));
  const saved = { ...process.env };
  process.env.PAYCLI_DATA_DIR = join(dir, 'data');
  process.env.PAYCLI_CONFIG_DIR = join(dir, 'config');
  process.env.PAYCLI_CACHE_DIR = join(dir, 'cache');
  // PAYCLI_SNAPSHOT_WARMUP_LEDGER: a sample ledger (generated rows, never the user's) copied in, so that the
  // warm-up also runs the listing, the driver and the table
  const sample = process.env.PAYCLI_SNAPSHOT_WARMUP_LEDGER;
  if (sample) {
    mkdirSync(join(dir, 'data'), { mode: 0o700 });
    copyFileSync(sample, join(dir, 'data', 'ledger.db'));
  }
  const sink = () => new PassThrough().resume();
  const streams = { stdin: sink(), stdout: sink(), stderr: sink() };
  useBaseContext(
    (args, command) => ({ ...streams, isTTY: { stdin: false, stdout: false, stderr: false }, columns: undefined, env: process.env, now: () => new Date(), args, command }) as never,
  );
  try {
    await main(['node', 'paycli', 'history', '--limit', '20'], { command: 'history', opts: historyLine(['history', '--limit', '20'])! });
  } finally {
    useBaseContext(undefined);
    process.exitCode = undefined;
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    rmSync(dir, { recursive: true, force: true });
  }
}
// the builder runs the event loop until it is empty before it takes the snapshot
if (process.env.PAYCLI_SNAPSHOT_WARMUP === '1') void warmUp();

v8.startupSnapshot.setDeserializeMainFunction(() => {
  // Node 20-26 give [node, ...args]; a later Node may copy argv[0] to argv[1]: find the launcher's path.
  const argv = process.argv;
  const at = argv[1] === argv[0] && argv[2]?.endsWith('paycli.cjs') ? 2 : 1;
  const script = argv[at];
  if (!script) {
    process.stderr.write('paycli snapshot: started without the launcher path\n');
    process.exit(70);
  }
  // Packages left out of the bundle (and better-sqlite3's addon) are found from the installed paycli, at run time.
  __paycliSnapshotRequire.set(createRequire(script));
  const runArgv = [argv[0]!, script, ...argv.slice(at + 1)];
  const opts = historyLine(runArgv.slice(2));
  if (!opts) {
    process.stderr.write('paycli snapshot: not a line of the direct route\n');
    process.exit(70);
  }
  main(runArgv, { command: 'history', opts }).catch((err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exitCode = 70;
  });
});
