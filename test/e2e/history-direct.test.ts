/**
 * The direct route of `history` (src/cli/history-line.ts, src/cli/direct.ts) against the
 * whole command tree on the same ledgers: for each command line, in English and in Portuguese,
 * the built paycli and the same build with every line through commander
 * (test/helpers/full-program.cjs) write the same stdout and stderr and end with the same exit code,
 * results and errors alike. That the route is the one taken is checked in
 * test/e2e/structure.test.ts (no commander loaded). With stdout and stderr on files or pipes, the
 * route writes them straight to their descriptors (src/core/fd-writer.ts): the last test compares
 * those runs too (the other tests' streams are sockets, which keep Node's streams).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS, measureStartMs, runPaycli, startBudget, type RunResult } from '../helpers/cli.js';
import { useGatewayFixture } from '../helpers/gateway.js';
import { seedOldJournal } from '../helpers/history-seed.js';

const KEY = 'sk_live_DIRECT_0123456789abcdef';
const t = useGatewayFixture(KEY);
const FULL = [join(__dirname, '../helpers/full-program.cjs')];
/** One paycli start on this machine now: each test's limit is counted in starts ({@link startBudget}), since the tests run paycli up to 88 times one after another. */
const startMs = await measureStartMs();

/** Command lines the route takes (results and errors of history's own), each run by both paths. */
const LINES: string[][] = [
  ['history'],
  ['history', '--limit', '3'],
  ['history', '--limit=2', '--kind', 'cashout'],
  ['--json', 'history', '--limit', '3'],
  ['history', '--json'],
  ['history', '--format', 'csv'],
  ['history', '--format', 'csv', '--csv-dialect', 'br', '--limit', '4'],
  ['history', '--since', '2020-01-01', '--outcome', 'ok'],
  ['history', '--outcome', 'unknown'],
  ['history', '--kind', 'cashin', '--until', '2099-01-01'],
  ['history', '--order-id', 'nothing-matches'],
  ['--verbose', '--no-color', 'history', '--limit', '1'],
  ['history', '--by', '@'],
  ['history', '--limit', 'abc'],
  ['history', '--since', 'nonsense'],
  ['history', '--json', '--format', 'csv'],
  ['--json', 'history', '--limit', '0'],
  ['history', '--csv-dialect', 'br'],
  ['history', '--outcome', 'bogus'],
  ['--profile', 'nope', 'history'],
];

/** Runs `args` through the direct route and through the command tree with `env`; both results. */
async function both(args: string[], env: Record<string, string>): Promise<[RunResult, RunResult]> {
  return [await runPaycli(args, { env }), await runPaycli(args, { env, nodeArgs: FULL })];
}

/** Compares the two paths on every line of {@link LINES}, with `extra` added to each line's start. */
async function compareAll(env: Record<string, string>, extra: string[] = []): Promise<void> {
  for (const line of LINES) {
    const [direct, full] = await both([...extra, ...line], env);
    const what = [...extra, ...line].join(' ');
    expect(direct.code, `${what}\n${full.stderr}`).toBe(full.code);
    expect(direct.stdout, what).toBe(full.stdout);
    expect(direct.stderr, what).toBe(full.stderr);
  }
}

/** A ledger with an old journal's six entries and two real sends. */
async function seed(): Promise<void> {
  seedOldJournal(t.home.env.PAYCLI_DATA_DIR!);
  expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
  expect((await runPaycli([...CASHOUT_ARGS, '--yes'], { env: t.env() })).code).toBe(0);
}

