/**
 * src/cli/compile-cache.ts: a chunk's `require` of another hashed chunk beside it is answered by the
 * hook itself, with the same module Node holds (one instance, cycles as in Node), and a chunk that
 * cannot be read goes to Node's `require`, which reports it as Node does.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enableCompileCache } from '../../src/cli/compile-cache.js';

let dist: string;
let cache: string;
beforeAll(() => {
  dist = realpathSync(mkdtempSync(join(tmpdir(), 'paycli-cc-require-')));
  cache = join(dist, 'cache');
  writeFileSync(
    join(dist, 'entry-AAAAAAAA.cjs'),
    "const b = require('./chunk-BBBBBBBB.cjs'); const c = require('./chunk-CCCCCCCC.cjs'); module.exports = { b, c, missing: () => require('./chunk-MISSING0.cjs') };",
  );
  // b and c require each other: c sees b's exports as they are while b still runs, as with Node's loader
  writeFileSync(join(dist, 'chunk-BBBBBBBB.cjs'), "exports.early = 1; const c = require('./chunk-CCCCCCCC.cjs'); exports.cSawEarly = c.sawEarly; exports.late = 2;");
  writeFileSync(join(dist, 'chunk-CCCCCCCC.cjs'), "const b = require('./chunk-BBBBBBBB.cjs'); exports.sawEarly = b.early; exports.sawLate = b.late; exports.b = b;");
  enableCompileCache(dist, cache);
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

it("loads a chunk's chunks once, shares them with Node's require, and keeps Node's order in a cycle", () => {
  const req = createRequire(join(dist, 'x.cjs'));
  const entry = req('./entry-AAAAAAAA.cjs') as { b: Record<string, unknown>; c: Record<string, unknown>; missing(): unknown };
  expect(entry.b).toEqual({ early: 1, cSawEarly: 1, late: 2 });
  expect(entry.c).toMatchObject({ sawEarly: 1, sawLate: undefined });
  expect(entry.c.b).toBe(entry.b);
  expect(req('./chunk-BBBBBBBB.cjs')).toBe(entry.b);
  expect(req('./chunk-CCCCCCCC.cjs')).toBe(entry.c);
  expect(() => entry.missing()).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }));
});
