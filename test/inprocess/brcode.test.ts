/**
 * `paycli brcode decode|qr|create` and the BR Code check of a cash-in's answer, in process (test/helpers/run.ts): paycli
 * against files, stdin, a test gateway on 127.0.0.1 that answers chosen BR Codes, and
 * a real terminal (tmux) for the QR drawing (docs/brcodes.md).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils/generate-pix-payload';
import { PNG } from 'pngjs';
import { encodeQR } from 'qr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crc16 } from '../../src/pix/brcode.js';
import { CASHIN_ARGS, makeHome, type Home } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { CASHIN_OK, json, useGatewayFixture } from '../helpers/gateway.js';

/** A PNG of `text` drawn by paulmillr's `qr` encoder: `scale` px a module, a 4-module quiet zone, grey levels `dark` on `light`. */
function drawQr(text: string, scale: number, dark: number, light: number, ecc: 'low' | 'medium' = 'medium'): Buffer {
  const matrix = encodeQR(text, 'raw', { ecc });
  const size = (matrix.length + 8) * scale;
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const on = matrix[Math.floor(y / scale) - 4]?.[Math.floor(x / scale) - 4] === true;
      png.data.fill(on ? dark : light, (y * size + x) * 4, (y * size + x) * 4 + 3);
      png.data[(y * size + x) * 4 + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** `image` resized to `width` × `width` by bilinear interpolation (each pixel a blend of its four neighbours). */
function resized(image: { width: number; height: number; data: Buffer }, width: number): Buffer {
  const { width: w, height: h, data } = image;
  const out = new PNG({ width, height: width });
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      const sx = ((x + 0.5) * w) / width - 0.5;
      const sy = ((y + 0.5) * h) / width - 0.5;
      const x0 = Math.max(0, Math.floor(sx));
      const y0 = Math.max(0, Math.floor(sy));
      const x1 = Math.min(w - 1, x0 + 1);
      const y1 = Math.min(h - 1, y0 + 1);
      const fx = Math.min(1, Math.max(0, sx - x0));
      const fy = Math.min(1, Math.max(0, sy - y0));
      for (let c = 0; c < 4; c++) {
        const at = (px: number, py: number) => data[(py * w + px) * 4 + c]!;
        out.data[(y * width + x) * 4 + c] = Math.round((at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy);
      }
    }
  }
  return PNG.sync.write(out);
}

const BCB = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const o = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;
const code = (...objects: string[]) => `${objects.join('')}6304${crc16(`${objects.join('')}6304`)}`;
const tail = [o('52', '0000'), o('53', '986')];
const place = [o('58', 'BR'), o('59', 'Fulano de Tal'), o('60', 'BRASILIA'), o('62', o('05', '***'))];
const account = (sub: string) => o('26', o('00', 'br.gov.bcb.pix') + sub);

let home: Home;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => home.cleanup());
const run = (args: string[], input?: string) => runPaycli(args, { env: home.env, input });

