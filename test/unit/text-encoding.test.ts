/** Encodings of files read (src/core/text-encoding.ts) and the replacement character in names (src/pix/contact.ts). */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decodeText, firstInvalidUtf8, parseEncoding, toUtf8, useEncoding } from '../../src/core/text-encoding.js';
import { replacementProblem, textProblem } from '../../src/pix/validators.js';

const cp1252 = (text: string) => Buffer.from(text, 'latin1'); // the test texts use only Latin-1 letters

async function through(chunks: Buffer[], encoding: 'utf-8' | 'windows-1252' | 'latin1'): Promise<string> {
  const out: Buffer[] = [];
  const t = Readable.from(chunks).pipe(await toUtf8(encoding, '--batch', 'f.csv'));
  for await (const c of t) out.push(c as Buffer);
  return Buffer.concat(out).toString('utf8');
}

describe('UTF-8 checks', () => {
  it('firstInvalidUtf8: valid text, a lone Latin-1 byte, overlong, surrogates, a cut sequence', () => {
    expect(firstInvalidUtf8(Buffer.from('João € 😀'))).toBe(-1);
    expect(firstInvalidUtf8(cp1252('Jo\u00e3o'))).toBe(2);
    expect(firstInvalidUtf8(Buffer.from([0x41, 0xc0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0x41, 0xe2, 0x82]))).toBe(1);
  });
  it('decodeText names line and character, and suggests Windows-1252 when the line reads well so', () => {
    const bytes = Buffer.concat([Buffer.from('{"value": 1000,\n'), cp1252('"person": {"name": "Jo\u00e3o Silva"}}\n')]);
    let err: Error & { details?: { hint?: string } } = new Error('none');
    try {
      decodeText(bytes, 'utf-8', '--input', 'p.json');
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.message).toBe('--input: p.json is not valid UTF-8: line 2, character 23 (byte 0xE3); nothing was sent');
    expect(err.details?.hint).toContain('"person": {"name": "João Silva"}}');
    expect(err.details?.hint).toContain('--encoding windows-1252');
  });
  it('with --encoding, Windows-1252 and Latin-1 are decoded', async () => {
    await useEncoding('windows-1252');
    expect(decodeText(cp1252('Jo\u00e3o'), 'windows-1252', '--input', 'p')).toBe('João');
    expect(decodeText(Buffer.from([0x80, 0x93, 0x94]), 'windows-1252', '--input', 'p')).toBe('€“”');
    expect(decodeText(Buffer.from([0x80]), 'latin1', '--input', 'p')).toBe('\u0080'); // then refused as a control character in a name
  });
  it('the stream step: passes UTF-8 through across chunk edges, refuses the first bad byte by line and character', async () => {
    const utf8 = Buffer.from('a;b\r\nJoão;ç😀\n');
    const chunks = [...utf8].map((b) => Buffer.from([b])); // one byte a chunk: every sequence is cut
    expect(await through(chunks, 'utf-8')).toBe('a;b\r\nJoão;ç😀\n');
    const bad = [Buffer.from('valor;nome\n10;Jos'), cp1252('\u00e9\n11;Ana\n')];
    await expect(through(bad, 'utf-8')).rejects.toThrow('--batch: f.csv is not valid UTF-8: line 2, character 7 (byte 0xE9); nothing was sent');
    await expect(through([Buffer.from([0x61, 0xc3])], 'utf-8')).rejects.toThrow(/line 1, character 2 \(byte 0xC3\)/);
    expect(await through([cp1252('nome\nJo\u00e3o\n')], 'windows-1252')).toBe('nome\nJoão\n');
    await expect(through([Buffer.from('\ufeffnome\n')], 'windows-1252')).rejects.toThrow(/UTF-8 byte order mark/);
  });
  it('parseEncoding', () => {
    expect(parseEncoding(undefined)).toBe('utf-8');
    expect(parseEncoding('CP1252')).toBe('windows-1252');
    expect(parseEncoding('ISO-8859-1')).toBe('latin1');
    expect(() => parseEncoding('ebcdic')).toThrow(/--encoding: use utf-8, windows-1252 or latin1/);
  });
});

describe('replacement characters in names', () => {
  it('U+FFFD is refused as text that was not valid UTF-8, naming the character', () => {
    expect(replacementProblem('Jo\uFFFDo Silva')).toMatch(/^is not valid UTF-8: it contains U\+FFFD, the replacement character \(at character 3\)/);
    expect(textProblem('Jo\uFFFDo Silva')).toMatch(/U\+FFFD/);
    expect(textProblem('Ana\uFFFC')).toMatch(/U\+FFFC/);
    expect(textProblem('Ana\u0080')).toMatch(/U\+0080/);
    expect(textProblem('João Silva')).toBeNull();
  });
});
