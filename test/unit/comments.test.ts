/**
 * Comments point inside the repository: to docs/ or a README section. A clone has neither the
 * project's working notes nor its issue tracker, so a comment in src/, scripts/, test/, bin/ or
 * tsup.config.ts that points to them (the patterns in OUTSIDE below) fails this test. Only
 * comments are read (TypeScript's own scanner finds them in .ts/.js files; hash comments in shell
 * scripts and lists), so strings in code are free to say anything.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const PLACES = ['src', 'scripts', 'test', 'bin', 'tsup.config.ts', 'vitest.config.ts'];

/** What a comment must not point to. */
export const OUTSIDE: ReadonlyArray<[RegExp, string]> = [
  [/\bshared\//i, 'a shared/ file'],
  [/\bfield[- ]?notes\b/i, 'the field notes'],
  [/\bissues?\s*#?\s*\d+/i, 'an issue number'],
  [/(^|[\s(\[,;])#\d+\b/, 'an issue number'],
];

function files(path: string): string[] {
  const full = join(ROOT, path);
  let st;
  try {
    st = statSync(full);
  } catch {
    return [];
  }
  if (st.isFile()) return [path];
  return readdirSync(full).flatMap((name) => (name === 'node_modules' || name === 'fixtures' ? [] : files(join(path, name))));
}

/** Every comment of a JavaScript/TypeScript file, with its line. */
export function jsComments(text: string, fileName = 'x.ts'): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const seen = new Set<number>();
  const out: Array<{ line: number; text: string }> = [];
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, source.getEnd()));
  return out;
}

/** The `#` comments of a shell script or list (not `#!`, not `$#` or `${#x}`, not inside quotes). */
export function hashComments(text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  text.split('\n').forEach((line, i) => {
    let quote = '';
    for (let k = 0; k < line.length; k++) {
      const c = line[k]!;
      if (quote) {
        if (c === quote) quote = '';
        else if (c === '\\' && quote === '"') k++;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '\\') k++;
      else if (c === '#' && (k === 0 || /[\s;]/.test(line[k - 1]!)) && !line.startsWith('#!')) {
        out.push({ line: i + 1, text: line.slice(k) });
        break;
      }
    }
  });
  return out;
}

function commentsOf(path: string): Array<{ line: number; text: string }> {
  const text = readFileSync(join(ROOT, path), 'utf8');
  if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(path)) return jsComments(text, path);
  if (/\.(sh|bash|zsh|fish|txt)$/.test(path) || /^#!.*sh\b/.test(text)) return hashComments(text);
  return [];
}

describe('no comment points outside the repository', () => {
  it('finds comments the way the rule needs', () => {
    expect(jsComments("const s = 'split #1'; // see issue #7\n/* shared/x.md */ let r = /#3/;").map((c) => c.text)).toEqual(['// see issue #7', '/* shared/x.md */']);
    expect(hashComments('echo "#5" $# ${#a}  # field-notes\n#!/bin/sh').map((c) => c.text)).toEqual(['# field-notes']);
    const bad = (s: string) => OUTSIDE.some(([re]) => re.test(s));
    for (const s of ['// issue #7', '// (#12)', '/* shared/interface.md */', '// field-notes', '// Issue 3: x', '# see #4']) expect(bad(s), s).toBe(true);
    for (const s of [
      '// docs/gateway-contract.md §2.4',
      '// README "Speed"',
      '// docs/speed.md "What it took"',
      '// the 4 issues a batch has',
      '// a sharedSecret/2',
      '// colour #fff',
    ])
      expect(bad(s), s).toBe(false);
  });

  it('in src/, scripts/, test/, bin/ and the build config', () => {
    const found: string[] = [];
    for (const path of PLACES.flatMap(files)) {
      for (const c of commentsOf(path)) {
        c.text.split('\n').forEach((line, i) => {
          const hit = OUTSIDE.find(([re]) => re.test(line));
          if (hit) found.push(`${relative(ROOT, join(ROOT, path))}:${c.line + i}: points to ${hit[1]}: ${line.trim()}`);
        });
      }
    }
    expect(found, `point to docs/ or a README section instead:\n${found.join('\n')}`).toEqual([]);
  });
});
