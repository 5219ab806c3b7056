/**
 * src/cli/chunk-resolve.ts: a chunk of the bundle requiring a file beside it gets that file without
 * Node's search; every other request is resolved by Node as before.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { resolveChunksDirectly } from '../../src/cli/chunk-resolve.js';

let dist: string;
let other: string;
let undo: () => void;
beforeEach(() => {
  dist = realpathSync(mkdtempSync(join(tmpdir(), 'paycli-chunks-')));
  other = realpathSync(mkdtempSync(join(tmpdir(), 'paycli-other-')));
  writeFileSync(join(dist, 'entry-AAAAAAAA.cjs'), "module.exports = { b: require('./chunk-BBBBBBBB.cjs'), path: require('node:path').sep, req: (id) => require(id) };");
  writeFileSync(join(dist, 'chunk-BBBBBBBB.cjs'), 'module.exports = 42;');
  writeFileSync(join(other, 'entry.cjs'), 'module.exports = { req: (id) => require(id) };');
  undo = resolveChunksDirectly(dist);
});
afterEach(() => {
  undo();
  rmSync(dist, { recursive: true, force: true });
  rmSync(other, { recursive: true, force: true });
});

it("a chunk's request for a file beside it is answered with that file's path, without Node's search", () => {
  const entry = createRequire(join(dist, 'x.cjs'))('./entry-AAAAAAAA.cjs') as { b: number; path: string; req(id: string): unknown };
  expect(entry.b).toBe(42);
  expect(entry.path).toBe('/'); // a node: module, resolved by Node
  // A missing chunk is read straight away (ENOENT): no search happened (Node's own answer is MODULE_NOT_FOUND).
  expect(() => entry.req('./chunk-MISSING0.cjs')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  expect(() => entry.req('./missing')).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }));
});

it('requests from outside the bundle go through Node as before', () => {
  writeFileSync(join(other, 'chunk-CCCCCCCC.cjs'), 'module.exports = 7;');
  const entry = createRequire(join(other, 'x.cjs'))('./entry.cjs') as { req(id: string): unknown };
  expect(entry.req('./chunk-CCCCCCCC.cjs')).toBe(7);
  expect(() => entry.req('./chunk-MISSING0.cjs')).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }));
});

it('undone, Node resolves every request again', () => {
  undo();
  const entry = createRequire(join(dist, 'x.cjs'))('./entry-AAAAAAAA.cjs') as { req(id: string): unknown };
  expect(() => entry.req('./chunk-MISSING0.cjs')).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }));
});

it("a chunk gets the node_modules folders Node gives its folder, worked out once for the bundle's folder", () => {
  writeFileSync(join(dist, 'paths-DDDDDDDD.cjs'), "module.exports = { own: module.paths, other: require('./chunk-EEEEEEEE.cjs') };");
  writeFileSync(join(dist, 'chunk-EEEEEEEE.cjs'), 'module.exports = module.paths;');
  const got = createRequire(join(dist, 'x.cjs'))('./paths-DDDDDDDD.cjs') as { own: string[]; other: string[] };
  undo();
  const node = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(dist);
  expect(got.own).toEqual(node);
  expect(got.other).toEqual(node);
  expect(got.other).not.toBe(got.own); // each module its own array, as from Node
});