describe('history: the direct route and the command tree', () => {
  it(
    'write the same stdout and stderr, with the same exit code, in English',
    async () => {
      await seed();
      const [direct, full] = await both(['history'], t.env());
      expect(direct.code).toBe(0);
      expect(direct.stdout.split('\n')).toHaveLength(10); // the header, eight entries, the last newline: the ledger is real
      expect(full.stdout).toBe(direct.stdout);
      await compareAll(t.env());
    },
    startBudget(startMs, 2 + 2 + 2 * LINES.length),
  );

  it(
    'write the same in Portuguese (LANG and --lang) and where no ledger exists yet',
    async () => {
      await seed();
      await compareAll(t.env({ LANG: 'pt_BR.UTF-8' }));
      await compareAll(t.env(), ['--lang', 'pt-BR']);
      const empty = t.env({ PAYCLI_DATA_DIR: join(t.home.dir, 'nothing-here') });
      for (const args of [['history'], ['--lang', 'pt-BR', 'history', '--kind', 'cashout'], ['history', '--json']]) {
        const [direct, full] = await both(args, empty);
        expect([direct.code, direct.stdout, direct.stderr]).toEqual([full.code, full.stdout, full.stderr]);
      }
    },
    startBudget(startMs, 2 + 4 * LINES.length + 6),
  );

  it(
    'write the same to files and pipes, written straight to their descriptors, and stop quietly when the reader goes away',
    async () => {
      await seed();
      const files = (n: string) => ({ OUT_FILE: join(t.home.dir, `${n}.out`), ERR_FILE: join(t.home.dir, `${n}.err`) });
      const toFiles = ['bash', '-c', '"$@" >"$OUT_FILE" 2>"$ERR_FILE"', 'paycli'];
      for (const line of [
        ['history'],
        ['--json', 'history', '--limit', '3'],
        ['history', '--limit', 'abc'],
        ['--verbose', 'history', '--limit', '1'],
        ['--profile', 'nope', 'history'],
      ]) {
        const what = line.join(' ');
        const direct = await runPaycli(line, { env: t.env(files('direct')), wrapper: toFiles });
        const full = await runPaycli(line, { env: t.env(files('full')), wrapper: toFiles, nodeArgs: FULL });
        expect(direct.code, what).toBe(full.code);
        for (const ext of ['out', 'err'])
          expect(readFileSync(join(t.home.dir, `direct.${ext}`), 'utf8'), `${what} (${ext})`).toBe(readFileSync(join(t.home.dir, `full.${ext}`), 'utf8'));
      }
      expect(readFileSync(join(t.home.dir, 'direct.out'), 'utf8')).toBe('');
      const throughPipes = ['bash', '-c', '"$@" | cat', 'paycli'];
      const [piped, pipedFull] = [
        await runPaycli(['history'], { env: t.env(), wrapper: throughPipes }),
        await runPaycli(['history'], { env: t.env(), wrapper: throughPipes, nodeArgs: FULL }),
      ];
      expect(piped.stdout.split('\n')).toHaveLength(10);
      expect([piped.code, piped.stdout]).toEqual([pipedFull.code, pipedFull.stdout]);
      const readerGone = ['bash', '-c', '"$@" | head -c 1 >/dev/null; exit "${PIPESTATUS[0]}"', 'paycli'];
      for (const nodeArgs of [[], FULL]) {
        const r = await runPaycli(['history', '--limit', 'all'], { env: t.env(), wrapper: readerGone, nodeArgs });
        expect(r.code).toBe(0); // the footnote on stderr may or may not come first: no error either way
        expect(r.stderr).not.toMatch(/error/i);
      }
    },
    startBudget(startMs, 2 + 10 + 2 + 2),
  );

  it(
    "ends once the command is done and its ledger closed, without another turn of Node's event loop (src/cli/direct.ts); the command tree's run ends by itself",
    async () => {
      expect((await runPaycli(CASHIN_ARGS, { env: t.env() })).code).toBe(0);
      const marks = join(t.home.dir, 'marks');
      const preload = join(t.home.dir, 'marks.cjs');
      // what the process does as it ends: `beforeExit` comes only from an event loop left to run dry; the ledger's log is gone once it is closed
      writeFileSync(
        preload,
        `const { appendFileSync, existsSync } = require('node:fs');
process.on('beforeExit', () => appendFileSync(process.env.MARKS_FILE, 'beforeExit\\n'));
process.on('exit', (code) => appendFileSync(process.env.MARKS_FILE, 'exit ' + code + ' log=' + existsSync(process.env.LOG_FILE) + '\\n'));
`,
      );
      const env = t.env({ MARKS_FILE: marks, LOG_FILE: join(t.home.env.PAYCLI_DATA_DIR!, 'ledger.db-wal') });
      const ends = async (args: string[], nodeArgs: string[], wrapper?: string[]): Promise<[number | null, string]> => {
        rmSync(marks, { force: true });
        const r = await runPaycli(args, { env, nodeArgs: ['-r', preload, ...nodeArgs], ...(wrapper ? { wrapper } : {}) });
        return [r.code, readFileSync(marks, 'utf8')];
      };
      // stdout and stderr on a pipe: written straight to it (src/core/fd-writer.ts), nothing of the loop's left at the end
      const pipes = ['bash', '-c', 'set -o pipefail; "$@" 2>&1 | cat', 'paycli'];
      expect(await ends(['history', '--limit', '3'], [], pipes)).toEqual([0, 'exit 0 log=false\n']);
      expect(await ends(['history', '--limit', 'abc'], [], pipes)).toEqual([2, 'exit 2 log=false\n']);
      // on sockets Node's streams keep their handles: the loop runs dry as before, the ledger closed with the command all the same
      expect(await ends(['history', '--limit', '3'], [])).toEqual([0, 'beforeExit\nexit 0 log=false\n']);
      expect(await ends(['history', '--limit', '3'], FULL, pipes)).toEqual([0, 'beforeExit\nexit 0 log=false\n']);
      // an old journal beside the ledger: the whole store reads it, its connection left to Node's teardown, so the loop runs dry
      seedOldJournal(t.home.env.PAYCLI_DATA_DIR!);
      expect(await ends(['history', '--limit', '3'], [], pipes)).toEqual([0, 'beforeExit\nexit 0 log=true\n']);
    },
    startBudget(startMs, 1 + 5),
  );
});
