/**
 * The BR Code decoder and its rules (src/pix/brcode.ts, docs/brcodes.md): a corpus of codes with
 * their expected verdicts (test/fixtures/brcodes.json), a synthetic code for every rule, the
 * cash-in verdicts (src/pix/brcode-check.ts), the static builder against the Banco Central
 * example and @brazilian-utils, and the terminal drawing's quiet zone and width check.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils/generate-pix-payload';
import { isValidPixPayload } from '@brazilian-utils/brazilian-utils/is-valid-pix-payload';
import { describe, expect, it } from 'vitest';
import { buildBrCode, buildStaticBrCode, crc16, crcHolds, decodeBrCode, problemText, RULES, SOURCES, type BrCodeRuleId } from '../../src/pix/brcode.js';
import { binariseForQr, invertForQr, normaliseForQr, readBrCode, type QrReader } from '../../src/pix/qr-image.js';
import { en } from '../../src/core/i18n/en.js';
import { setLanguage } from '../../src/core/i18n/index.js';
import { checkCashInBrCode } from '../../src/pix/brcode-check.js';
import { drawQr, QUIET_ZONE, qrColumns } from '../../src/cli/output/qr-terminal.js';
import jsQRModule from 'jsqr';

type JsQR = typeof import('jsqr').default;
const jsQR: JsQR = typeof jsQRModule === 'function' ? (jsQRModule as unknown as JsQR) : (jsQRModule as unknown as { default: JsQR }).default;

const BCB = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const KEY = '123e4567-e12b-12d1-a456-426655440000';

/** TLV of one object. */
const o = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;
/** A code from objects, with its CRC computed (CRC-16/CCITT-FALSE, checked against 29B1 below). */
const code = (...objects: string[]) => {
  const body = `${objects.join('')}6304`;
  return body + crc16(body);
};
const account = (...sub: string[]) => o('26', o('00', 'br.gov.bcb.pix') + sub.join(''));
/** The objects of a sound static code with `amount` (54) and `txid`, to be varied one at a time. */
const sound = (over: Partial<Record<string, string | null>> = {}): string => {
  const base: Record<string, string | null> = {
    '00': o('00', '01'),
    '26': account(o('01', KEY)),
    '52': o('52', '0000'),
    '53': o('53', '986'),
    '54': o('54', '10.00'),
    '58': o('58', 'BR'),
    '59': o('59', 'Fulano de Tal'),
    '60': o('60', 'BRASILIA'),
    '62': o('62', o('05', 'PEDIDO42')),
    ...over,
  };
  // Integer-like keys would come first in an object's order: walk the IDs in payload order.
  return code(...['00', '26', '52', '53', '54', '58', '59', '60', '61', '62'].map((id) => base[id]).filter((v): v is string => typeof v === 'string'));
};
const rulesOf = (text: string) =>
  decodeBrCode(text)
    .problems.map((p) => p.rule)
    .sort();

describe('corpus (test/fixtures/brcodes.json)', () => {
  const corpus = JSON.parse(readFileSync(join(__dirname, '../fixtures/brcodes.json'), 'utf8')) as {
    codes: Array<{ name: string; code: string; valid: boolean; kind?: string; amountCents?: number; rules: BrCodeRuleId[] }>;
  };
  for (const c of corpus.codes) {
    it(c.name, () => {
      const d = decodeBrCode(c.code);
      expect(d.problems.map((p) => p.rule).sort()).toEqual([...c.rules].sort());
      expect(d.valid).toBe(c.valid);
      if (c.kind) expect(d.kind).toBe(c.kind);
      expect(d.amountCents).toBe(c.amountCents);
      // An independent check of the verdict where the library has one (it knows no warning rules).
      if (c.rules.every((r) => RULES[r].severity === 'warning') && !c.rules.includes('crcCase')) expect(isValidPixPayload(c.code)).toBe(true);
    });
  }
});

