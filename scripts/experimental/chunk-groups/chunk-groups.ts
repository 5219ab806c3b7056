/**
 * EXPERIMENT, not shipped (docs/speed.md "Fewer, larger chunks: measured and dropped"): a post-build merge
 * of the bundle's shared chunks that the same commands load. esbuild splits every set of modules that a
 * different set of entries shares into a chunk of its own and has no setting that groups them: a
 * cash-out loads 68 files of dist/, 25 of them under 1 KB. To try it, call {@link groupChunks}('dist')
 * after `requireDynamicImports('dist')` in tsup.config.ts's `onSuccess`: a cash-out then loads 44 files.
 * It saved no measurable instruction or CPU on Node 20, 22 or 24, and a `history` run loads a group
 * holding the team ledger's code (unrun), which test/e2e/structure.test.ts refuses.
 *
 * Which chunks: see {@link planGroups}. Grouping only chunks that exactly the same runs load found 4 pairs
 * (the bundler already makes one chunk of each set of entries); grouping by the commands that may load
 * them makes 10 groups of 44 chunks. A chunk that reads its
 * own file name, `module` or `require`'s properties stays a file of its own.
 *
 * How a group runs: each member's code is a function, run on its first `require` and only then, with
 * its own `exports` and `module`, so the order in which modules run is exactly the bundler's. A
 * request for a member becomes `require('./chunk-GROUP.cjs')("chunk-MEMBER.cjs")`; inside the group a
 * member's request for another member is answered by the group.
 *
 * Names, for the code cache (src/cli/compile-cache.ts keys an entry by a chunk's name and length only):
 * the rewrite changes files whose names the bundler hashed from their old text. So every hashed file is
 * renamed to its base and a hash of its old name and of the grouping (the list of every file's old
 * name and every group's members): a file keeps a name only while its text stays the same, and a
 * group's name hashes its members' names.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A file of the bundle that the bundler named with a content hash (`chunk-KLAPGGWF.cjs`); group 1 is the base. */
const HASHED = /^([\w.-]+)-[A-Z0-9]{8}\.cjs$/;
/** A request for a file of the bundle, as the bundler writes it; group 1 is the file's name. */
const REQUEST = /require\('\.\/([\w.-]+\.cjs)'\)/g;
/** A request made on demand: the bundle's `import()` as tsup.config.ts rewrites it. */
const ON_DEMAND = /const m=require\('\.\/([\w.-]+\.cjs)'\)/g;
/** What a member's code may not use: the group's file name or a module object other than its own small one. */
const NOT_GROUPABLE = /__filename|\bmodule\.|\brequire\.\w/;

/** The files of `dir` and what each requires at its top (`static`) and on demand. */
function readBundle(dir: string): Map<string, { code: string; static: string[]; onDemand: Set<string> }> {
  const files = new Map<string, { code: string; static: string[]; onDemand: Set<string> }>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.cjs'))) {
    const code = readFileSync(join(dir, name), 'utf8');
    const onDemand = new Set([...code.matchAll(ON_DEMAND)].map((m) => m[1] as string));
    const all = [...code.matchAll(REQUEST)].map((m) => m[1] as string);
    files.set(name, { code, static: all.filter((n) => !onDemand.has(n)), onDemand });
  }
  return files;
}

/** The files `from` loads at their top, and what those load, and so on (with `onDemand`, also what they may load later). */
function closure(files: ReturnType<typeof readBundle>, from: string[], onDemand: boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    const file = files.get(name);
    if (seen.has(name) || file === undefined) continue;
    seen.add(name);
    stack.push(...file.static, ...(onDemand ? file.onDemand : []));
  }
  return seen;
}

/**
 * Groups of two or more chunks that the same commands may load, each sorted by name. A run starts at
 * `boot.cjs`, which loads either the command tree (`program-*.cjs`) or a direct route
 * (src/cli/boot.ts); the tree loads the action's wrapper (`action-*.cjs`, src/cli/lazy.ts) and one
 * command's module. A command's set is what its run loads at the top of those files, and everything its
 * module may load, at its top or later. Chunks in exactly the same sets become a group; a member that a
 * run loads without using costs only its bytes, since it runs on its first request only.
 */
