#!/usr/bin/env node
// Counts the assertions of the test suite per kind of test: the `expect(` calls (and `expect.soft(` /
// `expect.poll(`) in each folder of test/ (e2e: spawn the built paycli; inprocess: commands run through
// the run context, test/helpers/run.ts; unit). `expect.any(...)` and the like are matchers, not
// assertions, and are not counted. `--files` adds one line per file.
// Usage: node scripts/count-assertions.mjs [--files] [--json]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ASSERTION = /\bexpect(?:\.(?:soft|poll))?\(/g;
const TEST_CASE = /^\s*(?:it|test)(?:\.each\([^)]*\))?\(/gm;
const perFile = process.argv.includes('--files');
const asJson = process.argv.includes('--json');

/** Test files under `dir`, recursively, relative to the repository. */
function testFiles(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

const kinds = readdirSync(join(root, 'test'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const report = {};
for (const kind of kinds) {
  const files = testFiles(join('test', kind)).sort();
  if (files.length === 0) continue;
  const rows = files.map((f) => {
    const text = readFileSync(join(root, f), 'utf8');
    return { file: f, assertions: text.match(ASSERTION)?.length ?? 0, tests: text.match(TEST_CASE)?.length ?? 0 };
  });
  report[kind] = {
    files: rows.length,
    tests: rows.reduce((n, r) => n + r.tests, 0),
    assertions: rows.reduce((n, r) => n + r.assertions, 0),
    ...(perFile ? { perFile: rows } : {}),
  };
}
const total = Object.values(report).reduce((n, k) => n + k.assertions, 0);
if (asJson) {
  process.stdout.write(`${JSON.stringify({ ...report, total }, null, 2)}\n`);
} else {
  for (const [kind, k] of Object.entries(report)) {
    process.stdout.write(`${kind.padEnd(10)} ${String(k.files).padStart(4)} files ${String(k.tests).padStart(5)} tests ${String(k.assertions).padStart(6)} assertions\n`);
    if (perFile) for (const r of k.perFile) process.stdout.write(`  ${String(r.assertions).padStart(5)} ${r.file}\n`);
  }
  process.stdout.write(`${'total'.padEnd(10)} ${' '.repeat(28)}${String(total).padStart(6)} assertions\n`);
}
