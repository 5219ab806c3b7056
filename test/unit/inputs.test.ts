/**
 * Inputs no bank holds: the DICT e-mail key rule, contact e-mails, Anatel area codes and phone
 * prefixes, invisible characters in text, the one Pix key-type table, and the strict JSON reader
 * behind `--input`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldOf, CASHOUT_FIELDS, CASHIN_FIELDS } from '../../src/gateway/fields.js';
import { checkInputIntegers } from '../../src/payment/input.js';
import { MAX_DEPTH, parseStrictJson, StrictJsonError } from '../../src/core/json-strict.js';
import { parsePixKeyType, PIX_KEY_TYPES } from '../../src/pix/pix-key-types.js';
import { areaCodeList, dictEmailProblem, emailProblem, isAreaCode, normaliseEmailKey, normalisePhone, phoneProblem, textProblem } from '../../src/pix/contact.js';
import { checkPixKey } from '../../src/pix/pixkey.js';

describe('e-mail PIX keys: the DICT rule', () => {
  it('accepts ASCII keys in the DICT characters and lowers ASCII capitals', () => {
    expect(normaliseEmailKey(' Fulano.De+Tal@Example.COM ')).toBe('fulano.de+tal@example.com');
    expect(normaliseEmailKey("o'neil!#$&*/=?^_`{|}~-@sub-1.example.com.br")).toBe("o'neil!#$&*/=?^_`{|}~-@sub-1.example.com.br");
    expect(normaliseEmailKey('a@localhost')).toBe('a@localhost'); // the DICT pattern has no TLD rule
    expect(normaliseEmailKey(`${'a'.repeat(70)}@ex.com`)).toBe(`${'a'.repeat(70)}@ex.com`); // 77 characters
  });

  it.each([
    ['josé@example.com', /contains "é" \(U\+00E9\); an e-mail key has only ASCII letters/],
    ['a%b@example.com', /contains "%", which a DICT e-mail key may not have before the @/],
    ['fula\u200bno@example.com', /contains U\+200B, a zero-width space/],
    ['fulаno@example.com', /contains "а" \(U\+0430\)/], // Cyrillic a
    ['\u202efulano@example.com', /contains U\+202E, a right-to-left override, a bidi control/],
    ['\u212Aelvin@example.com', /contains "\u212A" \(U\+212A, a Kelvin sign, not the letter K\)/],
    ['fulano@exam_ple.com', /is not an e-mail address/],
    [`${'a'.repeat(71)}@ex.com`, /has 78 characters; an e-mail key has at most 77/],
  ])('refuses %j', (key, message) => {
    expect(normaliseEmailKey(key)).toBeNull();
    expect(dictEmailProblem(key)).toMatch(message);
  });

  it('the Kelvin sign never silently becomes k (as toLowerCase would make it)', () => {
    expect('\u212A'.toLowerCase()).toBe('k');
    const r = checkPixKey(2, '\u212Aelvin@example.com');
    expect(r.ok).toBe(false);
  });
});

describe('contact e-mails', () => {
  it('ASCII dot-atom addresses with a dotted domain', () => {
    expect(emailProblem('fulano.de-tal+pix@example.com.br')).toBeNull();
    expect(emailProblem('a%b@example.com')).toBeNull(); // RFC 5322 allows % in a contact address
    for (const e of ['josé@example.com', 'fula\u200bno@example.com', 'fulаno@example.com', '\u202efulano@example.com', 'a b@example.com'])
      expect(emailProblem(e)).toMatch(/contains/);
    for (const e of ['fulano@', 'fulano@localhost', '.a@example.com', 'a..b@example.com']) expect(emailProblem(e)).toMatch(/is not an e-mail address/);
  });
});

