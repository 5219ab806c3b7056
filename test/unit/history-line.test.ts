/**
 * The direct route of `history` (src/cli/history-line.ts) reads a command line as commander does:
 * for every line it takes, the options it gives are the ones src/cli/action.ts `execute` builds
 * from commander's parse of the same line; every line it does not take (help, `resolve`, flags
 * it does not know, values commander refuses) goes to the command tree. The outputs of both paths
 * are compared on real ledgers in test/e2e/history-direct.test.ts.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { historyLine } from '../../src/cli/history-line.js';
import { buildProgram } from '../../src/cli/program.js';
import { normalizeJsonArgs } from '../../src/cli/output/fields.js';

/** The options commander gives history's action for `args`, built as src/cli/action.ts `execute` builds them. */
async function commanderOptions(args: string[]): Promise<Record<string, unknown>> {
  const normalized = normalizeJsonArgs(args);
  const program = buildProgram(normalized);
  const history = program.commands.find((c) => c.name() === 'history')!;
  let got: Record<string, unknown> | undefined;
  history.action((_opts: unknown, cmd: Command) => {
    const local = cmd.opts() as Record<string, unknown>;
    got = { ...(cmd.optsWithGlobals() as Record<string, unknown>), input: local.input, noInput: program.opts().input === false };
  });
  await program.parseAsync(['node', 'paycli', ...normalized]);
  if (!got) throw new Error(`history's action did not run for ${args.join(' ')}`);
  return got;
}

const TAKEN: string[][] = [
  ['history'],
  ['history', '--limit', '20'],
  ['history', '--limit=5', '--kind', 'cashout', '--outcome', 'unknown'],
  ['--json', 'history', '--since', '7d'],
  ['history', '--json', '--limit', '3'],
  ['history', '--json'],
  ['history', '--format', 'csv', '--csv-dialect', 'br'],
  ['history', '--format=ofx', '--until', '2026-11-30'],
  ['--lang', 'pt-BR', 'history', '--by', 'deploy@ci'],
  ['history', '--lang=pt', '--no-color', '--verbose', '--no-input'],
  ['--profile', 'work', 'history', '--order-id', 'abc'],
  ['history', '--profile=work', '--until', 'ontem', '--kind=cashin'],
  ['history', '--outcome', 'bogus'], // not a listed choice commander enforces: history's run refuses it
  ['history', '--limit', 'abc'],
  ['history', '--limit', ''],
  ['--verbose', '--no-color', 'history', '--by', '@host'],
];

const LEFT: string[][] = [
  [],
  ['cashout'],
  ['help', 'history'],
  ['completion', 'bash'],
  ['history', '--help'],
  ['history', '-h'],
  ['history', 'resolve', '1', '--outcome', 'ok'],
  ['history', '--jq', '.'],
  ['history', '--template', '{{ id }}'],
  ['history', '--json', 'id,value'],
  ['history', '--json=id'],
  ['history', '--kind', 'bogus'],
  ['history', '--format', 'xml'],
  ['history', '--csv-dialect', 'de'],
  ['history', '--lang', 'fr'],
  ['history', '--limit'],
  ['history', '--limit', '1', '--limit', '2'],
  ['--limit', '5', 'history'],
  ['history', 'extra'],
  ['history', 'history'],
  ['history', '--'],
  ['history', '--unknown'],
  ['history', '--since', '-1d'],
  ['history', '--verbose=1'],
  ['history', '--by', 'fulano\uFFFD'],
  ['history', '--timeout', '5s'],
  ['--version'],
  ['history', '-V'],
];

describe('the direct route of history', () => {
  it.each(TAKEN)('takes %j with the options commander gives', async (...args) => {
    const direct = historyLine(args);
    expect(direct).toBeDefined();
    expect(direct).toEqual(await commanderOptions(args));
  });

  it.each(LEFT)('leaves %j to the command tree', (...args) => {
    expect(historyLine(args)).toBeUndefined();
  });
});
