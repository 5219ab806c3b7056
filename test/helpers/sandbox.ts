/** Starts the standalone sandbox (`paycli sandbox --port 0 ...`) as a child process. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv, PAYCLI, scaledMs } from './cli.js';
import { track } from './reaper.js';

/** A running standalone sandbox. */
export interface SandboxProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed on stderr so far. */
  log(): string;
  /**
   * Resolves with {@link log} once it matches `text` (the sandbox logs a request just after it answers
   * it, so a client may have its answer first); rejects when the sandbox ends before.
   */
  waitForLog(text: RegExp | ((log: string) => boolean)): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Spawns `paycli [globals] sandbox --port 0 ...extra` and waits for its "listening on" line
 * (`{"listening": url}` with `--json`).
 */
export function startSandboxProcess(extra: string[] = [], env: Record<string, string> = {}, globals: string[] = []): Promise<SandboxProcess> {
  // The sandbox keeps its state in its data folder across starts: never the user's own, and a fresh one
  // for a test that names no HOME of its own (docs/sandbox-and-postbacks.md, "State across restarts").
  const own = env.PAYCLI_DATA_DIR === undefined && !extra.includes('--data-dir') ? { PAYCLI_DATA_DIR: mkdtempSync(join(tmpdir(), 'paycli-sandbox-')) } : {};
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PAYCLI, ...globals, 'sandbox', '--port', '0', ...extra], {
      env: childEnv({ ...env, ...own }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    // its own process group, killed with the test process, or by the watchdog (test/helpers/reaper.ts)
    track(child, { group: true, watch: true });
    let stderr = '';
    const waiters = new Set<{ text: RegExp | ((log: string) => boolean); resolve(log: string): void; reject(err: Error): void }>();
    const holds = (text: RegExp | ((log: string) => boolean)) => (typeof text === 'function' ? text(stderr) : text.test(stderr));
    const wake = () => {
      for (const w of waiters) if (holds(w.text)) waiters.delete(w), w.resolve(stderr);
    };
    child.on('exit', (code, signal) => {
      for (const w of waiters) w.reject(new Error(`sandbox ended (${code ?? signal}) before its log matched ${w.text}: ${stderr}`));
      waiters.clear();
    });
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(new Error(`sandbox did not start: ${stderr}`));
      },
      scaledMs(10_000, 0.5),
    );
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      wake();
      const m = /listening on (http:\/\/\S+)|"listening":"(http:\/\/[^"]+)"/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: (m[1] ?? m[2])!,
          child,
          log: () => stderr,
          waitForLog: (text) =>
            new Promise<string>((resolveLog, rejectLog) => {
              if (holds(text)) return resolveLog(stderr);
              if (child.exitCode !== null || child.signalCode !== null) return rejectLog(new Error(`sandbox already ended: ${stderr}`));
              waiters.add({ text, resolve: resolveLog, reject: rejectLog });
            }),
          stop: () =>
            new Promise((r) => {
              if (child.exitCode !== null || child.signalCode !== null) return r();
              child.once('exit', () => r());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited ${code}: ${stderr}`));
    });
  });
}
