/**
 * src/core/fd-writer.ts: stdout and stderr written straight to a file or a pipe (the direct route of
 * `history`), with Node's stream taking over when the descriptor would block, and write errors
 * emitted as a stream emits them (src/cli/stream-guard.ts listens). test/e2e/history-direct.test.ts
 * runs the built paycli with its output on files and pipes.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FdWriter, writableDirectly } from '../../src/core/fd-writer.js';

const dirs: string[] = [];
const fds: number[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'paycli-fd-'));
  dirs.push(d);
  return d;
};
const open = (file: string, flags: number) => {
  const fd = openSync(file, flags);
  fds.push(fd);
  return fd;
};
afterEach(() => {
  for (const fd of fds.splice(0)) closeSync(fd);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A stand-in for Node's stream: what it was given, in order. */
function fakeStream() {
  const written: string[] = [];
  const listeners: string[] = [];
  const stream = {
    write: (chunk: string | Uint8Array) => (written.push(Buffer.from(chunk).toString('utf8')), true),
    on: (event: string) => (listeners.push(event), stream),
    once: (event: string) => (listeners.push(event), stream),
  };
  return { stream: stream as unknown as NodeJS.WritableStream, written, listeners };
}

describe('FdWriter', () => {
  it('takes files, FIFOs and /dev/null, not a closed descriptor or another device', () => {
    const d = tmp();
    expect(writableDirectly(open(join(d, 'out'), constants.O_WRONLY | constants.O_CREAT))).toBe(true);
    execFileSync('mkfifo', [join(d, 'fifo')]);
    expect(writableDirectly(open(join(d, 'fifo'), constants.O_RDWR))).toBe(true);
    expect(writableDirectly(open('/dev/null', constants.O_WRONLY))).toBe(true);
    expect(writableDirectly(open('/dev/zero', constants.O_WRONLY))).toBe(false);
    expect(writableDirectly(987654)).toBe(false);
  });

  it('writes every byte in order (text as UTF-8) and calls a write callback', async () => {
    const file = join(tmp(), 'out');
    const fake = fakeStream();
    const w = new FdWriter(open(file, constants.O_WRONLY | constants.O_CREAT), () => fake.stream);
    const done = new Promise((resolve) => w.write('não é\n', resolve));
    expect(w.write(Buffer.from('R$ 1,00\n'))).toBe(true);
    await done;
    expect(readFileSync(file, 'utf8')).toBe('não é\nR$ 1,00\n');
    expect(fake.written).toEqual([]);
  });

  it("hands the rest and every later write to Node's stream, with its listeners, when the descriptor would block", () => {
    const fifo = join(tmp(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    const fd = open(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const fake = fakeStream();
    const w = new FdWriter(fd, () => fake.stream);
    w.on('error', () => undefined);
    const big = 'x'.repeat(1 << 20); // more than a pipe holds
    w.write(big);
    w.write('after\n');
    const inPipe = Buffer.alloc(1 << 20);
    const held = readSync(fd, inPipe);
    expect(held).toBeGreaterThan(0);
    expect(inPipe.subarray(0, held).toString() + fake.written.join('')).toBe(`${big}after\n`);
    expect(fake.listeners).toEqual(['error']);
  });

  it("emits a write error as 'error' on the next tick, and writes nothing more", async () => {
    const file = join(tmp(), 'out');
    const w = new FdWriter(open(file, constants.O_RDONLY | constants.O_CREAT), () => fakeStream().stream);
    const errors: NodeJS.ErrnoException[] = [];
    w.on('error', (err) => errors.push(err as NodeJS.ErrnoException));
    expect(w.write('lost\n')).toBe(false);
    expect(errors).toEqual([]);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(errors.map((e) => e.code)).toEqual(['EBADF']);
    expect(w.write('more\n')).toBe(false);
  });
});
