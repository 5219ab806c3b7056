/**
 * Keeps the memory of a long stream of small values flat (docs/speed.md, "History's memory" and
 * the batch's "Peak RSS"): `history --limit all` with `--jq`, `--template` or `--json` on a ledger
 * of a million payments, and a batch run's rows (src/cli/batch/send.ts calls it once per row read).
 * Each value leaves garbage behind (its JSON text, jq's input and output, a template's render, a
 * row waiting in a group or a record in the parser),
 * and Node lets V8's young generation grow up to 16 MiB a half, then lets the old generation fill
 * with what outlived a few young collections long before it collects it: the peak RSS of a long
 * run ends some 40-60 MiB above a short one though what it keeps alive stays the same. The
 * function this module returns, called once per value, stops the young generation's growth at
 * {@link YOUNG_GENERATION_BYTES} and asks for a full collection every {@link COLLECT_EVERY} calls.
 * Nothing changes for a short stream: the first look happens after {@link LOOK_EVERY} values, and
 * V8's `gc` is exposed only at the first collection.
 */
// node:v8 and node:vm load on the first look (after LOOK_EVERY values), not with the printer: a
// short `history` never loads them (docs/speed.md, "History's start-up").
type V8 = typeof import('node:v8');
let v8: V8 | undefined;
const loadV8 = (): V8 => (v8 ??= process.getBuiltinModule('node:v8'));

/** Values between two full collections (a few milliseconds each on a heap of this size). */
export const COLLECT_EVERY = 8192;
/** The young generation's size (both halves) at which its growth stops. */
export const YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;
/** Values between two looks at the young generation's size, while it may still grow. */
const LOOK_EVERY = 64;

/** The young generation's current size in bytes. */
function youngGeneration(): number {
  return (
    loadV8()
      .getHeapSpaceStatistics()
      .find((s) => s.space_name === 'new_space')?.space_size ?? 0
  );
}

/**
 * Returns a function to call once per value of a long stream (see the module's comment). The
 * flags are V8's own (`node --v8-options`), read by V8 as it runs: `--expose-gc` given at run
 * time makes `gc` available to contexts created after it.
 */
export function boundStreamMemory(): () => void {
  let growing = true;
  let count = 0;
  let gc: (() => void) | undefined;
  return () => {
    count++;
    if (growing && count % LOOK_EVERY === 0 && youngGeneration() >= YOUNG_GENERATION_BYTES) {
      loadV8().setFlagsFromString('--semi-space-growth-factor=1');
      growing = false;
    }
    if (count % COLLECT_EVERY === 0) {
      if (!gc) {
        loadV8().setFlagsFromString('--expose-gc');
        gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void;
      }
      gc();
    }
  };
}
