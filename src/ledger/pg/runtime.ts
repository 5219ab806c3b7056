/**
 * Loaded first by the team ledger's worker thread (src/ledger/pg/worker.ts), before the `pg` driver.
 * When it loads, the driver asks whether it runs in a Cloudflare Worker: through
 * `navigator.userAgent` where there is one (Node 21 and later), else by building a fetch `Response`,
 * which on Node 20 loads Node's whole fetch implementation into the thread: tens of milliseconds of
 * every payment on a team ledger (docs/speed.md, "Team ledger"). Node 20 has no `navigator`; this
 * thread gets a minimal one that says what it runs on, as later Node versions have, so the driver
 * reads that instead. Only this worker thread's own global object changes.
 */
const g = globalThis as { navigator?: unknown };
if (g.navigator === undefined) g.navigator = { userAgent: `Node.js/${process.versions.node.split('.')[0]}` };
