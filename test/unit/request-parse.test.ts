/**
 * A cash-out's body (a single payment's, a batch row's) is checked by src/gateway/payment-schemas.ts `checkWith`:
 * the check without zod (src/gateway/accepted.ts `acceptedCashOutRequest`) for the bodies the schema accepts, zod
 * for the rest. Both must give the same result for every body: accepted or not, and the same output (the key
 * trimmed and in DICT form, the document bare, the phone normalised, the schema's fields in its order, unknown
 * fields dropped, an optional field given as undefined kept so). Checked here against zod's own parse of the same
 * schema over many bodies, sound and broken, built from every kind of value each field can hold: the check without
 * zod alone (it accepts exactly what zod accepts) and through `checkWith`.
 */
import { describe, expect, it } from 'vitest';
import { cashOutRequestSchema } from '../../src/gateway/schemas.js';
import { acceptedCashOutRequest } from '../../src/gateway/accepted.js';
import { checkWith, PAYMENT_SCHEMAS } from '../../src/gateway/payment-schemas.js';
import { MAX_CENTS } from '../../src/pix/money.js';

const sound = {
  value: 1500,
  pixKeyType: 2,
  pixKey: 'fornecedor@example.com',
  cpfCnpj: '529.982.247-25',
  person: { name: 'Fornecedor Um', email: 'fornecedor@example.com', phone: '11987654321' },
  orderId: 'pedido-1',
  postbackUrl: 'https://example.com/hook',
};

/** Values a field may hold in a sloppy or hostile row. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -0,
  1,
  -5,
  1.5,
  2,
  4,
  5,
  MAX_CENTS,
  MAX_CENTS + 1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  '   ',
  '1500',
  ' fornecedor@example.com ',
  'FORNECEDOR@Example.com',
  'not an e-mail',
  'a@b',
  '529.982.247-25',
  '52998224725',
  '529.982.247-26',
  '11.222.333/0001-81',
  '11222333000181',
  '11987654321',
  '(11) 98765-4321',
  '+55 11 98765-4321',
  '+5511987654321',
  '1198765432',
  '123e4567-e89b-12d3-a456-426614174000',
  ' 123E4567-E89B-12D3-A456-426614174000 ',
  'pedido-1',
  ' pedido 2 ',
  'pedido\u0000',
  'x'.repeat(100),
  'x'.repeat(101),
  ' Fulano de Tal ',
  'Fulano\u200bde Tal',
  'Fulano\u202e',
  'https://example.com/hook',
  ' http://example.com/x?y=1 ',
  'ftp://example.com/',
  'https://example.com/\ufffd',
  `https://example.com/${'a'.repeat(2048)}`,
  true,
  [],
  {},
  ['x'],
];

interface Verdict {
  success: boolean;
  data?: unknown;
  keys?: string[];
  personKeys?: string[];
}

const verdict = (r: { success: boolean; data?: unknown }): Verdict => {
  if (!r.success) return { success: false };
  const data = r.data as Record<string, unknown> & { person: object };
  return { success: true, data, keys: Object.keys(data), personKeys: Object.keys(data.person) };
};

const viaZod = (body: unknown): Verdict => verdict(cashOutRequestSchema.safeParse(body));
/** The check without zod alone: its output, or a failure where it leaves the body to zod. */
const viaAccept = (body: unknown): Verdict => {
  const data = acceptedCashOutRequest(body);
  return data === undefined ? { success: false } : verdict({ success: true, data });
};
const lazy = PAYMENT_SCHEMAS.cashout.request;
/** The body as a payment and a batch row check it. */
const viaCheckWith = (body: unknown): Verdict => verdict(checkWith(lazy, body, cashOutRequestSchema));
/** Both ways, each against zod. */
const expectAsZod = (body: unknown, what: string): Verdict => {
  const want = viaZod(body);
  expect(viaAccept(body), `${what} (without zod)`).toEqual(want);
  expect(viaCheckWith(body), `${what} (checkWith)`).toEqual(want);
  return want;
};

