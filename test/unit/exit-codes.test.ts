/**
 * The exit-code text people read (`paycli --help`, README "Exit codes") names exactly the codes
 * paycli exits with (ExitCode in src/core/errors.ts), each once, in order.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES_HELP, buildProgram } from '../../src/cli/program.js';
import { EXIT_CODE_SUMMARY, ExitCode } from '../../src/core/errors.js';

const codes = Object.values(ExitCode).sort((a, b) => a - b);

describe('exit-code text', () => {
  it('--help lists every ExitCode with its summary, in order', () => {
    const lines = EXIT_CODES_HELP.trim().split('\n');
    expect(lines[0]).toBe('Exit codes:');
    expect(lines.slice(1).map((l) => Number(/^\s+(\d+)\s/.exec(l)![1]))).toEqual(codes);
    for (const c of codes) expect(EXIT_CODES_HELP).toContain(`${String(c).padEnd(5)}${EXIT_CODE_SUMMARY[c]}`);
    let help = '';
    const program = buildProgram();
    program.configureOutput({ writeOut: (s) => (help += s) });
    program.outputHelp();
    expect(help).toContain(EXIT_CODES_HELP.trim());
  });
  it('README "Exit codes" has one row per ExitCode, in order', () => {
    const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Exit codes\n'), readme.indexOf('\n## ', readme.indexOf('\n## Exit codes\n') + 5));
    const rows = [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => Number(m[1]));
    expect(rows).toEqual(codes);
  });
});
