/**
 * The V8 code cache of src/cli/compile-cache.ts (docs/speed.md). It may only make paycli
 * faster: same results with or without it, with a corrupt or foreign entry, under concurrency;
 * it is read only from a private folder; no secret lands in it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASHIN_ARGS, makeHome, runPaycli, type Home } from '../helpers/cli.js';
import { CASHIN_OK, startGateway, type TestGateway } from '../helpers/gateway.js';

const DIST = resolve(__dirname, '../../dist');
const KEY = 'sk_live_CACHE_SECRET_0123456789abcdef';

let home: Home;
let gw: TestGateway;
let cacheRoot: string;
beforeEach(async () => {
  home = makeHome();
  gw = await startGateway();
  cacheRoot = join(home.dir, 'cache');
});
afterEach(async () => {
  await gw.close();
  home.cleanup();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY, PAYCLI_CACHE_DIR: cacheRoot, ...extra };
}

/** The one `v8-<version>-<arch>` folder under the cache root. */
function v8Dir(): string {
  const dirs = readdirSync(cacheRoot).filter((n) => n.startsWith('v8-'));
  expect(dirs).toHaveLength(1);
  return join(cacheRoot, dirs[0]!);
}

/** Entry file name of the command tree's chunk (`program-<hash>.cjs.<length>`, from src/cli/program.ts), and that chunk's source. */
function cliChunk(): { entry: string; source: string } {
  const name = readdirSync(DIST).find((n) => /^program-[A-Z0-9]{8}\.cjs$/.test(n));
  expect(name).toBeDefined();
  const source = readFileSync(join(DIST, name!), 'utf8');
  return { entry: `${name}.${source.length}`, source };
}

async function cashin(extra: Record<string, string> = {}) {
  const r = await runPaycli(['--json', ...CASHIN_ARGS], { env: env(extra) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ transactionId: CASHIN_OK.transactionId, qrCode: CASHIN_OK.qrCode });
  return r;
}

/** A cash-in's document without what differs from one run to the next (its own order reference, its ledger entry). */
const sameRun = (stdout: string) => ({ ...JSON.parse(stdout), orderId: undefined, ledgerEntry: undefined });

