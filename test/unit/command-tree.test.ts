/**
 * src/cli/program.ts builds only the command a command line runs (`buildProgram(args)`): which command
 * that is (`commandToRun`), and that the one-command tree parses and documents that command
 * exactly as the whole tree does.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, commandToRun, rootProgram } from '../../src/cli/program.js';

const root = rootProgram() as unknown as Command;
const names = (program: Command) => program.commands.map((c) => c.name());

/** The help text of `path` (e.g. ['brcode', 'decode']) in a program. */
function helpOf(program: Command, path: string[]): string {
  let cmd = program;
  for (const word of path) cmd = cmd.commands.find((c) => c.name() === word)!;
  return cmd.helpInformation();
}

describe('commandToRun', () => {
  it.each([
    [['cashout', '--value', '1550'], 'cashout'],
    [['--json', 'cashout'], 'cashout'],
    [['--profile', 'work', 'history', '--limit', '5'], 'history'],
    [['--base-url', 'sandbox', '--timeout', '5000', 'brcode', 'decode', 'x'], 'brcode'],
    [['--profile=work', 'config', 'path'], 'config'],
    // a flag's value that is also a command's name is the flag's value
    [['--profile', 'cashin', 'cashout'], 'cashout'],
  ])('%j runs %s', (args, name) => {
    expect(commandToRun(root, args)).toBe(name);
  });

  it.each([
    [[]],
    [['--help']],
    [['-h', 'cashout']],
    [['--version']],
    [['-V']],
    [['help', 'cashout']],
    [['completion', 'bash']],
    [['cashot']],
    [['--', 'cashout']],
    [['--profile', 'work']],
  ])('%j needs the whole tree', (args) => {
    expect(commandToRun(root, args)).toBeUndefined();
  });
});

describe('buildProgram(args)', () => {
  const whole = buildProgram();

  it('defines only the command that runs (and help), or every command', () => {
    expect(names(buildProgram(['--json', 'cashout', '--value', '1']))).toEqual(['cashout', 'help']);
    expect(names(buildProgram(['cashot']))).toEqual(names(whole));
    expect(names(whole)).toEqual(
      expect.arrayContaining(['cashin', 'cashout', 'config', 'sandbox', 'history', 'status', 'balance', 'reconcile', 'listen', 'brcode', 'completion', 'help']),
    );
  });

  it.each([[['cashout']], [['cashin']], [['config', 'set']], [['brcode', 'decode']], [['history', 'resolve']], [['sandbox', 'ping']]])(
    '%j has the same help as in the whole tree',
    (path) => {
      expect(helpOf(buildProgram(path), path)).toBe(helpOf(whole, path));
    },
  );
});
