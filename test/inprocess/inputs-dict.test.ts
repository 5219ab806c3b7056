/**
 * Inputs no bank holds, refused before anything is sent (exit 2, nothing on stdout, the test
 * gateway received nothing): DICT e-mail keys, Anatel area codes, invisible characters in names;
 * and what must be understood: the trunk prefix, every name of a Pix key type (flag and
 * `--input`). `--input` is read strictly: duplicate keys, non-integer cents, errors by JSON path.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { useGatewayFixture } from '../helpers/gateway.js';

const t = useGatewayFixture('sk_test_inputs_0123456789');

function withFlag(args: readonly string[], flag: string, value: string): string[] {
  const i = args.indexOf(flag);
  return i < 0 ? [...args, flag, value] : [...args.slice(0, i + 1), value, ...args.slice(i + 2)];
}

/** exit 2, nothing on stdout, no stack trace, nothing received by the gateway; returns stderr. */
async function refused(args: string[], input?: string): Promise<string> {
  const r = await runPaycli(args, { env: t.env(), input });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(t.gw.received).toHaveLength(0);
  return r.stderr;
}

/** exit 0 and the body the gateway received. */
async function sent(args: string[], input?: string): Promise<Record<string, unknown>> {
  const r = await runPaycli(args, { env: t.env(), input });
  expect(r.code, r.stderr).toBe(0);
  expect(t.gw.received).toHaveLength(1);
  return t.gw.received[0]!.json as Record<string, unknown>;
}

const emailKey = (key: string) => [...withFlag(withFlag(CASHOUT_ARGS, '--pix-key-type', 'email'), '--pix-key', key), '--yes'];

describe('e-mail PIX keys follow the DICT rule', () => {
  it.each([
    ['josé@example.com', /--pix-key: contains "é" \(U\+00E9\); an e-mail key has only ASCII letters, digits and/],
    ['a%b@example.com', /--pix-key: contains "%", which a DICT e-mail key may not have before the @/],
    ['fula\u200bno@example.com', /--pix-key: contains U\+200B, a zero-width space;/],
    ['fulаno@example.com', /--pix-key: contains "а" \(U\+0430\);/],
    ['\u202emoc.elpmaxe@onaluf', /--pix-key: contains U\+202E, a right-to-left override, a bidi control;/],
    ['\u212Aelvin@example.com', /--pix-key: contains "\u212A" \(U\+212A, a Kelvin sign, not the letter K\);/],
    [`${'a'.repeat(71)}@ex.com`, /--pix-key: has 78 characters; an e-mail key has at most 77/],
  ])('%j is refused, nothing sent', async (key, message) => {
    expect(await refused(emailKey(key))).toMatch(message);
  });

  it('ASCII capitals are lowered (DICT form); 77 characters are accepted', async () => {
    const body = await sent(emailKey(`Fulano.${'a'.repeat(63)}@EX.com`));
    expect(body.pixKey).toBe(`fulano.${'a'.repeat(63)}@ex.com`);
  });

  it('contact e-mails refuse non-ASCII and invisible characters too', async () => {
    const stderr = await refused(withFlag(CASHIN_ARGS, '--payer-email', 'josé@example.com'));
    expect(stderr).toMatch(/--payer-email: contains "é" \(U\+00E9\); an e-mail address is written in ASCII letters/);
  });
});

