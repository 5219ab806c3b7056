/**
 * Property-based tests (fast-check) of the document, Pix key and money validators.
 *
 * Valid CPFs and CNPJs are generated with check digits computed HERE, independently of the
 * library paycli uses (docs/gateway-contract.md §2.6: CPF weights 10..2 then 11..2; CNPJ values = ASCII code − 48,
 * weights 5,4,3,2,9,8,7,6,5,4,3,2 then 6,5,4,3,2,9,8,7,6,5,4,3,2; r < 2 → 0, else 11 − r).
 *
 * About "every single-character change fails": mod-11 check digits cannot catch every change.
 * In a CPF the first digit has weight 11 ≡ 0 (mod 11) in the second check digit, and r = 0 and
 * r = 1 both give the digit 0, so e.g. 45477389800 and 55477389800 are both valid CPFs; in an
 * alphanumeric CNPJ, characters whose values differ by 11 (`0`/`F`/`Q`, `1`/`G`/`R`, …) weigh the
 * same. Those changed documents ARE valid documents, and no validator may refuse them. So the
 * properties are: every change of a check digit fails; every change that the check-digit rule
 * detects (decided by the independent oracle below) fails; the blind spots are exactly the
 * documented ones, pinned with examples.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16, decodeBrCode } from '../../src/pix/brcode.js';
import { formatReais, MAX_CENTS, parseReais } from '../../src/pix/money.js';
import { documentProblem, isCnpj, isCpf, normaliseCpfCnpj } from '../../src/pix/documents.js';
import { normalisePhone, phoneProblem } from '../../src/pix/contact.js';
import { checkPixKey, PIX_KEY_TYPES, type PixKeyTypeValue } from '../../src/pix/pixkey.js';

// ---------- independent oracle ----------
const DIGITS = '0123456789';
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const mod11 = (sum: number) => (sum % 11 < 2 ? 0 : 11 - (sum % 11));
const val = (c: string) => c.charCodeAt(0) - 48;

function cpfCheckDigits(nine: string): string {
  const d1 = mod11([...nine].reduce((s, c, i) => s + val(c) * (10 - i), 0));
  const ten = nine + d1;
  const d2 = mod11([...ten].reduce((s, c, i) => s + val(c) * (11 - i), 0));
  return `${d1}${d2}`;
}
const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
function cnpjCheckDigits(twelve: string): string {
  const d1 = mod11([...twelve].reduce((s, c, i) => s + val(c) * CNPJ_W1[i]!, 0));
  const thirteen = twelve + d1;
  const d2 = mod11([...thirteen].reduce((s, c, i) => s + val(c) * CNPJ_W2[i]!, 0));
  return `${d1}${d2}`;
}
/** The oracle: is `bare` a valid CPF by the rule alone? */
const oracleCpf = (bare: string) => /^[0-9]{11}$/.test(bare) && !/^(\d)\1{10}$/.test(bare) && cpfCheckDigits(bare.slice(0, 9)) === bare.slice(9);
/** The oracle: is `bare` a valid CNPJ by the rule alone? */
const oracleCnpj = (bare: string) => /^[0-9A-Z]{12}[0-9]{2}$/.test(bare) && !/^(\d)\1{13}$/.test(bare) && cnpjCheckDigits(bare.slice(0, 12)) === bare.slice(12);

const maskCpf = (b: string) => `${b.slice(0, 3)}.${b.slice(3, 6)}.${b.slice(6, 9)}-${b.slice(9)}`;
const maskCnpj = (b: string) => `${b.slice(0, 2)}.${b.slice(2, 5)}.${b.slice(5, 8)}/${b.slice(8, 12)}-${b.slice(12)}`;

// ---------- generators ----------
const chars = (alphabet: string, n: number) => fc.array(fc.constantFrom(...alphabet), { minLength: n, maxLength: n }).map((a) => a.join(''));
const validCpf = chars(DIGITS, 9)
  .filter((n) => !/^(\d)\1{8}$/.test(n))
  .map((n) => n + cpfCheckDigits(n));
const numericCnpj = chars(DIGITS, 12)
  .filter((n) => !/^(\d)\1{11}$/.test(n))
  .map((n) => n + cnpjCheckDigits(n));
