/**
 * The earliest start of a single payment's team ledger (docs/speed.md, "Team ledger"): before the
 * command tree loads, when the command line is a `cashout` or `cashin` that sends one payment, the
 * team ledger's worker starts, loads the driver and connects (src/ledger/team.ts `prepareLedger`)
 * while the rest of paycli loads. It reads the command line, `PAYCLI_LEDGER_URL` and whether the config
 * file names a `ledger-url` at all (src/cli/boot.ts bundles it; nothing else is loaded for a local
 * ledger); nothing is sent, recorded or said, and whatever it started and nobody takes is let go at exit.
 */
import { readFileSync } from 'node:fs';
import { configFile } from '../core/paths.js';

/** The global options that take a value (src/cli/program.ts `rootProgram`): their value is not the command. */
const VALUED = new Set(['--profile', '--base-url', '--timeout', '--lang']);

/**
 * The command of `args` (the arguments after the program name) when it is a single payment:
 * `cashout` or `cashin` as the first word that is not an option or a global option's value, and
 * no `--batch`, `--dry-run`, `--help`/`-h` or `--version`/`-V` anywhere. Also the `--profile` given.
 * @example singlePayment(['--profile', 'loja', 'cashout', '--value', '1550']) // { command: 'cashout', profile: 'loja' }
 */
export function singlePayment(args: readonly string[]): { command: 'cashout' | 'cashin'; profile?: string } | undefined {
  let command: string | undefined;
  let profile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (/^--(batch|dry-run|help|version)(=|$)/.test(arg) || arg === '-h' || arg === '-V') return undefined;
    if (arg === '--profile') profile = args[i + 1];
    else if (arg.startsWith('--profile=')) profile = arg.slice('--profile='.length);
    if (command === undefined) {
      if (VALUED.has(arg)) i++;
      else if (!arg.startsWith('-')) command = arg;
    }
  }
  return command === 'cashout' || command === 'cashin' ? { command, ...(profile ? { profile } : {}) } : undefined;
}

/**
 * Starts the team ledger of a single payment's profile without waiting (see the file's comment);
 * resolves once the start is under way. Never throws: a problem shows when the payment opens its ledger.
 */
export async function prepareEarly(args: readonly string[]): Promise<void> {
  const payment = singlePayment(args);
  if (!payment || !mayHaveTeamLedger()) return;
  try {
    (await import('../ledger/team.js')).prepareLedger(payment.profile);
  } catch {
    /* said when the ledger is opened */
  }
}

/**
 * True when a team ledger may be configured: `PAYCLI_LEDGER_URL` is set, or the config file mentions
 * `ledger-url` (which profile's, and whether it is valid, src/ledger/team.ts decides).
 */
function mayHaveTeamLedger(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.PAYCLI_LEDGER_URL) return true;
  try {
    return readFileSync(configFile(), 'utf8').includes('"ledger-url"');
  } catch {
    return false;
  }
}
