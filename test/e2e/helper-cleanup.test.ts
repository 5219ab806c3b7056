/**
 * No server outlives the test that started it (test/helpers/reaper.ts): a test process that starts a
 * private PostgreSQL cluster (test/helpers/postgres.ts), freezes it with SIGSTOP and then dies, by an
 * uncaught error (a failing test) or by SIGKILL (a worker killed after a time limit, where none of its
 * own code runs), leaves no process of that cluster behind, `runuser` wrapper included.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scaledMs } from '../helpers/cli.js';
import { waitFor } from '../helpers/listen.js';

let dir: string;
let script: string;
/** The processes of the clusters started here, killed after each test should one be left (a failure of this test). */
let leftovers: () => Array<{ pid: number }> = () => [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-cleanup-'));
  // The helper as a plain script, outside vitest, as a test file's worker would load it.
  buildSync({ entryPoints: [join(__dirname, '../helpers/postgres.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: join(dir, 'postgres.cjs'), logLevel: 'silent' });
  script = join(dir, 'dies.cjs');
  writeFileSync(
    script,
    `const { startPostgres } = require(${JSON.stringify(join(dir, 'postgres.cjs'))});
startPostgres().then((pg) => {
  process.stdout.write(JSON.stringify({ dataDir: pg.dataDir }) + '\\n');
  if (process.argv[2] === 'throw') process.stdin.once('data', () => { throw new Error('a failing test'); });
  setInterval(() => undefined, 1000); // alive until told to fail, or killed
});
`,
  );
});
afterEach(() => {
  for (const p of leftovers()) {
    for (const sig of ['SIGCONT', 'SIGKILL'] as const) {
      try {
        process.kill(p.pid, sig);
      } catch {
        /* gone */
      }
    }
  }
  leftovers = () => [];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every process: pid, process group and command line (from /proc). */
function processes(): Array<{ pid: number; pgid: number; cmd: string }> {
  const out: Array<{ pid: number; pgid: number; cmd: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      out.push({ pid: Number(name), pgid, cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** Starts the dying script; resolves once its cluster is up, with the cluster's processes frozen (SIGSTOP). */
async function startDying(mode: 'throw' | 'kill') {
  const child = spawn(process.execPath, [script, mode], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.resume();
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await waitFor(() => stdout.includes('\n') || child.exitCode !== null, scaledMs(60_000, 0.5), 'the cluster to start');
  const { dataDir } = JSON.parse(stdout) as { dataDir: string };
  const leaders = processes().filter((p) => p.cmd.includes(`-D ${dataDir} `));
  const pgids = new Set(leaders.map((p) => p.pgid));
  expect(leaders.length).toBeGreaterThan(0);
  const ofCluster = () => processes().filter((p) => pgids.has(p.pgid) || p.cmd.includes(dataDir));
  leftovers = ofCluster;
  for (const p of ofCluster()) process.kill(p.pid, 'SIGSTOP');
  await waitFor(() => ofCluster().every((p) => readFileSync(`/proc/${p.pid}/stat`, 'utf8').includes(') T ')), scaledMs(10_000, 0.25), 'the cluster to stop');
  return { child, exited, ofCluster };
}

describe('a test process that dies leaves no PostgreSQL of its own behind', () => {
  it('a failing test (an uncaught error ends the process): the stopped cluster and its runuser are killed', async () => {
    const { child, exited, ofCluster } = await startDying('throw');
    expect(ofCluster().length).toBeGreaterThan(0);
    child.stdin.write('fail\n');
    expect(await exited).toBe(1);
    await waitFor(() => ofCluster().length === 0, scaledMs(10_000, 0.25), 'the cluster to be gone');
    expect(ofCluster()).toEqual([]);
  });

  it('a test process killed outright (SIGKILL, a time limit): the watchdog kills the stopped cluster and its runuser', async () => {
    const { child, exited, ofCluster } = await startDying('kill');
    expect(ofCluster().length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await exited;
    await waitFor(() => ofCluster().length === 0, scaledMs(10_000, 0.25), 'the cluster to be gone');
    expect(ofCluster()).toEqual([]);
  });
});
