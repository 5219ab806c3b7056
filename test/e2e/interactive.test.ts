/**
 * Interactive prompt mode, through a real pseudo-terminal (tmux) running the built
 * paycli against a recording test gateway on 127.0.0.1: full runs, wrong answers re-asked with
 * the reason, the cash-out summary and its confirmation, Ctrl-C, and `--no-input` in a terminal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type Home } from '../helpers/cli.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { startTty, type TtySession } from '../helpers/tty.js';

const KEY = 'sk_live_SECRET_tty_0123456789';
const CLIENT = '123e4567-e12b-12d1-a456-426655440000';

let home: Home;
let gw: TestGateway;
let tty: TtySession | undefined;
const env = () => ({ ...home.env, PAYCLI_BASE_URL: gw.url, PAYCLI_API_KEY: KEY });

beforeEach(async () => {
  home = makeHome();
  gw = await startGateway();
});
afterEach(async () => {
  tty?.kill();
  tty = undefined;
  await gw.close();
  home.cleanup();
});

/** Waits for the question `label` to be the active prompt, then answers it. */
async function answer(t: TtySession, label: string, text: string): Promise<void> {
  await t.waitFor(`? ${label}`);
  t.answer(text);
  await t.waitFor(`✔ ${label}`);
}

const NO_STACK = /^\s+at .+:\d+:\d+\)?$/m;

describe('interactive cash-in', () => {
  it('prompts for every field (optional ones offered), validates, and sends the exact body', async () => {
    tty = startTty(['cashin'], env(), home.dir);
    await answer(tty, 'Amount in reais', '15,50');
    await tty.waitFor('R$ 15,50 (1550 cents)'); // the answer is shown in reais and cents
    await answer(tty, "Payer's name", 'Fulano de Tal');
    await answer(tty, "Payer's CPF or CNPJ", '12.abc.345/01de-35');
    await answer(tty, "Payer's e-mail", 'fulano@example.com');
    await answer(tty, "Payer's phone with DDD", '(11) 98765-4321');
    await answer(tty, 'Product name', 'Camiseta');
    await answer(tty, 'Product description', 'Camiseta azul M');
    await answer(tty, 'Postback URL (optional, Enter to skip)', 'https://example.com/pix/hook');
    await answer(tty, 'Add a split', 'y');
    await answer(tty, 'Split as clientId:cents', `${CLIENT}:300`);
    await answer(tty, 'Add another split?', '');
    expect(await tty.exitCode()).toBe(0);
    expect(tty.screen()).toMatch(/Transaction ID\s+4242/);
    expect(gw.received).toHaveLength(1);
    expect(gw.received[0]!.path).toBe('/transaction/qrcode/cashin');
    expect(gw.received[0]!.json).toEqual({
      payerName: 'Fulano de Tal',
      payerDocument: '12ABC34501DE35',
      payerEmail: 'fulano@example.com',
      payerPhone: '11987654321',
      productName: 'Camiseta',
      productDescription: 'Camiseta azul M',
      value: 1550,
      postbackUrl: 'https://example.com/pix/hook',
      splits: [{ clientId: CLIENT, value: 300 }],
      orderId: expect.stringMatching(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/), // not prompted for: profile order-id auto
    });
    expect(tty.screen()).not.toContain(KEY);
  });

  it('re-asks a wrong answer in place with the reason, and shows the problem of a wrong flag first', async () => {
    tty = startTty(
      [
        'cashin',
        '--payer-name',
        'Fulano de Tal',
        '--payer-document',
        '123.456.789-00',
        '--payer-email',
        'fulano@example.com',
        '--payer-phone',
        '11987654321',
        '--product-name',
        'Camiseta',
        '--product-description',
        'Camiseta azul M',
      ],
      env(),
      home.dir,
    );
    // a wrong amount
    await tty.waitFor('? Amount in reais');
    tty.answer('10,x');
    await tty.waitFor('Amount "10,x" is not an amount in reais with at most 2 decimals; e.g. 15, 15,50 or 1.234,56');
    tty.keys('C-u');
    tty.answer('10');
    await tty.waitFor('✔ Amount in reais');
    // the wrong --payer-document: its problem, then the prompt prefilled with it for editing
    const screen = await tty.waitFor("? Payer's CPF or CNPJ (e.g. 123.456.789-09) 123.456.789-00");
    expect(screen).toContain('! --payer-document: is not a valid CPF or CNPJ: the CPF check digits do not match');
    tty.keys('BSpace', 'BSpace');
    tty.answer('10'); // still wrong
    await tty.waitFor("Payer's CPF or CNPJ is not a valid CPF or CNPJ: the CPF check digits do not match (a character is mistyped or two are swapped); e.g. 123.456.789-09");
    expect(gw.received).toHaveLength(0);
    tty.keys('BSpace', 'BSpace');
    tty.answer('09');
    await tty.waitFor("✔ Payer's CPF or CNPJ");
    // optional fields are validated too: a wrong answer is re-asked, Enter skips
    await tty.waitFor('? Postback URL (optional, Enter to skip)');
    tty.answer('ftp://example.com');
    await tty.waitFor('Postback URL is not an absolute http(s) URL, e.g. https://example.com/pix/postback');
    tty.keys('C-u');
    tty.answer('');
    await tty.waitFor('✔ Postback URL');
    await answer(tty, 'Add a split', '');
    expect(await tty.exitCode()).toBe(0);
    expect(gw.received).toHaveLength(1);
    expect(gw.received[0]!.json).toMatchObject({ value: 1000, payerDocument: '12345678909' });
    expect(gw.received[0]!.json).not.toHaveProperty('postbackUrl');
  });

  it('a split that would take more than the amount is refused at the prompt', async () => {
    tty = startTty(
      [
        'cashin',
        '--value',
        '500',
        '--payer-name',
        'Fulano de Tal',
        '--payer-document',
        '123.456.789-09',
        '--payer-email',
        'fulano@example.com',
        '--payer-phone',
        '11987654321',
        '--product-name',
        'Camiseta',
        '--product-description',
        'Camiseta azul M',
      ].map((a) => (a === 'fulano@example.com' ? 'not-an-email' : a)),
      env(),
      home.dir,
    );
    const screen = await tty.waitFor('! --payer-email: is not an e-mail address');
    expect(screen).toContain('e.g. fulano@example.com');
    tty.keys('C-u');
    await answer(tty, "Payer's e-mail", 'fulano@example.com');
    await answer(tty, 'Postback URL (optional, Enter to skip)', '');
    await answer(tty, 'Add a split', 'y');
    await tty.waitFor('? Split as clientId:cents');
    tty.answer(`${CLIENT}:600`);
    await tty.waitFor('the splits add up to 600 cents (R$ 6,00), more than the value of 500 cents (R$ 5,00)');
    tty.keys('C-u');
    tty.answer(`${CLIENT}:200`);
    await tty.waitFor('✔ Split as clientId:cents');
    await answer(tty, 'Add another split?', 'y');
    await tty.waitFor('? Split as clientId:cents');
    tty.answer(`${CLIENT.toUpperCase()}:100`);
    await tty.waitFor('already has a split; give each client one split');
    tty.keys('C-u');
    tty.answer(`223e4567-e12b-12d1-a456-426655440000:100`);
    await answer(tty, 'Add another split?', 'n');
    expect(await tty.exitCode()).toBe(0);
    expect((gw.received[0]!.json as { splits: unknown }).splits).toEqual([
      { clientId: CLIENT, value: 200 },
      { clientId: '223e4567-e12b-12d1-a456-426655440000', value: 100 },
    ]);
  });

  it('Ctrl-C at a prompt: exit 130, nothing sent, no stack trace', async () => {
    tty = startTty(['cashin'], env(), home.dir);
    await answer(tty, 'Amount in reais', '10');
    await tty.waitFor("? Payer's name");
    tty.keys('C-c');
    expect(await tty.exitCode()).toBe(130);
    const screen = tty.screen();
    expect(screen).toContain('interrupted: nothing was sent');
    expect(screen).not.toMatch(NO_STACK);
    expect(screen).not.toMatch(/ExitPromptError/);
    expect(gw.received).toHaveLength(0);
  });
});

