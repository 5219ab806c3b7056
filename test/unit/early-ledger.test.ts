/**
 * src/cli/early-ledger.ts: which command lines start a team ledger's connection before the command
 * tree loads (a single cash-out or cash-in), and which never do (docs/speed.md, "Team ledger").
 */
import { describe, expect, it } from 'vitest';
import { singlePayment } from '../../src/cli/early-ledger.js';

describe('singlePayment', () => {
  it('is a cash-out or a cash-in that sends one payment, with the --profile given', () => {
    expect(singlePayment(['cashout', '--value', '1550', '--yes'])).toEqual({ command: 'cashout' });
    expect(singlePayment(['--json', 'cashin', '--value', '1000'])).toEqual({ command: 'cashin' });
    expect(singlePayment(['--profile', 'loja', '--base-url', 'sandbox', 'cashout'])).toEqual({ command: 'cashout', profile: 'loja' });
    expect(singlePayment(['cashout', '--profile=loja', '--value', '1'])).toEqual({ command: 'cashout', profile: 'loja' });
    expect(singlePayment(['--timeout', '5000', '--lang', 'pt-BR', 'cashin'])).toEqual({ command: 'cashin' });
  });

  it('is not a batch, a dry run, help or the version', () => {
    expect(singlePayment(['cashout', '--batch', 'rows.csv', '--yes'])).toBeUndefined();
    expect(singlePayment(['cashout', '--batch=rows.csv'])).toBeUndefined();
    expect(singlePayment(['cashout', '--dry-run', '--value', '1'])).toBeUndefined();
    expect(singlePayment(['cashin', '--help'])).toBeUndefined();
    expect(singlePayment(['cashin', '-h'])).toBeUndefined();
    expect(singlePayment(['cashout', '-V'])).toBeUndefined();
  });

  it('is not another command, even with cashout or cashin among its values', () => {
    expect(singlePayment(['history', '--kind', 'cashout'])).toBeUndefined();
    expect(singlePayment(['--profile', 'cashout', 'history'])).toBeUndefined();
    expect(singlePayment(['--base-url', 'cashin', 'status', 'tx1'])).toBeUndefined();
    expect(singlePayment(['ledger', 'push'])).toBeUndefined();
    expect(singlePayment([])).toBeUndefined();
    expect(singlePayment(['--', 'cashout'])).toBeUndefined();
  });
});
