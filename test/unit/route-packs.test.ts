/**
 * The build's route packs (scripts/lib/route-packs.ts) on a bundle made up for the test: which chunks a pack
 * takes (what its roots load as they load, less what dist/boot.cjs and the modules loaded before it load), that a
 * pack's copy of a chunk runs as the chunk's file would, its name, and the build's failures. The real bundle's pack
 * is checked by test/e2e/structure.test.ts.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkOf, packSource, PACKS_PLACEHOLDER, staticRequires, writeRoutePacks } from '../../scripts/lib/route-packs.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-packs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A chunk that loads `deps` as it loads and `lazy` behind a dynamic import, as the bundle writes them. */
function chunk(name: string, deps: string[], lazy: string[] = []): void {
  const now = deps.map((d) => `var x_${d.replace(/\W/g, '_')}=require('./${d}');`).join('');
  const later = lazy.map((d) => `exports.later=async()=>await Promise.resolve().then(()=>{const m=require('./${d}');return Object.freeze({...m,default:m})});`).join('');
  writeFileSync(join(dir, name), `'use strict';${now}${later}exports.name=${JSON.stringify(name)};`);
}

describe('route packs', () => {
  it("a pack holds what its roots load as they load, less what boot and the modules before it load; boot gets the pack's name", () => {
    writeFileSync(join(dir, 'boot.cjs'), `'use strict';require('./chunk-BOOT0001.cjs');const P=${JSON.stringify(PACKS_PLACEHOLDER)};`);
    chunk('chunk-BOOT0001.cjs', []);
    chunk('line-LINE0001.cjs', ['chunk-SHARED01.cjs']);
    chunk('chunk-SHARED01.cjs', ['chunk-BOOT0001.cjs']);
    chunk('direct-DIRECT01.cjs', ['chunk-SHARED01.cjs', 'chunk-ROUTE001.cjs'], ['history-HIST0001.cjs', 'run-RUN00001.cjs']);
    chunk('chunk-ROUTE001.cjs', ['chunk-ROUTE002.cjs']);
    chunk('chunk-ROUTE002.cjs', ['chunk-ROUTE001.cjs']); // a cycle
    chunk('history-HIST0001.cjs', ['chunk-ROUTE002.cjs', 'chunk-HIST0002.cjs'], ['history-doc-DOC00001.cjs']);
    chunk('chunk-HIST0002.cjs', []);
    chunk('history-doc-DOC00001.cjs', []);
    chunk('run-RUN00001.cjs', []);

    const written = writeRoutePacks(dir, { history: ['direct', 'history'] }, ['line']);
    expect(written.history).toMatch(/^pack-history-[0-9A-F]{8}\.cjs$/);
    expect(readdirSync(dir)).toContain(written.history);
    const packed = runInThisContext(`(function(module){${readFileSync(join(dir, written.history!), 'utf8')}\nreturn module.exports;})`)({ exports: {} }) as Record<
      string,
      (...args: unknown[]) => void
    >;
    // direct's static closure, then history's; not boot's nor the line readers' chunks, nor what either loads later
    expect(Object.keys(packed)).toEqual(['direct-DIRECT01.cjs', 'chunk-ROUTE001.cjs', 'chunk-ROUTE002.cjs', 'history-HIST0001.cjs', 'chunk-HIST0002.cjs']);
    expect(readFileSync(join(dir, 'boot.cjs'), 'utf8')).toContain(`const P=${JSON.stringify(JSON.stringify(written))};`);

    // a pack's copy of a chunk is the chunk's code, run with the module's own arguments
    const module = { exports: {} as Record<string, unknown> };
    const required: string[] = [];
    packed['history-HIST0001.cjs']!.call(module.exports, module.exports, (id: string) => (required.push(id), {}), module, join(dir, 'history-HIST0001.cjs'), dir);
    expect(module.exports.name).toBe('history-HIST0001.cjs');
    expect(required).toEqual(['./chunk-ROUTE002.cjs', './chunk-HIST0002.cjs']);
  });

  it('the same bundle gives the same pack (its name is its content hash)', () => {
    writeFileSync(join(dir, 'boot.cjs'), `const P=${JSON.stringify(PACKS_PLACEHOLDER)};`);
    chunk('line-LINE0001.cjs', []);
    chunk('direct-DIRECT01.cjs', []);
    const boot = readFileSync(join(dir, 'boot.cjs'), 'utf8');
    const first = writeRoutePacks(dir, { history: ['direct'] }, ['line']);
    writeFileSync(join(dir, 'boot.cjs'), boot);
    expect(writeRoutePacks(dir, { history: ['direct'] }, ['line'])).toEqual(first);
    chunk('direct-DIRECT01.cjs', ['chunk-OTHER001.cjs']);
    chunk('chunk-OTHER001.cjs', []);
    writeFileSync(join(dir, 'boot.cjs'), boot);
    expect(writeRoutePacks(dir, { history: ['direct'] }, ['line']).history).not.toBe(first.history);
  });

  it('the build fails on a module with no chunk or several, and on a boot.cjs without the placeholder once', () => {
    chunk('direct-DIRECT01.cjs', []);
    chunk('line-LINE0001.cjs', []);
    expect(() => chunkOf(['direct-DIRECT01.cjs', 'direct-DIRECT02.cjs'], 'direct')).toThrow('2 chunks for the module direct');
    expect(() => chunkOf(['history-doc-DOC00001.cjs'], 'history')).toThrow('0 chunks for the module history (none)');
    expect(chunkOf(['history-doc-DOC00001.cjs', 'history-HIST0001.cjs'], 'history')).toBe('history-HIST0001.cjs');
    writeFileSync(join(dir, 'boot.cjs'), `'use strict';`);
    expect(() => writeRoutePacks(dir, { history: ['direct'] }, ['line'])).toThrow('does not hold');
    writeFileSync(join(dir, 'boot.cjs'), `a=${JSON.stringify(PACKS_PLACEHOLDER)};b=${JSON.stringify(PACKS_PLACEHOLDER)};`);
    expect(() => writeRoutePacks(dir, { history: ['direct'] }, ['line'])).toThrow('does not hold');
  });

  it("a chunk's requires: those at its top level, not those behind a dynamic import", () => {
    const code = `var a=require('./chunk-A0000001.cjs');require('./chunk-B0000001.cjs');var f=async()=>await Promise.resolve().then(()=>{const m=require('./late-C0000001.cjs');return m}),n=require('node:fs');`;
    expect(staticRequires(code)).toEqual(['chunk-A0000001.cjs', 'chunk-B0000001.cjs']);
    expect(packSource([['a-A0000001.cjs', '// ends in a comment']])).toContain('// ends in a comment\n}');
  });
});