export function planGroups(files: ReturnType<typeof readBundle>): string[][] {
  const byBase = (base: string) => [...files.keys()].filter((n) => HASHED.exec(n)?.[1] === base);
  const boot = files.get('boot.cjs');
  if (boot === undefined) return [];
  const tree = byBase('program');
  const spine = closure(files, ['boot.cjs', ...tree, ...byBase('action')], false);
  const runs: Set<string>[] = [];
  for (const name of [...boot.onDemand].filter((n) => !tree.includes(n))) runs.push(new Set([...closure(files, ['boot.cjs'], false), ...closure(files, [name], true)]));
  const commands = new Set(tree.flatMap((t) => [...(files.get(t)?.onDemand ?? [])]));
  for (const name of [...commands].sort()) if (!spine.has(name)) runs.push(new Set([...spine, ...closure(files, [name], true)]));
  const onDemandTargets = new Set([...files.values()].flatMap((f) => [...f.onDemand]));
  const byRuns = new Map<string, string[]>();
  for (const name of [...files.keys()].sort()) {
    if (!name.startsWith('chunk-') || !HASHED.test(name) || onDemandTargets.has(name) || NOT_GROUPABLE.test(files.get(name)?.code ?? '')) continue;
    const key = runs.map((run) => (run.has(name) ? '1' : '0')).join('');
    if (!key.includes('1')) continue;
    byRuns.set(key, [...(byRuns.get(key) ?? []), name]);
  }
  return [...byRuns.values()].filter((g) => g.length > 1);
}

/** Eight characters of base 32 (A-Z, 2-7), as the bundler's hashes look. */
function hash8(text: string): string {
  const bytes = createHash('sha256').update(text).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 8) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length === 8) break;
  }
  return out;
}

/** The group file's text: its members as functions, each run once, on first request (the module above says why). */
function groupSource(members: Array<{ name: string; code: string }>): string {
  const table = members.map(({ name, code }) => `${JSON.stringify(name)}:function(exports,require,module,__filename,__dirname){${code}\n}`).join(',');
  return (
    `'use strict';const __members={${table}};const __loaded={};` +
    'function __load(n){let m=__loaded[n];if(m!==undefined)return m.exports;m=__loaded[n]={exports:{}};' +
    'try{__members[n].call(m.exports,m.exports,__request,m,__filename,__dirname)}catch(e){delete __loaded[n];throw e}return m.exports}' +
    'function __request(id){const n=id.slice(2);return Object.hasOwn(__members,n)?__load(n):require(id)}module.exports=__load;\n'
  );
}

/**
 * Merges the chunks of `dir` that the same entries load into group files and renames the bundle's hashed
 * files (the module's header says how and why). Returns the groups made, by their members' old names.
 */
export function groupChunks(dir: string): string[][] {
  const files = readBundle(dir);
  const groups = planGroups(files);
  if (groups.length === 0) return groups;
  const grouping = hash8(JSON.stringify([[...files.keys()].sort(), groups]));
  const rename = new Map<string, string>();
  for (const name of files.keys()) {
    const base = HASHED.exec(name)?.[1];
    if (base !== undefined) rename.set(name, `${base}-${hash8(`${name}\n${grouping}`)}.cjs`);
  }
  const groupOf = new Map<string, string>();
  for (const members of groups) {
    const file = `chunk-${hash8(`${members.join('\n')}\n${grouping}`)}.cjs`;
    for (const member of members) groupOf.set(member, file);
  }
  const rewrite = (code: string, inGroup: string | undefined): string =>
    code
      .replace(REQUEST, (call, name: string) => {
        const group = groupOf.get(name);
        if (group === undefined) return call;
        return group === inGroup ? call : `require('./${group}')(${JSON.stringify(name)})`;
      })
      .replace(/[\w.-]+-[A-Z0-9]{8}\.cjs/g, (name) => (groupOf.has(name) ? name : (rename.get(name) ?? name)));
  for (const members of groups) {
    const file = groupOf.get(members[0] as string) as string;
    writeFileSync(join(dir, file), groupSource(members.map((name) => ({ name, code: rewrite(files.get(name)?.code ?? '', file) }))));
    for (const member of members) rmSync(join(dir, member));
  }
  for (const [name, { code }] of files) {
    if (groupOf.has(name)) continue;
    const out = rewrite(code, undefined);
    const to = rename.get(name) ?? name;
    if (to !== name) renameSync(join(dir, name), join(dir, to));
    if (out !== code || to !== name) writeFileSync(join(dir, to), out);
  }
  return groups;
}
