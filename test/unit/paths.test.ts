/**
 * paycli's folders (src/core/paths.ts): the platform's conventions as the env-paths package gives them (on Linux
 * the XDG base directories, else under `HOME`), and the `PAYCLI_*_DIR` overrides. Each case runs in a fresh module
 * (the folders are worked out once per process).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const NAMES = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'PAYCLI_CONFIG_DIR', 'PAYCLI_DATA_DIR', 'PAYCLI_CACHE_DIR'] as const;
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));

/** The three folders with `env` set (undefined: unset). */
async function folders(env: Partial<Record<(typeof NAMES)[number], string | undefined>>): Promise<string[]> {
  for (const n of NAMES) {
    const v = n in env ? env[n] : undefined;
    if (v === undefined) delete process.env[n];
    else process.env[n] = v;
  }
  vi.resetModules();
  const paths = await import('../../src/core/paths.js');
  return [paths.configDir(), paths.dataDir(), paths.cacheDir()];
}

afterEach(() => {
  for (const n of NAMES) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

describe.runIf(process.platform === 'linux')("paycli's folders on Linux", () => {
  it('under HOME without XDG variables', async () => {
    expect(await folders({ HOME: '/home/ana/' })).toEqual(['/home/ana/.config/paycli', '/home/ana/.local/share/paycli', '/home/ana/.cache/paycli']);
  });

  it('the XDG variables where set (an empty one is unset)', async () => {
    expect(await folders({ HOME: '/home/ana', XDG_CONFIG_HOME: '/x/conf', XDG_DATA_HOME: '', XDG_CACHE_HOME: '/x/cache/' })).toEqual([
      '/x/conf/paycli',
      '/home/ana/.local/share/paycli',
      '/x/cache/paycli',
    ]);
  });

  it("the user's home folder from the system when HOME is unset, as os.homedir()", async () => {
    const home = (() => {
      delete process.env.HOME;
      return homedir();
    })();
    expect(await folders({})).toEqual([join(home, '.config/paycli'), join(home, '.local/share/paycli'), join(home, '.cache/paycli')]);
  });

  it('PAYCLI_CONFIG_DIR, PAYCLI_DATA_DIR and PAYCLI_CACHE_DIR first', async () => {
    expect(await folders({ HOME: '/home/ana', PAYCLI_CONFIG_DIR: '/c', PAYCLI_DATA_DIR: '/d', PAYCLI_CACHE_DIR: '/k' })).toEqual(['/c', '/d', '/k']);
  });
});