describe('phones: Anatel area codes and the trunk prefix', () => {
  it.each(['23 98765-4321', '(25) 3456-7890', '+55 52 98765-4321', '(01) 98765-4321'])('recipient phone %j: the DDD does not exist, nothing sent', async (phone) => {
    const stderr = await refused([...withFlag(CASHOUT_ARGS, '--person-phone', phone), '--yes']);
    expect(stderr).toMatch(
      /--person-phone: has DDD \d\d, which does not exist \(Anatel's area codes: 11-19, 21, 22, 24, 27, 28, 31-35, 37, 38, 41-49, 51, 53-55, 61-69, 71, 73-75, 77, 79, 81-89, 91-99\)/,
    );
  });

  it('a phone key with a DDD that does not exist is refused', async () => {
    const stderr = await refused([...withFlag(withFlag(CASHOUT_ARGS, '--pix-key-type', 'phone'), '--pix-key', '+5529987654321'), '--yes']);
    expect(stderr).toMatch(/--pix-key: has DDD 29, which does not exist/);
  });

  it('a leading trunk 0 or 0055 is understood: payer phone, recipient phone and phone key', async () => {
    const args = withFlag(withFlag(withFlag(CASHOUT_ARGS, '--person-phone', '011 98765-4321'), '--pix-key-type', 'telefone'), '--pix-key', '0055 21 99876-5432');
    const body = await sent([...args, '--yes']);
    expect(body).toMatchObject({ pixKeyType: 3, pixKey: '+5521998765432', person: { phone: '11987654321' } });
  });

  it('a payer phone with the trunk prefix in parentheses', async () => {
    const body = await sent(withFlag(CASHIN_ARGS, '--payer-phone', '(011) 3456-7890'));
    expect(body.payerPhone).toBe('1134567890');
  });
});

describe('names and descriptions refuse invisible characters', () => {
  it.each([
    [
      '--payer-name',
      'Fulano\u202e de Tal',
      /--payer-name: contains U\+202E, a right-to-left override, a bidi control; only visible characters and spaces are allowed, e\.g\. "Fulano de Tal"/,
    ],
    ['--product-name', 'Cami\u200bseta', /--product-name: contains U\+200B, a zero-width space;/],
    ['--product-description', 'azul\u2028M', /--product-description: contains U\+2028, a line separator;/],
    ['--product-description', 'azul\u2029M', /--product-description: contains U\+2029, a paragraph separator;/],
    ['--payer-name', 'Ful\u2067ano', /--payer-name: contains U\+2067, a right-to-left isolate, a bidi control;/],
  ])('%s %j', async (flag, value, message) => {
    expect(await refused(withFlag(CASHIN_ARGS, flag, value))).toMatch(message);
  });

  it('the recipient name too', async () => {
    expect(await refused([...withFlag(CASHOUT_ARGS, '--person-name', 'Ful\ufeffano'), '--yes'])).toMatch(/--person-name: contains U\+FEFF/);
  });
});

describe('one table of Pix key types: the same names everywhere', () => {
  const UUID = '123e4567-e12b-12d1-a456-426655440000';
  it.each([
    ['evp', 4, UUID],
    ['EVP', 4, UUID],
    ['RANDOM_KEY', 4, UUID],
    ['random', 4, UUID],
    ['telefone', 3, '+5511987654321'],
    ['TELEFONE', 3, '+5511987654321'],
    ['PHONE', 3, '+5511987654321'],
    ['E-mail', 2, 'fulano@example.com'],
    ['cpf', 0, '12345678909'],
    ['1', 1, '12ABC34501DE35'],
  ])('--pix-key-type %s', async (name, value, key) => {
    const body = await sent([...withFlag(withFlag(CASHOUT_ARGS, '--pix-key-type', name), '--pix-key', key), '--yes']);
    expect(body).toMatchObject({ pixKeyType: value, pixKey: key });
  });

  it.each([
    ['EVP', 4],
    ['evp', 4],
    ['RANDOM_KEY', 4],
    ['TELEFONE', 3],
    ['telefone', 3],
    ['email', 2],
    ['EMAIL', 2],
    ['cpf', 0],
    ['CNPJ', 1],
  ])('--input pixKeyType %j', async (name, value) => {
    const key = { 0: '123.456.789-09', 1: '12.ABC.345/01DE-35', 2: 'fulano@example.com', 3: '+5511987654321', 4: UUID }[value]!;
    const input = JSON.stringify({ value: 1550, pixKeyType: name, pixKey: key, person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' } });
    const body = await sent(['cashout', '--input', '-', '--yes'], input);
    expect(body.pixKeyType).toBe(value);
  });

  it('an unknown name is refused with the accepted names, nothing sent', async () => {
    const stderr = await refused([...withFlag(CASHOUT_ARGS, '--pix-key-type', 'chave'), '--yes']);
    expect(stderr).toMatch(
      /argument 'chave' is invalid\. use one of cpf, cnpj, email, phone, random \(also the interface's TELEFONE and RANDOM_KEY, the DICT's EVP and PHONE, or 0-4\)/,
    );
  });
});

describe('--input is read strictly', () => {
  const BODY = { value: 1550, pixKeyType: 2, pixKey: 'fulano@example.com', person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' } };
  const text = (value: string) => JSON.stringify(BODY).replace('"value":1550', `"value":${value}`);

  it('a key given twice is refused, naming it and where (nothing sent)', async () => {
    const stderr = await refused(['cashout', '--input', '-', '--yes'], '{"value": 100,\n "value": 150000, "pixKeyType": 2}');
    expect(stderr).toMatch(/--input: stdin is not valid JSON: the key "value" is given twice at line 2, column 2 \(in value\); nothing was sent/);
    const nested = await refused(
      ['--json', 'cashout', '--input', '-', '--yes'],
      JSON.stringify(BODY).replace('"phone":"11987654321"', '"phone":"11987654321","phone":"21987654321"'),
    );
    expect(JSON.parse(nested).error).toMatchObject({ code: 'usage', field: 'person.phone' });
  });

  it.each([
    ['"1500"', 'the string "1500"'],
    ['1.0', '1.0'],
    ['1000.000000000000001', '1000.000000000000001'],
    ['15e2', '15e2'],
  ])('value %s is not a JSON integer: refused, nothing sent', async (value, shown) => {
    const stderr = await refused(['cashout', '--input', '-', '--yes'], text(value));
    expect(stderr).toContain(`value (in --input stdin): must be a JSON integer number of cents, e.g. 1500, not ${shown}`);
  });

  it('a split amount of 1.0 in a cash-in file is refused by its JSON path', async () => {
    const file = join(t.home.dir, 'order.json');
    writeFileSync(
      file,
      JSON.stringify({
        payerName: 'Fulano de Tal',
        payerDocument: '123.456.789-09',
        payerEmail: 'fulano@example.com',
        payerPhone: '11987654321',
        productName: 'Camiseta',
        productDescription: 'Azul',
        value: 1000,
      }).replace('}', ',"splits":[{"clientId":"123e4567-e12b-12d1-a456-426655440000","value":3.0}]}'),
    );
    const r = await runPaycli(['--json', 'cashin', '--input', file], { env: t.env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({
      code: 'validation',
      field: 'splits.0.value',
      message: `splits.0.value (in --input ${file}): must be a JSON integer number of cents, e.g. 1500, not 3.0 (cents have no fraction or exponent); nothing was sent`,
    });
    expect(t.gw.received).toHaveLength(0);
  });

  it('problems in the file name the JSON path, not a flag; --json gives the path as field', async () => {
    const r = await runPaycli(['--json', 'cashout', '--input', '-', '--yes'], {
      env: t.env(),
      input: JSON.stringify({ ...BODY, person: { ...BODY.person, phone: '23 98765-4321' } }),
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const error = JSON.parse(r.stderr).error;
    expect(error).toMatchObject({ code: 'validation', field: 'person.phone' });
    expect(error.message).toMatch(/^person\.phone \(in --input stdin\): has DDD 23, which does not exist/);
    expect(error.message).not.toContain('--person-phone');
    expect(t.gw.received).toHaveLength(0);
  });

  it('a flag overriding a bad file value is named as the flag, and fixes it', async () => {
    const body = await sent(['cashout', '--input', '-', '--value', '2000', '--yes'], text('1.0'));
    expect(body.value).toBe(2000);
  });
});
