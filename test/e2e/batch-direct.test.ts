/**
 * The direct route of a batch run (src/cli/batch-line.ts, src/cli/direct.ts) against the whole
 * command tree on the same ledgers: for each command line, in English and in Portuguese, the built
 * paycli and the same build with every line through commander (test/helpers/full-program.cjs) write
 * the same stdout, stderr and results file and end with the same exit code: a finished file (exit 0),
 * a file with a row that needs attention (exit 6 again on every re-run), a file with rows still to
 * send (no `--yes` off a terminal: exit 2; with `--yes` each path sends them to its own ledger), bad
 * flag values (exit 2), cash-ins. On a terminal (tmux) the route asks the batch's confirmation with
 * Node's own streams, as the full program does (src/cli/batch/confirm.ts). The last test runs both with stdout and stderr on files and pipes,
 * which the route writes straight to their descriptors (src/core/fd-writer.ts). That the route is
 * the one taken (no commander loaded) is test/e2e/structure.test.ts.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureStartMs, runPaycli, type RunResult, startBudget } from '../helpers/cli.js';
import { startTty } from '../helpers/tty.js';
import { cashOutAnswer, json, useGatewayFixture } from '../helpers/gateway.js';

const KEY = 'sk_live_BATCHDIRECT_0123456789abcdef';
const t = useGatewayFixture(KEY);
const FULL = [join(__dirname, '../helpers/full-program.cjs')];
const HEADER = 'value,pix-key-type,pix-key,person-name,person-email,person-phone';
/** A valid cash-out row with a distinct e-mail key per `n`. */
const payoutRow = (n: number, cents = 1000 + n) => `${cents},email,fornecedor${n}@example.com,Fornecedor ${n},fornecedor${n}@example.com,11987654321`;
const CHARGES = [
  'value,payer-name,payer-document,payer-email,payer-phone,product-name,product-description',
  '1500,Fulano de Tal,123.456.789-09,fulano@example.com,11987654321,Camiseta,Camiseta azul M',
];

