/**
 * Examples that cannot rot: every command example in the code blocks of README.md and of every
 * page of docs/ (docs/*.md), and in the "Examples:" of every command's `--help`, is run as
 * written, by bash, against the built paycli and its sandbox, and must end as the text says. New
 * commands, pages and examples are picked up by themselves: the help tree is walked from
 * `paycli --help`, and every block of those pages that runs `paycli` is taken.
 *
 * How the text states an outcome (docs/contributing.md "Examples that run"):
 * - nothing: exit 0;
 * - a comment `# exit N`: exit N (and in a console block, the `error:` line shown after
 *   the command must be on stderr);
 * - a comment that says `in a terminal`: the example is run in a pseudo-terminal (`script`) and
 *   must show its first prompt (`?`); it is then stopped.
 * `paycli sandbox` and `paycli listen` (servers) are started in the background, waited for
 * ("listening on", or {"listening": …} with --json) and stopped at the end of their block.
 *
 * Each block (one code block of a page, or one command's Examples) runs in a fresh, empty folder
 * with fresh config and data folders and HOME, in a private network namespace (`unshare -rn`), so
 * the documented ports (4010, 4011) are free and nothing leaves the machine. Nothing is prepared
 * for the examples that a user would not have: the files they use are the ones that ship with
 * paycli (`paycli help examples` prints their folder), and the sandbox starts as a fresh one does.
 * The examples of a block run one after the other in that folder; a variable an example sets
 * (`id=$(paycli ... --json | jq .transactionId)`) is there for the examples after it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, PAYCLI, runPaycli } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');

/** One example: the shell text (continuation lines joined) and what it must do. */
export interface Example {
  text: string;
  /** Where it was found, for messages. */
  where: string;
  mode: 'run' | 'server' | 'tty';
  exit: number;
  /** In a console block of a page: the `error:` line shown after it. */
  shownError?: string;
  /** The last example of its block in a run of several blocks: the servers it started are stopped after it. */
  endsBlock?: boolean;
}

/** The comment of a shell line (after an unquoted ` #`), or ''. */
function commentOf(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(i + 1);
  }
  return '';
}

