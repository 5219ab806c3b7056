/**
 * `paycli sandbox reset`: starts a stopped sandbox's state folder over (src/sandbox/state.ts;
 * docs/sandbox-and-postbacks.md). Refused, nothing removed (exit 2), while a sandbox runs on it.
 */
import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { output, type Output } from '../../core/output.js';
import { portFlag } from '../../gateway/net.js';
import { SANDBOX_DEFAULT_PORT } from '../../sandbox/address.js';
import { defaultStateDir, resetState } from '../../sandbox/state.js';
import { t } from '../../core/i18n/index.js';

/** Options of `sandbox reset`: the state folder. */
export interface SandboxResetOptions {
  dataDir?: string;
  /** `--port`: the port whose default folder is started over (`<data folder>/sandbox/<port>`; default 4010); `--data-dir` comes first. */
  port?: string;
}

/**
 * Removes the folder's transactions and events.
 * @returns the document `{dataDir, removed}` (removed: there was state) and its line for people
 * @throws UsageError when a live sandbox holds the folder, it cannot be used, or `--port` is not a port
 */
export async function run(opts: SandboxResetOptions): Promise<Output<{ dataDir: string; removed: boolean }>> {
  const dir = opts.dataDir !== undefined ? resolve(opts.dataDir) : defaultStateDir(portFlag(opts.port ?? String(SANDBOX_DEFAULT_PORT)));
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
  return output({ dataDir: dir, removed: got.removed > 0 }, t('sandbox.reset.done', dir, got.removed));
}
