/**
 * `npm test` on a fresh machine (README, first lines): scripts/test-deps.sh, which `npm test`
 * runs first, installs the Debian packages of scripts/test-deps.txt that are missing when it
 * can (as root, or with passwordless sudo) and otherwise stops at once with one line naming
 * them. The machine's own tools are hidden by a PATH made of links to the few programs the
 * script may use, without the ones under test; `apt-get` is a stand-in that records its
 * arguments and "installs" a package by linking the real program into that PATH.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/test-deps.sh');

/** The list, as the script reads it: command → package. */
const DEPS: Array<{ cmd: string; pkg: string }> = readFileSync(join(ROOT, 'scripts/test-deps.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [cmd, pkg] = l.trim().split(/\s+/);
    return { cmd: cmd!, pkg: pkg! };
  });
const MASKED = ['tmux', 'zsh', 'fish'];

/** Absolute paths of programs on the real PATH, looked up once (one shell for all of them). */
const FOUND = new Map<string, string>();

/** Absolute path of a program on the real PATH. */
function which(cmd: string): string {
  if (FOUND.size === 0) {
    const wanted = ['bash', 'dirname', 'id', 'ln', ...DEPS.map((d) => d.cmd)];
    const r = spawnSync('bash', ['-c', 'for c in "$@"; do printf "%s\\t%s\\n" "$c" "$(command -v "$c")"; done', 'which', ...wanted], { encoding: 'utf8' });
    for (const line of r.stdout.split('\n')) {
      const [name, path] = line.split('\t');
      if (name && path) FOUND.set(name, path);
    }
  }
  const path = FOUND.get(cmd);
  if (!path) throw new Error(`${cmd} is not installed on this machine (scripts/test-deps.txt lists it; npm test installs it)`);
  return path;
}

let dir: string;
let bin: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-deps-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  chmodSync(dir, 0o755);
  for (const tool of ['bash', 'dirname', 'id', ...DEPS.map((d) => d.cmd).filter((c) => !MASKED.includes(c) && !c.includes('/'))]) symlinkSync(which(tool), join(bin, tool));
  // apt-get: records each call; `install` links the real program of each package it is given.
  const links = DEPS.filter((d) => !d.cmd.includes('/'))
    .map((d) => `  ${d.pkg}) ${which('ln')} -sf ${which(d.cmd)} ${bin}/${d.cmd} ;;`)
    .join('\n');
  writeFileSync(join(bin, 'apt-get'), `#!${which('bash')}\necho "$*" >> ${dir}/apt-get.log\n[ "$1" = install ] || exit 0\nfor p in "$@"; do case "$p" in\n${links}\nesac; done\n`, {
    mode: 0o755,
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function runScript(asUser?: number) {
  const env = { PATH: bin, HOME: dir };
  // Another user may not reach the checkout (a clone under a 0700 folder): it runs a copy of the script and its list.
  let script = SCRIPT;
  if (asUser !== undefined) {
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    for (const f of ['test-deps.sh', 'test-deps.txt']) copyFileSync(join(ROOT, 'scripts', f), join(dir, 'scripts', f));
    script = join(dir, 'scripts', 'test-deps.sh');
  }
  const [cmd, args] =
    asUser === undefined ? [join(bin, 'bash'), [script]] : ['/usr/bin/setpriv', [`--reuid=${asUser}`, `--regid=${asUser}`, '--clear-groups', join(bin, 'bash'), script]];
  const started = Date.now();
  const r = spawnSync(cmd, args as string[], { env, encoding: 'utf8', timeout: 20_000 });
  return { ...r, ms: Date.now() - started, aptCalls: existsSync(join(dir, 'apt-get.log')) ? readFileSync(join(dir, 'apt-get.log'), 'utf8') : '' };
}

const isRoot = process.getuid?.() === 0;

describe('npm test on a machine without tmux, zsh and fish', () => {
  it('lists them in scripts/test-deps.txt', () => {
    for (const cmd of MASKED) expect(DEPS.map((d) => d.cmd)).toContain(cmd);
  });

  it('as root (or with passwordless sudo): installs exactly the missing packages with apt-get, then finds them', () => {
    // not root: a stand-in for passwordless sudo (`sudo -n cmd...` runs cmd)
    if (!isRoot) writeFileSync(join(bin, 'sudo'), `#!${which('bash')}\n[ "$1" = -n ] && shift\nexec "$@"\n`, { mode: 0o755 });
    const r = runScript();
    expect(r.stderr).toContain('npm test: installing tmux zsh fish (apt-get)');
    expect(r.status).toBe(0);
    expect(r.aptCalls).toBe('update -qq\ninstall -y -qq --no-install-recommends tmux zsh fish\n');
    for (const cmd of MASKED) expect(existsSync(join(bin, cmd))).toBe(true);
  });

  it('without root or passwordless sudo: stops at once with one line naming the packages', () => {
    const r = runScript(isRoot ? 65534 : undefined);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('npm test: the tests need Debian packages that are not installed: tmux zsh fish (install them: sudo apt-get install -y tmux zsh fish)\n');
    expect(r.aptCalls).toBe('');
    expect(r.ms).toBeLessThan(5000);
  });

  it('with nothing missing: does nothing', () => {
    for (const cmd of MASKED) symlinkSync(which(cmd), join(bin, cmd));
    const r = runScript();
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.aptCalls).toBe('');
  });

  it('on a system without apt-get: stops with the same line', () => {
    rmSync(join(bin, 'apt-get'));
    const r = runScript();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^npm test: the tests need Debian packages that are not installed: tmux zsh fish /);
  });
});
