/**
 * No process a test helper started outlives the test process. A test that fails or times out may
 * never reach its `stop()`/`destroy()`, and a test may have frozen a server with SIGSTOP; so every
 * helper that spawns a process registers it here, and it is killed (SIGCONT first, so that a stopped
 * one is running again, then SIGKILL of its process group, or of the process when it shares ours)
 * - when the test process exits (vitest ends a file's worker), from a process 'exit' handler;
 * - on SIGTERM, SIGINT or SIGHUP of the test process;
 * - and, for servers started with `watch: true` (detached, their own process group: the PostgreSQL
 *   clusters, the sandbox, `paycli listen`), even when the test process is killed with SIGKILL
 *   (nothing of it runs then): a small watchdog process, started on the first such server, holds
 *   the read end of a pipe from this process; when this process is gone the pipe ends and the
 *   watchdog kills every group still registered and removes their folders.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/** What is left to kill: process id (a group leader when `group`) and folders to remove after. */
interface Tracked {
  group: boolean;
  dirs: string[];
}
const tracked = new Map<number, Tracked>();
let installed = false;
let watchdog: ChildProcess | undefined;

/**
 * The watchdog's program: reads `+pid dir...` / `-pid` lines; at the end of its input (its parent is
 * gone, whatever way) kills every group still registered (SIGCONT, SIGKILL) and removes the folders.
 */
const WATCHDOG = `
const { rmSync } = require('node:fs');
const live = new Map();
let buf = '';
const reap = () => {
  for (const [pid, dirs] of live) {
    for (const sig of ['SIGCONT', 'SIGKILL']) { try { process.kill(-pid, sig); } catch {} }
    for (const d of dirs) { try { rmSync(d, { recursive: true, force: true }); } catch {} }
  }
  process.exit(0);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const [op, ...rest] = buf.slice(0, i).split('\\t');
    buf = buf.slice(i + 1);
    if (op.startsWith('+')) live.set(Number(op.slice(1)), rest);
    else live.delete(Number(op.slice(1)));
  }
});
process.stdin.on('end', reap);
process.stdin.on('error', reap);
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => undefined);
`;

/** Sends `signal` to the group `pid` (or to the process when `group` is false); ignores a process already gone. */
function signal(pid: number, group: boolean, sig: NodeJS.Signals): void {
  try {
    process.kill(group ? -pid : pid, sig);
  } catch {
    /* already gone */
  }
}

/** Kills a registered process now: SIGCONT (a stopped one runs again), then SIGKILL; removes its folders. */
export function reap(pid: number): void {
  const t = tracked.get(pid);
  if (!t) return;
  signal(pid, t.group, 'SIGCONT');
  signal(pid, t.group, 'SIGKILL');
  for (const d of t.dirs) {
    try {
      rmSync(d, { recursive: true, force: true });
    } catch {
      /* a dying server's files: the temporary folder is the system's to clean */
    }
  }
  forget(pid);
}

/** Every process still registered, killed (see {@link reap}). */
export function reapAll(): void {
  for (const pid of [...tracked.keys()]) reap(pid);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.once('exit', reapAll);
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(sig, () => {
      reapAll();
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGHUP' ? 1 : 15));
    });
  }
}

function startWatchdog(): ChildProcess {
  if (watchdog) return watchdog;
  // Its own process group and session, so that a signal to this process's group leaves it running.
  const w = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  w.unref();
  w.stdin!.on('error', () => undefined);
  (w.stdin as unknown as { unref?: () => void }).unref?.();
  watchdog = w;
  return w;
}

/**
 * Registers `child` to be killed with the test process ({@link reap}). `group`: it leads its own
 * process group (spawned `detached`), and the whole group is killed (a `runuser` and its server, a
 * server and its backends). `watch`: also by the watchdog, should the test process be killed
 * outright (needs `group`). `dirs`: folders removed once it is killed. Forgotten once it exits.
 */
export function track(child: ChildProcess, opts: { group?: boolean; watch?: boolean; dirs?: string[] } = {}): void {
  const pid = child.pid;
  if (pid === undefined) return;
  install();
  const group = opts.group ?? false;
  tracked.set(pid, { group, dirs: opts.dirs ?? [] });
  if (opts.watch && group) startWatchdog().stdin!.write(`+${pid}\t${(opts.dirs ?? []).join('\t')}\n`);
  child.once('exit', () => {
    // a group may outlive its leader (a server's backends): only a plain process is done at its exit
    if (!group) forget(pid);
  });
}

/** Unregisters `pid` (it was stopped cleanly). */
export function forget(pid: number): void {
  if (!tracked.delete(pid)) return;
  if (watchdog?.stdin?.writable) watchdog.stdin.write(`-${pid}\n`);
}
