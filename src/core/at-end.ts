/**
 * What must be closed when a command ends (src/cli/action.ts `execute` calls {@link closeAll}):
 * a team ledger's connection (src/ledger/store.ts), so that a one-shot paycli never exits with a
 * database session open, nor waits on one. Lower layers register here without the CLI knowing them.
 * It also counts what is open outside Node's event loop ({@link countOpen}: SQLite connections), which
 * src/cli/direct.ts asks before it ends the process at once.
 */

const closers = new Set<() => Promise<void>>();

/** Registers `close`, run once by the next {@link closeAll}. */
export function closeAtEnd(close: () => Promise<void>): void {
  closers.add(close);
}

/** Runs every registered close (each once, errors ignored: the command's outcome is already decided). */
export async function closeAll(): Promise<void> {
  const all = [...closers];
  closers.clear();
  await Promise.all(all.map((close) => close().catch(() => undefined)));
}

let open = 0;

/**
 * Counts a resource that Node's event loop does not see, opened (`1`) or closed (`-1`): a SQLite
 * connection (src/core/sqlite/driver-node-sqlite.ts, driver-better-sqlite3.ts), which Node's own
 * teardown would close, and whose close matters (the last connection to close a ledger folds its
 * write-ahead log into the file).
 */
export function countOpen(change: 1 | -1): void {
  open += change;
}

/** How many resources counted by {@link countOpen} are still open. */
export function openCount(): number {
  return open;
}
