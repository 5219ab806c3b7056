/**
 * paycli on the Node that runs this test (docs/node-versions.md): `npm test` runs it on the machine's
 * Node, `npm run test:node-matrix` on each supported line (scripts/test-node-matrix.sh).
 * - `paycli --version --verbose` names this Node, the ledger's SQLite driver (src/core/sqlite/connect.ts)
 *   and where the ledger, config and cache are;
 * - 200 consecutive payments on the built-in sandbox (cash-ins and cash-outs, every fourth with
 *   `--json` piped into `cat`): 200 exit codes 0, complete JSON, no abort, no warning on stderr;
 * - one batch of 2,000 cash-outs: exit 0, 2,000 complete JSON lines, 2,000 `ok` entries.
 * The long runs have a generous bound in time (a count of runs, not a speed).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, childEnv, makeHome, PAYCLI, runPaycli } from '../helpers/cli.js';
import { ledgerRows } from '../helpers/ledger.js';
import { chooseDriver } from '../../src/core/sqlite/connect.js';

const home = makeHome();
afterAll(() => home.cleanup());

/** What must never reach stderr: an abort of Node or of a native addon, or Node's SQLite warning. */
const NEVER_ON_STDERR = /Assertion failed|Aborted|core dumped|ExperimentalWarning|SQLite is an experimental feature/;

/** Runs paycli as `paycli … | cat` in bash (pipefail: the exit code is paycli's, 134 for an abort). */
function runPiped(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', '"$@" | cat', 'bash', process.execPath, PAYCLI, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('paycli --version --verbose', () => {
  it('names this Node, the SQLite driver and its SQLite version, and where the ledger, config and cache are', async () => {
    const env = { ...home.env, PAYCLI_CACHE_DIR: join(home.dir, 'cache') };
    const r = await runPaycli(['--version', '--verbose'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const driver = chooseDriver();
    expect(r.stdout).toMatch(/^paycli +\d+\.\d+\.\d+\n/);
    expect(r.stdout).toContain(`\nnode       ${process.version}`);
    expect(r.stdout).toMatch(driver === 'node:sqlite' ? /\nsqlite +node:sqlite \(SQLite 3\.\d+\.\d+\)\n/ : /\nsqlite +better-sqlite3 12\.\d+\.\d+ \(SQLite 3\.\d+\.\d+\)\n/);
    expect(r.stdout).toContain(`\nledger     ${join(home.env.PAYCLI_DATA_DIR!, 'ledger.db')}\n`);
    expect(r.stdout).toContain(`\nconfig     ${join(home.env.PAYCLI_CONFIG_DIR!, 'config.json')}\n`);
    expect(r.stdout).toContain(`\ncache      ${join(home.dir, 'cache')}\n`);

    // the same as JSON, in either order of the flags; the bare --version stays the bare version
    const j = await runPaycli(['--json', '--verbose', '-V'], { env });
    expect(j.code, j.stderr).toBe(0);
    const info = JSON.parse(j.stdout) as { paycli: string; node: { version: string }; sqlite: { driver: string; version: string }; ledger: string; codeCache: { by: string } };
    expect(info.node.version).toBe(process.version);
    expect(info.sqlite.driver).toBe(driver);
    expect(info.sqlite.version).toMatch(/^3\.\d+\.\d+$/);
    expect(info.ledger).toBe(join(home.env.PAYCLI_DATA_DIR!, 'ledger.db'));
    expect(info.codeCache.by).toBe('paycli'); // src/cli/compile-cache.ts on every line
    const bare = await runPaycli(['--version'], { env });
    expect(bare.stdout).toBe(`${info.paycli}\n`);
  });
});

describe('200 consecutive payments on the built-in sandbox', () => {
  it('200 exit codes 0, complete JSON, no abort and nothing unexpected on stderr', async () => {
    const env = { ...home.env, PAYCLI_DATA_DIR: join(home.dir, 'data-200') };
    const failures: string[] = [];
    for (let i = 0; i < 200; i++) {
      const cashout = i % 2 === 1;
      const args = cashout
        ? [
            '--json',
            'cashout',
            '--value',
            String(100 + i),
            '--pix-key-type',
            'email',
            '--pix-key',
            `fornecedor${i}@example.com`,
            '--person-name',
            `Fornecedor ${i}`,
            '--person-email',
            `fornecedor${i}@example.com`,
            '--person-phone',
            '11987654321',
            '--yes',
          ]
        : ['--json', ...CASHIN_ARGS.map((a) => (a === '1000' ? String(1000 + i) : a))];
      const r = i % 4 === 3 ? await runPiped(args, env) : await runPaycli(args, { env, timeoutMs: 120_000 });
      let doc: { transactionId?: unknown } | undefined;
      try {
        doc = JSON.parse(r.stdout) as { transactionId?: unknown };
      } catch {
        doc = undefined;
      }
      if (r.code !== 0 || typeof doc?.transactionId !== 'number' || NEVER_ON_STDERR.test(r.stderr)) {
        failures.push(
          `run ${i + 1} (${cashout ? 'cash-out' : 'cash-in'}${i % 4 === 3 ? ' | cat' : ''}): exit ${r.code}, stdout ${JSON.stringify(r.stdout.slice(0, 200))}, stderr ${JSON.stringify(r.stderr.slice(-300))}`,
        );
      }
    }
    expect(failures).toEqual([]);
    const rows = ledgerRows(env.PAYCLI_DATA_DIR);
    expect(rows).toHaveLength(200);
    expect(rows.filter((r) => r.outcome === 'ok')).toHaveLength(200);
  }, 1_800_000);
});

describe('a batch of 2,000 cash-outs on the built-in sandbox', () => {
  it('exit 0, 2,000 complete JSON lines, 2,000 ok entries, no abort', async () => {
    const env = { ...home.env, PAYCLI_DATA_DIR: join(home.dir, 'data-batch') };
    const file = join(home.dir, 'batch-2000.csv');
    const lines = ['value;pix-key-type;pix-key;person-name;person-email;person-phone'];
    for (let i = 0; i < 2000; i++) lines.push(`${100 + i};email;fornecedor${i}@example.com;Fornecedor ${i};fornecedor${i}@example.com;11987654321`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--json', '--concurrency', '8'], { env, timeoutMs: 900_000 });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).not.toMatch(NEVER_ON_STDERR);
    const docs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row: number; outcome: string; valueCents: number });
    expect(docs).toHaveLength(2000);
    expect(new Set(docs.map((d) => d.row)).size).toBe(2000);
    expect(docs.every((d) => d.outcome === 'ok' && d.valueCents === 99 + d.row)).toBe(true);
    const rows = ledgerRows(env.PAYCLI_DATA_DIR);
    expect(rows).toHaveLength(2000);
    expect(rows.every((row) => row.outcome === 'ok')).toBe(true);
  }, 1_000_000);
});
