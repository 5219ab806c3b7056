/** Starts `paycli listen --port 0 ...` as a child process and records what it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv, PAYCLI, scaledMs } from './cli.js';
import { track } from './reaper.js';

/** A running `paycli listen`. */
export interface ListenProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed on stdout so far. */
  stdout(): string;
  /** Everything it printed on stderr so far. */
  stderr(): string;
  /** Sends SIGTERM (or `signal`) and resolves with how it ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `paycli [globals] listen --port 0 ...extra` and waits for its "listening on" line. */
export function startListenProcess(extra: string[] = [], env: Record<string, string> = {}, globals: string[] = []): Promise<ListenProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PAYCLI, ...globals, 'listen', '--port', '0', ...extra], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // its own process group, killed with the test process, or by the watchdog (test/helpers/reaper.ts)
    track(child, { group: true, watch: true });
    let stdout = '';
    let stderr = '';
    let started = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(new Error(`listen did not start: ${stderr}`));
      },
      scaledMs(10_000, 0.5),
    );
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const m = /listening on (http:\/\/\S+)|"listening":"(http:\/\/[^"]+)"/.exec(stderr);
      if (m && !started) {
        started = true;
        clearTimeout(timer);
        resolve({
          url: (m[1] ?? m[2])!,
          child,
          stdout: () => stdout,
          stderr: () => stderr,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) {
              child.kill(signal);
              const killer = setTimeout(() => child.kill('SIGKILL'), scaledMs(5_000, 0.25));
              void exited.then(() => clearTimeout(killer));
            }
            return exited;
          },
        });
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`listen exited ${code}: ${stderr}`));
    });
  });
}

/** Polls `check` every 25 ms until it returns true or `timeoutMs` passes (default: 5 s, more on a busy machine). */
export async function waitFor(check: () => boolean, timeoutMs = scaledMs(5_000, 0.25), what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