describe('paycli brcode decode', () => {
  it('names every field of the Banco Central example and exits 0', async () => {
    const r = await run(['brcode', 'decode', BCB]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('BR Code: valid (static)');
    expect(r.stdout).toMatch(/Pix key\s+123e4567-e12b-12d1-a456-426655440000/);
    expect(r.stdout).toMatch(/Merchant name\s+Fulano de Tal/);
    expect(r.stdout).toMatch(/Merchant city\s+BRASILIA/);
    expect(r.stdout).toMatch(/Amount\s+none: the payer types the amount/);
    expect(r.stdout).not.toContain('Problems');
    expect(r.stderr).toBe('');
  });
  it('--json from stdin: one document with the fields and the problems with their rules', async () => {
    const dyn = code(
      o('00', '01'),
      o('01', '12'),
      account(o('25', 'pix.example.com/qr/9')),
      ...tail,
      o('54', '5.00'),
      o('58', 'BR'),
      o('59', 'N'.repeat(30)),
      o('60', 'BRASILIA'),
      o('62', o('05', '***')),
      o('80', o('00', 'br.gov.bcb.pix') + o('25', 'pix.example.com/rec/1')),
      o('81', 'x'),
    );
    const r = await run(['--json', 'brcode', 'decode', '-'], `${dyn}\n`);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      brCode: dyn,
      valid: true,
      kind: 'dynamic',
      url: 'pix.example.com/qr/9',
      recurrenceUrl: 'pix.example.com/rec/1',
      amountCents: 500,
      unknown: [{ id: '81', value: 'x' }],
    });
    expect(doc.problems).toEqual([
      {
        rule: 'nameLimit',
        severity: 'warning',
        message: 'its merchant name has 30 characters',
        ruleText: 'the merchant name (59) has at most 25 characters',
        source: 'Banco Central, Manual do BR Code',
      },
    ]);
  });
  it('an invalid code: its description on stdout, the problems with their rules, exit 2', async () => {
    const r = await run(['brcode', 'decode', BCB.replace('Fulano', 'Fulana')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('BR Code: NOT VALID');
    expect(r.stdout).toMatch(/error: its CRC 1D3D does not match the payload \(expected [0-9A-F]{4}\)\n {4}rule: the CRC is CRC-16\/CCITT-FALSE/);
    expect(r.stderr).toMatch(/^error: the BR Code is not valid: its CRC 1D3D does not match/);
    const j = await run(['--json', 'brcode', 'decode', 'not a code']);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stdout)).toMatchObject({ valid: false, problems: [{ rule: 'tlv' }] });
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { code: 'invalid_brcode' } });
  });
  it('nothing to decode, or an image with no QR code: exit 2', async () => {
    expect((await run(['brcode', 'decode'])).code).toBe(2);
    const blank = new PNG({ width: 50, height: 50 });
    blank.data.fill(255);
    writeFileSync(join(home.dir, 'blank.png'), PNG.sync.write(blank));
    const r = await run(['brcode', 'decode', '--image', join(home.dir, 'blank.png')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no QR code found in .*blank\.png/);
  });
});

