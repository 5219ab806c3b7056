/**
 * The direct route's reading of a batch run's line (docs/architecture.md "The direct route"):
 * `paycli cashout --batch FILE` and `paycli cashin --batch FILE` with the flags scripts give a
 * batch run are read without commander by src/cli/direct-line.ts `readLine` and run by
 * src/cli/direct.ts with the batch run's entry (src/cli/batch/run.ts), which for a finished file
 * loads neither the schemas nor the HTTP client (docs/speed.md "A batch re-run without the command
 * tree"). Every other line (a single payment, help, `--watch`, `--until`, `--watch-timeout`, a flag
 * of single payments, an unknown or repeated flag, a value commander refuses) is left to the whole
 * command tree. test/unit/batch-line.test.ts checks that what it gives is what commander gives.
 */
import { readLine, type LineSpec } from './direct-line.js';
import type { BatchKind } from '../batch/outcome.js';

/** The root's flags a batch line may give (src/cli/program.ts `rootProgram`), with their attribute names. */
const ROOT_VALUES: Readonly<Record<string, string>> = { '--profile': 'profile', '--lang': 'lang', '--base-url': 'baseUrl', '--timeout': 'timeout' };
const ROOT_SWITCHES: Readonly<Record<string, readonly [string, boolean]>> = {
  '--json': ['json', true],
  '--verbose': ['verbose', true],
  '--no-color': ['color', false],
  '--no-input': ['input', false],
  '--allow-insecure-http': ['allowInsecureHttp', true],
};

/** A batch line of `word` (src/cli/commands/cashout.ts, cashin.ts), with `extra` value flags of that command. */
function batchSpec(word: BatchKind, extra: Readonly<Record<string, string>>): LineSpec {
  return {
    word,
    values: {
      ...ROOT_VALUES,
      '--batch': 'batch',
      '--batch-format': 'batchFormat',
      '--concurrency': 'concurrency',
      '--rate': 'rate',
      '--results': 'results',
      '--csv-dialect': 'csvDialect',
      '--encoding': 'encoding',
      ...extra,
    },
    switches: {
      ...ROOT_SWITCHES,
      '--yes': ['yes', true],
      '--dry-run': ['dryRun', true],
      '--allow-duplicate': ['allowDuplicate', true],
      '--retry-refused': ['retryRefused', true],
      '--wait': ['wait', true],
    },
    short: { '-y': '--yes' },
    root: new Set([...Object.keys(ROOT_VALUES), ...Object.keys(ROOT_SWITCHES)]),
    choices: { csvDialect: ['br', 'intl'], encoding: ['utf-8', 'windows-1252', 'latin1'] },
    defaults: { color: true },
    required: 'batch',
  };
}

/** The batch lines the route takes: `cashin` also with `--qr-dir`. */
export const BATCH_LINES: Readonly<Record<BatchKind, LineSpec>> = {
  cashout: batchSpec('cashout', {}),
  cashin: batchSpec('cashin', { '--qr-dir': 'qrDir' }),
};

/**
 * The kind and options of a `paycli cashout --batch` / `cashin --batch` line, as src/cli/action.ts
 * `execute` builds them from commander's, or undefined when the route does not take the line.
 * @param args the arguments after the program, e.g. `['cashout', '--batch', 'payouts.csv', '--yes']`
 */
export function batchLine(args: readonly string[]): { kind: BatchKind; opts: Record<string, unknown> } | undefined {
  for (const kind of ['cashout', 'cashin'] as const) {
    const opts = readLine(BATCH_LINES[kind], args);
    if (opts) return { kind, opts };
  }
  return undefined;
}
