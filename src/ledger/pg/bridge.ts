/**
 * A synchronous call into a worker thread (docs/ledger-and-safety.md, "Team ledger"): the ledger's API is
 * synchronous (a payment checks and records in one step, a batch groups rows in one transaction),
 * while a PostgreSQL driver is asynchronous. The worker (src/ledger/pg/worker.ts) owns the one
 * database connection; the caller posts a request on a message port and sleeps in `Atomics.wait`
 * until the worker has posted its answer and raised a shared flag, then takes the answer with
 * `receiveMessageOnPort`. One call at a time; nothing of the caller runs meanwhile.
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import { t } from '../../core/i18n/index.js';

type WorkerThreads = typeof import('node:worker_threads');
/** `node:worker_threads`, loaded with the first team ledger (a local-ledger paycli never loads it). */
const threads = (): WorkerThreads => require('node:worker_threads') as WorkerThreads;

/** An error the worker answered with: its text, and the driver's code (a SQLSTATE like `28P01`, or `ECONNREFUSED`). */
export class WorkerCallError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'WorkerCallError';
    this.code = code;
  }
}

/** What the worker posts back: a result, or an error's message and code. */
export type WorkerAnswer = { ok: true; value: unknown } | { ok: false; message: string; code?: string };

/** The caller's side of the bridge: one worker, one port, one shared flag. */
export class SyncWorker {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  private dead: string | undefined;
  /** A call was posted and its answer not taken yet. */
  private posted = false;

  /**
   * Starts the worker script `file` (a built .cjs beside the bundle).
   * @param data given to the worker as `workerData.data`
   */
  constructor(file: string, data: unknown, onEvent?: (event: unknown) => void) {
    const { MessageChannel, Worker } = threads();
    const { port1, port2 } = new MessageChannel();
    const events = new MessageChannel();
    // [0]: an answer is ready; [1]: the worker saw its connection end (set without any call).
    this.flag = new Int32Array(new SharedArrayBuffer(8));
    this.worker = new Worker(file, { workerData: { port: port2, events: events.port2, flag: this.flag, data }, transferList: [port2, events.port2], stdout: false, stderr: false });
    events.port1.on('message', (m: unknown) => onEvent?.(m));
    events.port1.unref();
    // The process may end while the worker lives: the connection then closes with it, which is
    // how other paycli learn that this run is gone.
    this.worker.unref();
    this.port = port1;
    this.port.unref();
  }

  /**
   * Calls `op` in the worker and waits for its answer.
   * @throws WorkerCallError with the worker's message and code
   */
  call<T>(op: string, ...args: unknown[]): T {
    this.post(op, ...args);
    return this.answer<T>();
  }

  /**
   * Starts `op` in the worker without waiting: the caller goes on with its own work, and takes the
   * answer with {@link answer} before any other call.
   * @throws WorkerCallError when the worker is gone
   */
  post(op: string, ...args: unknown[]): void {
    if (this.dead) throw new WorkerCallError(this.dead, 'WORKER_GONE');
    if (this.posted) throw new Error(`the team ledger's worker has a call waiting for its answer (${op})`);
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ op, args });
    this.posted = true;
  }

  /**
   * Waits for the answer of the call {@link post}ed last.
   * @throws WorkerCallError with the worker's message and code
   */
  answer<T>(): T {
    if (!this.posted) throw new Error('no call of the team ledger is waiting for its answer');
    this.posted = false;
    // The worker answers every call (its driver has time limits of its own); the wait is bounded
    // anyway so that a worker that died is noticed.
    for (;;) {
      const r = Atomics.wait(this.flag, 0, 0, 60_000);
      const msg = threads().receiveMessageOnPort(this.port);
      if (msg) {
        const answer = msg.message as WorkerAnswer;
        if (answer.ok) return answer.value as T;
        throw new WorkerCallError(answer.message, answer.code);
      }
      if (r === 'timed-out' && Atomics.load(this.flag, 0) === 0) {
        this.dead = t('team.workerTimeout', 60);
        throw new WorkerCallError(this.dead, 'WORKER_TIMEOUT');
      }
    }
  }

  /** True once the worker has seen its connection end (no call needed). */
  get lost(): boolean {
    return Atomics.load(this.flag, 1) === 1;
  }

  /** Ends the worker (its connection closes with it). */
  close(): void {
    this.dead ??= t('team.workerClosed');
    void this.worker.terminate();
  }
}
