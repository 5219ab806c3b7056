/**
 * The batch engine's shape (docs/architecture.md, "The layers"): src/batch/ writes nothing to stdout
 * or stderr (it reports through `BatchReporter`, src/batch/engine.ts, which the CLI implements), and
 * no function in it is longer than 80 lines. Both checks run on a planted offender too, so a broken
 * checker cannot pass silently.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const BATCH = resolve(__dirname, '../../src/batch');
const files = () => readdirSync(BATCH).filter((f) => f.endsWith('.ts'));

/** Functions (declarations, methods, arrows, function expressions) longer than `max` lines, as `name (lines)`. */
function longFunctions(name: string, text: string, max = 80): string[] {
  const src = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const lines = src.getLineAndCharacterOfPosition(n.end).line - src.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      if (lines > max) found.push(`${name}: ${(n as ts.FunctionLikeDeclaration).name?.getText(src) ?? '(anonymous)'} (${lines} lines)`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

/** What would write to the terminal: the process's streams, the logger, the run's streams, the console. */
const WRITES = /\bprocess\.(stdout|stderr)\b|\bconsole\.|\brunStreams\b|from '\.\.\/core\/logger\.js'/;

describe('the batch layer', () => {
  it('has no function over 80 lines (a planted one is caught)', () => {
    const long = files().flatMap((f) => longFunctions(f, readFileSync(join(BATCH, f), 'utf8')));
    expect(long).toEqual([]);
    const planted = `function big() {\n${'  x++;\n'.repeat(80)}}\n`;
    expect(longFunctions('planted.ts', planted)).toEqual(['planted.ts: big (82 lines)']);
  });

  it('writes nothing to stdout or stderr itself (a planted write is caught)', () => {
    const writers = files().filter((f) =>
      readFileSync(join(BATCH, f), 'utf8')
        .split('\n')
        .some((line) => !/^\s*(\*|\/\/)/.test(line) && WRITES.test(line)),
    );
    expect(writers).toEqual([]);
    expect(WRITES.test("import { logger } from '../core/logger.js';")).toBe(true);
    expect(WRITES.test('process.stderr.write(text);')).toBe(true);
  });
});