describe('paycli brcode qr and decode --image', () => {
  it('a PNG written by paycli and one written by another library decode to the same text', async () => {
    const ours = join(home.dir, 'ours.png');
    const svg = join(home.dir, 'ours.svg');
    const q = await run(['brcode', 'qr', BCB, '--png', ours, '--svg', svg]);
    expect(q.code).toBe(0);
    expect(q.stdout).toBe('');
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg/);
    // Another encoder (paulmillr's `qr`), written to PNG pixel by pixel: 6 px a module, 4-module margin.
    const matrix = encodeQR(BCB, 'raw', { ecc: 'low' });
    const scale = 6;
    const size = (matrix.length + 8) * scale;
    const png = new PNG({ width: size, height: size });
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const mx = Math.floor(x / scale) - 4;
        const my = Math.floor(y / scale) - 4;
        const dark = matrix[my]?.[mx] === true;
        png.data.fill(dark ? 0 : 255, (y * size + x) * 4, (y * size + x) * 4 + 3);
        png.data[(y * size + x) * 4 + 3] = 255;
      }
    }
    const theirs = join(home.dir, 'theirs.png');
    writeFileSync(theirs, PNG.sync.write(png));
    const a = await run(['--json', 'brcode', 'decode', '--image', ours]);
    const b = await run(['--json', 'brcode', 'decode', '--image', theirs]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(JSON.parse(a.stdout).brCode).toBe(BCB);
    expect(JSON.parse(b.stdout).brCode).toBe(BCB);
  });
  it('a grey-on-grey code (dark #787878 on light #8c8c8c, quiet zone 4) reads, at any size', async () => {
    const sandboxCode = generatePixPayload({
      key: '7f6e3a2b-1c4d-4e5f-8a9b-0c1d2e3f4a5b',
      merchantName: 'PAYCLI SANDBOX',
      merchantCity: 'SAO PAULO',
      amount: 1234.56,
      txid: 'abcdefabcdefabcdefabcdefa',
    });
    if (sandboxCode === null) throw new Error('the sandbox payload could not be built');
    for (const [text, scale] of [
      [BCB, 6],
      [BCB, 2],
      [sandboxCode, 3],
      [sandboxCode, 8],
    ] as const) {
      const file = join(home.dir, `grey-${scale}.png`);
      writeFileSync(file, drawQr(text, scale, 0x78, 0x8c));
      const r = await run(['--json', 'brcode', 'decode', '--image', file]);
      expect(r.code, `${scale}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ brCode: text, valid: true });
    }
  });
  it('grey on grey, resized by a non-integer factor (blurred module edges, as a viewer or a screenshot makes it): jsQR alone finds nothing, the other decoder and binarizations read it', async () => {
    for (const [ecc, width] of [
      ['low', 150],
      ['low', 225],
      ['medium', 128],
      ['medium', 209],
    ] as const) {
      const file = join(home.dir, `grey-${ecc}-${width}.png`);
      writeFileSync(file, resized(PNG.sync.read(drawQr(BCB, 1, 0x78, 0x8c, ecc)), width));
      const r = await run(['--json', 'brcode', 'decode', '--image', file]);
      expect(r.code, `${ecc} ${width}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ brCode: BCB, valid: true });
    }
  });
  it('a read whose CRC does not hold is a misread: "could not read the image", never "the code is invalid"', async () => {
    const wrong = BCB.replace(/1D3D$/, '1D3E');
    const file = join(home.dir, 'wrong-crc.png');
    writeFileSync(file, drawQr(wrong, 6, 0, 255));
    const r = await run(['brcode', 'decode', '--image', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: --image: could not read .*wrong-crc\.png: the QR code was found, but none of the \d+ reads? of it has a CRC that holds \(a misread of the image, not a verdict on the code\)/,
    );
    expect(r.stderr).not.toMatch(/NOT VALID|not valid/i);
    expect(r.stderr).toContain(`hint: to check the text that was read anyway: paycli brcode decode '${wrong}'`);
  });
  it('an invalid code is not drawn: exit 2, no file', async () => {
    const r = await run(['brcode', 'qr', BCB.replace('Fulano', 'Fulana'), '--png', join(home.dir, 'x.png')]);
    expect(r.code).toBe(2);
    expect(() => readFileSync(join(home.dir, 'x.png'))).toThrow();
  });
});

