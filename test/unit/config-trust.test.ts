/** The config trust rule (src/config/trust.ts) on lstat results, without touching the disk. */
import { describe, expect, it } from 'vitest';
import { judgeConfigFile } from '../../src/config/trust.js';
import { PaycliError } from '../../src/core/errors.js';

const st = (mode: number, uid = 1000, link = false) => ({ mode: 0o100000 | mode, uid, isSymbolicLink: () => link });
const refusal = (f: () => unknown): PaycliError => {
  try {
    f();
  } catch (e) {
    return e as PaycliError;
  }
  throw new Error('not refused');
};

describe('judgeConfigFile', () => {
  it('trusts a missing file and a private file of ours', () => {
    expect(judgeConfigFile('/c.json', undefined, 1000)).toEqual({});
    expect(judgeConfigFile('/c.json', st(0o600), 1000)).toEqual({});
    expect(judgeConfigFile('/c.json', st(0o400), 1000)).toEqual({});
  });
  it('warns with chmod 600 when group or others can read it', () => {
    for (const mode of [0o640, 0o604, 0o644])
      expect(judgeConfigFile('/c.json', st(mode), 1000).warning).toBe('the config file /c.json can be read by other users (it may hold your API key); run: chmod 600 /c.json');
  });
  it('refuses a symlink, another owner, or a file others may write: exit 2 config_untrusted', () => {
    for (const [s, why] of [
      [st(0o777, 1000, true), 'is a symbolic link'],
      [st(0o600, 0), 'is owned by another user (uid 0, you are 1000)'],
      [st(0o620), 'can be written by other users'],
      [st(0o602), 'can be written by other users'],
    ] as const) {
      const e = refusal(() => judgeConfigFile('/c.json', s, 1000));
      expect(e).toBeInstanceOf(PaycliError);
      expect(e.exitCode).toBe(2);
      expect(e.code).toBe('config_untrusted');
      expect(e.message).toBe(`the config file /c.json ${why}; paycli does not trust it and sent nothing`);
    }
  });
  it('without a user id (no getuid), ownership is not judged', () => {
    expect(judgeConfigFile('/c.json', st(0o600, 0), undefined)).toEqual({});
  });
});