describe('every rule, on a synthetic code that breaks only it', () => {
  it('CRC-16/CCITT-FALSE check value and the sound base code', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(rulesOf(sound())).toEqual([]);
    expect(isValidPixPayload(sound())).toBe(true);
  });
  const cases: Array<[BrCodeRuleId, string]> = [
    ['tlv', '0002010126'],
    ['crcLast', sound().slice(0, -8) + o('99', 'x') + '6304'.slice(0, 0)],
    ['formatIndicator', sound({ '00': o('00', '02') })],
    ['initiation', sound({ '00': o('00', '01') + o('01', '13') })],
    ['account', sound({ '26': o('26', o('00', 'br.com.outro') + o('01', KEY)) })],
    ['keyOrUrl', sound({ '26': account(o('02', 'info only')) })],
    ['keyAndUrl', sound({ '26': account(o('01', KEY) + o('25', 'pix.example.com/qr/1')) })],
    ['keyForm', sound({ '26': account(o('01', 'Fulano@Example.com')) })],
    ['mcc', sound({ '52': null })],
    ['currency', sound({ '53': o('53', '840') })],
    ['amount', sound({ '54': o('54', '10,00') })],
    ['amountLength', sound({ '54': o('54', '00000000010.00') })],
    ['postalCodeLimit', sound({ '61': o('61', '70000-000-1') })],
    ['country', sound({ '58': o('58', 'PT') })],
    ['merchantName', sound({ '59': null })],
    ['merchantCity', sound({ '60': null })],
    ['nameLimit', sound({ '59': o('59', 'A'.repeat(26)) })],
    ['cityLimit', sound({ '60': o('60', 'SAO JOSE DOS CAMPOS') })],
    ['additional', sound({ '62': null })],
    ['txid', sound({ '62': o('62', o('05', 'A'.repeat(26))) })],
    ['ascii', sound({ '59': o('59', 'José da Silva') })],
  ];
  for (const [rule, text] of cases) {
    it(`${rule}: ${RULES[rule].text}`, () => {
      const d = decodeBrCode(text);
      expect(d.problems.map((p) => p.rule)).toContain(rule);
      // A broken structure hides the rest; every other code breaks this rule alone.
      if (rule !== 'crcLast' && rule !== 'tlv') expect(d.problems.filter((p) => p.rule !== rule)).toEqual([]);
      const p = d.problems.find((x) => x.rule === rule)!;
      expect(p.severity).toBe(RULES[rule].severity);
      expect(p.source).toMatch(/Banco Central|EMV/);
      expect(d.valid).toBe(RULES[rule].severity === 'warning');
    });
  }
  it('each rule, for people, is in the catalogs: the English text is the rule as --json gives it', () => {
    for (const rule of Object.keys(RULES) as BrCodeRuleId[]) expect(en[`brcodeRule.${rule}`]).toBe(RULES[rule].text);
    for (const source of Object.keys(SOURCES) as Array<keyof typeof SOURCES>) expect(en[`brcodeSource.${source}`]).toBe(SOURCES[source]);
  });
  it('in Portuguese, a problem reads in Portuguese for people and stays English in what --json gives', async () => {
    const broken = BCB.slice(0, -4) + '0000';
    await setLanguage('pt-BR');
    try {
      const p = decodeBrCode(broken).problems.find((x) => x.rule === 'crcMatch')!;
      expect(p.message).toBe(`its CRC 0000 does not match the payload (expected ${BCB.slice(-4)})`);
      expect(p.ruleText).toBe(RULES.crcMatch.text);
      expect(problemText(p)).toEqual({
        message: `o CRC 0000 não confere com o payload (o esperado é ${BCB.slice(-4)})`,
        ruleText: 'o CRC é o CRC-16/CCITT-FALSE de tudo o que vem antes dele, "6304" incluído',
        source: 'EMV QRCPS Merchant-Presented Mode, como adotado pelo Banco Central (Manual do BR Code)',
      });
    } finally {
      await setLanguage('en');
    }
    const p = decodeBrCode(broken).problems.find((x) => x.rule === 'crcMatch')!;
    expect(problemText(p)).toEqual({ message: p.message, ruleText: p.ruleText, source: p.source });
  });
  it('formatFirst and crcCase are warnings: the code stays valid', () => {
    const body = `${o('52', '0000')}${o('00', '01')}${account(o('01', KEY))}${o('53', '986')}${o('58', 'BR')}${o('59', 'F')}${o('60', 'C')}${o('62', o('05', '***'))}6304`;
    const moved = body + crc16(body);
    expect(rulesOf(moved)).toEqual(['formatFirst']);
    expect(rulesOf(BCB.slice(0, -4) + '1d3d')).toEqual(['crcCase']);
  });
  it('a location URL with a scheme is a warning (urlScheme)', () => {
    expect(
      rulesOf(
        code(
          o('00', '01'),
          o('01', '12'),
          account(o('25', 'https://pix.example.com/qr/1')),
          o('52', '0000'),
          o('53', '986'),
          o('58', 'BR'),
          o('59', 'F'),
          o('60', 'C'),
          o('62', o('05', '***')),
        ),
      ),
    ).toEqual(['urlScheme']);
  });
  it('a Pix Automático code (recurrence template 80 only) is valid, with its recurrence URL', () => {
    const auto = code(
      o('00', '01'),
      o('01', '12'),
      o('52', '0000'),
      o('53', '986'),
      o('58', 'BR'),
      o('59', 'Fulano de Tal'),
      o('60', 'BRASILIA'),
      o('62', o('05', '***')),
      o('80', o('00', 'br.gov.bcb.pix') + o('25', 'pix.example.com/rec/7')),
    );
    const d = decodeBrCode(auto);
    expect(d.problems).toEqual([]);
    expect(d.recurrenceUrl).toBe('pix.example.com/rec/7');
    expect(checkCashInBrCode(auto, 1000)).toMatchObject({ attention: [], warnings: [] });
  });
  it('unknown templates are kept as read', () => {
    const d = decodeBrCode(sound({ '26': account(o('01', KEY), o('03', '12345678')), '58': o('58', 'BR') + o('27', o('00', 'br.com.outro') + o('01', 'x')) }));
    expect(d.unknown).toEqual([
      { id: '26.03', value: '12345678' },
      { id: '27', value: o('00', 'br.com.outro') + o('01', 'x') },
    ]);
  });
});