const alphaCnpj = chars(ALNUM, 12)
  .filter((n) => /[A-Z]/.test(n))
  .map((n) => n + cnpjCheckDigits(n));
const validCnpj = fc.oneof(numericCnpj, alphaCnpj);

/** Every single-character replacement of `doc` with another character of the allowed alphabet at that position. */
function mutations(doc: string, alphabetAt: (i: number) => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < doc.length; i++) for (const c of alphabetAt(i)) if (c !== doc[i]) out.push(doc.slice(0, i) + c + doc.slice(i + 1));
  return out;
}
const cpfAlphabet = () => DIGITS;
const cnpjAlphabet = (i: number) => (i < 12 ? ALNUM : DIGITS);

describe('CPF', () => {
  it('every generated valid CPF passes, bare and masked, and is sent bare', () => {
    fc.assert(
      fc.property(validCpf, (cpf) => {
        expect(oracleCpf(cpf)).toBe(true);
        expect(isCpf(cpf)).toBe(true);
        expect(isCpf(maskCpf(cpf))).toBe(true);
        expect(documentProblem(maskCpf(cpf), 'cpf')).toBeNull();
        expect(normaliseCpfCnpj(maskCpf(cpf))).toBe(cpf);
      }),
    );
  });

  it('every single-character change of a check digit fails', () => {
    fc.assert(
      fc.property(validCpf, (cpf) => {
        for (const m of mutations(cpf, cpfAlphabet).filter((m) => m.slice(0, 9) === cpf.slice(0, 9))) {
          expect(isCpf(m)).toBe(false);
          expect(isCpf(maskCpf(m))).toBe(false);
        }
      }),
    );
  });

  it('every single-character change fails unless the check-digit rule itself cannot see it', () => {
    fc.assert(
      fc.property(validCpf, (cpf) => {
        for (const m of mutations(cpf, cpfAlphabet)) {
          expect(isCpf(m)).toBe(oracleCpf(m));
          expect(documentProblem(m) === null).toBe(oracleCpf(m));
        }
      }),
    );
  });

  it('changes outside the digit alphabet and changes of length always fail', () => {
    fc.assert(
      fc.property(validCpf, fc.nat(10), fc.constantFrom('A', 'x', '_', '#'), (cpf, i, c) => {
        expect(isCpf(cpf.slice(0, i) + c + cpf.slice(i + 1))).toBe(false);
        expect(isCpf(cpf.slice(0, i) + cpf.slice(i + 1))).toBe(false);
        expect(isCpf(cpf.slice(0, i) + cpf[i] + cpf.slice(i))).toBe(false);
      }),
    );
  });

  it('the blind spot of the rule, pinned: both are valid CPFs', () => {
    expect(oracleCpf('45477389800') && oracleCpf('55477389800')).toBe(true);
    expect(isCpf('454.773.898-00') && isCpf('554.773.898-00')).toBe(true);
  });

  it('all-same-digit numbers are refused, with the reason', () => {
    for (const d of DIGITS) expect(isCpf(d.repeat(11))).toBe(false);
    expect(documentProblem('111.111.111-11')).toBe('is not a valid CPF or CNPJ: all 11 digits of the CPF are the same');
  });
});

