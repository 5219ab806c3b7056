/**
 * The direct route of a batch run (src/cli/batch-line.ts, src/cli/direct-line.ts) reads a command
 * line as commander does: for every line it takes, the options it gives are the ones
 * src/cli/action.ts `execute` builds from commander's parse of the same line; every line it does not
 * take (a single payment, help, `--watch`, flags of single payments, values commander refuses) goes
 * to the command tree. The outputs of both paths are compared on real ledgers in
 * test/e2e/batch-direct.test.ts.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { batchLine } from '../../src/cli/batch-line.js';
import { directLine } from '../../src/cli/line.js';
import { buildProgram } from '../../src/cli/program.js';
import { normalizeJsonArgs } from '../../src/cli/output/fields.js';

/** The command and options commander gives the action of the command `args` run, built as src/cli/action.ts `execute` builds them. */
async function commanderOptions(args: string[]): Promise<{ kind: string; opts: Record<string, unknown> }> {
  const normalized = normalizeJsonArgs(args);
  const program = buildProgram(normalized);
  let got: { kind: string; opts: Record<string, unknown> } | undefined;
  for (const command of program.commands) {
    command.action((_opts: unknown, cmd: Command) => {
      const local = cmd.opts() as Record<string, unknown>;
      got = { kind: cmd.name(), opts: { ...(cmd.optsWithGlobals() as Record<string, unknown>), input: local.input, noInput: program.opts().input === false } };
    });
  }
  await program.parseAsync(['node', 'paycli', ...normalized]);
  if (!got) throw new Error(`no action ran for ${args.join(' ')}`);
  return got;
}

const TAKEN: string[][] = [
  ['cashout', '--batch', 'payouts.csv'],
  ['cashout', '--batch', 'payouts.csv', '--yes', '--concurrency', '8', '--results', 'out.csv'],
  ['cashout', '--batch=payouts.csv', '-y', '--json'],
  ['--json', 'cashout', '--batch', 'payouts.csv', '--yes'],
  ['cashout', '--json', '-y', '--batch', 'payouts.csv'],
  ['--profile', 'work', '--lang', 'pt-BR', 'cashout', '--batch', 'p.csv', '--yes'],
  ['cashout', '--batch', 'p.jsonl', '--batch-format', 'jsonl', '--rate', '2.5', '--csv-dialect', 'br', '--encoding', 'latin1'],
  ['cashout', '--batch', 'p.csv', '--retry-refused', '--wait', '--allow-duplicate', '--dry-run'],
  ['--verbose', '--no-color', '--no-input', 'cashout', '--batch', 'p.csv', '--lang=en'],
  ['--base-url', 'http://127.0.0.1:9', '--timeout', '5s', '--allow-insecure-http', 'cashout', '--batch', 'p.csv'],
  ['cashout', '--batch', 'p.csv', '--profile=work', '--timeout=30s', '--base-url=http://x'],
  ['cashout', '--batch', 'p.csv', '--concurrency', 'abc'], // not a commander rule: the batch run refuses it (exit 2)
  ['cashout', '--batch', 'p.csv', '--concurrency', '0'],
  ['cashout', '--batch', ''],
  ['cashin', '--batch', 'charges.csv', '--yes', '--json'],
  ['cashin', '--batch', 'charges.csv', '--qr-dir', 'qr', '-y', '--concurrency=4'],
  ['--lang', 'pt', 'cashin', '--results', 'r.jsonl', '--batch', 'c.csv'],
];

const LEFT: string[][] = [
  [],
  ['cashout'],
  ['cashout', '--yes'],
  ['cashout', '--value', '100', '--batch', 'p.csv'],
  ['cashout', '--batch', 'p.csv', '--help'],
  ['cashout', '--batch', 'p.csv', '-h'],
  ['help', 'cashout'],
  ['cashout', '--batch'],
  ['cashout', '--batch', '-'],
  ['cashout', '--batch', 'p.csv', '--batch', 'q.csv'],
  ['cashout', '--batch', 'p.csv', '-y', '--yes'],
  ['cashout', '--batch', 'p.csv', '--csv-dialect', 'de'],
  ['cashout', '--batch', 'p.csv', '--encoding', 'utf-16'],
  ['cashout', '--batch', 'p.csv', '--lang', 'fr'],
  ['cashout', '--batch', 'p.csv', '--qr-dir', 'qr'],
  ['cashout', '--batch', 'p.csv', '--json', 'transactionId'],
  ['cashout', '--batch', 'p.csv', '--json=row'],
  ['cashout', '--batch', 'p.csv', '--jq', '.'],
  ['cashout', '--batch', 'p.csv', '--template', '{{ row }}'],
  ['cashout', '--batch', 'p.csv', '--yes=1'],
  ['cashout', '--batch', 'p.csv', 'extra'],
  ['cashout', '--batch', 'p.csv', '--'],
  ['cashout', '--batch', 'p.csv', '-yq'],
  ['--batch', 'p.csv', 'cashout'],
  ['--yes', 'cashout', '--batch', 'p.csv'],
  ['cashout', 'cashout', '--batch', 'p.csv'],
  ['cashin', '--batch', 'c.csv', '--watch'],
  ['cashin', '--batch', 'c.csv', '--until', 'paid'],
  ['cashin', '--batch', 'c.csv', '--watch-timeout', '5m'],
  ['cashin', '--batch', 'c.csv', '--qr'],
  ['cashout', '--batch', 'fulano\uFFFD.csv'],
  ['history', '--batch', 'p.csv'],
  ['-V'],
];

describe('the direct route of a batch run', () => {
  it.each(TAKEN)('takes %j with the command and options commander gives', async (...args) => {
    const direct = batchLine(args);
    expect(direct).toBeDefined();
    expect(direct).toEqual(await commanderOptions(args));
    expect(directLine(args)).toEqual({ command: direct!.kind, opts: direct!.opts });
  });

  it.each(LEFT)('leaves %j to the command tree', (...args) => {
    expect(batchLine(args)).toBeUndefined();
  });
});