describe('the cash-in check', () => {
  it('a static code with the requested amount passes; another amount or none needs attention', () => {
    expect(checkCashInBrCode(sound(), 1000).attention).toEqual([]);
    expect(checkCashInBrCode(sound(), 5000).attention).toEqual(['the BR Code asks the payer for R$ 10,00, but the cash-in was for R$ 50,00']);
    expect(checkCashInBrCode(sound({ '54': null }), 5000).attention[0]).toMatch(
      /static and has no amount: the payer's app would ask the payer to type any amount for this R\$ 50,00 cash-in/,
    );
  });
  it('a dynamic code is not compared on field 54, and the note says where the amount is', () => {
    const dyn = code(
      o('00', '01'),
      o('01', '12'),
      account(o('25', 'pix.example.com/qr/9')),
      o('52', '0000'),
      o('53', '986'),
      o('54', '1.00'),
      o('58', 'BR'),
      o('59', 'F'),
      o('60', 'C'),
      o('62', o('05', '***')),
    );
    const c = checkCashInBrCode(dyn, 5000);
    expect(c.attention).toEqual([]);
    expect(c.note).toBe("dynamic BR Code: the payer's bank takes the amount from the payload at pix.example.com/qr/9");
  });
  it('an invalid code needs attention; field limits are warnings', () => {
    expect(checkCashInBrCode(BCB.replace('Fulano', 'Fulana'), 1000).attention[0]).toMatch(/not valid: its CRC 1D3D does not match/);
    const long = checkCashInBrCode(sound({ '59': o('59', 'A'.repeat(30)) }), 1000);
    expect(long.attention).toEqual([]);
    expect(long.warnings).toEqual([expect.stringMatching(/merchant name has 30 characters.*some banks refuse/)]);
  });
  it('in Portuguese, its texts are in Portuguese', async () => {
    await setLanguage('pt-BR');
    try {
      expect(checkCashInBrCode(sound(), 5000).attention).toEqual(['o BR Code pede R$ 10,00 ao pagador, mas a cobrança foi de R$ 50,00']);
      expect(checkCashInBrCode(BCB.replace('Fulano', 'Fulana'), 1000).attention[0]).toMatch(/^o BR Code devolvido pelo gateway não é válido: o CRC 1D3D não confere/);
      expect(checkCashInBrCode(sound({ '59': o('59', 'A'.repeat(30)) }), 1000).warnings).toEqual([
        expect.stringMatching(/o nome do recebedor tem 30 caracteres \(o nome do recebedor \(59\) tem no máximo 25 caracteres\); alguns bancos recusam/),
      ]);
    } finally {
      await setLanguage('en');
    }
  });
  it("the sandbox's own codes pass", () => {
    expect(checkCashInBrCode(buildBrCode({ key: KEY, merchantName: 'PAYCLI SANDBOX', merchantCity: 'SAO PAULO', amountCents: 123456, txid: 'abc123' }), 123456)).toMatchObject({
      attention: [],
      warnings: [],
    });
  });
});

