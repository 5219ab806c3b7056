/**
 * stdout and stderr written straight to their file descriptors, for the direct route (`history`, a batch
 * run's common lines: src/cli/direct.ts; docs/speed.md "History's output without Node's streams"). Node builds
 * `process.stdout` and `process.stderr` on first touch, a stream stack that costs about 8 M and 1-2 M
 * instructions, more than the rest of a short listing's output. A descriptor that is a regular file,
 * a pipe (FIFO) or `/dev/null` is written with `fs.writeSync`, as Node's own stream for a file or a
 * pipe writes it (synchronously, in order); a terminal, a socket or anything else keeps Node's stream.
 * The writer behaves as the stream would for what paycli asks of it: `write` returns true (nothing is
 * ever held), a write error (`EPIPE` when the reader went away, `ENOSPC`) is emitted as `'error'` on the
 * next tick to the listeners of src/cli/stream-guard.ts, and a descriptor that would block (`EAGAIN`:
 * another process made it non-blocking) hands the rest and every later write to Node's stream, with
 * the listeners given so far.
 */
import { fstatSync, writeSync } from 'node:fs';

type Listener = (...args: unknown[]) => void;

/** `/dev/null`'s device number on Linux (major 1, minor 3). */
const DEV_NULL = 0x103;

/**
 * True when `fd` is a regular file, a FIFO or `/dev/null`: writes to it never block for long and never
 * need a terminal's handling. False for anything else, and when `fd` cannot be asked (closed).
 */
export function writableDirectly(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFile() || st.isFIFO() || (st.isCharacterDevice() && st.rdev === DEV_NULL);
  } catch {
    return false;
  }
}

/** A write stream over descriptor 1 or 2 with `fs.writeSync` (see the file's header). */
export class FdWriter {
  private stream: NodeJS.WritableStream | undefined;
  private failed = false;
  private readonly listeners: { event: string; fn: Listener; once: boolean }[] = [];

  /** @param fd 1 or 2 @param real Node's stream for `fd` (stdout's or stderr's own stream), built only when needed */
  constructor(
    readonly fd: number,
    private readonly real: () => NodeJS.WritableStream,
  ) {}

  /** Writes `chunk` in whole (a string as UTF-8); always true unless Node's stream took over and asks to wait. */
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    if (this.stream) return (this.stream.write as (...a: unknown[]) => boolean)(chunk, ...rest);
    const done = rest.find((a): a is (err?: Error | null) => void => typeof a === 'function');
    if (this.failed) return false;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(this.fd, bytes, at, bytes.length - at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return this.toStream().write(bytes.subarray(at), done);
      this.failed = true;
      process.nextTick(() => {
        done?.(err as Error);
        this.emit('error', err);
      });
      return false;
    }
    if (done) process.nextTick(done);
    return true;
  }

  /** Adds a listener (`'error'`; `'drain'` never fires here: no write is ever held). */
  on(event: string, fn: Listener): this {
    if (this.stream) this.stream.on(event, fn);
    else this.listeners.push({ event, fn, once: false });
    return this;
  }

  /** Adds a listener called once. */
  once(event: string, fn: Listener): this {
    if (this.stream) this.stream.once(event, fn);
    else this.listeners.push({ event, fn, once: true });
    return this;
  }

  /** Ends the writer (nothing to flush: every write was made in whole). */
  end(...rest: unknown[]): this {
    const done = rest.find((a): a is () => void => typeof a === 'function');
    if (typeof rest[0] === 'string' || rest[0] instanceof Uint8Array) this.write(rest[0]);
    if (this.stream) this.stream.end();
    if (done) process.nextTick(done);
    return this;
  }

  /** Node's stream from here on, with the listeners given so far. */
  private toStream(): NodeJS.WritableStream {
    const stream = this.real();
    for (const l of this.listeners.splice(0)) (l.once ? stream.once : stream.on).call(stream, l.event, l.fn);
    this.stream = stream;
    return stream;
  }

  private emit(event: string, ...args: unknown[]): void {
    const mine = this.listeners.filter((l) => l.event === event);
    if (event === 'error' && mine.length === 0) throw args[0]; // as a stream's unhandled 'error'
    for (const l of mine) {
      if (l.once) this.listeners.splice(this.listeners.indexOf(l), 1);
      l.fn(...args);
    }
  }
}