/** True when the text runs paycli (as a command word, not `paycli.cjs` or `--allow-scripts=paycli`). */
const runsPaycli = (text: string) =>
  /(^|[\s|;&($])paycli(\s|$)/m.test(
    text
      .split('\n')
      .map((l) => l.slice(0, l.length - commentOf(l).length))
      .join('\n'),
  );

/** A server: `paycli [globals] sandbox` (not its control subcommands) or `paycli [globals] listen`. */
const isServer = (text: string) =>
  /(^|[\s|;&(])paycli(\s+--?[\w-]+(\s+[^-\s]\S*)?)*\s+(sandbox(?!\s+(pay|fail|cancel|refund|infraction|ping|events|resend|failure|reset)\b)|listen)\b/.test(text);

function classify(text: string, where: string, shownError?: string): Example {
  const comments = text.split('\n').map(commentOf);
  const comment = comments.join(' ');
  const stated = comments.map((c) => /^\s*exit (\d+)\b/.exec(c)).find(Boolean);
  const mode = /\bin a terminal\b/i.test(comment) ? 'tty' : isServer(text) ? 'server' : 'run';
  return { text: mode === 'server' ? text.replace(/\s*&\s*(#.*)?$/, '') : text, where, mode, exit: stated ? Number(stated[1]) : 0, shownError };
}

/** Joins lines ending with a backslash to the next. */
function logicalLines(lines: string[]): Array<{ text: string; index: number }> {
  const out: Array<{ text: string; index: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i]!;
    while (/\\$/.test(text) && i + 1 < lines.length) text = `${text}\n${lines[++i]}`;
    out.push({ text, index: start });
  }
  return out;
}

/**
 * The example blocks of a Markdown page (`file` is its path from the repository's root, for
 * messages): every sh/bash/shell/console code block that runs paycli.
 */
export function markdownBlocks(page: string, file = 'README.md'): Array<{ where: string; examples: Example[] }> {
  const blocks: Array<{ where: string; examples: Example[] }> = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (const m of page.matchAll(fence)) {
    const lang = m[1]!;
    const body = m[2]!.replace(/\n$/, '');
    const line = page.slice(0, m.index).split('\n').length;
    const where = `${file}:${line}`;
    if (!['sh', 'bash', 'shell', 'console'].includes(lang) || !runsPaycli(body.replace(/^\$ /gm, ''))) continue;
    const lines = body.split('\n');
    if (lang === 'console') {
      const examples: Example[] = [];
      const logical = logicalLines(lines);
      logical.forEach((l, n) => {
        if (!l.text.startsWith('$ ')) return;
        const output = logical.slice(n + 1, logical.findIndex((x, k) => k > n && x.text.startsWith('$ ')) >>> 0).map((x) => x.text);
        const shownError = output.find((o) => o.startsWith('error: '));
        examples.push(classify(l.text.slice(2).replace(/\n {4}/g, '\n'), `${where}+${l.index}`, shownError));
      });
      blocks.push({ where, examples });
    } else if (lines[0]?.startsWith('#!')) {
      blocks.push({ where, examples: [classify(body, where)] }); // a script: run whole
    } else {
      const examples = logicalLines(lines)
        .filter((l) => l.text.trim() && !l.text.trim().startsWith('#'))
        .map((l) => classify(l.text, `${where}+${l.index}`));
      blocks.push({ where, examples });
    }
  }
  return blocks;
}

/** The examples of one `--help` text: the `$ ` lines of its "Examples:"/"Example:" section. */
export function helpExamples(help: string, where: string): Example[] {
  const section = /^Examples?:\n([\s\S]*?)(?=^\S|$(?![\s\S]))/m.exec(help)?.[1] ?? '';
  return logicalLines(section.split('\n'))
    .map((l) => l.text.trim())
    .filter((t) => t.startsWith('$ '))
    .map((t) => classify(t.slice(2).replace(/\n\s+/g, '\n  '), where));
}

/** Every command path, from the help texts (so new commands are found by themselves). */
async function helpBlocks(): Promise<Array<{ where: string; examples: Example[] }>> {
  const paths: string[][] = [[]];
  const blocks: Array<{ where: string; examples: Example[] }> = [];
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    const help = (await runPaycli([...path, '--help'])).stdout;
    const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(help)?.[1] ?? '';
    for (const m of section.matchAll(/^ {2}([a-z][\w-]*)/gm)) paths.push([...path, m[1]!]);
    const where = `paycli ${[...path, '--help'].join(' ')}`;
    blocks.push({ where, examples: helpExamples(help, where) });
  }
  return blocks;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The shell variables an example sets (`id=$(...)`, `a=1 && b=2`), for the examples after it. */
export function assignedNames(text: string): string[] {
  const names = [...text.matchAll(/(?:^|[;&|(]\s*|\n\s*)([A-Za-z_][A-Za-z0-9_]*)=/g)].map((m) => m[1]!);
  return [...new Set(names)];
}

/** The bash script that runs one block's examples in `dir` and leaves code-N, out-N, err-N there. */
function driver(examples: Example[], dir: string): string {
  const lines = [
    'set -u',
    'ip=$(command -v ip || echo /usr/sbin/ip)',
    '"$ip" link set lo up || { echo "cannot bring up lo in the namespace" >&2; exit 90; }',
    `cd ${q(join(dir, 'work'))}`,
    'set -m', // each background job in its own process group, so that stopping one stops its children
    'servers=()',
  ];
  const state = join(dir, 'state.sh');
  examples.forEach((ex, i) => {
    const file = join(dir, `ex-${i}.sh`);
    // The variables earlier examples set, then the example as printed, then the variables it sets.
    const saves = assignedNames(ex.text).map((n) => `[ -n "\${${n}+set}" ] && printf '%s=%q\\n' ${n} "\${${n}}" >> ${q(state)}`);
    writeFileSync(file, `[ -f ${q(state)} ] && . ${q(state)}\n${ex.text}\n__rc=$?\n${saves.join('\n')}\nexit $__rc\n`);
    const out = q(join(dir, `out-${i}`));
    const err = q(join(dir, `err-${i}`));
    const code = q(join(dir, `code-${i}`));
    if (ex.mode === 'run') lines.push(`timeout -s KILL 60 bash ${q(file)} > ${out} 2> ${err} < /dev/null; echo $? > ${code}`);
    else if (ex.mode === 'server') {
      lines.push(`bash ${q(file)} > ${out} 2> ${err} < /dev/null & servers+=($!)`);
      lines.push(`for _ in $(seq 200); do grep -qE 'listening on|"listening":' ${err} && break; kill -0 $! 2>/dev/null || break; sleep 0.05; done`);
      lines.push(`if grep -qE 'listening on|"listening":' ${err}; then echo 0 > ${code}; else echo 99 > ${code}; fi`);
    } else {
      // a terminal: `script` gives the example a pseudo-terminal; wait for its first prompt, then stop it
      lines.push(`script -qfec "bash ${file}" /dev/null < /dev/null > ${out} 2> ${err} & t=$!`);
      // a prompt starts with "?" and a space, perhaps coloured in between (not the "?" of ESC [ ? 25 l)
      const prompt = `grep -qaP '\\?(\\x1b\\[[0-9;]*m)* \\S' ${out}`;
      lines.push(`for _ in $(seq 200); do ${prompt} && break; kill -0 $t 2>/dev/null || break; sleep 0.05; done`);
      lines.push(`if ${prompt}; then echo prompted > ${code}; else echo no-prompt > ${code}; fi; kill -KILL -- -$t 2>/dev/null; wait $t 2>/dev/null`);
    }
    // the reader stops a block's servers (Ctrl-C in their terminals) before going on to the next block
    if (ex.endsBlock) lines.push('for s in "${servers[@]}"; do kill -TERM -- -"$s" 2>/dev/null; done; wait; servers=()');
  });
  lines.push('for s in "${servers[@]}"; do kill -TERM -- -"$s" 2>/dev/null; done; wait');
  return `${lines.join('\n')}\n`;
}

interface Outcome {
  example: Example;
  code: string;
  stdout: string;
  stderr: string;
}

/** Runs one block in a fresh folder and network namespace; returns each example's outcome. */
function runBlock(examples: Example[], base: string): Outcome[] {
  const dir = mkdtempSync(join(base, 'block-'));
  const work = join(dir, 'work');
  mkdirSync(work);
  const home = join(dir, 'home');
  const data = join(dir, 'data');
  for (const d of [home, data, join(dir, 'bin')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(dir, 'bin', 'paycli'), `#!/bin/sh\nexec ${q(process.execPath)} ${q(PAYCLI)} "$@"\n`, { mode: 0o755 });
  const script = join(dir, 'driver.sh');
  writeFileSync(script, driver(examples, dir));
  const env = childEnv(
    {
      HOME: home,
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      PAYCLI_CONFIG_DIR: join(dir, 'config'),
      PAYCLI_DATA_DIR: data,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      // what the examples take from the reader's environment
      KEY: 'sk_test_example_key_0001',
      GATEWAY_KEY: 'sk_test_example_key_0002',
      CS: 'cs_test_example_secret_0003',
      TERM: 'xterm-256color',
      // `sandbox --open` runs this instead of a real browser (src/cli/run/sandbox.ts reads BROWSER)
      BROWSER: 'true',
    },
    /^(CI|TMUX)$/,
  );
  const r = spawnSync('unshare', ['-rn', 'bash', script], { env, encoding: 'utf8', timeout: 240_000 });
  if (r.status !== 0) throw new Error(`the example driver failed (${r.status ?? r.signal}): ${r.stderr}`);
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '');
  return examples.map((example, i) => ({ example, code: read(`code-${i}`).trim(), stdout: read(`out-${i}`), stderr: read(`err-${i}`) }));
}

let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'paycli-examples-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function check(outcomes: Outcome[]): void {
  const failures: string[] = [];
  for (const { example: ex, code, stdout, stderr } of outcomes) {
    const expected = ex.mode === 'tty' ? 'prompted' : String(ex.exit);
    const stack = /^\s+at .+:\d+:\d+\)?$/m.test(stderr);
    const errorShown = ex.shownError === undefined || ex.exit === 0 || stderr.includes(ex.shownError);
    if (code !== expected || stack || !errorShown) {
      failures.push(
        `${ex.where}: ${ex.text}\n  expected ${expected}${ex.shownError && ex.exit ? ` and "${ex.shownError}"` : ''}, got ${code}${stack ? ' with a stack trace' : ''}\n  stdout: ${stdout.slice(0, 600)}\n  stderr: ${stderr.slice(0, 1200)}`,
      );
    }
  }
  expect(failures.join('\n\n'), failures.join('\n\n')).toBe('');
}

/** The pages whose examples run: README.md, then every page of docs/, by name. */
export const PAGES: readonly string[] = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

describe('every example of README.md and docs/ runs as written', () => {
  const blocks = PAGES.flatMap((file) => markdownBlocks(readFileSync(join(ROOT, file), 'utf8'), file));
  it('finds the examples of README.md and of docs/', () => {
    const of = (prefix: string) => blocks.filter((b) => b.where.startsWith(prefix));
    expect(of('README.md:').length).toBeGreaterThan(5);
    expect(of('docs/').length).toBeGreaterThan(10);
    expect(
      of('README.md:')
        .flatMap((b) => b.examples)
        .map((e) => e.text)
        .join('\n'),
    ).toContain('paycli cashout');
    // a page read as the test reads it: its own path in `where`, one example per command line
    const sample = markdownBlocks('x\n\n```sh\npaycli brcode decode -   # exit 2\n```\n\n```json\n{"paycli": 1}\n```\n', 'docs/x.md');
    expect(sample).toEqual([
      { where: 'docs/x.md:3', examples: [{ text: 'paycli brcode decode -   # exit 2', where: 'docs/x.md:3+0', mode: 'run', exit: 2, shownError: undefined }] },
    ]);
  });
  for (const block of blocks) {
    it(`${block.where}: ${block.examples.length} example(s)`, () => check(runBlock(block.examples, base)), 240_000);
  }
});

describe('README.md followed in order, as a reader would', () => {
  it('every example of README.md, block after block, in one folder, one HOME, one config and one ledger', () => {
    const blocks = markdownBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'README.md');
    const examples = blocks.flatMap((b) => b.examples.map((e, i) => (i === b.examples.length - 1 ? { ...e, endsBlock: true } : e)));
    expect(examples.length).toBeGreaterThan(20);
    check(runBlock(examples, base));
  }, 300_000);
});

describe('every --help example runs as written', () => {
  it('every command with Examples, each run in its own block', async () => {
    const blocks = await helpBlocks();
    expect(blocks.map((b) => b.where)).toContain('paycli cashout --help');
    const failures: string[] = [];
    for (const block of blocks.filter((b) => b.examples.length)) {
      try {
        check(runBlock(block.examples, base));
      } catch (err) {
        failures.push(`${block.where}:\n${(err as Error).message.split('\n').slice(0, 40).join('\n')}`);
      }
    }
    expect(failures.join('\n\n'), failures.join('\n\n')).toBe('');
  }, 600_000);

  it('every command has examples in its --help', async () => {
    const blocks = await helpBlocks();
    const without = blocks.filter((b) => b.examples.length === 0 && !/^paycli help --help$/.test(b.where));
    expect(without.map((b) => b.where)).toEqual([]);
  });
});
