// The built `paycli sandbox` on 127.0.0.1 for the scripts that measure or photograph it
// (scripts/dashboard-screenshot.mjs, scripts/sandbox-memory.mjs): a fresh state folder of its own
// (data, config and HOME), killed and removed when the script exits (Ctrl-C ends it with 130).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/**
 * Starts the sandbox and resolves once it printed its API's address and its dashboard's.
 * @param {string} prefix the temporary folder's name prefix
 * @param {Record<string, string>} [env] more environment for it
 * @param {string[]} [args] more arguments of `paycli sandbox` (e.g. `--opening-balance`)
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, url: string, dashboard: string }>}
 * @throws Error when the sandbox exits before
 */
export async function startSandboxChild(prefix, env = {}, args = []) {
  const data = mkdtempSync(join(tmpdir(), prefix));
  const child = spawn(process.execPath, [join(root, 'bin/paycli.cjs'), 'sandbox', '--port', '0', ...args], {
    env: { ...process.env, PAYCLI_DATA_DIR: data, PAYCLI_CONFIG_DIR: join(data, 'config'), HOME: data, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  process.on('exit', () => {
    child.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
  let log = '';
  const [url, dashboard] = await new Promise((ok, fail) => {
    child.stderr.setEncoding('utf8').on('data', (d) => {
      log = (log + d).slice(-4096);
      const a = /listening on (http:\/\/\S+)/.exec(log);
      const b = /dashboard on (http:\/\/\S+)/.exec(log);
      if (a && b) ok([a[1], b[1]]);
    });
    child.once('exit', (c) => fail(new Error(`sandbox exited ${c}: ${log}`)));
  });
  return { child, url, dashboard };
}
