/**
 * A cash-out's answer (a single payment's, a batch row's) is checked by src/gateway/payment-schemas.ts `checkWith`:
 * the check without zod (src/gateway/accepted.ts `acceptedCashOut`) for the answers the schema accepts, zod for the
 * rest. Both must give the same result for every answer: accepted or not, and the same output object (the
 * interface's fields first, then the others as received). Checked here against zod's own parse of the same schema
 * over many answers, sound and broken, built from every kind of value each field can hold: the check without zod
 * alone (it accepts exactly what zod accepts) and through `checkWith`. The answer's money checks
 * (src/gateway/answers.ts) decide a sound answer in numbers where they are exact: the same verdict
 * as the rules in BigInt, over amounts around every bound.
 */
import { describe, expect, it } from 'vitest';
import { cashOutAnswerProblems } from '../../src/gateway/answers.js';
import { cashOutResponseSchema, cashOutStatusSchema, pixKeyTypeSchema } from '../../src/gateway/schemas.js';
import { acceptedCashOut, CASH_OUT_STATUS_LIST, CENTS_STRING, CREATED_AT_PATTERN, PIX_KEY_TYPE_LIST } from '../../src/gateway/accepted.js';
import { checkWith, PAYMENT_SCHEMAS } from '../../src/gateway/payment-schemas.js';

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

type Verdict = { success: boolean; data?: unknown; keys?: string[] };
const verdict = (r: { success: boolean; data?: unknown }): Verdict => (r.success ? { success: true, data: r.data, keys: Object.keys(r.data as object) } : { success: false });

/** zod's verdict and output for `json`, as the checks must give it. */
const viaZod = (json: unknown): Verdict => verdict(cashOutResponseSchema.safeParse(json));
/** The check without zod alone: its output, or a failure where it leaves the answer to zod. */
const viaAccept = (json: unknown): Verdict => {
  const data = acceptedCashOut(json);
  return data === undefined ? { success: false } : verdict({ success: true, data });
};
const lazy = PAYMENT_SCHEMAS.cashout.response;
/** Both ways (alone, and as a payment and a batch row check it: `checkWith`), each against zod. */
function expectAsZod(json: unknown, what: string): Verdict {
  const want = viaZod(json);
  expect(viaAccept(json), `${what} (without zod)`).toEqual(want);
  expect(verdict(checkWith(lazy, json, cashOutResponseSchema)), `${what} (checkWith)`).toEqual(want);
  return want;
}

describe('a cash-out answer: the fast path and zod agree', () => {
  it("share the schemas' constants: createdAt's pattern is zod's own, the statuses and key types the schemas' (src/gateway/accepted.ts holds them without zod)", () => {
    const createdAt = (cashOutResponseSchema.shape.createdAt as unknown as { _zod: { pattern: RegExp } })._zod.pattern;
    expect(CREATED_AT_PATTERN.source).toBe(createdAt.source);
    expect(CREATED_AT_PATTERN.flags).toBe(createdAt.flags);
    expect(CASH_OUT_STATUS_LIST).toEqual(cashOutStatusSchema.options);
    expect(new Set(PIX_KEY_TYPE_LIST)).toEqual(pixKeyTypeSchema._zod.values);
    expect(CENTS_STRING.source).toBe('^-?[0-9]+$');
  });

  it('know the same fields: a field added to the schema must be added to the fast path (and to `sound` here)', () => {
    expect(Object.keys(cashOutResponseSchema.shape).sort()).toEqual(Object.keys(sound).sort());
    expect(acceptedCashOut(sound)).toBeDefined();
  });

  it("is the payment's: its lazy schema has this check and loads this schema", async () => {
    expect(lazy.accept).toBe(acceptedCashOut);
    expect(await lazy.load()).toBe(cashOutResponseSchema);
  });

  it('on every value of every field (one field changed at a time)', () => {
    let accepted = 0;
    for (const field of Object.keys(sound)) {
      for (const v of VALUES) {
        const answer: Record<string, unknown> = { ...sound, [field]: v };
        if (v === undefined) delete answer[field];
        const want = expectAsZod(answer, `${field} = ${JSON.stringify(v)}`);
        if (want.success) accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(20);
  });

  it('on answers that are not objects, and on extra fields (kept, in order, after the interface fields)', () => {
    for (const answer of [null, 7, 'x', [], [sound], true]) expectAsZod(answer, JSON.stringify(answer));
    const extra = JSON.parse(
      '{"success":true,"transactionId":7,"orderId":"a-1","gross":1000,"tax":"25","liquid":"975","status":"1","createdAt":"2026-11-27T09:00:00Z","__proto__":{"x":1},"nested":{"a":[1]}}',
    );
    expect(expectAsZod(extra, 'extra fields').success).toBe(true);
    const data = acceptedCashOut(extra) as unknown as Record<string, unknown>;
    expect(data).not.toBe(extra);
    expect(data.nested).toBe(extra.nested);
  });

  it('leaves every answer it does not accept to zod, whose issues say why', () => {
    expect(checkWith(lazy, { ...sound, tax: 25 })).toBeUndefined(); // not accepted without zod: the schema is needed
    const r = checkWith(lazy, { ...sound, tax: 25 }, cashOutResponseSchema);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['tax']);
  });
});

describe("a cash-out answer's money checks: numbers where exact, BigInt otherwise, one verdict", () => {
  /** The rules of src/gateway/answers.ts in BigInt: sound when nothing is wrong. */
  const soundByRules = (requested: number, a: { gross: number; tax: string; liquid: string; status: string }): boolean => {
    const gross = BigInt(a.gross);
    const tax = BigInt(a.tax);
    return (a.status === '0' || a.status === '1') && gross === BigInt(requested) && tax >= 0n && tax <= gross && gross - tax === BigInt(a.liquid);
  };
  const big = Number.MAX_SAFE_INTEGER;
  const grosses = [0, 1, 1000, 2 ** 52, 2 ** 52 + 1, big, -1000];
  const cents = (n: bigint): string[] => [String(n), String(n + 1n), String(n - 1n)];

  it('gives the same verdict as the rules, and problems only when they find some', () => {
    let sound = 0;
    for (const gross of grosses) {
      for (const requested of [gross, gross - 1, 1000]) {
        const g = BigInt(gross);
        for (const tax of ['0', '-0', '25', '-1', '999999999999999', '1000000000000000', ...cents(g)]) {
          for (const liquid of [...cents(g - BigInt(tax)), '0', '9999999999999999']) {
            for (const status of ['0', '1', '2', '4'] as const) {
              const answer = { gross, tax, liquid, status };
              const problems = cashOutAnswerProblems(requested, answer);
              expect(problems.length === 0, JSON.stringify({ requested, ...answer })).toBe(soundByRules(requested, answer));
              if (problems.length === 0) sound++;
            }
          }
        }
      }
    }
    expect(sound).toBeGreaterThan(50);
  });
});