/** `body` with `path` (`person.name`) set to `v`, or removed when `v` is undefined and `remove` is set. */
function withField(body: typeof sound, path: string, v: unknown, remove: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body, person: { ...body.person } };
  const [a, b] = path.split('.') as [string, string | undefined];
  const at = (b === undefined ? out : out[a]) as Record<string, unknown>;
  const key = b ?? a;
  if (v === undefined && remove) delete at[key];
  else at[key] = v;
  return out;
}

const PATHS = ['value', 'pixKeyType', 'pixKey', 'cpfCnpj', 'person', 'person.name', 'person.email', 'person.phone', 'orderId', 'postbackUrl'];

/** A sound body for each key type (the key as a row may write it). */
const KEYS: Array<[number, string]> = [
  [0, '529.982.247-25'],
  [1, '11.222.333/0001-81'],
  [2, ' Fornecedor@Example.com '],
  [3, '(11) 98765-4321'],
  [3, '+5511987654321'],
  [4, '123E4567-E89B-12D3-A456-426614174000'],
];

describe('a cash-out row: the fast path and zod agree', () => {
  it('know the same fields: a field added to the schema must be added to the fast path (and to `sound` here)', () => {
    const shape = (cashOutRequestSchema as unknown as { _zod: { def: { in: { shape: object } } } })._zod.def.in.shape;
    expect(Object.keys(shape)).toEqual(Object.keys(sound));
    expect(acceptedCashOutRequest(sound)).toBeDefined();
  });

  it("is the payment's: its lazy schema has this check and loads this schema", async () => {
    expect(lazy.accept).toBe(acceptedCashOutRequest);
    expect(await lazy.load()).toBe(cashOutRequestSchema);
  });

  it('on every value of every field (one field changed at a time, present as undefined or absent), for every key type', () => {
    let accepted = 0;
    let checked = 0;
    for (const [pixKeyType, pixKey] of KEYS) {
      const base = { ...sound, pixKeyType, pixKey };
      for (const path of PATHS) {
        for (const v of VALUES) {
          for (const remove of v === undefined ? [false, true] : [false]) {
            const body = withField(base, path, v, remove);
            const want = expectAsZod(body, `${pixKeyType} ${path} = ${String(v)}${remove ? ' (absent)' : ''}`);
            checked++;
            if (want.success) accepted++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
    expect(accepted).toBeGreaterThan(200);
  });

  it('on every key type against every key (the key checked against its type, written in DICT form)', () => {
    let accepted = 0;
    for (const pixKeyType of [0, 1, 2, 3, 4, -0, 5, '2']) {
      for (const v of [...VALUES, ...KEYS.map(([, k]) => k)]) {
        const want = expectAsZod({ ...sound, pixKeyType, pixKey: v }, `${String(pixKeyType)} ${String(v)}`);
        if (want.success) accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(10);
  });

  it('on bodies that are not objects, and on unknown fields (dropped, as zod drops them)', () => {
    for (const body of [null, 7, 'x', [], [sound], true, undefined]) expectAsZod(body, JSON.stringify(body) ?? 'undefined');
    const extra = JSON.parse(
      '{"split":[1],"value":10,"pixKey":"fornecedor@example.com","pixKeyType":2,"__proto__":{"x":1},"person":{"phone":"11987654321","extra":1,"email":"a@example.com","name":"A"}}',
    );
    expect(expectAsZod(extra, 'extra fields').success).toBe(true);
    const data = acceptedCashOutRequest(extra) as unknown as Record<string, unknown>;
    expect(data).not.toBe(extra);
    expect(data.person).not.toBe(extra.person);
  });

  it('leaves every body it does not accept to zod, whose issues say why', () => {
    expect(checkWith(lazy, { ...sound, value: 0 })).toBeUndefined(); // not accepted without zod: the schema is needed
    const r = checkWith(lazy, { ...sound, value: 0 }, cashOutRequestSchema);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['value']);
  });
});