/** Writes `lines` to `name` in the test's home; its path. */
function writeFile(name: string, lines: string[]): string {
  const file = join(t.home.dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** What a run left: exit code, stdout, stderr (a send's rate and time left, which timing sets, blanked) and each results file named, which is then removed. */
interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  results: Array<string | undefined>;
}

function outcome(r: RunResult, results: string[]): Outcome {
  const read = results.map((f) => (existsSync(f) ? readFileSync(f, 'utf8') : undefined));
  for (const f of results) rmSync(f, { force: true });
  const blank = (s: string) => s.replace(/[0-9.]+\/s\b/g, 'N/s').replace(/"(perSecond|secondsLeft)":[0-9.]+/g, '"$1":N');
  return { code: r.code, stdout: blank(r.stdout), stderr: blank(r.stderr), results: read };
}

/** Runs `args` through the direct route, then through the command tree, with `env`; `results` (files the runs may write) are read and removed after each. */
async function both(args: string[], env: Record<string, string>, results: string[], envFull = env): Promise<[Outcome, Outcome]> {
  const direct = outcome(await runPaycli(args, { env }), results);
  const full = outcome(await runPaycli(args, { env: envFull, nodeArgs: FULL }), results);
  return [direct, full];
}

/** One paycli start on this machine now: a test's limit is counted in starts ({@link startBudget}), since each runs paycli up to 45 times one after another. */
const startMs = await measureStartMs();

/** Expects both paths to agree on `args`; the direct route's outcome. */
async function same(args: string[], env: Record<string, string>, results: string[]): Promise<Outcome> {
  const [direct, full] = await both(args, env, results);
  const what = args.join(' ');
  expect(direct.code, `${what}\n${full.stderr}`).toBe(full.code);
  expect(direct.stdout, what).toBe(full.stdout);
  expect(direct.stderr, what).toBe(full.stderr);
  expect(direct.results, what).toEqual(full.results);
  return direct;
}

/** A cash-out file of three rows paid in full, a cash-in file of one, and a file whose row 2 the gateway creates with the wrong gross (needs attention). */
async function seed(): Promise<{ paid: string; charges: string; attention: string }> {
  const paid = writeFile('paid.csv', [HEADER, payoutRow(1), payoutRow(2), payoutRow(3)]);
  const charges = writeFile('charges.csv', CHARGES);
  const attention = writeFile('attention.csv', [HEADER, payoutRow(11), payoutRow(12, 4242)]);
  expect((await runPaycli(['cashout', '--batch', paid, '--yes'], { env: t.env() })).code).toBe(0);
  expect((await runPaycli(['cashin', '--batch', charges, '--yes'], { env: t.env() })).code).toBe(0);
  t.gw.respond((req, res) => {
    const value = (req.json as { value?: unknown } | undefined)?.value;
    json(res, 200, { ...cashOutAnswer(value), ...(value === 4242 ? { gross: 4200 } : {}) });
  });
  expect((await runPaycli(['cashout', '--batch', attention, '--yes'], { env: t.env() })).code).toBe(6);
  for (const f of [paid, charges, attention]) rmSync(`${f}.results.csv`, { force: true });
  return { paid, charges, attention };
}

/** The command lines compared on the seeded ledger, with the exit code the full program gives each. */
function lines(f: { paid: string; charges: string; attention: string }): Array<[string[], number]> {
  const out = join(t.home.dir, 'out.csv');
  const outJsonl = join(t.home.dir, 'out.jsonl');
  return [
    [['cashout', '--batch', f.paid, '--yes'], 0],
    [['cashout', '--batch', f.paid], 0],
    [['--json', 'cashout', '--batch', f.paid, '--yes'], 0],
    [['cashout', '--batch', f.paid, '--json', '-y', '--concurrency', '8', '--results', out], 0],
    [['cashout', '--batch', f.paid, '--csv-dialect', 'br', '--results', out], 0],
    [['cashout', '--batch', f.paid, '--results', outJsonl, '--retry-refused', '--wait'], 0],
    [['--verbose', '--no-color', '--no-input', 'cashout', '--batch', f.paid], 0],
    [['cashout', '--batch', f.paid, '--dry-run'], 0],
    [['cashin', '--batch', f.charges, '--yes', '--json'], 0],
    [['cashin', '--batch', f.charges, '--qr-dir', join(t.home.dir, 'qr')], 0],
    [['cashout', '--batch', f.attention, '--yes'], 6],
    [['--json', 'cashout', '--batch', f.attention, '--yes', '--results', out], 6],
    [['cashout', '--batch', f.paid, '--concurrency', '0'], 2],
    [['cashout', '--batch', f.paid, '--concurrency', '33', '--json'], 2],
    [['cashout', '--batch', f.paid, '--rate', 'fast'], 2],
    [['cashout', '--batch', f.paid, '--batch-format', 'xml'], 2],
    [['cashout', '--batch', join(t.home.dir, 'missing.csv'), '--yes'], 2],
    [['cashin', '--batch', f.paid, '--yes'], 2],
    [['--profile', 'nope', 'cashout', '--batch', f.paid], 2],
    [['cashout', '--batch', f.paid, '--csv-dialect', 'de'], 2],
  ];
}

/** The lines of {@link lines} whose messages differ by language, compared again in Portuguese (each test within the suite's time limit on a busy machine). */
const IN_PORTUGUESE = [0, 2, 4, 7, 9, 10, 12, 15, 16, 18];

/** Compares both paths on the lines of {@link lines} (those at `only`, or all), with `extra` added to each line's start. */
async function compareAll(f: Parameters<typeof lines>[0], env: Record<string, string>, extra: string[] = [], only?: number[]): Promise<void> {
  const written = [join(t.home.dir, 'out.csv'), join(t.home.dir, 'out.jsonl'), ...[f.paid, f.charges, f.attention].map((x) => `${x}.results.csv`)];
  for (const [line, code] of lines(f).filter((_, i) => !only || only.includes(i))) {
    const got = await same([...extra, ...line], env, written);
    expect(got.code, [...extra, ...line].join(' ')).toBe(code);
  }
}

describe('a batch run: the direct route and the command tree', () => {
  it(
    'write the same stdout, stderr and results, with the same exit code, in English',
    async () => {
      const f = await seed();
      const posts = t.gw.received.length;
      const finished = await same(['cashout', '--batch', f.paid, '--yes'], t.env(), [`${f.paid}.results.csv`]);
      expect(finished.stderr).toContain('nothing to send');
      expect(finished.results[0]!.trim().split('\n')).toHaveLength(4); // the header and three rows: the ledger is real
      await compareAll(f, t.env());
      expect(t.gw.received.length).toBe(posts); // a re-run sends nothing, on either path
    },
    startBudget(startMs, 3 + 2 + 40),
  );

  it(
    'write the same in Portuguese (LANG)',
    async () => {
      const f = await seed();
      await compareAll(f, t.env({ LANG: 'pt_BR.UTF-8' }), [], IN_PORTUGUESE);
    },
    startBudget(startMs, 3 + 2 * IN_PORTUGUESE.length),
  );

  it(
    'write the same in Portuguese (--lang)',
    async () => {
      const f = await seed();
      await compareAll(f, t.env(), ['--lang', 'pt-BR'], IN_PORTUGUESE);
    },
    startBudget(startMs, 3 + 2 * IN_PORTUGUESE.length),
  );

  it('a file with rows still to send: exit 2 without --yes off a terminal, and with it each path sends the rows to its own ledger alike', async () => {
    const fresh = writeFile('fresh.csv', [HEADER, payoutRow(21), payoutRow(22)]);
    const results = [`${fresh}.results.csv`];
    for (const extra of [[], ['--lang', 'pt-BR'], ['--json']]) {
      const refused = await same([...extra, 'cashout', '--batch', fresh], t.env(), results);
      expect(refused.code).toBe(2);
    }
    expect(t.gw.received).toHaveLength(0);
    const data = (name: string) => join(t.home.dir, name);
    for (const extra of [[], ['--json']]) {
      const args = [...extra, 'cashout', '--batch', fresh, '--yes', '--concurrency', '1'];
      const [direct, full] = await both(args, t.env({ PAYCLI_DATA_DIR: data(`direct${extra.length}`) }), results, t.env({ PAYCLI_DATA_DIR: data(`full${extra.length}`) }));
      expect(direct.code).toBe(0);
      expect([direct.code, direct.stdout, direct.stderr, direct.results]).toEqual([full.code, full.stdout, full.stderr, full.results]);
    }
    expect(t.gw.received.filter((r) => r.method === 'POST')).toHaveLength(8); // two rows, two paths, two lines
  });

  it('on a terminal the route asks the one confirmation (tmux): No sends nothing, yes sends', async () => {
    const fresh = writeFile('fresh.csv', [HEADER, payoutRow(31), payoutRow(32)]);
    const no = startTty(['cashout', '--batch', fresh], t.env(), t.home.dir);
    try {
      expect(await no.waitFor('? Send these 2 cash-outs? (y/N)', 20_000)).toContain('fresh.csv');
      no.answer('n');
      expect(await no.exitCode(20_000)).toBe(2);
    } finally {
      no.kill();
    }
    expect(t.gw.received).toHaveLength(0);
    const yes = startTty(['cashout', '--batch', fresh], t.env(), t.home.dir);
    try {
      await yes.waitFor('? Send these 2 cash-outs? (y/N)', 20_000);
      yes.answer('y');
      expect(await yes.exitCode(20_000)).toBe(0);
      expect(yes.screen()).toMatch(/2 +cash-outs created/);
    } finally {
      yes.kill();
    }
    expect(t.gw.received.filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('write the same to files and pipes, written straight to their descriptors', async () => {
    const f = await seed();
    mkdirSync(join(t.home.dir, 'io'));
    const files = (n: string) => ({ OUT_FILE: join(t.home.dir, 'io', `${n}.out`), ERR_FILE: join(t.home.dir, 'io', `${n}.err`) });
    const toFiles = ['bash', '-c', '"$@" >"$OUT_FILE" 2>"$ERR_FILE"', 'paycli'];
    const results = `${f.paid}.results.csv`;
    for (const line of [
      ['cashout', '--batch', f.paid, '--yes'],
      ['--json', 'cashout', '--batch', f.paid, '--yes'],
      ['--lang', 'pt-BR', 'cashout', '--batch', f.attention, '--yes'],
      ['cashout', '--batch', f.paid, '--concurrency', '0'],
    ]) {
      const what = line.join(' ');
      const direct = await runPaycli(line, { env: t.env(files('direct')), wrapper: toFiles });
      rmSync(results, { force: true });
      rmSync(`${f.attention}.results.csv`, { force: true });
      const full = await runPaycli(line, { env: t.env(files('full')), wrapper: toFiles, nodeArgs: FULL });
      rmSync(results, { force: true });
      rmSync(`${f.attention}.results.csv`, { force: true });
      expect(direct.code, what).toBe(full.code);
      for (const ext of ['out', 'err'])
        expect(readFileSync(join(t.home.dir, 'io', `direct.${ext}`), 'utf8'), `${what} (${ext})`).toBe(readFileSync(join(t.home.dir, 'io', `full.${ext}`), 'utf8'));
    }
    const throughPipes = ['bash', '-c', '"$@" | cat', 'paycli'];
    const piped = await runPaycli(['--json', 'cashout', '--batch', f.paid, '--yes'], { env: t.env(), wrapper: throughPipes });
    rmSync(results, { force: true });
    const pipedFull = await runPaycli(['--json', 'cashout', '--batch', f.paid, '--yes'], { env: t.env(), wrapper: throughPipes, nodeArgs: FULL });
    expect(piped.stdout.trim().split('\n')).toHaveLength(3); // a results line a row: the ledger is real
    expect([piped.code, piped.stdout]).toEqual([pipedFull.code, pipedFull.stdout]);
  });
});
