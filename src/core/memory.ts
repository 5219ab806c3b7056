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
 * {@link YOUNG_GENERATION_BYTES} and lets the old generation grow by at most
 * {@link OLD_GENERATION_GROWING_PERCENT} past what a full collection left alive before V8's own
 * next one (incremental, on its own schedule); only when the old generation still holds
 * {@link OLD_GENERATION_SLACK_BYTES} more than that does it force one. A forced collection (`gc()`)
 * also throws away the optimised code of the functions it touches, which V8 then compiles again:
 * about 50 functions each time, and the compiling cost a batch run more CPU than the collections
 * themselves (docs/speed.md, "The batch send's CPU").
 * Nothing changes for a short stream: the first look happens after {@link LOOK_EVERY} values, and
 * V8's `gc` is exposed only at the first forced collection.
 */
// node:v8 and node:vm load on the first look (after LOOK_EVERY values), not with the printer: a
// short `history` never loads them (docs/speed.md, "History's start-up").
type V8 = typeof import('node:v8');
let v8: V8 | undefined;
const loadV8 = (): V8 => (v8 ??= process.getBuiltinModule('node:v8'));

/** The V8 flags this module changed, each with its default, which {@link setFlag} sets back as the process exits. */
const changed = new Map<string, string>();

/**
 * Sets V8's flag `flag` (`--name=value`), and `fallback`, its default, back as the process exits: V8 keys a code cache
 * entry to its flags, so an entry made after a change is refused by the next process, which starts with the defaults,
 * and paycli's code cache (src/cli/compile-cache.ts, written as the process exits, after this) would compile and
 * rewrite the entry of every chunk a long run loaded, run after run (docs/speed.md "The code cache after a long run").
 * @param fallback the flag at V8's default (`node --v8-options`: the same on Node 20 to 26)
 */
function setFlag(flag: string, fallback: string): void {
  if (!changed.size) process.prependListener('exit', () => changed.forEach((d) => loadV8().setFlagsFromString(d)));
  changed.set(flag, fallback);
  loadV8().setFlagsFromString(flag);
}

/**
 * How far V8 lets the old generation grow past what its last full collection left alive before it
 * starts the next one, in percent (V8's `--heap-growing-percent`; by itself V8 lets it grow up
 * to 4 times when its collections are quick, as they are on a small heap). V8 also lets it grow by
 * at least a few MiB whatever the percentage.
 */
export const OLD_GENERATION_GROWING_PERCENT = 50;
/**
 * How far the old generation may grow past what the last full collection left alive before one is
 * forced, should V8 not have started its own: a full collection costs a few milliseconds on a heap
 * of this size, and the peak RSS of a long run stays within about this much of a short one's,
 * however fast garbage is promoted.
 */
export const OLD_GENERATION_SLACK_BYTES = 16 * 1024 * 1024;
/** The young generation's size (both halves) at which its growth stops. */
export const YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;
/** Values between two looks at the heap's spaces. */
const LOOK_EVERY = 64;

/** The sizes this module watches, in bytes: the young generation's, and what the old one holds. */
function spaces(): { young: number; old: number } {
  let young = 0;
  let old = 0;
  for (const s of loadV8().getHeapSpaceStatistics()) {
    if (s.space_name === 'new_space') young = s.space_size;
    else if (s.space_name === 'old_space') old = s.space_used_size;
  }
  return { young, old };
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
  let live: number | undefined;
  return () => {
    if (++count % LOOK_EVERY !== 0) return;
    if (count === LOOK_EVERY) setFlag(`--heap-growing-percent=${OLD_GENERATION_GROWING_PERCENT}`, '--heap-growing-percent=0');
    const { young, old } = spaces();
    if (growing && young >= YOUNG_GENERATION_BYTES) {
      setFlag('--semi-space-growth-factor=1', '--semi-space-growth-factor=2');
      growing = false;
    }
    if (live === undefined || old < live) live = old; // the first look, or V8 collected on its own
    if (old < live + OLD_GENERATION_SLACK_BYTES) return;
    if (!gc) {
      setFlag('--expose-gc', '--no-expose-gc');
      gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void;
    }
    gc();
    live = spaces().old;
  };
}

/** `ArrayBuffer` with ES2024's options (`maxByteLength`: a resizable buffer), which this project's `lib` does not type yet. */
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ArrayBuffer;

/**
 * A zeroed `Uint32Array` of `length` elements whose memory V8 maps from the system itself, not
 * through `malloc` (docs/speed.md, "The check's tables outside `malloc`"): V8 reserves a
 * resizable buffer's pages with `mmap` and returns them with `munmap` when the buffer is
 * collected. A plain typed array of a few MiB comes from `malloc`, and once glibc has freed one
 * that large it serves the next blocks below that size from the main arena, whose pages it keeps
 * after they are freed: a batch check's tables (src/batch/rows.ts `IdentitySet`,
 * src/ledger/batch-fingerprints.ts) left a 100,000-row run's main arena 4-6 MiB larger to its end on Node 24.
 * For arrays that live long or grow large; a few KiB buffers gain nothing from it.
 */
export function mappedUint32Array(length: number): Uint32Array<ArrayBuffer> {
  return new Uint32Array(new ResizableArrayBuffer(4 * length, { maxByteLength: 4 * length }));
}

/** {@link mappedUint32Array} of bytes. */
export function mappedUint8Array(length: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new ResizableArrayBuffer(length, { maxByteLength: length }));
}