describe('phones: Anatel area codes, prefixes', () => {
  it('the Anatel list, from the library, matches the published ranges', () => {
    expect(areaCodeList()).toBe('11-19, 21, 22, 24, 27, 28, 31-35, 37, 38, 41-49, 51, 53-55, 61-69, 71, 73-75, 77, 79, 81-89, 91-99');
    for (const d of ['23', '25', '26', '29', '36', '39', '52', '56', '57', '58', '59', '72', '76', '78', '10', '20', '01']) expect(isAreaCode(d)).toBe(false);
  });

  it.each([
    ['(11) 98765-4321', '11987654321'],
    ['+55 11 98765-4321', '11987654321'],
    ['011 98765-4321', '11987654321'],
    ['(011) 98765-4321', '11987654321'],
    ['0055 11 98765-4321', '11987654321'],
    ['5511987654321', '11987654321'],
    ['(61) 3456-7890', '6134567890'],
  ])('%s → %s', (typed, digits) => {
    expect(normalisePhone(typed)).toBe(digits);
    expect(phoneProblem(typed)).toBeNull();
  });

  it.each([
    ['23 98765-4321', /has DDD 23, which does not exist \(Anatel's area codes: 11-19, 21, 22, 24,/],
    ['+55 52 3456-7890', /has DDD 52, which does not exist/],
    ['(01) 98765-4321', /has DDD 01, which does not exist/],
    ['98765-4321', /^has 9 digits; it needs the DDD and the number/],
    ['011 8765-432', /has 9 digits after the trunk prefix 0/],
    ['00 1 212 555 0100', /is not a Brazilian number \(00 is the international prefix; Brazil is 0055\)/],
    ['+1 212 555 0100', /is not a Brazilian number \(\+55\)/],
    ['11 98765\u20144321', /contains "—" \(U\+2014\)/],
    ['11 88765-4321', /must start with 9/],
  ])('refuses %j', (typed, message) => {
    expect(normalisePhone(typed)).toBeNull();
    expect(phoneProblem(typed)).toMatch(message);
  });

  it('a phone key with a DDD that does not exist is refused; with the trunk prefix it is understood', () => {
    expect(checkPixKey(3, '+5523987654321').ok).toBe(false);
    expect(checkPixKey(3, '011 98765-4321')).toEqual({ ok: true, key: '+5511987654321' });
  });
});

describe('names and descriptions', () => {
  it('refuse bidi controls, zero-width characters, line and paragraph separators; accept accents', () => {
    expect(textProblem('José da Silva Ção')).toBeNull();
    expect(textProblem('Fulano\u202e')).toMatch(/U\+202E, a right-to-left override, a bidi control/);
    expect(textProblem('Ful\u2066ano')).toMatch(/U\+2066/);
    expect(textProblem('Ful\u200bano')).toMatch(/U\+200B, a zero-width space/);
    expect(textProblem('Ful\ufeffano')).toMatch(/U\+FEFF/);
    expect(textProblem('a\u2028b')).toMatch(/U\+2028, a line separator/);
    expect(textProblem('a\u2029b')).toMatch(/U\+2029, a paragraph separator/);
    expect(textProblem('a\nb')).toMatch(/must be one line/);
  });
});

describe('the one Pix key-type table', () => {
  it.each([
    ['cpf', 0],
    ['CPF', 0],
    ['0', 0],
    ['cnpj', 1],
    ['1', 1],
    ['email', 2],
    ['EMAIL', 2],
    ['e-mail', 2],
    ['E_MAIL', 2],
    ['phone', 3],
    ['TELEFONE', 3],
    ['telefone', 3],
    ['PHONE', 3],
    ['celular', 3],
    ['random', 4],
    ['RANDOM_KEY', 4],
    ['random_key', 4],
    ['EVP', 4],
    ['evp', 4],
    ['chave aleatória', 4],
  ])('%s → %i', (name, value) => {
    expect(parsePixKeyType(name)).toBe(value);
  });
  it('unknown names and out-of-range numbers are refused; numbers only when allowed', () => {
    for (const n of ['pix', '5', '-1', '', 'cpf2']) expect(parsePixKeyType(n)).toBeNull();
    expect(parsePixKeyType('2', { numbers: false })).toBeNull();
    expect(PIX_KEY_TYPES.map((t) => t.value)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('strict JSON reader', () => {
  it('reads every JSON document without duplicate keys exactly as JSON.parse does (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(parseStrictJson(text).value).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a document with a key repeated anywhere (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.nat(), (obj, n) => {
        const keys = Object.keys(obj);
        const dup = keys[n % keys.length]!;
        const text = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k])}`).join(',')},${JSON.stringify(dup)}:0}`;
        expect(() => parseStrictJson(text)).toThrow(/is given twice/);
      }),
      { numRuns: 200 },
    );
  });

  it('reads what JSON.parse reads, keeping the source text of numbers by path', () => {
    const text = '\ufeff { "value": 1500, "a": [1.0, {"b": -2e3}], "s": "x\\u00e9\\n", "t": true, "n": null }';
    const doc = parseStrictJson(text);
    expect(doc.value).toEqual(JSON.parse(text.slice(1)));
    expect([...doc.numbers]).toEqual([
      ['value', '1500'],
      ['a.0', '1.0'],
      ['a.1.b', '-2e3'],
    ]);
  });

  it.each([
    ['{"value": 1, "value": 2}', /the key "value" is given twice at line 1, column 14 \(in value\)/],
    ['{"person": {"phone": "1",\n "phone": "2"}}', /the key "phone" is given twice at line 2, column 2 \(in person\.phone\)/],
    ['{"value": 1,}', /expected a key in double quotes at line 1, column 13/],
    ['[1, 2,]', /unexpected "\]"; expected a value/],
    ['{"value": 01}', /invalid number "01"/],
    ['{"value": 1.}', /invalid number/],
    ["{'value': 1}", /expected a key in double quotes/],
    ['{"a": "x\ny"}', /a control character/],
    ['{"a": "\\x"}', /invalid escape/],
    ['{"a": 1} 2', /unexpected "2" after the JSON value/],
    ['{"value": NaN}', /unexpected "N"; expected a value/],
    ['', /unexpected end of input/],
  ])('refuses %j', (text, message) => {
    expect(() => parseStrictJson(text)).toThrow(StrictJsonError);
    expect(() => parseStrictJson(text)).toThrow(message);
  });

  it('limits nesting; keeps __proto__ as an own key', () => {
    expect(() => parseStrictJson('['.repeat(MAX_DEPTH + 2) + ']'.repeat(MAX_DEPTH + 2))).toThrow(/nesting deeper than 64/);
    const doc = parseStrictJson('{"__proto__": {"polluted": 1}}').value as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('integer fields must be JSON integers as written; key types may be names', () => {
    const doc = parseStrictJson('{"value": 1000.000000000000001, "pixKeyType": "EVP", "splits": [{"value": "300"}, {"value": 1.0}, {"value": 200}]}') as {
      value: Record<string, unknown>;
      numbers: Map<string, string>;
    };
    const input = { body: doc.value, numbers: doc.numbers };
    const cashout = checkInputIntegers(CASHOUT_FIELDS, { ...input, body: { ...doc.value } });
    expect(cashout).toEqual([{ path: 'value', message: 'must be a JSON integer number of cents, e.g. 1500, not 1000.000000000000001 (cents have no fraction or exponent)' }]);
    const problems = checkInputIntegers(CASHIN_FIELDS, input);
    expect(problems.map((p) => p.path)).toEqual(['value', 'splits.0.value', 'splits.1.value']);
    expect(problems[1]!.message).toBe('must be a JSON integer number of cents, e.g. 1500, not the string "300"');
    expect(input.body).toEqual({ pixKeyType: 'EVP', splits: [{}, {}, { value: 200 }] });
    expect(fieldOf(CASHOUT_FIELDS, 'person.phone')?.flag).toBe('--person-phone');
  });

  it('pixKeyType from --input: a name becomes its number, a digit string is refused', () => {
    const named = { body: { pixKeyType: 'TELEFONE' } as Record<string, unknown>, numbers: new Map<string, string>() };
    expect(checkInputIntegers(CASHOUT_FIELDS, named)).toEqual([]);
    expect(named.body.pixKeyType).toBe(3);
    const digits = { body: { pixKeyType: '2' } as Record<string, unknown>, numbers: new Map<string, string>() };
    expect(checkInputIntegers(CASHOUT_FIELDS, digits)[0]!.message).toMatch(/must be a JSON integer 0-4 or a key type name, e.g. 2 or "email", not the string "2"/);
  });
});
