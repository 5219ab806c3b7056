/**
 * Runs the built paycli (bin/paycli.cjs → dist/) as a user would: a child process with its own
 * config and data folders, no terminal, stdin closed unless given.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { track } from './reaper.js';

/** Absolute path of the launcher. */
export const PAYCLI = resolve(__dirname, '../../bin/paycli.cjs');

/** What a run produced. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** An isolated home for paycli: config and data folders under a fresh temp dir. */
export interface Home {
  dir: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** Makes a fresh home (PAYCLI_CONFIG_DIR, PAYCLI_DATA_DIR, HOME) for one test or suite. */
export function makeHome(): Home {
  const dir = mkdtempSync(join(tmpdir(), 'paycli-test-'));
  return {
    dir,
    env: { PAYCLI_CONFIG_DIR: join(dir, 'config'), PAYCLI_DATA_DIR: join(dir, 'data'), HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg') },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The code cache (src/cli/compile-cache.ts) the test runs share unless a test gives its own
 * `PAYCLI_CACHE_DIR`: warm after the first runs, as on a user's machine, and never the user's own.
 */
export const TEST_CACHE_DIR = join(tmpdir(), `paycli-test-cache-${process.getuid?.() ?? 'user'}`);

/**
 * What paycli reads from its environment; the test runner's own values never reach a child. The
 * locale variables and the time zone are among them: a child runs with `LANG=C.UTF-8` (English
 * messages, whatever the machine's locale) and `TZ=UTC` (times as the tests write them, wherever the
 * machine is) unless the test sets them. libpq's `PG*` variables (a team ledger's password) are too.
 */
const READ_BY_PAYCLI =
  /^(PAYCLI_|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|NO_PROXY$|https?_proxy$|no_proxy$|NODE_DISABLE_COMPILE_CACHE$|LANG$|LANGUAGE$|LC_ALL$|LC_MESSAGES$|TZ$|PG[A-Z]+$)/;

/**
 * Environment of a paycli child (every helper that spawns one uses it): the parent's minus
 * anything paycli reads and minus `alsoRemove`, with {@link TEST_CACHE_DIR}, `LANG=C.UTF-8` and `TZ=UTC`, plus `env`
 * (an `undefined` value removes the variable).
 */
export function childEnv(env: Record<string, string | undefined>, alsoRemove?: RegExp): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(base)) if (READ_BY_PAYCLI.test(k) || alsoRemove?.test(k)) delete base[k];
  base.PAYCLI_CACHE_DIR = TEST_CACHE_DIR;
  base.LANG = 'C.UTF-8';
  base.TZ = 'UTC';
  const out = { ...base, ...env };
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return out;
}

/**
 * How long {@link runPaycli} lets a paycli run by default (ms): 15 s, or 3/4 of the test time limit when
 * that is longer (vitest.config.ts derives it from a measured start on this machine, busy or not).
 */
const DEFAULT_KILL_MS = scaledMs(15_000, 0.75);

/**
 * A wait that follows the machine (ms): `share` of the test time limit (`VITEST_TIME_LIMIT_MS`, which
 * vitest.config.ts derives from a measured start on this machine, busy or not), never under `floorMs`
 * (the value on an idle machine). For waits that end early on an event and only give up at this time.
 */
export function scaledMs(floorMs: number, share: number): number {
  return Math.max(floorMs, Math.round(Number(process.env.VITEST_TIME_LIMIT_MS ?? 0) * share));
}

/**
 * Runs `node [nodeArgs] paycli ...args`; resolves when it exits (or is killed after `timeoutMs`,
 * default {@link DEFAULT_KILL_MS}).
 * `wrapper` runs it under another program, e.g. `['faketime', '-f', '+11m']`.
 */
export function runPaycli(
  args: string[],
  opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; nodeArgs?: string[]; wrapper?: string[] } = {},
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const argv = [process.execPath, ...(opts.nodeArgs ?? []), PAYCLI, ...args];
    const [command, ...rest] = [...(opts.wrapper ?? []), ...argv];
    const child = spawn(command!, rest, { env: childEnv(opts.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
    track(child); // killed with the test process should the test end before it (test/helpers/reaper.ts)
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? DEFAULT_KILL_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Flags of a valid cash-in. */
export const CASHIN_ARGS = [
  'cashin',
  '--value',
  '1000',
  '--payer-name',
  'Fulano de Tal',
  '--payer-document',
  '123.456.789-09',
  '--payer-email',
  'fulano@example.com',
  '--payer-phone',
  '(11) 98765-4321',
  '--product-name',
  'Camiseta',
  '--product-description',
  'Camiseta azul M',
];

/** Flags of a valid cash-out (add `--yes`). */
export const CASHOUT_ARGS = [
  'cashout',
  '--value',
  '1550',
  '--pix-key-type',
  'email',
  '--pix-key',
  'Fulano@Example.com',
  '--person-name',
  'Fulano de Tal',
  '--person-email',
  'fulano@example.com',
  '--person-phone',
  '11987654321',
];

/** A paycli started in the background: signal it, wait for text on its stderr, wait for its end. */
export interface RunningPaycli {
  child: ReturnType<typeof spawn>;
  /** stderr so far. */
  stderr(): string;
  /** Resolves once stderr holds `text` (rejects when the process ends first). */
  waitForStderr(text: string | RegExp): Promise<void>;
  done: Promise<RunResult>;
}

/** Starts `node paycli ...args` without waiting for it (see {@link runPaycli} for the options). */
export function spawnPaycli(args: string[], opts: { env?: Record<string, string | undefined>; input?: string } = {}): RunningPaycli {
  const child = spawn(process.execPath, [PAYCLI, ...args], { env: childEnv(opts.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
  track(child); // stopped (SIGSTOP) or not, killed with the test process (test/helpers/reaper.ts)
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ test: (s: string) => boolean; resolve: () => void; reject: (e: Error) => void }> = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    for (const w of [...waiters]) if (w.test(stderr)) waiters.splice(waiters.indexOf(w), 1), w.resolve();
  });
  const done = new Promise<RunResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0)) w.reject(new Error(`paycli ended (code ${code}, signal ${signal}) before stderr held the text; stderr:\n${stderr}`));
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
  child.stdin!.end(opts.input ?? '');
  return {
    child,
    stderr: () => stderr,
    waitForStderr: (text) =>
      new Promise<void>((resolve, reject) => {
        const test = (s: string) => (typeof text === 'string' ? s.includes(text) : text.test(s));
        if (test(stderr)) return resolve();
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`paycli already ended; stderr:\n${stderr}`));
        waiters.push({ test, resolve, reject });
      }),
    done,
  };
}

/**
 * How long one paycli start takes on this machine now (ms): the median of three `paycli --version`
 * runs. For a test that starts paycli many times, so that its time limit follows the machine's
 * speed and load ({@link startBudget}) instead of a fixed number.
 */
export async function measureStartMs(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await runPaycli(['--version'], { timeoutMs: 120_000 });
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[1]!;
}

/**
 * A time limit for a test that starts paycli `starts` times one after another (ms): 10 times the
 * measured start ({@link measureStartMs}) for each, and never less than 20 s.
 */
export function startBudget(startMs: number, starts: number): number {
  return Math.max(20_000, Math.ceil(startMs * 10 * starts));
}

/** Runs `fn` on every item, at most `limit` at a time (independent paycli starts); results in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
