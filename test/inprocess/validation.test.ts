/**
 * Validation before anything is sent. For every field of cash-in and cash-out, a wrong
 * value exits 2 with a message that names the flag, says what is wrong and shows a valid
 * example — and the recording test gateway received nothing. Also: missing flags without a
 * terminal, `--amount`, splits, Pix key hints, `--input <file|->` and `--dry-run`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { useGatewayFixture } from '../helpers/gateway.js';

const KEY = 'sk_live_SECRET_validation_0123456789';
const CLIENT = '123e4567-e12b-12d1-a456-426655440000';

const t = useGatewayFixture(KEY);

/** `args` with the value of `flag` replaced by `value` (or the flag added). */
function withFlag(args: readonly string[], flag: string, value: string): string[] {
  const i = args.indexOf(flag);
  return i < 0 ? [...args, flag, value] : [...args.slice(0, i + 1), value, ...args.slice(i + 2)];
}

/** Runs, and checks: exit 2, nothing on stdout, nothing received by the gateway, no stack trace. */
async function refused(args: string[], extra: { input?: string; env?: Record<string, string> } = {}) {
  const r = await runPaycli(args, { env: t.env(extra.env), input: extra.input });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(t.gw.received).toHaveLength(0);
  return r.stderr;
}

// [flag, wrong value, expected message (names the flag, says what is wrong, shows an example)]
const CASHIN_CASES: [string, string, RegExp][] = [
  ['--value', '0', /--value: must be at least 1 cent, not 0; e\.g\. 1000 for R\$ 10,00/],
  ['--value', '-5', /--value: must be at least 1 cent, not -5; e\.g\. 1000 for R\$ 10,00/],
  ['--value', '10.50', /--value: must be an integer number of cents, e\.g\. 1000 for R\$ 10,00 \(for reais, use --amount 10,50\)/],
  ['--value', '10000000001', /--value: must be at most 10000000000 cents \(R\$ 100\.000\.000,00\), not 10000000001; e\.g\. 1000/],
  ['--payer-name', '   ', /--payer-name: must not be empty, e\.g\. "Fulano de Tal"/],
  ['--payer-name', 'F'.repeat(101), /--payer-name: has 101 characters, more than the 100 allowed; e\.g\. "Fulano de Tal"/],
  ['--payer-name', 'Fulano\nde Tal', /--payer-name: must be one line without control characters \(tabs, line breaks\), e\.g\. "Fulano de Tal"/],
  [
    '--payer-document',
    '123.456.789-00',
    /--payer-document: is not a valid CPF or CNPJ: the CPF check digits do not match \(a character is mistyped or two are swapped\); e\.g\. 123\.456\.789-09 \(CPF\) or 12\.ABC\.345\/01DE-35 \(CNPJ\)/,
  ],
  ['--payer-document', '12.ABC.345/01DE-36', /--payer-document: is not a valid CPF or CNPJ: the CNPJ check digits do not match .*; e\.g\. 123\.456\.789-09/],
  ['--payer-document', '111.111.111-11', /--payer-document: is not a valid CPF or CNPJ: all 11 digits of the CPF are the same; e\.g\. 123\.456\.789-09/],
  [
    '--payer-document',
    '1234567890',
    /--payer-document: is not a valid CPF or CNPJ: it has 10 characters without the mask; a CPF has 11 digits, a CNPJ 14 characters; e\.g\. 123\.456\.789-09/,
  ],
  [
    '--payer-document',
    '123,456,789-09',
    /--payer-document: is not a valid CPF or CNPJ: it contains ","; only digits, letters \(CNPJ\) and the mask characters \. \/ - are allowed; e\.g\. 123\.456\.789-09/,
  ],
  ['--payer-email', 'fulano@', /--payer-email: is not an e-mail address \(name@domain\.tld\), e\.g\. fulano@example\.com/],
  ['--payer-email', `${'f'.repeat(250)}@example.com`, /--payer-email: has 262 characters, more than the 254 allowed for an e-mail address; e\.g\. fulano@example\.com/],
  ['--payer-phone', '98765-4321', /--payer-phone: has 9 digits; it needs the DDD and the number: 10 digits \(landline\) or 11 \(mobile\); e\.g\. \(11\) 98765-4321/],
  ['--payer-phone', '(01) 98765-4321', /--payer-phone: has DDD 01, which does not exist \(Anatel's area codes: 11-19, 21, 22, 24, .*\); e\.g\. \(11\) 98765-4321/],
  ['--payer-phone', '11 88765-4321', /--payer-phone: is not a valid mobile number: with 11 digits, the number after the DDD must start with 9; e\.g\. \(11\) 98765-4321/],
  ['--payer-phone', '+1 415 555 0100', /--payer-phone: is not a Brazilian number \(\+55\); e\.g\. \(11\) 98765-4321/],
  ['--product-name', '', /--product-name: must not be empty, e\.g\. "Camiseta"/],
  ['--product-description', 'D'.repeat(501), /--product-description: has 501 characters, more than the 500 allowed; e\.g\. "Camiseta azul, tamanho M"/],
  ['--product-description', 'azul\tM', /--product-description: must be one line without control characters/],
  ['--postback-url', 'example.com/hook', /--postback-url: is not an absolute http\(s\) URL, e\.g\. https:\/\/example\.com\/pix\/postback/],
  ['--postback-url', 'ftp://example.com/hook', /--postback-url: is not an absolute http\(s\) URL, e\.g\. https:\/\/example\.com\/pix\/postback/],
  ['--postback-url', `https://example.com/${'p'.repeat(2040)}`, /--postback-url: is longer than 2048 characters; e\.g\. https:\/\/example\.com\/pix\/postback/],
  ['--split', 'not-a-uuid:300', /--split: split #1 client id must be a UUID, e\.g\. 123e4567-e12b-12d1-a456-426655440000/],
  ['--split', `${CLIENT}`, /--split: split #1 has no amount in cents; write clientId:cents, e\.g\. --split 123e4567-e12b-12d1-a456-426655440000:300/],
  ['--split', `${CLIENT}:0`, /--split: split #1 amount must be at least 1 cent, not 0; e\.g\. 1000/],
  ['--split', `${CLIENT}:3,00`, /--split: split #1 amount must be an integer number of cents, e\.g\. 1000/],
  ['--split', `${CLIENT}:1001`, /--split: the splits add up to 1001 cents \(R\$ 10,01\), more than the value of 1000 cents \(R\$ 10,00\)/],
];

const CASHOUT_CASES: [string, string, RegExp][] = [
  ['--value', 'ten', /--value: must be an integer number of cents, e\.g\. 1000 for R\$ 10,00 \(for reais, use --amount 10,50\)/],
  [
    '--pix-key-type',
    'pix',
    /option '--pix-key-type <type>' argument 'pix' is invalid\. use one of cpf, cnpj, email, phone, random \(also the interface's TELEFONE and RANDOM_KEY, the DICT's EVP and PHONE, or 0-4\)/,
  ],
  ['--pix-key', '   ', /--pix-key: must not be empty, e\.g\. fulano@example\.com or 123\.456\.789-09/],
  ['--pix-key', 'fulano@', /--pix-key: is not an e-mail address \(name@domain\.tld\); an e-mail key looks like fulano@example\.com/],
  ['--pix-key', `${'f'.repeat(70)}@example.com`, /--pix-key: has 82 characters; an e-mail key has at most 77; an e-mail key looks like fulano@example\.com/],
  [
    '--cpf-cnpj',
    '12.345.678/0001-00',
    /--cpf-cnpj: is not a valid CPF or CNPJ: the CNPJ check digits do not match .*; e\.g\. 123\.456\.789-09 \(CPF\) or 12\.ABC\.345\/01DE-35 \(CNPJ\)/,
  ],
  ['--person-name', '', /--person-name: must not be empty, e\.g\. "Fulano de Tal"/],
  ['--person-email', 'fulano.example.com', /--person-email: is not an e-mail address \(name@domain\.tld\), e\.g\. fulano@example\.com/],
  ['--person-phone', '1234', /--person-phone: has 4 digits; .*e\.g\. \(11\) 98765-4321/],
];

describe('every field of cashin: a wrong value → exit 2, the flag, what is wrong, an example; nothing sent', () => {
  for (const [flag, value, message] of CASHIN_CASES) {
    it(`${flag} ${JSON.stringify(value.length > 30 ? `${value.slice(0, 20)}…(${value.length})` : value)}`, async () => {
      const stderr = await refused(withFlag(CASHIN_ARGS, flag, value));
      expect(stderr).toMatch(message);
      expect(stderr).toMatch(/nothing was sent/);
    });
  }
});

describe('every field of cashout: a wrong value → exit 2, the flag, what is wrong, an example; nothing sent', () => {
  for (const [flag, value, message] of CASHOUT_CASES) {
    it(`${flag} ${JSON.stringify(value.length > 30 ? `${value.slice(0, 20)}…(${value.length})` : value)}`, async () => {
      const stderr = await refused([...withFlag(CASHOUT_ARGS, flag, value), '--yes']);
      expect(stderr).toMatch(message);
    });
  }

  it('a Pix key that fits another type: the hint names that type', async () => {
    const stderr = await refused([...withFlag(withFlag(CASHOUT_ARGS, '--pix-key-type', 'cpf'), '--pix-key', 'fulano@example.com'), '--yes']);
    expect(stderr).toMatch(
      /--pix-key: is not a CPF: a CPF key has 11 digits \(dots and dash allowed\); it looks like an e-mail key: use --pix-key-type email; a CPF key looks like 123\.456\.789-09/,
    );
    const phone = await refused([...withFlag(withFlag(CASHOUT_ARGS, '--pix-key-type', 'random'), '--pix-key', '+55 11 98765-4321'), '--yes']);
    expect(phone).toMatch(/--pix-key: is not a random key: .*; it looks like a phone key: use --pix-key-type phone; a random key looks like 123e4567-e12b-12d1-a456-426655440000/);
    const cnpj = await refused([...withFlag(withFlag(CASHOUT_ARGS, '--pix-key-type', 'cpf'), '--pix-key', '12.ABC.345/01DE-35'), '--yes']);
    expect(cnpj).toMatch(/it looks like a CNPJ key: use --pix-key-type cnpj/);
  });

  it('a CPF key with a wrong check digit says so, with an example', async () => {
    const stderr = await refused([...withFlag(withFlag(CASHOUT_ARGS, '--pix-key-type', 'cpf'), '--pix-key', '123.456.789-00'), '--yes']);
    expect(stderr).toMatch(
      /--pix-key: is not a valid CPF: the CPF check digits do not match \(a character is mistyped or two are swapped\); a CPF key looks like 123\.456\.789-09/,
    );
  });

  it('a landline as a phone key is refused with the reason', async () => {
    const stderr = await refused([...withFlag(withFlag(CASHOUT_ARGS, '--pix-key-type', 'phone'), '--pix-key', '(11) 3456-7890'), '--yes']);
    expect(stderr).toMatch(/--pix-key: is a landline number; a Pix phone key is a mobile number: \+55, DDD and 9 digits starting with 9; a phone key looks like \+5511987654321/);
  });

  it('the key is checked against its type even when other fields are wrong: every problem at once', async () => {
    const stderr = await refused(['cashout', '--value', '0', '--pix-key-type', 'cpf', '--pix-key', 'fulano@example.com', '--person-email', 'x', '--yes']);
    expect(stderr).toMatch(/the request has 4 problems; nothing was sent/);
    expect(stderr).toMatch(/missing required flags: --person-name, --person-phone/);
    expect(stderr).toMatch(/--value: must be at least 1 cent/);
    expect(stderr).toMatch(/--pix-key: .*use --pix-key-type email/);
    expect(stderr).toMatch(/--person-email: is not an e-mail address/);
  });
});

describe('--amount', () => {
  it('--amount 1.234,56 → the gateway receives value 123456 (an integer)', async () => {
    const r = await runPaycli([...withFlag(CASHOUT_ARGS, '--value', '1').filter((a, i, all) => a !== '--value' && all[i - 1] !== '--value'), '--amount', '1.234,56', '--yes'], {
      env: t.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect((t.gw.received[0]!.json as { value: unknown }).value).toBe(123456);
    expect(t.gw.received[0]!.text).toContain('"value":123456');
  });

  it.each([
    ['15', 1500],
    ['15.5', 1550],
    ['15,50', 1550],
    ['R$ 0,10', 10],
  ])('--amount %s → value %i', async (amount, cents) => {
    const args = CASHIN_ARGS.filter((a, i, all) => a !== '--value' && all[i - 1] !== '--value');
    const r = await runPaycli([...args, '--amount', amount], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect((t.gw.received[0]!.json as { value: unknown }).value).toBe(cents);
  });

  it('--value and --amount together → exit 2, nothing sent', async () => {
    const stderr = await refused([...CASHIN_ARGS, '--amount', '10,00']);
    expect(stderr).toMatch(/give either --value \(cents\) or --amount \(reais\), not both; nothing was sent/);
  });

  it.each([
    ['abc', /--amount: "abc" is not an amount in reais with at most 2 decimals; e\.g\. 15, 15,50 or 1\.234,56/],
    ['1.234', /--amount: "1\.234" is ambiguous \(thousands, or 3 decimals\?\); for R\$ 1\.234,00 write 1234 or 1\.234,00/],
    ['15,5055', /--amount: "15,5055" has more than 2 decimals; reais have 2 \(cents\), e\.g\. 15,50/],
    ['0,00', /--amount: must be more than R\$ 0,00, e\.g\. 15,50/],
    ['100.000.000,01', /--amount: R\$ 100\.000\.000,01 is more than the most paycli sends, R\$ 100\.000\.000,00; e\.g\. 15,50/],
  ])('--amount %s → exit 2 with the reason', async (amount, message) => {
    const args = CASHIN_ARGS.filter((a, i, all) => a !== '--value' && all[i - 1] !== '--value');
    expect(await refused([...args, '--amount', amount])).toMatch(message);
  });
});

describe('splits', () => {
  it('a client twice (any case) → exit 2 naming the split', async () => {
    const stderr = await refused([...CASHIN_ARGS, '--split', `${CLIENT}:100`, '--split', `${CLIENT.toUpperCase()}:100`]);
    expect(stderr).toMatch(
      /--split: split #2 client id 123E4567-E12B-12D1-A456-426655440000 already has a split; give each client one split with the whole amount, e\.g\. 123E4567-E12B-12D1-A456-426655440000:300/,
    );
  });

  it('splits adding up to more than the value → exit 2 with both sums', async () => {
    const stderr = await refused([...CASHIN_ARGS, '--split', `${CLIENT}:600`, '--split', `223e4567-e12b-12d1-a456-426655440000:401`]);
    expect(stderr).toMatch(/--split: the splits add up to 1001 cents \(R\$ 10,01\), more than the value of 1000 cents \(R\$ 10,00\); the splits must add up to at most the value/);
  });

  it('splits adding up to exactly the value are sent', async () => {
    const r = await runPaycli([...CASHIN_ARGS, '--split', `${CLIENT}:600`, '--split', `223e4567-e12b-12d1-a456-426655440000:400`], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect((t.gw.received[0]!.json as { splits: unknown[] }).splits).toHaveLength(2);
  });
});

describe('missing fields without a terminal: exit 2 listing every missing flag, never a hang', () => {
  it('cashout with nothing: every required flag by name (person.* too)', async () => {
    const stderr = await refused(['cashout']);
    expect(stderr).toMatch(/missing required flags: --value, --pix-key-type, --pix-key, --person-name, --person-email, --person-phone; nothing was sent/);
    expect(stderr).toMatch(/run in a terminal to be prompted/);
  });

  it('cashin with nothing: every required flag by name', async () => {
    const stderr = await refused(['cashin']);
    expect(stderr).toMatch(
      /missing required flags: --payer-name, --payer-document, --payer-email, --payer-phone, --product-name, --product-description, --value; nothing was sent/,
    );
  });

  it('--no-input and PAYCLI_NO_INPUT=1 behave the same, with missing and invalid fields listed together', async () => {
    for (const [args, extraEnv] of [
      [['--no-input', 'cashin', '--payer-name', 'Fulano', '--payer-email', 'bad'], {}],
      [['cashin', '--payer-name', 'Fulano', '--payer-email', 'bad'], { PAYCLI_NO_INPUT: '1' }],
    ] as const) {
      const stderr = await refused([...args], { env: extraEnv });
      expect(stderr).toMatch(/missing required flags: --payer-document, --payer-phone, --product-name, --product-description, --value/);
      expect(stderr).toMatch(/--payer-email: is not an e-mail address/);
    }
  });

  it('--json: one error document naming the first missing flag', async () => {
    const r = await runPaycli(['--json', 'cashout'], { env: t.env() });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stderr) as { error: { code: string; field: string; message: string } };
    expect(doc.error).toMatchObject({ code: 'missing_fields', field: '--value' });
    expect(doc.error.message).toContain('--person-phone');
    expect(t.gw.received).toHaveLength(0);
  });
});

describe('--input <file|->', () => {
  const CASHOUT_BODY = { value: 1550, pixKeyType: 2, pixKey: 'Fulano@Example.com', person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '(11) 98765-4321' } };

  it('a file with the interface field names is validated, normalised and sent; flags override it', async () => {
    const file = join(t.home.dir, 'payout.json');
    writeFileSync(file, JSON.stringify(CASHOUT_BODY));
    const r = await runPaycli(['cashout', '--input', file, '--person-name', 'Beltrano', '--value', '2000', '--yes'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(t.gw.received[0]!.json).toEqual({
      value: 2000,
      pixKeyType: 2,
      pixKey: 'fulano@example.com',
      person: { name: 'Beltrano', email: 'fulano@example.com', phone: '11987654321' },
      orderId: expect.stringMatching(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/),
    });
  });

  it('- reads stdin; the key type may be a name; --amount overrides the value', async () => {
    const body = { ...CASHOUT_BODY, pixKeyType: 'email' };
    const r = await runPaycli(['cashout', '--input', '-', '--amount', '7,25', '--yes'], { env: t.env(), input: JSON.stringify(body) });
    expect(r.code, r.stderr).toBe(0);
    expect(t.gw.received[0]!.json).toMatchObject({ value: 725, pixKeyType: 2 });
  });

  it('a cash-in from stdin with splits as objects', async () => {
    const body = {
      payerName: 'Fulano de Tal',
      payerDocument: '12.ABC.345/01DE-35',
      payerEmail: 'fulano@example.com',
      payerPhone: '11987654321',
      productName: 'Camiseta',
      productDescription: 'Azul',
      value: 1000,
      splits: [{ clientId: CLIENT, value: 300 }],
    };
    const r = await runPaycli(['cashin', '--input', '-', '--json'], { env: t.env(), input: JSON.stringify(body) });
    expect(r.code, r.stderr).toBe(0);
    expect(t.gw.received[0]!.json).toEqual({ ...body, payerDocument: '12ABC34501DE35', orderId: expect.stringMatching(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/) });
  });

  it('wrong values in the file are named by their JSON path, with the same messages', async () => {
    const stderr = await refused(['cashout', '--input', '-', '--yes'], {
      input: JSON.stringify({ ...CASHOUT_BODY, value: 15.5, pixKey: '123.456.789-09', person: { ...CASHOUT_BODY.person, phone: 11987654321 } }),
    });
    expect(stderr).toMatch(/value \(in --input stdin\): must be a JSON integer number of cents, e\.g\. 1500, not 15\.5/);
    expect(stderr).toMatch(/pixKey \(in --input stdin\): is not an e-mail address \(name@domain\.tld\); it looks like a CPF key: use --pix-key-type cpf/);
    expect(stderr).toMatch(/person\.phone \(in --input stdin\): must be a phone number, e\.g\. \(11\) 98765-4321/);
    expect(stderr).not.toMatch(/--value|--person-phone/);
  });

  it('a file without person: the three person fields (and their flags) are listed as missing', async () => {
    const { person: _person, ...rest } = CASHOUT_BODY;
    const stderr = await refused(['cashout', '--input', '-', '--yes'], { input: JSON.stringify(rest) });
    expect(stderr).toMatch(
      /missing required fields \(in --input or as flags\): person\.name \(--person-name\), person\.email \(--person-email\), person\.phone \(--person-phone\)/,
    );
  });

  it('malformed JSON, a JSON array, an unreadable file → exit 2', async () => {
    expect(await refused(['cashout', '--input', '-', '--yes'], { input: '{"value": 1550,' })).toMatch(/--input: stdin is not valid JSON/);
    expect(await refused(['cashout', '--input', '-', '--yes'], { input: '[1,2]' })).toMatch(/--input: the JSON must be an object with the interface field names/);
    expect(await refused(['cashout', '--input', join(t.home.dir, 'nope.json'), '--yes'])).toMatch(/--input: cannot read .*nope\.json \(ENOENT\)/);
  });

  it('fields the interface does not define are reported (and not sent); orderId (beyond the interface) is sent', async () => {
    const r = await runPaycli(['cashout', '--input', '-', '--yes'], {
      env: t.env(),
      input: JSON.stringify({ ...CASHOUT_BODY, orderId: 'A1', color: 'blue', person: { ...CASHOUT_BODY.person, cpf: '1' } }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: --input: ignoring fields the interface does not define: person\.cpf, color/);
    const post = t.gw.received.find((q) => q.method === 'POST')!;
    expect(post.json).toMatchObject({ orderId: 'A1' });
    expect(post.json).not.toHaveProperty('color');
    expect(post.json).not.toHaveProperty('person.cpf');
  });
});

describe('--dry-run', () => {
  it('prints method, URL, headers (credential redacted) and body; exit 0; nothing sent', async () => {
    const r = await runPaycli([...CASHOUT_ARGS, '--dry-run'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^POST ${t.gw.url}/transaction/cashout$`, 'm'));
    expect(r.stdout).toMatch(/^authorization: Bearer \[redacted\]$/m);
    expect(r.stdout).toMatch(/^content-type: application\/json$/m);
    const body = JSON.parse(r.stdout.slice(r.stdout.indexOf('\n{') + 1)) as unknown;
    expect(body).toEqual({
      value: 1550,
      pixKeyType: 2,
      pixKey: 'fulano@example.com',
      person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' },
      orderId: expect.stringMatching(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/),
    });
    expect(r.stderr).toMatch(/dry run: nothing was sent/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(t.gw.received).toHaveLength(0);
  });

  it('--json --dry-run is exactly one JSON document', async () => {
    const r = await runPaycli(['--json', ...CASHIN_ARGS, '--dry-run'], { env: t.env() });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ dryRun: true, method: 'POST', url: `${t.gw.url}/transaction/qrcode/cashin`, headers: { authorization: 'Bearer [redacted]' } });
    expect(doc.body).toMatchObject({ value: 1000, payerDocument: '12345678909', payerPhone: '11987654321' });
    expect(r.stdout).not.toContain(KEY);
    expect(t.gw.received).toHaveLength(0);
  });

  it('against the built-in sandbox it shows the sandbox URL; without an API key for a gateway it warns', async () => {
    const sb = await runPaycli([...CASHIN_ARGS, '--dry-run'], { env: t.home.env });
    expect(sb.code, sb.stderr).toBe(0);
    expect(sb.stdout).toMatch(/^POST http:\/\/127\.0\.0\.1:<sandbox port>\/transaction\/qrcode\/cashin$/m);
    const nokey = await runPaycli([...CASHIN_ARGS, '--dry-run'], { env: { ...t.home.env, PAYCLI_BASE_URL: 'https://gateway.invalid' } });
    expect(nokey.code).toBe(0);
    expect(nokey.stderr).toMatch(/no API key for profile "default": a real run would stop here \(exit 3\)/);
    expect(t.gw.received).toHaveLength(0);
  });

  it('validation still applies: a wrong field → exit 2', async () => {
    const stderr = await refused([...withFlag(CASHIN_ARGS, '--payer-document', '123'), '--dry-run']);
    expect(stderr).toMatch(/--payer-document: is not a valid CPF or CNPJ: it has 3 characters without the mask/);
  });
});
