/**
 * Whether paycli may trust its config file (docs/configuration.md). The config file
 * says where money goes (`base-url`) and holds the API key, so, like ssh with its keys:
 * - a symbolic link is refused: whoever controls the link's target controls the payouts;
 * - a file owned by another user is refused: that user decides where the money goes;
 * - a file others may write is refused for the same reason;
 * - a file others may read gets a warning naming the fix (`chmod 600`): the key may have leaked.
 * A missing file is trusted (it is an empty config).
 */
import { lstatSync, type Stats } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { t } from '../core/i18n/index.js';

/** What {@link configTrust} found: nothing, or a warning to print once. */
export interface ConfigTrust {
  /** A sentence for stderr when the file is readable by group or others. */
  warning?: string;
}

/**
 * The pure rule on a file's `lstat` result (tested without touching the disk).
 * @param st `lstat` of the config file (`undefined`: there is none)
 * @param uid the user paycli runs as (`process.getuid()`; `undefined` where there is none, e.g. Windows)
 * @throws UsageError `config_untrusted` (exit 2, nothing sent) for a symlink, another owner, or a file others may write
 */
export function judgeConfigFile(path: string, st: Pick<Stats, 'mode' | 'uid' | 'isSymbolicLink'> | undefined, uid: number | undefined): ConfigTrust {
  if (!st) return {};
  const refuse = (why: string, hint: string): never => {
    throw new UsageError(t('trust.refused', path, why), { hint }, 'config_untrusted');
  };
  if (st.isSymbolicLink()) refuse(t('trust.symlink'), t('trust.symlinkHint', path));
  if (uid !== undefined && st.uid !== uid) refuse(t('trust.otherOwner', st.uid, uid), t('trust.otherOwnerHint'));
  if (st.mode & 0o022) refuse(t('trust.othersWrite'), t('trust.chmodHint', path));
  if (st.mode & 0o044) return { warning: t('trust.othersRead', path) };
  return {};
}

/**
 * Checks the config file at `path` on disk ({@link judgeConfigFile}).
 * @throws UsageError `config_untrusted`
 */
export function configTrust(path: string): ConfigTrust {
  let st: Stats | undefined;
  try {
    st = lstatSync(path);
  } catch {
    st = undefined;
  }
  return judgeConfigFile(path, st, typeof process.getuid === 'function' ? process.getuid() : undefined);
}
