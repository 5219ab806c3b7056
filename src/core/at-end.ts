/**
 * What must be closed when a command ends (src/cli/action.ts `execute` calls {@link closeAll}):
 * a team ledger's connection (src/ledger/store.ts), so that a one-shot paycli never exits with a
 * database session open, nor waits on one. Lower layers register here without the CLI knowing them.
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