describe('code cache', () => {
  it('the first run writes it (0700 folder, 0600 entries, one per loaded chunk); the next runs read it and rewrite nothing', async () => {
    const first = await cashin();
    const dir = v8Dir();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const entries = readdirSync(dir).sort();
    expect(entries).toContain(cliChunk().entry);
    expect(entries.some((n) => n.startsWith('cashin-'))).toBe(true);
    for (const e of entries) {
      expect(e).toMatch(/^[\w-]+-[A-Z0-9]{8}\.cjs\.\d+$/); // hashed chunks only, keyed by source length
      expect(statSync(join(dir, e)).mode & 0o777).toBe(0o600);
    }
    const mtimes = entries.map((e) => statSync(join(dir, e)).mtimeMs);

    const second = await cashin();
    expect(sameRun(second.stdout)).toEqual(sameRun(first.stdout));
    expect(readdirSync(dir).sort()).toEqual(entries);
    expect(entries.map((e) => statSync(join(dir, e)).mtimeMs)).toEqual(mtimes);
    expect(gw.received).toHaveLength(2);
    // the same body, but for its order reference (a new paycli-<ULID> every run: profile order-id auto)
    const { orderId: a, ...firstBody } = gw.received[0]!.json as Record<string, unknown>;
    const { orderId: b, ...secondBody } = gw.received[1]!.json as Record<string, unknown>;
    expect(secondBody).toEqual(firstBody);
    expect(a).not.toBe(b);
  });

  it('a cache first filled by another command grows to hold a cash-in: the first cash-in rewrites the shared entries it outgrew, later runs rewrite nothing', async () => {
    // `--help` loads the command tree's chunk too, but runs few of its functions
    const help = await runPaycli(['--help'], { env: env() });
    expect(help.code).toBe(0);
    const dir = v8Dir();
    const { entry } = cliChunk();
    const sizes = () => new Map(readdirSync(dir).map((e) => [e, statSync(join(dir, e)).size]));
    const mtimes = () => new Map(readdirSync(dir).map((e) => [e, statSync(join(dir, e)).mtimeMs]));
    const afterHelp = sizes();
    const helpMtimes = mtimes();
    expect(afterHelp.has(entry)).toBe(true);

    await cashin(); // loads chunks --help did not (no entry yet): it checks the shared ones for growth
    const grown = sizes();
    expect(grown.get(entry)).toBeGreaterThan(afterHelp.get(entry)!);
    expect(mtimes().get(entry)).not.toBe(helpMtimes.get(entry));
    for (const [e, size] of afterHelp) expect(grown.get(e)).toBeGreaterThanOrEqual(size); // entries only grow
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    // as much as a cache filled by a cash-in alone holds for that chunk, and more (the --help functions)
    const own = join(home.dir, 'own-cache');
    await cashin({ PAYCLI_CACHE_DIR: own });
    const ownDir = join(own, `v8-${process.versions.v8}-${process.arch}`);
    expect(grown.get(entry)).toBeGreaterThan(statSync(join(ownDir, entry)).size);

    // converged: the same commands again rewrite nothing
    const settled = mtimes();
    await cashin();
    expect((await runPaycli(['--help'], { env: env() })).code).toBe(0);
    await cashin();
    expect(mtimes()).toEqual(settled);
    expect(sizes()).toEqual(grown);
  });

  it('a batch run long enough to tune V8 (its heap flags, after 64 rows) leaves entries the next runs take: another batch and a cash-in after it rewrite nothing', async () => {
    const header = 'value,pix-key-type,pix-key,person-name,person-email,person-phone';
    const batch = async (name: string, cents: number) => {
      const file = join(home.dir, name);
      const rows = Array.from({ length: 150 }, (_, i) => `${cents + i},email,fornecedor${i}@example.com,Fornecedor ${i},fornecedor${i}@example.com,11987654321`);
      writeFileSync(file, `${[header, ...rows].join('\n')}\n`);
      const r = await runPaycli(['cashout', '--batch', file, '--yes', '--json', '--concurrency', '8'], { env: env() });
      expect(r.code).toBe(0);
      const outcomes = r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { outcome: string }).outcome);
      expect(outcomes).toEqual(Array.from({ length: 150 }, () => 'ok'));
    };
    await cashin();
    await batch('first.csv', 1000);
    const dir = v8Dir();
    const entries = () =>
      readdirSync(dir)
        .sort()
        .map((e) => `${e} ${statSync(join(dir, e)).mtimeMs}`);
    const written = entries();
    expect(written.some((e) => e.startsWith('send-'))).toBe(true);

    await batch('second.csv', 5000);
    expect(entries()).toEqual(written);
    await cashin();
    expect(entries()).toEqual(written);
    expect(gw.received.filter((r) => r.path.endsWith('/cashout'))).toHaveLength(300);
  });

  it('a corrupt entry is refused by V8: the run gives the same result and the entry is rewritten', async () => {
    const clean = await cashin({ NODE_DISABLE_COMPILE_CACHE: '1' });
    mkdirSync(join(cacheRoot, `v8-${process.versions.v8}-${process.arch}`), { recursive: true, mode: 0o700 });
    const dir = v8Dir();
    const { entry } = cliChunk();
    const garbage = Buffer.alloc(4096, 0x5a);
    writeFileSync(join(dir, entry), garbage, { mode: 0o600 });
    const r = await cashin();
    expect(sameRun(r.stdout)).toEqual(sameRun(clean.stdout));
    const rewritten = readFileSync(join(dir, entry));
    expect(rewritten.equals(garbage)).toBe(false);
    expect(rewritten.length).toBeGreaterThan(1000);
  });

  it('an entry is read only from a private folder: a poisoned one runs from a 0700 folder, and is ignored in a 0777 one', async () => {
    // V8 checks an entry against the source's length, not its text, so an entry made from
    // other code of the same length runs that code. That is why entries are keyed by a
    // content-hashed chunk name, and read only from a folder nobody else can write to.
    const { entry, source } = cliChunk();
    const evil = 'process.stdout.write("POISONED\\n");process.exit(42);'.padEnd(source.length, ' ');
    const data = join(home.dir, 'poison.bin');
    const maker = spawnSync(
      process.execPath,
      [
        '-e',
        `
      const { Module } = require('node:module'); const vm = require('node:vm');
      const s = new vm.Script(Module.wrap(process.env.EVIL), { filename: 'x' });
      require('node:fs').writeFileSync(process.env.OUT, s.createCachedData());`,
      ],
      { env: { ...process.env, EVIL: evil, OUT: data } },
    );
    expect(maker.status).toBe(0);

    const dir = join(cacheRoot, `v8-${process.versions.v8}-${process.arch}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, entry), readFileSync(data), { mode: 0o600 });
    const trusted = await runPaycli(['--json', ...CASHIN_ARGS], { env: env() });
    expect(trusted.stdout).toBe('POISONED\n'); // the threat is real: the folder must be private
    expect(trusted.code).toBe(42);

    writeFileSync(join(dir, entry), readFileSync(data), { mode: 0o600 });
    // the trusted run wrote the entries of the chunks that loaded before the poisoned one (src/cli/line.ts…)
    const before = readdirSync(dir).sort();
    expect(before).toContain(entry);
    chmodSync(dir, 0o777);
    const r = await cashin();
    expect(r.stdout).not.toContain('POISONED');
    expect(readFileSync(join(dir, entry)).equals(readFileSync(data))).toBe(true); // not read, not written
    expect(readdirSync(dir).sort()).toEqual(before); // nothing written to the shared folder
  });

  it("on a Node with module.enableCompileCache (≥ 22.1) paycli's own is used all the same, and Node's folder of before is removed", async () => {
    // This machine has Node 20 only: a preloaded script gives `node:module` the Node 22 function.
    // Node's entries hold only the code compiled as a module loads; paycli's, every function that ran.
    const shim = join(home.dir, 'node22.cjs');
    const calls = join(home.dir, 'calls.txt');
    writeFileSync(shim, `require('node:module').enableCompileCache = (dir) => require('node:fs').appendFileSync(${JSON.stringify(calls)}, dir + '\\n');`);
    mkdirSync(join(cacheRoot, 'node', 'v24.21.0-x64-964aae3f-0'), { recursive: true, mode: 0o700 });
    writeFileSync(join(cacheRoot, 'node', 'v24.21.0-x64-964aae3f-0', 'entry'), 'an entry of Node 24');
    const r = await runPaycli(['--json', ...CASHIN_ARGS], { env: env(), nodeArgs: ['-r', shim] });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ transactionId: CASHIN_OK.transactionId });
    expect(existsSync(calls)).toBe(false);
    expect(readdirSync(cacheRoot)).toEqual([`v8-${process.versions.v8}-${process.arch}`]);
    expect(readdirSync(v8Dir())).toContain(cliChunk().entry);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off: nothing is written', async () => {
    await cashin({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(existsSync(cacheRoot)).toBe(false);
  });

  it('12 concurrent first runs share one folder: all succeed, each entry is whole, no temporary file is left', async () => {
    const runs = await Promise.all(Array.from({ length: 12 }, () => runPaycli(['--json', ...CASHIN_ARGS], { env: env() })));
    for (const r of runs) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    const dir = v8Dir();
    const entries = readdirSync(dir);
    expect(entries.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // each entry is accepted by the next run: nothing is rewritten
    const mtimes = entries.map((e) => statSync(join(dir, e)).mtimeMs);
    await cashin();
    expect(readdirSync(dir).map((e) => statSync(join(dir, e)).mtimeMs)).toEqual(mtimes);
  });

  it('a cache folder that cannot be made is no cache: the run still succeeds, silently', async () => {
    writeFileSync(cacheRoot, 'a file where the folder should be');
    const r = await cashin(); // asserts exit 0, empty stderr, the answer
    expect(JSON.parse(r.stdout)).toMatchObject({ transactionId: CASHIN_OK.transactionId });
    expect(readFileSync(cacheRoot, 'utf8')).toBe('a file where the folder should be');
  });

  it('stack traces (--verbose) are the same with and without it', async () => {
    const args = ['--verbose', '--base-url', 'https://gateway.invalid', ...CASHIN_ARGS];
    // a bug planted inside paycli: an internal error, the one kind --verbose prints a trace for
    const bug = { env: { ...home.env, PAYCLI_CACHE_DIR: cacheRoot, PAYCLI_API_KEY: 'sk_test_cache_0123' }, nodeArgs: ['-r', join(__dirname, '../helpers/internal-bug.cjs')] };
    const plain = await runPaycli(args, { ...bug, env: { ...bug.env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    const cold = await runPaycli(args, bug);
    const warm = await runPaycli(args, bug);
    expect(plain.code).toBe(70);
    expect(plain.stderr).toMatch(/\n {4}at .*dist[\\/][\w-]+-[A-Z0-9]{8}\.cjs:\d+:\d+/);
    expect(cold.stderr).toBe(plain.stderr);
    expect(warm.stderr).toBe(plain.stderr);
  });

  it('holds no secret: the API key of the run is in no entry', async () => {
    await cashin();
    const dir = v8Dir();
    for (const e of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, e));
      expect(bytes.includes(KEY)).toBe(false);
      expect(bytes.includes(Buffer.from(KEY, 'utf16le'))).toBe(false);
    }
  });

  it('a folder left by another V8 (a Node upgrade) and unused for 30 days is removed when the new one is made; one in use (another Node line) is kept', async () => {
    const old = join(cacheRoot, 'v8-0.0.0-old');
    mkdirSync(old, { recursive: true, mode: 0o700 });
    writeFileSync(join(old, 'cli-AAAAAAAA.cjs.1'), 'x');
    const longAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    utimesSync(old, longAgo, longAgo);
    const inUse = join(cacheRoot, 'v8-0.0.1-other-line');
    mkdirSync(inUse, { recursive: true, mode: 0o700 });
    writeFileSync(join(inUse, 'cli-BBBBBBBB.cjs.1'), 'x');
    await cashin();
    expect(existsSync(old)).toBe(false);
    expect(existsSync(join(inUse, 'cli-BBBBBBBB.cjs.1'))).toBe(true);
    rmSync(inUse, { recursive: true });
    v8Dir();
  });

  it('a folder whose entries all matched is marked as used (its modification time moved to now, at most once a day), so another Node line keeps it', async () => {
    await cashin();
    const dir = v8Dir();
    const longAgo = new Date(Date.now() - 10 * 24 * 3600 * 1000);
    utimesSync(dir, longAgo, longAgo);
    await cashin();
    expect(Date.now() - statSync(dir).mtimeMs).toBeLessThan(24 * 3600 * 1000);
  });
});
