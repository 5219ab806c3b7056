/**
 * The context every command runs in (in the manner of `gh`'s Factory and IOStreams): the
 * process's streams and whether each is a terminal, the clock and environment (src/core/terminal.ts
 * `RunContext`), plus how its result is to be shown and factories for what a command talks to:
 * its settings, the ledger and the gateway (the payment pipeline's dependencies). src/cli/action.ts
 * makes one per run; in-process tests make their own (test/helpers/run.ts) with their own streams,
 * environment and clock, against real servers on 127.0.0.1.
 */
import type { Settings, SettingsOp, GlobalFlags } from '../config/settings.js';
import type { RunContext } from '../core/terminal.js';
import type { PipelineDeps } from '../payment/pipeline.js';
import type { LedgerContract } from '../ledger/contract.js';
import type { LedgerListing } from '../ledger/read.js';
import type { OutputRequest } from './output/shape.js';

/** What a command's run function gets besides its typed options. */
export interface CommandContext extends RunContext {
  /** How the result is shown (`--json`, `--json FIELDS`, `--jq`, `--template`, or text). */
  output: OutputRequest;
  /**
   * The resolved settings of an operation for these flags, from this context's environment and
   * the config file (src/config/settings.ts `settingsFor`).
   * @throws UsageError / AuthError as `settingsFor`
   */
  settings(flags: GlobalFlags, op: SettingsOp, about?: 'cashin' | 'cashout', opts?: { quiet?: boolean }): Promise<Settings>;
  /** The ledger to read, or undefined when there is none yet (src/ledger/async-store.ts `openContractToRead`). */
  readLedger(profile?: string): Promise<LedgerContract | undefined>;
  /**
   * The ledger `history` lists, or undefined when there is none yet: only what a read needs for a
   * local ledger ready to read, else {@link readLedger}'s (src/ledger/read.ts `openListing`).
   */
  listLedger(profile?: string): Promise<LedgerListing | undefined>;
  /** The payment pipeline's dependencies: clock, settings, ledger, gateway client, prompt (src/payment/pipeline.ts). */
  payments(): Promise<PipelineDeps>;
}

/** The factories of this process: the real config file, ledger and gateway, with `base`'s clock and environment. */
export function commandContext(base: RunContext, output: OutputRequest): CommandContext {
  // the descriptors keep `base`'s getters (Node builds process.stdin only when it is read)
  const ctx = Object.defineProperties({}, Object.getOwnPropertyDescriptors(base)) as CommandContext;
  ctx.output = output;
  ctx.settings = async (flags, op, about, opts = {}) => (await import('../config/settings.js')).settingsFor(flags, op, about, { ...opts, env: base.env });
  ctx.readLedger = async (profile) => (await import('../ledger/async-store.js')).openContractToRead(profile);
  ctx.listLedger = async (profile) => (await import('../ledger/read.js')).openListing(profile);
  ctx.payments = async () => {
    const { realDeps, resolveRunSettings } = await import('../payment/pipeline.js');
    return {
      ...(await realDeps()),
      now: () => base.now().getTime(),
      settings: (flags, kind) => resolveRunSettings(flags, kind, base.env),
      stdin: () => base.stdin,
    };
  };
  return ctx;
}