describe('the static builder (paycli brcode create)', () => {
  it("is byte-identical to the Banco Central manual's example for the same inputs", () => {
    expect(buildStaticBrCode({ key: KEY, merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' })).toBe(BCB);
  });
  it('matches @brazilian-utils generatePixPayload with amount, txid and information', () => {
    const ours = buildStaticBrCode({
      key: 'fulano@example.com',
      merchantName: 'Fulano de Tal',
      merchantCity: 'Brasilia',
      amountCents: 1050,
      txid: 'PEDIDO42',
      info: 'Camiseta azul',
    });
    expect(ours).toBe(
      generatePixPayload({ key: 'fulano@example.com', merchantName: 'Fulano de Tal', merchantCity: 'Brasília', amount: 10.5, txid: 'PEDIDO42', description: 'Camiseta azul' }),
    );
  });
});

describe('the terminal QR code', () => {
  it('has a four-module quiet zone on every side', () => {
    const lines = drawQr(BCB)!
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
    expect(QUIET_ZONE).toBe(4);
    expect(lines[0]!.length).toBe(qrColumns(BCB));
    expect(lines.slice(0, 2).every((l) => l.trim() === '')).toBe(true); // 4 modules = 2 text rows of half blocks
    expect(lines.every((l) => l.startsWith('    ') && l.endsWith('    '))).toBe(true);
    expect(lines.at(-1)!.trim()).toBe('');
    expect(lines.at(-2)!.replace(/▀/g, ' ').trim()).toBe(''); // last symbol row on top, quiet zone below
  });
  it('without colour (NO_COLOR): no escape sequence; light modules and the quiet zone drawn as blocks, and the drawing decodes', () => {
    const plain = drawQr(BCB, undefined, { color: false })!;
    expect(plain).not.toMatch(/\x1b/);
    const coloured = drawQr(BCB)!.replace(/\x1b\[[0-9;]*m/g, '');
    // the same symbol, the other polarity: every half block swapped with its complement
    const swap: Record<string, string> = { '█': ' ', ' ': '█', '▀': '▄', '▄': '▀' };
    const rows = plain.split('\n').slice(0, -1);
    const colouredRows = coloured.split('\n').slice(0, -1);
    // the last text row holds one module row (the quiet zone's last) over nothing: compare the others
    expect(rows.slice(0, -1)).toEqual(colouredRows.slice(0, -1).map((l) => [...l].map((c) => swap[c]).join('')));
    expect(rows[0]).toBe('█'.repeat(qrColumns(BCB))); // the quiet zone: blocks in the text colour
    // read as a dark-background terminal shows it (blocks light), it decodes to the BR Code
    const width = qrColumns(BCB);
    const height = rows.length * 2;
    const scale = 2; // 2x2 pixels per module
    const W = width * scale;
    const pixels = new Uint8ClampedArray(W * height * scale * 4);
    rows.forEach((row, r) =>
      [...row].forEach((c, x) => {
        for (const [half, light] of [
          [0, c === '█' || c === '▀'],
          [1, c === '█' || c === '▄'],
        ] as const) {
          for (let dy = 0; dy < scale; dy++)
            for (let dx = 0; dx < scale; dx++) {
              const i = (((r * 2 + half) * scale + dy) * W + x * scale + dx) * 4;
              pixels.fill(light ? 255 : 0, i, i + 3);
              pixels[i + 3] = 255;
            }
        }
      }),
    );
    expect(jsQR(pixels, W, height * scale)?.data).toBe(BCB);
  });
  it('draws nothing in a terminal narrower than the code', () => {
    expect(drawQr(BCB, qrColumns(BCB) - 1)).toBeNull();
    expect(drawQr(BCB, qrColumns(BCB))).not.toBeNull();
  });
});

describe('reading a BR Code from an image (src/pix/qr-image.ts)', () => {
  const BCB = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
  const misread = BCB.replace('Fulano', 'Fulanp'); // one character misread: its CRC no longer holds
  it('a CRC holds only for the whole code, in either letter case', () => {
    expect(crcHolds(BCB)).toBe(true);
    expect(crcHolds(BCB.replace(/1D3D$/, '1d3d'))).toBe(true);
    expect(crcHolds(misread)).toBe(false);
    expect(crcHolds(BCB.slice(0, -1))).toBe(false);
  });
  it('takes the first read whose CRC holds, skipping misreads; no read that holds is not a verdict', () => {
    const made: string[] = [];
    const variant = (name: string) => () => (made.push(name), new Uint8ClampedArray(4));
    const variants = [variant('raw'), variant('stretched'), variant('binarized')];
    const calls: string[] = [];
    const reader = (name: string, answers: Array<string | null>): QrReader => {
      let i = 0;
      return () => (calls.push(name), answers[i++] ?? null);
    };
    expect(readBrCode([reader('jsqr', [misread, null, misread]), reader('qr', [` ${BCB}\n`])], variants, 1, 1)).toEqual({ text: BCB });
    expect(calls).toEqual(['jsqr', 'jsqr', 'jsqr', 'qr']); // the misreads did not end the search
    expect(readBrCode([reader('jsqr', [misread, misread]), reader('qr', ['not a code'])], variants, 1, 1)).toEqual({ misreads: [misread, 'not a code'] });
    expect(readBrCode([reader('jsqr', []), reader('qr', [])], variants, 1, 1)).toEqual({ misreads: [] });
  });
  it('grey on grey (#787878 on #8c8c8c) becomes black on white; inversion swaps them', () => {
    const px = (v: number) => [v, v, v, 255];
    const image = new Uint8Array([...px(0x78), ...px(0x8c), ...px(0x8c), ...px(0x78)]);
    const bw = binariseForQr(normaliseForQr(image));
    expect([...bw]).toEqual([...px(0), ...px(255), ...px(255), ...px(0)]);
    expect([...invertForQr(bw)]).toEqual([...px(255), ...px(0), ...px(0), ...px(255)]);
  });
});
