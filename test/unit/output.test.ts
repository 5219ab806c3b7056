/**
 * The output layer's rules in isolation: how `--json` reads the word after it, the field lists
 * completion and `--json FIELDS` use (equal to the documents' schemas), field selection, which jq
 * expressions run entry by entry (and the bound on those given the whole list), and that nothing but the run context writes to the process's
 * stdout and stderr.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_SCHEMAS } from '../../src/cli/output/document-schemas.js';
import { COMMAND_FIELDS, isFieldList, jsonRequested, normalizeJsonArgs } from '../../src/cli/output/fields.js';
import { jsonArray, perElement, Printer, selectFields, WHOLE_LIST_BYTES } from '../../src/cli/output/printer.js';
import { outputRequest } from '../../src/cli/output/shape.js';
import { ExitCode, GatewayError, InternalError, NetworkError, PaycliError, UsageError } from '../../src/core/errors.js';

describe('--json and the word after it', () => {
  it.each([
    [
      ['--json', 'cashout', '--value', '1'],
      ['--json=', 'cashout', '--value', '1'],
    ],
    [
      ['--json', 'transactionId,status', 'cashout'],
      ['--json=transactionId,status', 'cashout'],
    ],
    [
      ['cashout', '--json', 'tax'],
      ['cashout', '--json=tax'],
    ],
    [
      ['--json', 'status', '9029'],
      ['--json=', 'status', '9029'],
    ],
    [
      ['status', '--json', '9029'],
      ['status', '--json=', '9029'],
    ],
    [
      ['history', '--json'],
      ['history', '--json='],
    ],
    [
      ['--json=status', 'status', '1'],
      ['--json=status', 'status', '1'],
    ],
    [
      ['cashin', '--', '--json', 'x'],
      ['cashin', '--', '--json', 'x'],
    ],
  ])('%j → %j', (args, normalized) => {
    expect(normalizeJsonArgs(args)).toEqual(normalized);
  });

  it('a field list is a comma list of names, or one known field that is no command name', () => {
    expect(isFieldList('a,b')).toBe(true);
    expect(isFieldList('transactionId')).toBe(true);
    expect(isFieldList('cashout')).toBe(false);
    expect(isFieldList('status')).toBe(false);
    expect(isFieldList('nosuch')).toBe(false);
    expect(isFieldList('9029')).toBe(false);
    expect(isFieldList('base-url')).toBe(false);
    expect(isFieldList(undefined)).toBe(false);
  });

  it('jsonRequested sees both forms, and nothing after --', () => {
    expect(jsonRequested(['--json'])).toBe(true);
    expect(jsonRequested(['--json=a'])).toBe(true);
    expect(jsonRequested(['--', '--json'])).toBe(false);
  });
});

describe('field lists and schemas', () => {
  /** The property names of a JSON Schema (of each branch of an anyOf, or of an array's items). */
  function properties(schema: Record<string, unknown>): string[] {
    if (Array.isArray(schema.anyOf)) return [...new Set((schema.anyOf as Record<string, unknown>[]).flatMap(properties))];
    if (schema.type === 'array') return properties(schema.items as Record<string, unknown>);
    return Object.keys((schema.properties as Record<string, unknown>) ?? {});
  }

  it('every command with a document has its fields in COMMAND_FIELDS, equal to its schema', async () => {
    const z = await import('zod/mini');
    for (const [name, schema] of Object.entries(DOCUMENT_SCHEMAS)) {
      const path = name.replace('-', ' ');
      const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
      expect([...(COMMAND_FIELDS[path] ?? [])].sort(), name).toEqual(properties(json).sort());
    }
    expect(Object.keys(COMMAND_FIELDS).sort()).toEqual(
      Object.keys(DOCUMENT_SCHEMAS)
        .map((n) => n.replace('-', ' '))
        .sort(),
    );
  });
});

