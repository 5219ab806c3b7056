/**
 * What the code's structure promises, checked on the built CLI: a bug inside paycli is reported
 * as an internal error (exit 70), never as a gateway failure, and nothing is sent; `config path`
 * loads neither the schemas (zod), nor the HTTP stack, nor the config store, nor the ledger;
 * `history` on the local ledger loads nothing of the team ledger's nor the whole local store (only
 * its listing, src/ledger/read.ts), nor (for its table) the settings, the schema's statements, the CSV and JSON export or the kept
 * lines, and its common lines no
 * commander (the direct route, src/cli/direct.ts); the re-run of a finished batch file neither commander
 * nor the schemas nor the HTTP stack; a cash-out without a proxy loads
 * none of Node's own undici (on Node 22 and later, reading every export of `node:http` loads it), and
 * none of the documents' zod schemas (src/cli/output/document-schemas.ts); a `--json` cash-out whose body and answer are
 * sound loads no zod (src/gateway/accepted.ts).
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHOUT_ARGS, runPaycli } from '../helpers/cli.js';
import { json, useGatewayFixture } from '../helpers/gateway.js';

const KEY = 'sk_live_STRUCTURE_0123456789abcdef';
const t = useGatewayFixture(KEY);
const DIST = join(__dirname, '../../dist');
const plantBug = ['-r', join(__dirname, '../helpers/internal-bug.cjs')];

describe('a bug inside paycli', () => {
  it('is internal_error with exit 70 (text and --json), no stack trace without --verbose, and nothing reaches the gateway', async () => {
    const text = await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env(), nodeArgs: plantBug });
    expect(text.code).toBe(70);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('error: internal error: planted bug: randomBytes is broken (a bug in paycli; run with --verbose for details)');
    expect(text.stderr).not.toMatch(/\n\s+at /);
    const json = await runPaycli(['--json', ...CASHOUT_ARGS, '--yes'], { env: t.env(), nodeArgs: plantBug });
    expect(json.code).toBe(70);
    expect(JSON.parse(json.stderr.trim().split('\n').at(-1)!)).toEqual({ error: { code: 'internal_error', message: expect.stringContaining('planted bug') } });
    const verbose = await runPaycli(['--verbose', ...CASHOUT_ARGS, '--yes'], { env: t.env(), nodeArgs: plantBug });
    expect(verbose.code).toBe(70);
    expect(verbose.stderr).toMatch(/TypeError: planted bug[^\n]*\n\s+at /);
    expect(verbose.stderr).not.toContain(KEY);
    expect(t.gw.received).toHaveLength(0);
  });
});

describe('start-up', () => {
  /** The modules of dist/ a paycli run loads, with their text. */
  async function loadedChunks(args: string[]): Promise<{ code: number | null; chunks: Map<string, string>; external: string[] }> {
    const r = await runPaycli(args, {
      env: t.env({ PAYCLI_TEST_REPORT_LOADS: '^(\\./|node:https?$|node:net$|node:tls$|node:v8$|node:sqlite$|.*better_sqlite3\\.node$)' }),
      nodeArgs: ['-r', join(__dirname, '../helpers/report-loads.cjs')],
    });
    const loaded = [
      ...new Set(
        r.stderr
          .split('\n')
          .filter((l) => l.startsWith('loaded '))
          .map((l) => l.slice('loaded '.length)),
      ),
    ];
    const chunks = new Map(loaded.filter((m) => /^\.\/[\w.-]+\.cjs$/.test(m) && existsSync(join(DIST, m))).map((m) => [m, readFileSync(join(DIST, m), 'utf8')]));
    return { code: r.code, chunks, external: loaded.filter((m) => !m.startsWith('./')) };
  }
  const MARKERS: Array<[string, RegExp]> = [
    ['zod', /\$ZodType|ZodError/],
    ['undici', /undici/i],
    ['conf (ajv)', /\bajv\b/i],
    ['the ledger (its SQLite driver seam)', /SqliteError/],
  ];
  /** The team ledger's connection and statements (src/ledger/pg/), which a local ledger's command never loads. */
  const TEAM_LEDGER: [string, RegExp] = ['the team ledger (src/ledger/pg/)', /PgCallError|pg_advisory/];
  /** The whole local store (src/ledger/ledger.ts: its writes' pragmas), which `history`'s listing does not load (src/ledger/read.ts). */
  const LOCAL_STORE: [string, RegExp] = ['the whole local store (src/ledger/ledger.ts)', /wal_autocheckpoint/];
  /** commander, which builds the command tree. */
  const COMMANDER: [string, RegExp] = ['commander', /CommanderError/];

  it('config path loads no schemas, HTTP stack, config store or ledger', async () => {
    const { code, chunks, external } = await loadedChunks(['config', 'path']);
    expect(code).toBe(0);
    expect(chunks.size).toBeGreaterThan(0);
    expect(external).toEqual([]);
    for (const [name, marker] of MARKERS) {
      for (const [chunk, text] of chunks) expect(marker.test(text), `${chunk} holds ${name}`).toBe(false);
    }
  });

  it('history --limit 20 loads no schemas, HTTP stack, config store, team ledger, whole local store or node:v8', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0); // a ledger to read
    const { code, chunks, external } = await loadedChunks(['history', '--limit', '20']);
    expect(code).toBe(0);
    expect(external.some((m) => /better_sqlite3\.node$|^node:sqlite$/.test(m))).toBe(true); // the ledger was read
    for (const [name, marker] of [...MARKERS.slice(0, 3), TEAM_LEDGER, LOCAL_STORE]) {
      for (const [chunk, text] of chunks) expect(marker.test(text), `${chunk} holds ${name}`).toBe(false);
    }
    expect(external.filter((m) => /^node:(https?|net|tls|v8)$/.test(m))).toEqual([]);
  });

  it("history --limit 20's table loads none of what it never runs: the settings, the schema's statements, the CSV and JSON export", async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0); // a ledger to read
    const { code, chunks } = await loadedChunks(['history', '--limit', '20']);
    expect(code).toBe(0);
    // texts the bundle keeps as they are (its chunks rename functions): a settings key, a table of the schema, a CSV column
    const never: Array<[string, RegExp]> = [
      ['the settings (src/config/settings.ts)', /\bsettleAfterMs\b/],
      ["the schema's statements and the batches' fingerprints (src/ledger/schema.ts)", /CREATE TABLE IF NOT EXISTS batch_files/],
      ['the CSV and JSON export (src/cli/run/history-export.ts)', /\bdata_hora_local\b/],
      ["the kept lines' statements (src/ledger/kept-texts.ts)", /batch_texts_on_insert/],
      ["the batch lines' SQL (src/ledger/batch-text.ts)", /\["batch_row","0"\]/],
      ["the catalogs' groups the route never reads (scripts/lib/catalog-groups.ts HOT_GROUPS)", /"help\.cashout\.pixKey"/],
    ];
    for (const [name, marker] of never) {
      for (const [chunk, text] of chunks) expect(marker.test(text), `${chunk} holds ${name}`).toBe(false);
    }
  });

  /**
   * Runs `args` (a direct route's line) and checks that its chunks ran from the pack `pack` (scripts/lib/route-packs.ts):
   * after the pack, no chunk's file is read but the route's own module (which dist/boot.cjs's require has Node read; its
   * code runs from the pack) and `alsoRead`; every chunk of the pack is loaded; the output (each run after `reset`) is that of a run without the
   * code cache (no pack).
   */
  async function expectPackRun(args: string[], pack: string, alsoRead: RegExp[], reset?: () => void): Promise<void> {
    const packs = readdirSync(DIST).filter((n) => new RegExp(`^pack-${pack}-[A-Z0-9]{8}\\.cjs$`).test(n));
    expect(packs).toHaveLength(1);
    const members = Object.keys(createRequire(__filename)(join(DIST, packs[0]!)) as Record<string, unknown>);
    expect(members.length).toBeGreaterThan(10);
    reset?.();
    const r = await runPaycli(args, {
      env: t.env({ PAYCLI_TEST_REPORT_LOADS: '^\\./', PAYCLI_TEST_REPORT_READS: '1' }),
      nodeArgs: ['-r', join(__dirname, '../helpers/report-loads.cjs')],
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    const reads = lines.filter((l) => l.startsWith('read ./')).map((l) => l.slice('read ./'.length));
    const loaded = new Set(lines.filter((l) => l.startsWith('loaded ./')).map((l) => l.slice('loaded ./'.length)));
    // the line readers' chunk is read before the route is known, the pack right after
    const at = reads.indexOf(packs[0]!);
    expect(at).toBeGreaterThan(reads.findIndex((n) => n.startsWith('line-')));
    const later = reads.slice(at + 1).filter((n) => /-[A-Z0-9]{8}\.cjs$/.test(n) && !alsoRead.some((re) => re.test(n)));
    expect(later).toEqual([members.find((n) => n.startsWith('direct-'))]);
    expect(members.filter((n) => !loaded.has(n))).toEqual([]); // the pack holds nothing the run does not load
    expect(loaded.has(packs[0]!)).toBe(true);
    reset?.();
    const plain = await runPaycli(args, { env: t.env({ NODE_DISABLE_COMPILE_CACHE: '1' }) });
    reset?.();
    const packed = await runPaycli(args, { env: t.env() });
    expect(plain.stdout + plain.stderr).not.toBe(''); // a result to compare
    expect([packed.code, packed.stdout, packed.stderr]).toEqual([plain.code, plain.stdout, plain.stderr]);
  }

  it("history --limit 20 runs its route's chunks from one file (scripts/lib/route-packs.ts): every chunk of the pack, and no other chunk's file read after it", async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0); // a ledger to read
    await expectPackRun(['history', '--limit', '20'], 'history', []);
  });

  it('a route pack that cannot be read is only slower: history and a batch re-run print what a run without the code cache prints', async () => {
    expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0); // a ledger to read
    const file = join(t.home.dir, 'unpacked.csv');
    writeFileSync(file, 'value,pix-key-type,pix-key,person-name,person-email,person-phone\n1002,email,bia@example.com,Bia,bia@example.com,11987654321\n');
    expect((await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env() })).code).toBe(0);
    const unreadable = ['-r', join(__dirname, '../helpers/unreadable-packs.cjs')];
    const results = join(t.home.dir, 'unpacked-results.csv');
    for (const args of [
      ['history', '--limit', '20'],
      ['cashout', '--batch', file, '--yes', '--results', results],
    ]) {
      rmSync(results, { force: true });
      const plain = await runPaycli(args, { env: t.env({ NODE_DISABLE_COMPILE_CACHE: '1' }) });
      rmSync(results, { force: true });
      const r = await runPaycli(args, {
        env: t.env({ PAYCLI_TEST_REPORT_READS: '1' }),
        nodeArgs: [...unreadable, '-r', join(__dirname, '../helpers/report-loads.cjs')],
      });
      expect(plain.code, args.join(' ')).toBe(0);
      // no pack was taken (its read was tried and failed): the route's chunks were read from their own files, where a
      // packed run reads only the route's own module after the line readers
      const reads = r.stderr
        .split('\n')
        .filter((l) => l.startsWith('read ./'))
        .map((l) => l.slice('read ./'.length));
      const afterLine = reads.slice(reads.findIndex((n) => n.startsWith('line-')) + 1);
      expect(afterLine.filter((n) => /-[A-Z0-9]{8}\.cjs$/.test(n)).length, args.join(' ')).toBeGreaterThan(10);
      const rest = r.stderr
        .split('\n')
        .filter((l) => !l.startsWith('read ./'))
        .join('\n');
      expect([r.code, r.stdout, rest], args.join(' ')).toEqual([plain.code, plain.stdout, plain.stderr]);
    }
  });

  it("the re-run of a finished batch file runs its route's chunks from one file (scripts/lib/route-packs.ts), the English catalog's rest aside", async () => {
    const file = join(t.home.dir, 'packed.csv');
    writeFileSync(file, 'value,pix-key-type,pix-key,person-name,person-email,person-phone\n1001,email,ana@example.com,Ana,ana@example.com,11987654321\n');
    expect((await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env() })).code).toBe(0);
    const results = join(t.home.dir, 'packed-results.csv');
    await expectPackRun(['cashout', '--batch', file, '--yes', '--results', results], 'batch', [/^en-rest-/], () => rmSync(results, { force: true }));
  });

  it("history's common lines take the direct route: no commander, no command tree (src/cli/direct.ts)", async () => {
    for (const args of [
      ['history', '--limit', '20'],
      ['--json', 'history', '--since', '7d', '--kind', 'cashout'],
      ['--lang', 'pt-BR', 'history', '--format', 'csv', '--csv-dialect', 'br'],
    ]) {
      const { code, chunks } = await loadedChunks(args);
      expect(code, args.join(' ')).toBe(0);
      expect(chunks.size).toBeGreaterThan(0);
      for (const [chunk, text] of chunks) expect(COMMANDER[1].test(text), `${args.join(' ')}: ${chunk} holds ${COMMANDER[0]}`).toBe(false);
    }
    // the marker is real: a line the route leaves to the command tree loads commander
    const help = await loadedChunks(['history', '--help']);
    expect(help.code).toBe(0);
    expect([...help.chunks.values()].some((text) => COMMANDER[1].test(text))).toBe(true);
  });

  it('the re-run of a finished batch file takes the direct route: no commander, schemas or HTTP stack (src/cli/direct.ts)', async () => {
    const file = join(t.home.dir, 'paid.csv');
    writeFileSync(file, 'value,pix-key-type,pix-key,person-name,person-email,person-phone\n1001,email,ana@example.com,Ana,ana@example.com,11987654321\n');
    expect((await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env() })).code).toBe(0);
    for (const args of [
      ['cashout', '--batch', file, '--yes', '--concurrency', '8', '--results', join(t.home.dir, 'a.csv')],
      ['--json', '--lang', 'pt-BR', 'cashout', '--batch', file, '-y', '--results', join(t.home.dir, 'b.jsonl')],
    ]) {
      const { code, chunks, external } = await loadedChunks(args);
      expect(code, args.join(' ')).toBe(0);
      expect(external.some((m) => /better_sqlite3\.node$|^node:sqlite$/.test(m))).toBe(true); // the ledger was read
      for (const [name, marker] of [COMMANDER, ...MARKERS.slice(0, 3)]) {
        for (const [chunk, text] of chunks) expect(marker.test(text), `${args.join(' ')}: ${chunk} holds ${name}`).toBe(false);
      }
      expect(external.filter((m) => /^node:(https?|net|tls)$/.test(m))).toEqual([]);
    }
  });

  it('dist/boot.cjs, compiled from source on every start, holds none of the line readers: they load as a chunk through the code cache (src/cli/line.ts)', async () => {
    const boot = readFileSync(join(DIST, 'boot.cjs'), 'utf8');
    for (const flag of ['--since', '--concurrency', '--results']) expect(boot, flag).not.toContain(`"${flag}"`);
    // the marker is real: a re-run's line is read, by a chunk of dist/ that holds the readers' tables
    const file = join(t.home.dir, 'line.csv');
    writeFileSync(file, 'value,pix-key-type,pix-key,person-name,person-email,person-phone\n1003,email,ana@example.com,Ana,ana@example.com,11987654321\n');
    const { code, chunks } = await loadedChunks(['cashout', '--batch', file, '--yes', '--concurrency', '8', '--results', join(t.home.dir, 'line.jsonl')]);
    expect(code).toBe(0);
    expect([...chunks.values()].some((text) => ['--since', '--concurrency', '--results'].every((flag) => text.includes(`"${flag}"`)))).toBe(true);
  });

  it('the re-run of a finished file with kept lines reads them without the whole local store (src/ledger/read-kept.ts keptBatchText)', async () => {
    const file = join(t.home.dir, 'kept.csv');
    writeFileSync(file, 'value,pix-key-type,pix-key,person-name,person-email,person-phone\n1002,email,ana@example.com,Ana,ana@example.com,11987654321\n');
    expect((await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env() })).code).toBe(0);
    const kept = await loadedChunks(['cashout', '--batch', file, '--yes', '--results', join(t.home.dir, 'kept-a.csv')]);
    expect(kept.code).toBe(0);
    expect(readFileSync(join(t.home.dir, 'kept-a.csv'), 'utf8')).toContain(',already_ok,');
    for (const [chunk, text] of kept.chunks) expect(LOCAL_STORE[1].test(text), `${chunk} holds ${LOCAL_STORE[0]}`).toBe(false);
    // the marker is real: results the ledger keeps no lines for (JSON Lines) are read through the whole store
    const listed = await loadedChunks(['cashout', '--batch', file, '--yes', '--results', join(t.home.dir, 'kept-b.jsonl')]);
    expect(listed.code).toBe(0);
    expect([...listed.chunks.values()].some((text) => LOCAL_STORE[1].test(text))).toBe(true);
  });

  it("a cash-out without a proxy loads none of Node's own undici (no fetch, WebSocket or their assert and zlib)", async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], {
      env: t.env({ PAYCLI_TEST_REPORT_INTERNALS: 'undici|zlib|NativeModule (assert|http)$' }),
      nodeArgs: ['-r', join(__dirname, '../helpers/report-loads.cjs')],
    });
    expect(r.code).toBe(0);
    const internals = r.stderr.split('\n').filter((l) => l.startsWith('internal '));
    expect(internals).toContain('internal NativeModule http'); // the report is real: the request went through node:http
    expect(internals.filter((l) => l !== 'internal NativeModule http')).toEqual([]);
  });

  it('a local-ledger cash-out loads neither node:crypto nor Web Crypto (its random bytes and digest: src/core/random.ts)', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--yes'], {
      env: t.env({ PAYCLI_TEST_REPORT_INTERNALS: 'crypto|NativeModule http$' }),
      nodeArgs: ['-r', join(__dirname, '../helpers/report-loads.cjs')],
    });
    expect(r.code).toBe(0);
    const internals = r.stderr.split('\n').filter((l) => l.startsWith('internal '));
    expect(internals).toContain('internal NativeModule http'); // the report is real
    expect(internals.filter((l) => l !== 'internal NativeModule http')).toEqual([]);
  });

  /** The zod schemas of every command's `--json` document (src/cli/output/document-schemas.ts): one key of its table. */
  const DOCUMENT_SCHEMAS: [string, RegExp] = ['the document schemas (src/cli/output/document-schemas.ts)', /"auth-logout":/];

  it("a --json cash-out builds none of the documents' schemas (only the build's schemas/ and the tests use them)", async () => {
    // the marker is real: the build's own bundle of the schemas (tsup.config.ts, for schemas/) holds it
    expect(readFileSync(join(__dirname, '../../node_modules/.cache/paycli-man/schemas.cjs'), 'utf8')).toMatch(DOCUMENT_SCHEMAS[1]);
    const { code, chunks } = await loadedChunks(['--json', ...CASHOUT_ARGS, '--yes']);
    expect(code).toBe(0);
    expect([...chunks].filter(([, text]) => DOCUMENT_SCHEMAS[1].test(text)).map(([m]) => `${DOCUMENT_SCHEMAS[0]}: ${m}`)).toEqual([]);
  });

  it('a --json cash-out whose body and answer are sound loads no zod (src/gateway/accepted.ts checks them)', async () => {
    const { code, chunks } = await loadedChunks(['--json', ...CASHOUT_ARGS, '--yes']);
    expect(code).toBe(0);
    expect([...chunks].filter(([, text]) => MARKERS[0]![1].test(text)).map(([m]) => `${MARKERS[0]![0]}: ${m}`)).toEqual([]);
  });

  it('a --json cash-out whose answer is outside the interface loads zod, whose issues word it (exit 5)', async () => {
    t.gw.respond((req, res) => json(res, 200, { transactionId: 7, gross: 1550, tax: 65, liquid: '1485', status: '0', createdAt: '2026-11-27T09:00:00Z' }));
    const { code, chunks } = await loadedChunks(['--json', ...CASHOUT_ARGS, '--yes']);
    expect(code).toBe(5);
    expect([...chunks.values()].some((text) => MARKERS[0]![1].test(text))).toBe(true);
  });

  it('the markers are real: a cash-out loads the HTTP stack and the ledger, one with a wrong body zod (whose issues word it)', async () => {
    const invalid = await loadedChunks(['--json', ...CASHOUT_ARGS.map((a) => (a === '1550' ? '0' : a)), '--yes']);
    expect(invalid.code).toBe(2);
    expect([...invalid.chunks.values()].some((text) => MARKERS[0]![1].test(text))).toBe(true);
    const { code, chunks, external } = await loadedChunks([...CASHOUT_ARGS, '--yes']);
    expect(code).toBe(0);
    expect([...chunks.values()].some((text) => MARKERS[3]![1].test(text))).toBe(true);
    expect([...chunks.values()].some((text) => LOCAL_STORE[1].test(text))).toBe(true);
    expect(external.some((m) => /better_sqlite3\.node$|^node:sqlite$/.test(m))).toBe(true); // the ledger's SQLite driver
    expect(external.some((m) => /^node:(http|https|net)$/.test(m))).toBe(true);
  });
});
