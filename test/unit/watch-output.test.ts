/**
 * What a wait and a template print stays terminal-safe (src/core/sanitize.ts): a gateway's status with an
 * escape sequence in it is neither taken for its state nor printed raw (src/payment/watch.ts `stateOf`), and a
 * `--template` or `--jq` filter that decodes a gateway's text (`url_decode`, `base64_decode`) cannot put an escape
 * sequence on a terminal (src/cli/output/printer.ts).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { output } from '../../src/core/output.js';
import { Printer } from '../../src/cli/output/printer.js';
import { outputRequest } from '../../src/cli/output/shape.js';
import { stateOf, verdict } from '../../src/payment/watch.js';

describe('stateOf', () => {
  it('keeps a control character visible as \\uXXXX: `paid` with an escape in it is not paid', () => {
    expect(stateOf('PAID')).toBe('paid');
    expect(stateOf('refunded')).toBe('refund');
    const odd = stateOf('paid\u001b]0;pwned\u0007');
    expect(odd).toBe('paid\\u001b]0;pwned\\u0007');
    expect(verdict(odd, 'paid')).toBe('wait');
    expect(stateOf('paid\u202e')).toBe('paid\\u202e');
    expect(stateOf('x'.repeat(500))).toHaveLength(40);
  });
});

async function render(flags: Record<string, unknown>, doc: unknown, tty: boolean): Promise<string> {
  const stdout = new PassThrough();
  let text = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
  const printer = new Printer({ stdout, stderr: new PassThrough(), stdoutIsTTY: tty }, await outputRequest('status', flags));
  await printer.render(output(doc, ''));
  return text;
}

describe('--template', () => {
  const doc = { transactionId: 1, status: 'paid', orderId: '%1B%5B31mRED%1B%5D0%3Bpwned%07', observation: null };
  it('on a terminal, a filter that decodes a gateway string to an escape sequence prints it cleaned', async () => {
    expect(await render({ template: '{{ orderId | url_decode }}' }, doc, true)).toBe('RED\n');
    expect(await render({ template: '{{ orderId | base64_decode }}' }, { ...doc, orderId: Buffer.from('\u001b[2Jx').toString('base64') }, true)).toBe('x\n');
  });
  it('--jq too: @base64d of a gateway string prints no escape on a terminal', async () => {
    const encoded = { ...doc, orderId: Buffer.from('\u001b]8;;https://evil.example\u0007x').toString('base64') };
    expect(await render({ jq: '.orderId | @base64d' }, encoded, true)).toBe('x\n');
    expect(await render({ jq: '.orderId | @base64d' }, encoded, false)).toBe('\u001b]8;;https://evil.example\u0007x\n');
  });
  it('piped, the bytes stay as the template made them (a script asked for them)', async () => {
    expect(await render({ template: '{{ orderId | url_decode }}' }, doc, false)).toBe('\u001b[31mRED\u001b]0;pwned\u0007\n');
  });
});