describe('CNPJ (numeric and alphanumeric)', () => {
  it('official examples', () => {
    expect(isCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(normaliseCpfCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(isCnpj('11.222.333/0001-81')).toBe(true);
    expect(oracleCnpj('12ABC34501DE35') && oracleCnpj('11222333000181')).toBe(true);
    expect(isCnpj('12.ABC.345/01DE-36')).toBe(false);
    expect(isCnpj('11.222.333/0001-80')).toBe(false);
  });

  it('every generated valid CNPJ passes, bare, masked and lower-case, and is sent bare upper-case', () => {
    fc.assert(
      fc.property(validCnpj, (cnpj) => {
        expect(oracleCnpj(cnpj)).toBe(true);
        expect(isCnpj(cnpj)).toBe(true);
        expect(isCnpj(maskCnpj(cnpj))).toBe(true);
        expect(isCnpj(maskCnpj(cnpj).toLowerCase())).toBe(true);
        expect(normaliseCpfCnpj(maskCnpj(cnpj).toLowerCase())).toBe(cnpj);
      }),
    );
  });

  it('every single-character change of a check digit fails', () => {
    fc.assert(
      fc.property(validCnpj, (cnpj) => {
        for (const m of mutations(cnpj, cnpjAlphabet).filter((m) => m.slice(0, 12) === cnpj.slice(0, 12))) expect(isCnpj(m)).toBe(false);
      }),
    );
  });

  it('every single-character change fails unless the check-digit rule itself cannot see it', () => {
    fc.assert(
      fc.property(validCnpj, (cnpj) => {
        for (const m of mutations(cnpj, cnpjAlphabet)) {
          expect(isCnpj(m)).toBe(oracleCnpj(m));
          expect(documentProblem(maskCnpj(m)) === null).toBe(oracleCnpj(m));
        }
      }),
    );
  });

  it('a letter in the check digits, a symbol, or a change of length always fails', () => {
    fc.assert(
      fc.property(validCnpj, fc.nat(13), fc.constantFrom('A', 'Z'), (cnpj, i, letter) => {
        const at = (c: string) => cnpj.slice(0, i) + c + cnpj.slice(i + 1);
        if (i >= 12) expect(isCnpj(at(letter))).toBe(false);
        expect(isCnpj(at('_'))).toBe(false);
        expect(isCnpj(cnpj.slice(0, i) + cnpj.slice(i + 1))).toBe(false);
      }),
    );
  });

  it('the blind spot of the rule, pinned: characters 11 apart weigh the same (0/F/Q)', () => {
    expect(oracleCnpj('12ABC345F1DE35') && isCnpj('12.ABC.345/F1DE-35')).toBe(true);
    expect(oracleCnpj('12ABC345Q1DE35') && isCnpj('12.ABC.345/Q1DE-35')).toBe(true);
  });

  it('says what is wrong', () => {
    expect(documentProblem('12.ABC.345/01DE-3X')).toBe('is not a valid CPF or CNPJ: the last 2 characters of a CNPJ (its check digits) must be digits');
    expect(documentProblem('12.345')).toBe('is not a valid CPF or CNPJ: it has 5 characters without the mask; a CPF has 11 digits, a CNPJ 14 characters');
    expect(documentProblem('123.456.789-09', 'cnpj')).toBe('is not a valid CNPJ: it has 11 characters without the mask; a CNPJ has 14 characters');
  });
});

// ---------- PIX keys ----------
// Anatel's area codes, written here independently of the library paycli uses.
const ANATEL_DDD = [
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71,
  73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
];
const PHONE = fc.tuple(fc.constantFrom(...ANATEL_DDD), chars(DIGITS, 8)).map(([ddd, n]) => `${ddd}9${n}`);
const LOCAL = chars('abcdefghijklmnopqrstuvwxyz0123456789._-', 1).chain((first) =>
  chars('abcdefghijklmnopqrstuvwxyz0123456789._+-', 10).map((rest) => (first.replace(/[._-]/, 'a') + rest).replace(/\.+$/, 'x')),
);
const EMAIL = fc.tuple(LOCAL, chars('abcdefghijklmnopqrstuvwxyz', 6), fc.constantFrom('com', 'com.br', 'org')).map(([l, d, t]) => `${l}@${d}.${t}`);
const UUID = fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8] });

/** A valid key of each type, as a person may type it, and its DICT form. */
const keyOfType: Record<PixKeyTypeValue, fc.Arbitrary<[string, string]>> = {
  0: validCpf.chain((c) => fc.constantFrom<[string, string]>([c, c], [maskCpf(c), c])),
  1: validCnpj.chain((c) => fc.constantFrom<[string, string]>([c, c], [maskCnpj(c), c], [maskCnpj(c).toLowerCase(), c])),
  2: EMAIL.chain((e) => fc.constantFrom<[string, string]>([e, e], [e.toUpperCase(), e], [` ${e} `, e])),
  3: PHONE.chain((p) =>
    fc.constantFrom<[string, string]>(
      [`+55${p}`, `+55${p}`],
      [p, `+55${p}`],
      [`(${p.slice(0, 2)}) ${p.slice(2, 7)}-${p.slice(7)}`, `+55${p}`],
      [`+55 ${p.slice(0, 2)} ${p.slice(2)}`, `+55${p}`],
    ),
  ),
  4: UUID.chain((u) => fc.constantFrom<[string, string]>([u, u], [u.toUpperCase(), u])),
};

