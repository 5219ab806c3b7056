/**
 * Runs the built paycli in a real pseudo-terminal: a detached tmux session of fixed size on its
 * own server socket (`tmux -L <unique>`), driven with `send-keys` and read with `capture-pane`.
 * Every wait is bounded. The exit code is written by the shell to a file when paycli ends.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, PAYCLI } from './cli.js';

let counter = 0;

/** Single-quotes a word for sh. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A paycli run inside tmux. */
export interface TtySession {
  /** The visible screen, wrapped lines joined. */
  screen(): string;
  /** The visible screen with its colour escape sequences (`capture-pane -e`). */
  rawScreen(): string;
  /** Waits (at most `timeoutMs`) until the screen matches; returns the screen. Throws with the screen on time-out. */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  /** Types text literally (no Enter). */
  type(text: string): void;
  /** Sends named keys, e.g. `Enter`, `Down`, `C-c`, `BSpace`. */
  keys(...names: string[]): void;
  /** Types `text` and presses Enter. */
  answer(text: string): void;
  /** Waits (bounded) for paycli to exit; returns its exit code. */
  exitCode(timeoutMs?: number): Promise<number>;
  /** Kills the tmux server of this session. */
  kill(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `paycli ...args` in a fresh tmux server with `env` (PAYCLI_* and proxy variables of
 * the test runner are removed first). `dir` receives the exit-code file.
 */
export function startTty(args: string[], env: Record<string, string>, dir: string, size = { cols: 200, rows: 50 }): TtySession {
  const socket = `paycli-test-${process.pid}-${++counter}`;
  const exitFile = join(dir, `exit-${counter}`);
  // a person at a terminal: no CI markers either (chalk turns colour off under CI=true)
  const tmuxEnv = childEnv({ ...env, TERM: 'xterm-256color' }, /^(TMUX|CI|CONTINUOUS_INTEGRATION)$/);
  const cmd = `${[process.execPath, PAYCLI, ...args].map(q).join(' ')}; echo EXIT=$? > ${q(exitFile)}; exec sleep 600`;
  const tmux = (...a: string[]) => {
    const r = spawnSync('tmux', ['-L', socket, ...a], { env: tmuxEnv, encoding: 'utf8', timeout: 5000 });
    if (r.status !== 0) throw new Error(`tmux ${a[0]} failed: ${r.stderr}`);
    return r.stdout;
  };
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'paycli', '-x', String(size.cols), '-y', String(size.rows), 'sh', '-c', cmd);
  const socketPath = tmux('display-message', '-p', '-t', 'paycli', '#{socket_path}').trim();
  const session: TtySession = {
    screen: () => tmux('capture-pane', '-p', '-J', '-t', 'paycli'),
    rawScreen: () => tmux('capture-pane', '-p', '-e', '-J', '-t', 'paycli'),
    async waitFor(pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const s = session.screen();
        if (typeof pattern === 'string' ? s.includes(pattern) : pattern.test(s)) return s;
        if (Date.now() > deadline) throw new Error(`screen did not show ${String(pattern)} within ${timeoutMs} ms:\n${s}`);
        await sleep(50);
      }
    },
    type: (text) => void tmux('send-keys', '-t', 'paycli', '-l', text),
    keys: (...names) => void tmux('send-keys', '-t', 'paycli', ...names),
    answer(text) {
      if (text) session.type(text);
      session.keys('Enter');
    },
    async exitCode(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!existsSync(exitFile) || !readFileSync(exitFile, 'utf8').includes('\n')) {
        if (Date.now() > deadline) throw new Error(`paycli did not exit within ${timeoutMs} ms:\n${session.screen()}`);
        await sleep(50);
      }
      return Number(/EXIT=(\d+)/.exec(readFileSync(exitFile, 'utf8'))![1]);
    },
    kill: () => {
      spawnSync('tmux', ['-L', socket, 'kill-server'], { timeout: 5000 });
      if (socketPath) rmSync(socketPath, { force: true });
    },
  };
  return session;
}
