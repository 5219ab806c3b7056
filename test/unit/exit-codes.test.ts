/**
 * The exit-code text people read (`paycli --help`, README "Exit codes" and docs/output-for-scripts.md "Exit codes") names exactly the codes
 * paycli exits with (ExitCode in src/core/errors.ts), each once, in order.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodesHelp, buildProgram } from '../../src/cli/program.js';
import { EXIT_CODE_SUMMARY, ExitCode } from '../../src/core/errors.js';

const codes = Object.values(ExitCode).sort((a, b) => a - b);

describe('exit-code text', () => {
  it('--help lists every ExitCode with its summary, in order', () => {
    const lines = exitCodesHelp().trim().split('\n');
    expect(lines[0]).toBe('Exit codes:');
    expect(lines.slice(1).map((l) => Number(/^\s+(\d+)\s/.exec(l)![1]))).toEqual(codes);
    for (const c of codes) expect(exitCodesHelp()).toContain(`${String(c).padEnd(5)}${EXIT_CODE_SUMMARY[c]}`);
    let help = '';
    const program = buildProgram();
    program.configureOutput({ writeOut: (s) => (help += s) });
    program.outputHelp();
    expect(help).toContain(exitCodesHelp().trim());
  });
  /** The codes of the table in a page's "## Exit codes" section, in order. */
  const tableCodes = (file: string): number[] => {
    const page = readFileSync(resolve(__dirname, '../..', file), 'utf8');
    const start = page.indexOf('\n## Exit codes\n');
    expect(start, `${file} has an "## Exit codes" section`).toBeGreaterThanOrEqual(0);
    const end = page.indexOf('\n## ', start + 5);
    const section = page.slice(start, end < 0 ? undefined : end);
    return [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => Number(m[1]));
  };
  it('README "Exit codes" has one row per ExitCode, in order', () => {
    expect(tableCodes('README.md')).toEqual(codes);
  });
  it('docs/output-for-scripts.md "Exit codes" (every code in full) has one row per ExitCode, in order', () => {
    expect(tableCodes('docs/output-for-scripts.md')).toEqual(codes);
  });
});