describe('PIX keys', () => {
  for (const t of PIX_KEY_TYPES) {
    it(`every valid ${t.name} key passes as ${t.name} and is sent in DICT form`, () => {
      fc.assert(
        fc.property(keyOfType[t.value], ([typed, dict]) => {
          const r = checkPixKey(t.value, typed);
          expect(r).toEqual({ ok: true, key: dict });
          expect(dict.length).toBeLessThanOrEqual(77);
        }),
      );
    });

    it(`a valid ${t.name} key given with another type fails with a hint naming a type it fits`, () => {
      fc.assert(
        fc.property(keyOfType[t.value], fc.constantFrom(...PIX_KEY_TYPES.filter((o) => o.value !== t.value)), ([typed], other) => {
          const r = checkPixKey(other.value, typed);
          if (r.ok) return; // genuinely fits the other type too (e.g. a national mobile number that is also a valid CPF)
          const hint = /it looks like (?:an? [\w-]+) key: use --pix-key-type (\w+)/.exec(r.message);
          expect(hint, r.message).not.toBeNull();
          const named = PIX_KEY_TYPES.find((k) => k.name === hint![1])!;
          expect(checkPixKey(named.value, typed).ok).toBe(true);
          expect(r.message).toContain(`key looks like ${other.example}`);
        }),
      );
    });
  }

  it('CPF and CNPJ keys: every detectable single-character change fails', () => {
    fc.assert(
      fc.property(validCpf, validCnpj, (cpf, cnpj) => {
        for (const m of mutations(cpf, cpfAlphabet)) expect(checkPixKey(0, m).ok).toBe(oracleCpf(m));
        for (const m of mutations(cnpj, cnpjAlphabet)) expect(checkPixKey(1, m).ok).toBe(oracleCnpj(m));
      }),
    );
  });

  it('random keys: any non-hex character or a missing dash fails; any version is accepted', () => {
    fc.assert(
      fc.property(UUID, fc.nat(35), fc.constantFrom('g', 'z', '_', ' '), (u, i, c) => {
        if (u[i] !== '-') expect(checkPixKey(4, u.slice(0, i) + c + u.slice(i + 1)).ok).toBe(false);
        expect(checkPixKey(4, u.replace('-', '')).ok).toBe(false);
      }),
    );
    expect(checkPixKey(4, '123e4567-e12b-12d1-a456-426655440000').ok).toBe(true); // version 1, from the BR Code example
  });

  it('phone keys: a digit more or less fails; a landline is refused with the reason', () => {
    fc.assert(
      fc.property(PHONE, (p) => {
        expect(checkPixKey(3, `+55${p}1`).ok).toBe(false);
        expect(checkPixKey(3, `+55${p.slice(0, -1)}`).ok).toBe(false);
      }),
    );
    const landline = checkPixKey(3, '(11) 3456-7890');
    expect(landline.ok).toBe(false);
    expect(!landline.ok && landline.message).toMatch(/is a landline number; a Pix phone key is a mobile number/);
  });

  it('e-mail keys longer than 77 characters fail; the hint names the type a key looks like', () => {
    const long = `${'a'.repeat(70)}@example.com`;
    const r = checkPixKey(2, long);
    expect(!r.ok && r.message).toMatch(/has 82 characters; an e-mail key has at most 77/);
    const cpfAsEmail = checkPixKey(0, 'fulano@example.com');
    expect(!cpfAsEmail.ok && cpfAsEmail.message).toMatch(/it looks like an e-mail key: use --pix-key-type email; a CPF key looks like 123\.456\.789-09/);
  });

  it('the Banco Central BR Code example: its CRC checks and its key is a valid random key', () => {
    const example = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    expect(crc16('123456789')).toBe('29B1');
    const report = decodeBrCode(example);
    expect(report.problems).toEqual([]);
    expect(checkPixKey(4, report.key!)).toEqual({ ok: true, key: '123e4567-e12b-12d1-a456-426655440000' });
    expect(decodeBrCode(example.replace('Fulano', 'Fulana')).problems[0]!.message).toMatch(/CRC 1D3D does not match/);
  });
});

