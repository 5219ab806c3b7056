/**
 * Reading what was piped on stdin (`--input -`, `brcode decode -`, a key or secret piped to
 * `auth login` / `config set`): always from the run's stdin stream (src/core/terminal.ts
 * `RunContext.stdin`: the process's, or an in-process test's), never from file descriptor 0 directly.
 */

/**
 * Reads `stream` to its end, at most `maxBytes` bytes.
 * @param stream the run's stdin (`ctx.stdin`)
 * @param maxBytes the most bytes accepted (default: no limit)
 * @returns the bytes, or `undefined` as soon as there are more than `maxBytes` (the rest is not read)
 * @throws the stream's error (e.g. EISDIR when stdin is a folder), with its `code`
 */
export async function readStdin(stream: NodeJS.ReadableStream, maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let len = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    len += buf.length;
    if (len > maxBytes) {
      (stream as NodeJS.ReadableStream & { destroy?(): void }).destroy?.();
      return undefined;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, len);
}

/** Reads `stream` to its end as UTF-8 text. @throws as {@link readStdin} */
export async function readStdinText(stream: NodeJS.ReadableStream): Promise<string> {
  return (await readStdin(stream))!.toString('utf8');
}
