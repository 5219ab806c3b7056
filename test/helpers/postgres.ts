/**
 * A private PostgreSQL cluster for the team ledger tests (docs/ledger-and-safety.md, "Team ledger"): made
 * with `initdb` in a temporary folder, run by `postgres` on 127.0.0.1 on a free port, torn down
 * after. PostgreSQL refuses to run as root, so when the tests run as root the cluster runs as the
 * `postgres` user (`runuser`), in a folder given to it. TCP connections need a password (scram),
 * but for `payroll_trusted`, a member of `payroll`, let in without one; the test role `payroll` owns
 * the database `payments`.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { forget, reap, track } from './reaper.js';

/** How long a stop may wait for the server to shut down (ms): half the test time limit, at least 30 s. */
const STOP_WAIT_MS = Math.max(30_000, Math.round(Number(process.env.VITEST_TIME_LIMIT_MS ?? 0) / 2));

/** The test role's password. */
export const PG_PASSWORD = 'pw_TEAM_ledger_7391';
/** The role the server lets in over TCP without a password ({@link PgCluster.urlTrusted}). */
const TRUSTED_ROLE = 'payroll_trusted';

/** A running cluster. */
export interface PgCluster {
  port: number;
  /** `postgres://payroll@127.0.0.1:<port>/payments` (no password). */
  url: string;
  /** The same with the password in it. */
  urlWithPassword: string;
  /** `postgres://payroll_trusted@127.0.0.1:<port>/payments`: a member of `payroll` whom the server asks no password. */
  urlTrusted: string;
  /** Runs SQL as the superuser over the cluster's Unix socket; returns psql's unaligned output. */
  sql(text: string): string;
  /** Stops the server (fast shutdown: connections are closed); the data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
  /**
   * Freezes the server: SIGSTOP to the postmaster and every process under it (a backend runs in a
   * process group of its own). The kernel still accepts TCP connections on its port; nothing
   * answers them, nor any statement on an open connection, until {@link thaw}.
   */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT); a server not frozen is left as it is. */
  thaw(): void;
  /** The cluster's data folder (`postgres -D`), by which its processes are found. */
  dataDir: string;
}

/** The folder of initdb and postgres: the newest /usr/lib/postgresql/<version>/bin. */
export function pgBinDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  throw new Error('PostgreSQL is not installed (scripts/test-deps.txt: package postgresql)');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const asRoot = userInfo().uid === 0;
/** A command as the cluster's owner: `runuser -u postgres --` when the tests run as root. */
const as = (cmd: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);

/** The processes under `pid` (children first-level first), from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const out: number[] = [];
  for (let i = -1; i < out.length; i++) out.push(...(children.get(i < 0 ? pid : out[i]!) ?? []));
  return out;
}

/** Makes and starts a cluster. */
export async function startPostgres(): Promise<PgCluster> {
  const bin = pgBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'paycli-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${PG_PASSWORD}\n`);
  if (asRoot) chownSync(pwfile, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), 0);
  const [c, a] = as(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '--pwfile', pwfile, '-E', 'UTF8', '--no-instructions']);
  execFileSync(c, a, { stdio: 'pipe' });
  // one role that connects over TCP without a password (the first matching line wins): a server that asks none
  const hba = join(data, 'pg_hba.conf');
  writeFileSync(hba, `host payments ${TRUSTED_ROLE} 127.0.0.1/32 trust\n${readFileSync(hba, 'utf8')}`);
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    const [cmd, args] = as(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=100',
    ]);
    // Its own process group, so that it, its runuser and its backends are killed together; killed
    // with the test process, or by the watchdog when that is killed outright (test/helpers/reaper.ts).
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    server = child;
    track(child, { group: true, watch: true, dirs: [dir] });
    let log = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        log += d;
        if (log.includes('ready to accept connections')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready:\n${log}`)));
    });
  };
  const psql = (text: string): string => {
    const [cmd, args] = as(join(bin, 'psql'), ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-AXqt', '-c', text]);
    return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      .toString()
      .trim();
  };
  const stop = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // A stopped server (a test froze it) must run to shut down.
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGCONT');
      } catch {
        /* gone */
      }
    }
    // A fast shutdown: clients are disconnected; pg_ctl waits until the server is down (without
    // blocking this process, so that vitest's own time limits still work). If it cannot within half
    // the test time limit (vitest.config.ts measures it on this machine, busy or not), the group is
    // killed: a test never leaves one.
    const [cmd, args] = as(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w', '-t', String(Math.ceil(STOP_WAIT_MS / 1000))]);
    const stopped = await new Promise<boolean>((resolve) => execFile(cmd, args, { timeout: STOP_WAIT_MS + 5_000 }, (err) => resolve(!err)));
    if (!stopped && child.pid !== undefined) reap(child.pid);
    await exited;
    if (child.pid !== undefined) forget(child.pid);
  };
  const signalGroup = (sig: 'SIGSTOP' | 'SIGCONT') => {
    if (server?.pid === undefined || server.exitCode !== null) return;
    // parents first: a stopped postmaster starts no new backend while its children are stopped
    for (const pid of [server.pid, ...descendants(server.pid)]) {
      try {
        process.kill(pid, sig);
      } catch {
        /* gone */
      }
    }
  };
  await start();
  psql(`CREATE ROLE payroll LOGIN PASSWORD '${PG_PASSWORD}'`);
  psql('CREATE DATABASE payments OWNER payroll');
  psql(`CREATE ROLE ${TRUSTED_ROLE} LOGIN IN ROLE payroll`);
  return {
    port,
    url: `postgres://payroll@127.0.0.1:${port}/payments`,
    urlTrusted: `postgres://${TRUSTED_ROLE}@127.0.0.1:${port}/payments`,
    urlWithPassword: `postgres://payroll:${PG_PASSWORD}@127.0.0.1:${port}/payments`,
    sql: (text) => {
      const [cmd, args] = as(join(bin, 'psql'), ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'payments', '-v', 'ON_ERROR_STOP=1', '-AXqt', '-c', text]);
      return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
        .toString()
        .trim();
    },
    stop,
    start,
    freeze: () => signalGroup('SIGSTOP'),
    thaw: () => signalGroup('SIGCONT'),
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    dataDir: data,
  };
}