describe('phones (payer and recipient)', () => {
  it("Anatel's numbering plan: fixed lines start with 2-5, mobiles have 9 digits starting with 9", () => {
    for (const ok of ['1134567890', '1123456789', '2154321098', '11987654321']) expect(normalisePhone(ok), ok).toBe(ok);
    for (const bad of ['1187654321', '1167654321', '1117654321', '1107654321', '11887654321']) expect(normalisePhone(bad), bad).toBeNull();
    expect(phoneProblem('1187654321')).toMatch(
      /fixed line, whose number after the DDD starts with 2-5; a mobile has 9 digits after the DDD, starting with 9 \(add the 9: 11987654321\?\)/,
    );
    expect(phoneProblem('1117654321')).toMatch(/fixed line, whose number after the DDD starts with 2-5 \(Anatel\)/);
  });
  it('national numbers with DDD, masked or with +55, are sent as digits with DDD', () => {
    fc.assert(
      fc.property(PHONE, (p) => {
        for (const typed of [p, `+55${p}`, `+55 (${p.slice(0, 2)}) ${p.slice(2, 7)}-${p.slice(7)}`, `(${p.slice(0, 2)}) ${p.slice(2)}`]) expect(normalisePhone(typed)).toBe(p);
        expect(normalisePhone(p.slice(2))).toBeNull(); // 9 digits: no DDD
        if (!p.startsWith('55')) expect(normalisePhone(`${p}1`)).toBeNull(); // 12 digits (with DDD 55 it reads as +55 and a landline)
      }),
    );
  });
});

describe('money: reais ↔ cents, exactly', () => {
  const cents = fc.integer({ min: 0, max: MAX_CENTS });
  const plain = (n: number) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`; // 1234.56 — integer arithmetic only

  it('"1.234,56" style (as formatReais writes it) parses back to the same cents', () => {
    fc.assert(
      fc.property(cents, (n) => {
        const br = formatReais(n); // R$ 1.234,56
        expect(parseReais(br)).toBe(n);
        expect(parseReais(br.replace('R$ ', ''))).toBe(n);
      }),
    );
  });

  it('"1234.56" and "1234,56" style parse back to the same cents', () => {
    fc.assert(
      fc.property(cents, (n) => {
        expect(parseReais(plain(n))).toBe(n);
        expect(parseReais(plain(n).replace('.', ','))).toBe(n);
      }),
    );
  });

  it('one decimal means tens of cents, no decimals means whole reais', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.nat(9), (reais, dime) => {
        expect(parseReais(`${reais},${dime}`)).toBe(reais * 100 + dime * 10);
        expect(parseReais(String(reais))).toBe(reais * 100);
      }),
    );
    expect(parseReais('15')).toBe(1500);
    expect(parseReais('15.5')).toBe(1550);
    expect(parseReais('15,50')).toBe(1550);
    expect(parseReais('1.234,56')).toBe(123456);
    expect(parseReais('0.1')).toBe(10); // no float: 0.1 reais is exactly 10 cents
    expect(parseReais('1.005')).toBeNull(); // ambiguous
    expect(parseReais('15,505')).toBeNull();
  });
});

describe('one rule for a CPF written with "/"', () => {
  it('is refused as a Pix key and as a document alike, with the same reason; its own mask is accepted by both', () => {
    const reason = 'a CPF is written with dots and a dash (123.456.789-09); "/" belongs to a CNPJ\'s mask';
    expect(documentProblem('123.456.789/09')).toBe(`is not a valid CPF or CNPJ: ${reason}`);
    expect(normaliseCpfCnpj('123.456.789/09')).toBeNull();
    expect(isCpf('123.456.789/09')).toBe(false);
    const key = checkPixKey(0, '123.456.789/09');
    expect(key.ok).toBe(false);
    expect(!key.ok && key.message).toContain(reason);
    expect(checkPixKey(0, '123.456.789-09')).toEqual({ ok: true, key: '12345678909' });
    expect(normaliseCpfCnpj('123.456.789-09')).toBe('12345678909');
    expect(normaliseCpfCnpj('11.222.333/0001-81')).toBe('11222333000181'); // a CNPJ keeps its "/"
  });
});
