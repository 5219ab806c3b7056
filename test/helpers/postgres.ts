/**
 * A private PostgreSQL cluster for the team ledger tests (docs/ledger-and-safety.md, "Team ledger"): made
 * with `initdb` in a temporary folder, run by `postgres` on 127.0.0.1 on a free port, torn down
 * after. PostgreSQL refuses to run as root, so when the tests run as root the cluster runs as the
 * `postgres` user (`runuser`), in a folder given to it. TCP connections need a password (scram);
 * the test role `payroll` owns the database `payments`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** The test role's password. */
export const PG_PASSWORD = 'pw_TEAM_ledger_7391';

/** A running cluster. */
export interface PgCluster {
  port: number;
  /** `postgres://payroll@127.0.0.1:<port>/payments` (no password). */
  url: string;
  /** The same with the password in it. */
  urlWithPassword: string;
  /** Runs SQL as the superuser over the cluster's Unix socket; returns psql's unaligned output. */
  sql(text: string): string;
  /** Stops the server (fast shutdown: connections are closed); the data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder of initdb and postgres: the newest /usr/lib/postgresql/<version>/bin. */
export function pgBinDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
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

/**
 * The server processes this test process started and has not stopped, by process group. A test
 * that fails or times out may never reach its `destroy()`: when this process ends (vitest ends a
 * file's worker, or kills it after a time limit) every group left is killed, stopped processes
 * included (SIGKILL needs no SIGCONT), so no `runuser postgres` outlives the suite.
 */
const live = new Set<number>();
let reaperInstalled = false;

/** Kills the process group `pgid` (the server and its `runuser`), if it is still there. */
function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  live.delete(pgid);
}

function installReaper(): void {
  if (reaperInstalled) return;
  reaperInstalled = true;
  process.once('exit', () => [...live].forEach(killGroup));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      [...live].forEach(killGroup);
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
    });
  }
}

/** Makes and starts a cluster. */
export async function startPostgres(): Promise<PgCluster> {
  installReaper();
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
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    const [cmd, args] = as(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=100']);
    // its own process group, so that it and its runuser can be killed together ({@link killGroup})
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    server = child;
    if (child.pid !== undefined) live.add(child.pid);
    child.once('exit', () => child.pid !== undefined && live.delete(child.pid));
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
    return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
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
    // A fast shutdown: clients are disconnected; pg_ctl waits until the server is down. If it cannot
    // (a busy machine, a server that does not answer), the group is killed: a test never leaves one.
    const [cmd, args] = as(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
    try {
      execFileSync(cmd, args, { stdio: 'pipe' });
    } catch {
      if (child.pid !== undefined) killGroup(child.pid);
    }
    await exited;
  };
  await start();
  psql(`CREATE ROLE payroll LOGIN PASSWORD '${PG_PASSWORD}'`);
  psql('CREATE DATABASE payments OWNER payroll');
  return {
    port,
    url: `postgres://payroll@127.0.0.1:${port}/payments`,
    urlWithPassword: `postgres://payroll:${PG_PASSWORD}@127.0.0.1:${port}/payments`,
    sql: (text) => {
      const [cmd, args] = as(join(bin, 'psql'), ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'payments', '-v', 'ON_ERROR_STOP=1', '-AXqt', '-c', text]);
      return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
    },
    stop,
    start,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