describe('the printer', () => {
  it('selects fields of a document, or of each element of a list', () => {
    expect(selectFields({ a: 1, b: 2, c: 3 }, ['c', 'a'])).toEqual({ c: 3, a: 1 });
    expect(selectFields([{ a: 1, b: 2 }, { a: 3 }], ['a'])).toEqual([{ a: 1 }, { a: 3 }]);
    expect(selectFields({ a: 1 }, undefined)).toEqual({ a: 1 });
  });

  it('runs an expression entry by entry only when it starts by taking each element', () => {
    expect(perElement('.[]')).toBe('.');
    expect(perElement('.[] | select(.outcome=="unknown") | .orderId')).toBe(' select(.outcome=="unknown") | .orderId');
    expect(perElement('length')).toBeUndefined();
    expect(perElement('map(.id)')).toBeUndefined();
    expect(perElement('.[] as $e | $e.id')).toBeUndefined();
  });

  it('writes a list as JSON.stringify would, compact or indented', async () => {
    const list = [{ a: 1 }, { b: [1, 2] }];
    const text = async (pieces: AsyncIterable<string>) => {
      let out = '';
      for await (const p of pieces) out += p;
      return out;
    };
    expect(await text(jsonArray(list, false))).toBe(`${JSON.stringify(list)}\n`);
    expect(await text(jsonArray(list, true))).toBe(`${JSON.stringify(list, null, 2)}\n`);
    expect(await text(jsonArray([], false))).toBe('[]\n');
  });
});

describe('error kinds are one table', () => {
  it('each kind has its exit code and default code, and instanceof tells them apart', () => {
    const cases: Array<[PaycliError, number, string]> = [
      [new UsageError('x'), ExitCode.USAGE, 'usage'],
      [new NetworkError('x', {}, 'timeout'), ExitCode.NETWORK, 'timeout'],
      [new GatewayError('x'), ExitCode.GATEWAY, 'gateway_error'],
      [new InternalError('x'), ExitCode.INTERNAL, 'internal_error'],
    ];
    for (const [err, exit, code] of cases) expect([err.exitCode, err.code, err instanceof PaycliError]).toEqual([exit, code, true]);
    expect(new UsageError('x') instanceof NetworkError).toBe(false);
    expect(UsageError.name).toBe('UsageError');
  });
});

describe('only the run context writes to the process', () => {
  it('no file of src/ but src/core/terminal.ts names process.stdout or process.stderr', () => {
    const SRC = resolve(__dirname, '../../src');
    const found: string[] = [];
    const walk = (d: string): void => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts') && relative(SRC, p) !== 'core/terminal.ts') {
          readFileSync(p, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (/process\.std(out|err)\b/.test(line.replace(/\/\/.*$|^\s*\*.*$/, ''))) found.push(`${relative(SRC, p)}:${i + 1}: ${line.trim()}`);
            });
        }
      }
    };
    walk(SRC);
    expect(found).toEqual([]);
  });
});

describe('history --jq over a long list', () => {
  /** A printer writing into a string, with the `--jq` of `history`. */
  async function printer(expr: string): Promise<{ p: Printer; out: () => string }> {
    let text = '';
    const stdout = new Writable({ write: (chunk, _enc, done) => ((text += String(chunk)), done()) });
    const req = await outputRequest('history', { jq: expr });
    return { p: new Printer({ stdout, stderr: new Writable({ write: (_c, _e, done) => done() }), stdoutIsTTY: false }, req), out: () => text };
  }
  const entry = { id: 1, note: 'x'.repeat(1000) };
  const long = Math.ceil(WHOLE_LIST_BYTES / 1000) + 10;
  const stream = (n: number) => ({
    docs: function* () {
      for (let i = 0; i < n; i++) yield { ...entry, id: i + 1 };
    },
    text: () => [],
  });

  it('an expression about the whole list gets at most WHOLE_LIST_BYTES of it: a longer list is exit 2 naming the per-entry form, nothing printed', async () => {
    const { p, out } = await printer('length');
    await expect(p.render(stream(long))).rejects.toMatchObject({
      exitCode: 2,
      details: { field: '--jq' },
      message: expect.stringMatching(/starts with \.\[\] runs on each entry/),
    });
    expect(out()).toBe('');
    const small = await printer('length');
    await small.p.render(stream(3));
    expect(small.out()).toBe('3\n');
  });

  it('an expression that starts with .[] runs on each entry of the same long list, in order', async () => {
    const { p, out } = await printer('.[] | .id');
    await p.render(stream(long));
    const ids = out().trimEnd().split('\n');
    expect(ids).toHaveLength(long);
    expect(ids.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(ids.at(-1)).toBe(String(long));
  });
});
