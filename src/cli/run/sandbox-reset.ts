/**
 * `paycli sandbox reset`: starts a stopped sandbox's state folder over (src/sandbox/state.ts;
 * docs/sandbox-and-postbacks.md). Refused, nothing removed (exit 2), while a sandbox runs on it.
 */
import { join, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { printResult } from '../../core/logger.js';
import { dataDir } from '../../core/paths.js';
import { resetState } from '../../sandbox/state.js';
import { t } from '../../core/i18n/index.js';

/** Options of `sandbox reset`: the state folder, and the global --json. */
export interface SandboxResetOptions {
  dataDir?: string;
  json?: boolean;
}

/**
 * Removes the folder's transactions and events; prints the folder and whether there was state.
 * @throws UsageError when a live sandbox holds the folder, or it cannot be used
 */
export async function run(opts: SandboxResetOptions): Promise<void> {
  const dir = opts.dataDir !== undefined ? resolve(opts.dataDir) : join(dataDir(), 'sandbox');
  let got;
  try {
    got = resetState(dir);
  } catch (err) {
    throw new UsageError(t('sandbox.dataDirUnusable', dir, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--data-dir', hint: t('sandbox.dataDirHint') });
  }
  if ('heldBy' in got) {
    const who = Number.isNaN(got.heldBy) ? t('sandbox.anotherProcess') : t('sandbox.anotherSandbox', got.heldBy);
    throw new UsageError(t('sandbox.dataDirInUse', dir, who), { field: '--data-dir', hint: t('sandbox.resetInUseHint') });
  }
  printResult(opts.json ? { json: { dataDir: dir, removed: got.removed > 0 } } : t('sandbox.reset.done', dir, got.removed));
}
