/**
 * What the result being written to stdout is about, so that a write that fails later (stdout is
 * a full disk: the error arrives as an event, after `printResult` returned) ends with the truth:
 * exit 6 when the gateway created something (docs/output-for-scripts.md "Exit codes"). Kept apart from the logger so
 * that src/cli/program.ts can read it without loading the output code.
 */
let created: string | undefined;

/** Records that the result now written is about `what` (e.g. `cash-out 42`), which the gateway created. */
export function noteCreated(what: string | undefined): void {
  if (what) created = what;
}

/** What the gateway created in this run, if anything. */
export function createdInThisRun(): string | undefined {
  return created;
}