describe('interactive cash-out', () => {
  it('select list for the key type, key checked against it (hint), summary, confirmation Yes → exact body sent', async () => {
    tty = startTty(['cashout'], env(), home.dir);
    await answer(tty, 'Amount in reais', '15,50');
    await tty.waitFor('? Pix key type');
    const list = tty.screen();
    for (const name of ['cpf', 'cnpj', 'email', 'phone', 'random']) expect(list).toMatch(new RegExp(`^.{0,4}${name}\\s`, 'm'));
    tty.keys('Down', 'Down', 'Enter'); // cpf → cnpj → email
    await tty.waitFor('✔ Pix key type email');
    await tty.waitFor('? Pix key, an e-mail key (e.g. fulano@example.com)');
    tty.answer('123.456.789-09');
    await tty.waitFor('Pix key is not an e-mail address (name@domain.tld); it looks like a CPF key: use --pix-key-type cpf');
    tty.keys('C-u');
    tty.answer('Fulano@Example.com');
    await tty.waitFor('✔ Pix key');
    await answer(tty, 'CPF or CNPJ of the key owner (optional, Enter to skip)', '123.456.789-09');
    await answer(tty, "Recipient's name", 'Fulano de Tal');
    await answer(tty, "Recipient's e-mail", 'fulano@example.com');
    await answer(tty, "Recipient's phone with DDD", '+55 (11) 98765-4321');
    const summary = await tty.waitFor('? Send this cash-out? (y/N)');
    expect(summary).toMatch(/Amount\s+R\$ 15,50/);
    expect(summary).toMatch(/Pix key\s+fulano@example\.com \(email\)/);
    expect(summary).toMatch(/Recipient\s+Fulano de Tal <fulano@example\.com>, 11987654321/);
    expect(gw.received).toHaveLength(0);
    tty.answer('y');
    expect(await tty.exitCode()).toBe(0);
    expect(gw.received).toHaveLength(1);
    expect(gw.received[0]!.json).toEqual({
      value: 1550,
      pixKeyType: 2,
      pixKey: 'fulano@example.com',
      cpfCnpj: '12345678909',
      person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' },
      orderId: expect.stringMatching(/^paycli-[0-9A-HJKMNP-TV-Z]{26}$/), // not prompted for: profile order-id auto
    });
    expect(tty.screen()).toMatch(/Gross\s+R\$ 15,50/);
  });

  it('a key that fits another type: the type is asked again (select), then the key', async () => {
    tty = startTty(
      [
        'cashout',
        '--value',
        '1000',
        '--pix-key-type',
        'cpf',
        '--pix-key',
        'fulano@example.com',
        '--person-name',
        'Fulano de Tal',
        '--person-email',
        'fulano@example.com',
        '--person-phone',
        '11987654321',
        '--cpf-cnpj',
        '11.222.333/0001-81',
      ],
      env(),
      home.dir,
    );
    const screen = await tty.waitFor('? Pix key type');
    expect(screen).toContain('! --pix-key: is not a CPF: a CPF key has 11 digits (dots and dash allowed); it looks like an e-mail key: use --pix-key-type email');
    tty.keys('Down', 'Down', 'Enter');
    await tty.waitFor('? Pix key, an e-mail key');
    tty.keys('Enter'); // keeps the prefilled key
    await tty.waitFor('? Send this cash-out? (y/N)');
    tty.answer('y');
    expect(await tty.exitCode()).toBe(0);
    expect(gw.received[0]!.json).toMatchObject({ pixKeyType: 2, pixKey: 'fulano@example.com', cpfCnpj: '11222333000181' });
  });

  it('declined confirmation (the default, No): exit 2, nothing sent', async () => {
    tty = startTty(
      [
        'cashout',
        '--amount',
        '1.234,56',
        '--pix-key-type',
        'phone',
        '--pix-key',
        '(11) 98765-4321',
        '--person-name',
        'Fulano de Tal',
        '--person-email',
        'fulano@example.com',
        '--person-phone',
        '11987654321',
      ],
      env(),
      home.dir,
    );
    const summary = await tty.waitFor('? Send this cash-out? (y/N)');
    expect(summary).toMatch(/Amount\s+R\$ 1\.234,56/);
    expect(summary).toMatch(/Pix key\s+\+5511987654321 \(phone\)/);
    tty.answer(''); // Enter takes the default: No
    expect(await tty.exitCode()).toBe(2);
    expect(tty.screen()).toContain('cash-out not confirmed; nothing was sent');
    expect(gw.received).toHaveLength(0);
  });

  it('Ctrl-C at the confirmation: exit 130, nothing sent, no stack trace', async () => {
    tty = startTty(
      [
        'cashout',
        '--value',
        '1550',
        '--pix-key-type',
        'random',
        '--pix-key',
        CLIENT.toUpperCase(),
        '--person-name',
        'Fulano de Tal',
        '--person-email',
        'fulano@example.com',
        '--person-phone',
        '11987654321',
      ],
      env(),
      home.dir,
    );
    await tty.waitFor(`Pix key     ${CLIENT} (random)`);
    await tty.waitFor('? Send this cash-out?');
    tty.keys('C-c');
    expect(await tty.exitCode()).toBe(130);
    expect(tty.screen()).toContain('interrupted: nothing was sent');
    expect(tty.screen()).not.toMatch(NO_STACK);
    expect(gw.received).toHaveLength(0);
  });

  it('--yes skips the confirmation in a terminal', async () => {
    tty = startTty(
      [
        'cashout',
        '--value',
        '1550',
        '--pix-key-type',
        'email',
        '--pix-key',
        'fulano@example.com',
        '--person-name',
        'Fulano de Tal',
        '--person-email',
        'fulano@example.com',
        '--person-phone',
        '11987654321',
        '--yes',
      ],
      env(),
      home.dir,
    );
    expect(await tty.exitCode()).toBe(0);
    expect(tty.screen()).not.toContain('Send this cash-out?');
    expect(gw.received).toHaveLength(1);
  });
});

describe('no prompts in a terminal when told so', () => {
  for (const [name, args, extraEnv] of [
    ['--no-input', ['--no-input', 'cashout'], {}],
    ['PAYCLI_NO_INPUT=1', ['cashout'], { PAYCLI_NO_INPUT: '1' }],
  ] as const) {
    it(`${name}: exit 2 listing every missing flag, no prompt`, async () => {
      tty = startTty([...args], { ...env(), ...extraEnv }, home.dir);
      expect(await tty.exitCode()).toBe(2);
      const screen = tty.screen();
      expect(screen).toContain('missing required flags: --value, --pix-key-type, --pix-key, --person-name, --person-email, --person-phone; nothing was sent');
      expect(screen).not.toContain('? ');
      expect(gw.received).toHaveLength(0);
    });
  }
});
