/**
 * On-disk V8 code cache for paycli's own bundle (docs/speed.md).
 *
 * Parsing and compiling the bundle (commander, zod, paycli) is a large part of every start. V8 can
 * serialise the bytecode of a script after it ran and take it back on the next start, skipping
 * that work. This module installs a small require hook, limited to paycli's own `dist/` chunks,
 * that does it with the public `vm.Script` API (`cachedData` in, `createCachedData()` out), on
 * every Node line. Node ≥ 22.1 has a cache of its own (`module.enableCompileCache`), which paycli
 * used there before: its entries are made as a module is compiled, so they hold only the code that
 * runs as it loads, and every function called later (the ledger's, the driver's, the printer's)
 * was compiled again on every run. These entries are made as the process exits, with every function
 * that ran: 10-15% fewer instructions for a cash-out and for `history` on Node 22, 24 and 26
 * (docs/speed.md, "Start-up targets").
 *
 * Rules, so a cache can never run code other than the installed paycli:
 * - Only chunks whose file name carries a content hash (`cashin-54ZCGLEJ.cjs`, from the bundler)
 *   are cached, keyed by that name and the source length. A changed chunk gets a new name, so an
 *   old cache entry is never matched; V8 also refuses data from another V8 version or other flags
 *   (then the chunk compiles normally and its entry is rewritten).
 * - The folder (`cacheDir()`/`v8-<V8 version>-<arch>`) is created 0700 (the other versions' folders
 *   unused for {@link PRUNE_AFTER_MS}, and the `node` folder of Node's own cache that paycli used before, are removed
 *   then: a machine that switches between Node lines keeps each line's folder); entries are read only when the folder
 *   belongs to the current user and nobody else can write to it.
 * - Entries are written when the process exits, each to a temporary file renamed into place (so
 *   concurrent runs never see half a file): for chunks that compiled without a usable entry, and,
 *   in a run that did so (a command this cache had not seen), for chunks whose entry this run
 *   outgrew (it compiled functions the entry lacked: an entry first written by `paycli sandbox` or
 *   `--help` holds only their functions, and a cash-out would compile its own again on every run).
 *   Entries only grow, so they stop changing once every command in use has run; a run that loaded
 *   no new chunk never makes data it will not write (docs/speed.md, "Entries that grow").
 * - Every failure is silent: the cache only ever makes paycli faster, never fail.
 * - `NODE_DISABLE_COMPILE_CACHE=1` (Node's own switch) turns it off.
 *
 * Deleting the folder is always safe; it holds about 0.5 MB per paycli version in use.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';
import { moduleClass } from './module-class.js';

/** A bundler chunk name with its 8-character content hash, e.g. `chunk-KLAPGGWF.cjs`. */
const HASHED_CHUNK = /-[A-Z0-9]{8}\.cjs$/;
const CHUNK_REQUEST = /^\.\/[\w.-]+-[A-Z0-9]{8}\.cjs$/;

/** A CommonJS module as the loader passes it to `_compile`. */
export type LoadedModule = { exports: unknown; require: (id: string) => unknown };
type CompileFn = (this: LoadedModule, content: string, filename: string, ...rest: unknown[]) => unknown;
/** A chunk's code as Node's wrapper makes it a function: `(exports, require, module, __filename, __dirname) => …`. */
type ModuleFn = (...args: unknown[]) => unknown;
/** A module this file makes for a chunk it loads itself ({@link installHook}'s `requireChunk`). */
type NewModule = LoadedModule & { filename: string; paths: string[]; loaded: boolean; _compile: CompileFn };
/** The parts of Node's `Module` class used here; `_compile` is the hook point require-hook tools use. */
type ModuleApi = {
  new (id: string, parent: unknown): NewModule;
  wrap: (code: string) => string;
  createRequire: (filename: string) => NodeJS.Require;
  _cache: Record<string, LoadedModule | undefined>;
  _nodeModulePaths: (from: string) => string[];
  prototype: { _compile: CompileFn };
};

/**
 * The route packs' file names by route (`{"history":"pack-history-0A1B2C3D.cjs"}`), written into dist/boot.cjs by the
 * build (scripts/lib/route-packs.ts); run from source, a placeholder that is no JSON: no packs.
 */
const PACK_FILES: string = '__PAYCLI_ROUTE_PACKS__';
/** Chunk file name → its code, from the packs taken ({@link usePack}). */
const packed = new Map<string, ModuleFn>();
/** Loads a pack's file through the hook and keeps its chunks; set once the hook is on. */
let takePack: ((file: string, parent: LoadedModule) => void) | undefined;

/**
 * Takes the pack of `route` (`history`): from now on, a chunk it holds runs from the pack's copy instead of its own
 * file (one file, one cache entry, one compiled script for the route's ~30 chunks; scripts/lib/route-packs.ts says
 * which). `parent` is the caller's `module`. Never throws: without the hook (the cache off), without a pack, or when
 * the pack's file cannot be read, each chunk is read from its own file as before.
 */
