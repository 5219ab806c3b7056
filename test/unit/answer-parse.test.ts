/**
 * A cash-out's answer is checked by `parseAnswer` (src/gateway/schemas.ts): a fast path for the
 * answers the schema accepts, zod for the rest. Both must give the same result for every answer:
 * accepted or not, and the same output object (the interface's fields first, then the others as
 * received). Checked here against zod's own parse of the same schema over many answers, sound and
 * broken, built from every kind of value each field can hold.
 */
import { describe, expect, it } from 'vitest';
import { acceptedCashOut, cashOutResponseSchema, parseAnswer } from '../../src/gateway/schemas.js';

const sound = { transactionId: 7, gross: 1000, tax: '25', liquid: '975', status: '0', createdAt: '2026-11-27T09:00:00.000Z' };

/** Values a field may hold in a hostile or sloppy answer. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -5,
  7,
  1.5,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  '',
  '0',
  '1',
  '2',
  '4',
  '5',
  '-12',
  '12a',
  ' 12',
  '1e3',
  '100',
  true,
  [],
  {},
  [1],
  '2026-11-27T09:00:00Z',
  '2026-11-27T09:00:00.123456Z',
  '2026-11-27T09:00:00+00:00',
  '2026-11-27 09:00:00Z',
  '2026-02-30T09:00:00Z',
  '2024-02-29T09:00:00Z',
  '2026-11-27T24:00:00Z',
  '2026-11-27T09:00Z',
];

/** zod's verdict and output for `json`, as parseAnswer must give it. */
function viaZod(json: unknown): { success: boolean; data?: unknown; keys?: string[] } {
  const r = cashOutResponseSchema.safeParse(json);
  return r.success ? { success: true, data: r.data, keys: Object.keys(r.data) } : { success: false };
}

function viaParseAnswer(json: unknown): { success: boolean; data?: unknown; keys?: string[] } {
  const r = parseAnswer(cashOutResponseSchema, json);
  return r.success ? { success: true, data: r.data, keys: Object.keys(r.data as object) } : { success: false };
}

describe('a cash-out answer: the fast path and zod agree', () => {
  it('on every value of every field (one field changed at a time)', () => {
    let accepted = 0;
    for (const field of Object.keys(sound)) {
      for (const v of VALUES) {
        const answer: Record<string, unknown> = { ...sound, [field]: v };
        if (v === undefined) delete answer[field];
        const want = viaZod(answer);
        expect(viaParseAnswer(answer), `${field} = ${JSON.stringify(v)}`).toEqual(want);
        if (want.success) accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(20);
  });

  it('on answers that are not objects, and on extra fields (kept, in order, after the interface fields)', () => {
    for (const answer of [null, 7, 'x', [], [sound], true]) expect(viaParseAnswer(answer)).toEqual(viaZod(answer));
    const extra = JSON.parse(
      '{"success":true,"transactionId":7,"orderId":"a-1","gross":1000,"tax":"25","liquid":"975","status":"1","createdAt":"2026-11-27T09:00:00Z","__proto__":{"x":1},"nested":{"a":[1]}}',
    );
    const want = viaZod(extra);
    expect(want.success).toBe(true);
    expect(viaParseAnswer(extra)).toEqual(want);
    expect(acceptedCashOut(extra)).toBeDefined();
    const data = parseAnswer(cashOutResponseSchema, extra).data as Record<string, unknown>;
    expect(data).not.toBe(extra);
    expect(data.nested).toBe(extra.nested);
  });

  it('leaves every answer it does not accept to zod, whose issues say why', () => {
    const r = parseAnswer(cashOutResponseSchema, { ...sound, tax: 25 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['tax']);
  });
});
