/**
 * A real Secret Service for the tests of where paycli keeps secrets (docs/configuration.md, "Where the
 * API key is kept"), shared by the end-to-end and in-process halves of the auth tests: gnome-keyring in
 * a private D-Bus session (`dbus-run-session`), its keyring unlocked with a password on stdin, in a
 * throw-away HOME, and a gateway fixture that answers only the key's `Authorization`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { childEnv } from './cli.js';
import { json, lookupGateway, useGatewayFixture } from './gateway.js';

/**
 * The test gateway of the auth tests: balance and lookups, but only for `Authorization: Bearer <key>`
 * (401 otherwise). Registers vitest hooks; call it at the top of a test file.
 * @returns the fixture and `configText()`: the profile's config.json as text ('' when there is none)
 */
export function useKeyGateway(key: string) {
  const t = useGatewayFixture(key);
  beforeEach(() => {
    const l = lookupGateway();
    t.gw.respond((req, res) => (req.headers.authorization === `Bearer ${key}` ? l.responder(req, res) : json(res, 401, { message: 'Invalid token.' })));
  });
  const file = () => join(t.home.env.PAYCLI_CONFIG_DIR!, 'config.json');
  return { t, configText: () => (existsSync(file()) ? readFileSync(file(), 'utf8') : '') };
}

/**
 * Starts a private Secret Service for the enclosing `describe` (vitest hooks), stopped after it.
 * @returns `bus()`: the session's D-Bus address (DBUS_SESSION_BUS_ADDRESS), once it started
 * @throws Error from the hook when the session does not start within 20 s
 */
export function useSecretService(): { bus(): string } {
  let session: ChildProcess | undefined;
  let bus = '';
  beforeAll(async () => {
    const home = mkdtempSync(join(tmpdir(), 'paycli-keyring-'));
    const addressFile = join(home, 'bus');
    // The session lives as long as this shell: it writes its bus address once the keyring is unlocked.
    const script = `printf %s pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1; echo "$DBUS_SESSION_BUS_ADDRESS" > ${JSON.stringify(addressFile)}.tmp && mv ${JSON.stringify(addressFile)}.tmp ${JSON.stringify(addressFile)}; exec sleep 600`;
    session = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
      env: childEnv({ HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home, DBUS_SESSION_BUS_ADDRESS: undefined }),
      stdio: 'ignore',
      detached: true,
    });
    const deadline = Date.now() + 20_000;
    while (!existsSync(addressFile)) {
      if (Date.now() > deadline || session.exitCode !== null) throw new Error('the private Secret Service did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    bus = readFileSync(addressFile, 'utf8').trim();
  }, 30_000);
  afterAll(() => {
    if (session?.pid) process.kill(-session.pid, 'SIGTERM');
  });
  return { bus: () => bus };
}