export function usePack(route: string, parent: LoadedModule): void {
  try {
    const file = (JSON.parse(PACK_FILES) as Record<string, string | undefined>)[route];
    if (file && takePack) takePack(file, parent);
  } catch {
    // no pack: only slower
  }
}

/**
 * Turns the code cache on for the chunks in `distDir` (the folder of paycli's bundle), stored
 * under `cacheRoot` (`paths.cacheDir()`). Call once, before the chunks are required.
 * Never throws: when the cache cannot be used, paycli runs without it.
 */
export function enableCompileCache(distDir: string, cacheRoot: string): void {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  try {
    installHook(moduleClass() as ModuleApi, distDir, join(cacheRoot, `v8-${process.versions.v8}-${process.arch}`));
  } catch {
    // no cache: only slower
  }
}

/** Wraps `Module.prototype._compile` for paycli's hashed chunks only. */
function installHook(Module: ModuleApi, distDir: string, dir: string): void {
  const original = Module.prototype._compile;
  // Line 1 starts after the wrapper's `(function (exports, require, ...) { `: shift columns back so
  // stack traces (--verbose) point where Node's own loader would.
  const columnOffset = -Module.wrap('\0').indexOf('\0');
  const toWrite: Array<{ script: Script; file: string }> = [];
  // chunks whose entry was accepted, with that entry's length: rewritten at exit when this run grew them
  const accepted: Array<{ script: Script; file: string; held: number }> = [];
  let readable: boolean | undefined;
  let base: NodeJS.Require | undefined;
  // string operations, not node:path's: this runs for every chunk (src/cli/chunk-resolve.ts says why)
  const prefix = `${distDir}${sep}`;
  const entryPrefix = `${dir}${sep}`;

  Module.prototype._compile = function compileWithCache(this: LoadedModule, content, filename, ...rest) {
    if (typeof content !== 'string' || !filename.startsWith(prefix) || filename.includes(sep, prefix.length) || !HASHED_CHUNK.test(filename)) {
      return original.call(this, content, filename, ...rest);
    }
    // a chunk Node's own require loaded (dist/boot.cjs's imports) that a pack holds: the pack's copy, not the file's
    const packedFn = packed.get(filename.slice(prefix.length));
    if (packedFn) return run(packedFn, this, filename);
    const file = `${entryPrefix}${filename.slice(prefix.length)}.${content.length}`;
    readable ??= isPrivateDir(dir);
    const cachedData = readable ? readEntry(file) : undefined;
    const script = new Script(Module.wrap(content), { filename, columnOffset, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) toWrite.push({ script, file });
    else accepted.push({ script, file, held: cachedData.length });
    return run(script.runInThisContext({ displayErrors: true }) as ModuleFn, this, filename);
  };

  /** Runs a chunk's module function (its code in Node's wrapper) for `mod`, with a `require` that loads chunks through {@link requireChunk}. */
  function run(fn: ModuleFn, mod: LoadedModule, filename: string): unknown {
    // Every hashed chunk is in distDir: one base for require.resolve & co. serves them all.
    base ??= Module.createRequire(filename);
    const require = Object.assign((id: string) => (CHUNK_REQUEST.test(id) ? requireChunk(id, mod) : mod.require(id)), {
      resolve: base.resolve,
      cache: base.cache,
      main: base.main,
      extensions: base.extensions,
    });
    return fn.call(mod.exports, mod.exports, require, mod, filename, distDir);
  }

  /**
   * A chunk's `require('./chunk-….cjs')` of another hashed chunk beside it: the module Node holds for
   * it, else the pack's copy of it ({@link usePack}) or the file read, registered in Node's cache (so that
   * Node's own `require` of it, and a cycle between chunks, find the same module) and run through the
   * hook above, as Node's loader would, without its per-call work (docs/speed.md "History's start-up,
   * the rest"). A file that cannot be read goes to Node's `require`, which reports it as Node does.
   */
  function requireChunk(id: string, parent: LoadedModule): unknown {
    const filename = prefix + id.slice(2);
    const cached = Module._cache[filename];
    if (cached) return cached.exports;
    const packedFn = packed.get(id.slice(2));
    if (packedFn) return newModule(Module, filename, parent, distDir, (m) => run(packedFn, m, filename));
    let content: string;
    try {
      content = readFileSync(filename, 'utf8');
    } catch {
      return parent.require(id);
    }
    return newModule(Module, filename, parent, distDir, (m) => m._compile(content, filename));
  }

  takePack = (file, parent) => {
    const chunks = requireChunk(`./${file}`, parent) as Record<string, ModuleFn>;
    for (const [name, fn] of Object.entries(chunks)) if (typeof fn === 'function') packed.set(name, fn);
  };

  // After the run, so the data holds every function that ran, not only the top level.
  process.once('exit', () => writeEntries(dir, toWrite, accepted));
}

/**
 * The exports of a new module for `filename` (a chunk of `distDir`), registered in Node's cache while `body` runs its
 * code (so that a cycle between chunks finds it) and removed again if that throws, as Node's loader does.
 */
function newModule(Module: ModuleApi, filename: string, parent: LoadedModule, distDir: string, body: (m: NewModule) => void): unknown {
  const m = new Module(filename, parent);
  m.filename = filename;
  m.paths = Module._nodeModulePaths(distDir);
  Module._cache[filename] = m;
  let threw = true;
  try {
    body(m);
    threw = false;
  } finally {
    if (threw) delete Module._cache[filename];
  }
  m.loaded = true;
  return m.exports;
}

/**
 * Writes the entries of the chunks that compiled without a usable one (`toWrite`), and, in a run that had such
 * chunks (a command this cache had not seen), the `accepted` entries this run outgrew. Silent.
 */
function writeEntries(dir: string, toWrite: Array<{ script: Script; file: string }>, accepted: Array<{ script: Script; file: string; held: number }>): void {
  if (toWrite.length === 0) return markUsed(dir);
  try {
    const created = ensurePrivateDir(dir);
    if (created) pruneOtherVersions(dir);
    for (const { script, file } of toWrite) writeAtomically(file, script.createCachedData());
    // Only a run that wrote an entry looks: making the data of every chunk costs about 5% of a cash-out's instructions.
    for (const { script, file, held } of accepted) {
      // the data made now holds the functions taken from the entry and every one this run compiled besides:
      // longer only when this run compiled code the entry lacked
      const data = script.createCachedData();
      if (data.length > held) writeAtomically(file, data);
    }
  } catch {
    // a cache that cannot be written is no cache; paycli already did its work
  }
}

/** The buffer entries are read into: V8 reads an entry while the script compiles, and keeps nothing of it after. */
let scratch: Buffer | undefined;
/** Entries are far smaller (the largest about 100 KB); a larger one is read whole on its own. */
const SCRATCH_BYTES = 512 * 1024;

/**
 * The entry in `file`, or undefined when there is none (or it cannot be read). Read into one buffer
 * shared by every chunk (valid until the next read): about 60 chunks load per command, and
 * `readFileSync` would allocate a buffer and stat the file for each (docs/speed.md "The cash-out's CPU").
 */
function readEntry(file: string): Buffer | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
      const n = readSync(fd, scratch, 0, scratch.length, 0);
      return n < scratch.length ? scratch.subarray(0, n) : readFileSync(file);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** True when `dir` exists, belongs to this user and only this user can write to it (POSIX). */
function isPrivateDir(dir: string): boolean {
  try {
    const st = statSync(dir);
    if (!st.isDirectory()) return false;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return false;
    return process.platform === 'win32' || (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Creates `dir` (0700) if missing; returns whether it was created. Throws when it is not private. */
function ensurePrivateDir(dir: string): boolean {
  if (isPrivateDir(dir)) return false;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!isPrivateDir(dir)) throw new Error(`${dir} is not private`);
  return true;
}

/** How long another V8's folder may go unused before a new folder's creation removes it: 30 days, in milliseconds. */
export const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;
/** How often a folder in use has its modification time moved to now: once a day, in milliseconds. */
const MARK_EVERY_MS = 24 * 3600 * 1000;

/** Moves the modification time of `dir` (a folder whose entries all matched) to now, at most once a day. Silent. */
function markUsed(dir: string): void {
  try {
    const st = statSync(dir, { throwIfNoEntry: false });
    const now = new Date();
    if (st && now.getTime() - st.mtimeMs > MARK_EVERY_MS) utimesSync(dir, now, now);
  } catch {
    // a folder that cannot be marked may be pruned by another Node line later: only a slower start then
  }
}

/**
 * A new V8 (Node upgrade) makes the other `v8-*` folders dead weight once they go unused for {@link PRUNE_AFTER_MS}
 * (an older Node line still in use keeps its folder fresh: {@link markUsed}), and Node's own cache (`node`, used
 * before) at once: remove them.
 */
function pruneOtherVersions(dir: string): void {
  const parent = dirname(dir);
  const before = Date.now() - PRUNE_AFTER_MS;
  for (const name of readdirSync(parent)) {
    if (name === basename(dir) || !(name.startsWith('v8-') || name === 'node')) continue;
    const path = join(parent, name);
    if (name === 'node' || (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) < before) rmSync(path, { recursive: true, force: true });
  }
}

function writeAtomically(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, data); // no fsync: a torn entry fails V8's length check and is rewritten
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
