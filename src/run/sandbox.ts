/**
 * `paycli sandbox`: runs the built-in sandbox standalone until Ctrl-C or SIGTERM; one log line per
 * request on stderr. See src/sandbox/server.ts for what it implements.
 */
import { UsageError } from '../errors.js';
import { logger } from '../output/logger.js';
import { startSandbox } from '../sandbox/server.js';

/** Options of `paycli sandbox`. */
export interface SandboxRunOptions {
  port: string;
  host: string;
  apiKey?: string;
  acquirer?: boolean;
  json?: boolean;
}

/** Starts the sandbox and resolves when it is stopped by SIGINT/SIGTERM. */
export async function run(opts: SandboxRunOptions): Promise<void> {
  if (!/^[0-9]+$/.test(opts.port) || Number(opts.port) > 65535) throw new UsageError(`--port must be a port number 0-65535, got "${opts.port}"`, { field: '--port' });
  let sandbox;
  try {
    sandbox = await startSandbox({
      host: opts.host,
      port: Number(opts.port),
      apiKey: opts.apiKey,
      noAcquirer: opts.acquirer === false,
      log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
    });
  } catch (err) {
    throw new UsageError(`cannot listen on ${opts.host}:${opts.port} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { field: '--port' });
  }
  logger.notice(`sandbox listening on ${sandbox.url} (no money moves${opts.apiKey ? '; API key required' : ''}${opts.acquirer === false ? '; no active acquirer' : ''})`);
  process.stderr.write(`listening on ${sandbox.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sandbox.close();
}