describe('paycli brcode create', () => {
  it("prints the Banco Central manual's example, byte for byte, for its inputs", async () => {
    const r = await run(['brcode', 'create', '--key', '123e4567-e12b-12d1-a456-426655440000', '--name', 'Fulano de Tal', '--city', 'BRASILIA']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${BCB}\n`);
    expect(r.stderr).toMatch(/no --value\/--amount: the payer types the amount/);
  });
  it('with amount in reais, txid and information: what @brazilian-utils generates, accents dropped', async () => {
    const r = await run([
      'brcode',
      'create',
      '--key',
      'fulano@example.com',
      '--amount',
      '10,50',
      '--name',
      'Fulano de Tal',
      '--city',
      'Brasília',
      '--txid',
      'PEDIDO42',
      '--info',
      'Camiseta azul',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(
      generatePixPayload({ key: 'fulano@example.com', merchantName: 'Fulano de Tal', merchantCity: 'Brasília', amount: 10.5, txid: 'PEDIDO42', description: 'Camiseta azul' }),
    );
    const j = await run(['--json', 'brcode', 'create', '--key', '+5511987654321', '--value', '1000', '--name', 'Fulano', '--city', 'Recife']);
    expect(JSON.parse(j.stdout)).toMatchObject({ valid: true, key: '+5511987654321', amountCents: 1000, merchantCity: 'Recife', problems: [] });
  });
  it('refuses what a bank would refuse, with the rule, exit 2', async () => {
    const base = ['brcode', 'create', '--key', 'fulano@example.com', '--name', 'Fulano', '--city', 'Recife'];
    const cases: Array<[string[], RegExp]> = [
      [['--name', 'A'.repeat(26)], /--name: "A{26}" has 26 characters; a BR Code takes at most 25/],
      [['--city', 'Sao Jose dos Campos'], /--city: .* has 19 characters; a BR Code takes at most 15/],
      [['--txid', 'PEDIDO-42'], /--txid: "PEDIDO-42" must be 1-25 letters and digits/],
      [['--key', 'josé@example.com'], /--key: "josé@example.com" is not a Pix key/],
      [['--amount', '10,001'], /--amount: /],
      [['--value', '10.50'], /--value: "10.50" is not an amount in cents/],
    ];
    for (const [extra, message] of cases) {
      const args = [...base];
      for (let i = 0; i < extra.length; i += 2) {
        const at = args.indexOf(extra[i]!);
        if (at >= 0) args.splice(at, 2);
        args.push(extra[i]!, extra[i + 1]!);
      }
      const r = await run(args);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
  });
});

describe("a cash-in's BR Code", () => {
  const t = useGatewayFixture('sk_test_brcode');
  const answer = (qrCode: string) => t.gw.respond((_req, res) => json(res, 200, { ...CASHIN_OK, qrCode }));
  const withAmount = (amount?: string) => code(o('00', '01'), account(o('01', '123e4567-e12b-12d1-a456-426655440000')), ...tail, ...(amount ? [o('54', amount)] : []), ...place);

  it('static without an amount: printed, then exit 6 (needs attention), every problem listed', async () => {
    answer(withAmount());
    const r = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect(r.code).toBe(6);
    expect(t.gw.received).toHaveLength(1);
    expect(r.stdout).toContain('Cash-in created');
    expect(r.stdout).toContain(withAmount());
    expect(r.stderr).toMatch(
      /error: created, but needs attention:\n {2}- the BR Code returned by the gateway is static and has no amount: the payer's app would ask the payer to type any amount for this R\$ 10,00 cash-in/,
    );
    const j = await runPaycli(['--json', ...CASHIN_ARGS], { env: t.env() });
    expect(j.code).toBe(6);
    expect(JSON.parse(j.stdout).transactionId).toBe(CASHIN_OK.transactionId);
    expect(JSON.parse(j.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'needs_attention', problems: [expect.stringMatching(/static and has no amount/)] } });
  });
  it('an invalid code (its CRC does not match): printed and recorded, then exit 6', async () => {
    const bad = withAmount('10.00').replace(/.{4}$/, (crc) => (crc === '0000' ? '0001' : '0000'));
    answer(bad);
    const r = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect(r.code).toBe(6);
    expect(t.gw.received).toHaveLength(1);
    expect(r.stdout).toContain('Cash-in created');
    expect(r.stdout).toContain(bad);
    expect(r.stderr).toMatch(/error: created, but needs attention:\n {2}- .*CRC/);
    const hist = await runPaycli(['--json', 'history'], { env: t.env() });
    expect(hist.code).toBe(0);
    expect(JSON.parse(hist.stdout)).toMatchObject([{ kind: 'cashin' }]);
  });
  it('another amount: exit 6', async () => {
    answer(withAmount('1.00'));
    const r = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('the BR Code asks the payer for R$ 1,00, but the cash-in was for R$ 10,00');
  });
  it("dynamic: field 54 is not compared and the output says the amount is in the URL's payload", async () => {
    answer(code(o('00', '01'), o('01', '12'), account(o('25', 'pix.example.com/qr/77')), ...tail, o('54', '1.00'), ...place));
    const r = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("(dynamic BR Code: the payer's bank takes the amount from the payload at pix.example.com/qr/77)");
    expect(r.stderr).not.toMatch(/warning|error/);
  });
  it('field limits are warnings: exit 0', async () => {
    answer(
      code(
        o('00', '01'),
        account(o('01', '123e4567-e12b-12d1-a456-426655440000')),
        ...tail,
        o('54', '10.00'),
        o('58', 'BR'),
        o('59', 'LOJA DO FULANO DE TAL E FILHOS'),
        o('60', 'BRASILIA'),
        o('62', o('05', '***')),
      ),
    );
    const r = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: the BR Code returned by the gateway: its merchant name has 30 characters \(the merchant name \(59\) has at most 25 characters\); some banks refuse such codes/,
    );
  });
});
