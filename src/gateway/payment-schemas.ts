/**
 * The payments' body and answer schemas as a single payment (src/payment/request.ts `validateBody`, the client's
 * answer check) and a batch (src/batch/check.ts, one body and one answer a row) check them: each a
 * {@link LazySchema}, its check without zod first (src/gateway/accepted.ts: the cash-out's body and answer; a
 * cash-in has none), then the zod schema of src/gateway/schemas.ts, loaded on first need, whose issues word the
 * problem. {@link checkWith} is that rule, written once. A sound `--json` cash-out so loads no zod (docs/speed.md
 * "A cash-out without zod").
 */
import type * as z from 'zod/mini';
import { acceptedCashOut, acceptedCashOutRequest } from './accepted.js';
import type { cashInRequestSchema, cashInResponseSchema, cashOutRequestSchema, cashOutResponseSchema } from './schemas.js';

/**
 * A body or answer's schema, loaded on first use (src/gateway/schemas.ts), with its check without zod, when it has
 * one: `accept(json)` gives what the schema's parse gives for a value it accepts and `undefined` for any other,
 * which then goes to the loaded schema. `load` gives the same schema every time.
 */
export interface LazySchema<S extends z.ZodMiniType = z.ZodMiniType> {
  accept?(json: unknown): z.output<S> | undefined;
  load(): Promise<S>;
}

/** The schemas' module (zod), loaded once, the first time something needs it. */
let schemasModule: Promise<typeof import('./schemas.js')> | undefined;

/** src/gateway/schemas.ts, loaded on first call (the same promise after). */
export const loadSchemas = (): Promise<typeof import('./schemas.js')> => (schemasModule ??= import('./schemas.js'));

/** A {@link LazySchema} whose schema is `pick`ed from the schemas' module on first need, then kept. */
function lazily<S extends z.ZodMiniType>(pick: (m: typeof import('./schemas.js')) => S, accept?: (json: unknown) => z.output<S> | undefined): LazySchema<S> {
  let loaded: Promise<S> | undefined;
  return { ...(accept ? { accept } : {}), load: () => (loaded ??= loadSchemas().then(pick)) };
}

/**
 * `json` checked by `lazy`: a value its check without zod accepts as that check gives it, any other by `loaded`'s
 * `safeParse` (`loaded` being `lazy`'s schema, as its `load` gives it; the same verdict and output either way:
 * test/unit/request-parse.test.ts, test/unit/answer-parse.test.ts). Synchronous, so that a batch judges its rows
 * without a promise a row, its schema loaded once for the run.
 * @returns the schema's verdict; without `loaded`, `undefined` for a value the check without zod does not accept
 *   (load the schema, then ask again with it)
 */
export function checkWith<S extends z.ZodMiniType>(lazy: LazySchema<S>, json: unknown, loaded: S): z.core.util.SafeParseResult<z.output<S>>;
export function checkWith<S extends z.ZodMiniType>(lazy: LazySchema<S>, json: unknown, loaded?: S): z.core.util.SafeParseResult<z.output<S>> | undefined;
export function checkWith<S extends z.ZodMiniType>(lazy: LazySchema<S>, json: unknown, loaded?: S): z.core.util.SafeParseResult<z.output<S>> | undefined {
  const data = lazy.accept?.(json);
  if (data !== undefined) return { success: true, data };
  return loaded?.safeParse(json) as z.core.util.SafeParseResult<z.output<S>> | undefined;
}

/** A payment kind's request body and answer schemas. */
export interface PaymentSchemas<Req extends z.ZodMiniType = z.ZodMiniType, Res extends z.ZodMiniType = z.ZodMiniType> {
  request: LazySchema<Req>;
  response: LazySchema<Res>;
}

/**
 * The schemas of each payment kind (interface §2.1-§2.4): a cash-out's body and answer checked without zod first
 * (src/gateway/accepted.ts), a cash-in's by zod alone.
 */
export const PAYMENT_SCHEMAS: {
  cashout: PaymentSchemas<typeof cashOutRequestSchema, typeof cashOutResponseSchema>;
  cashin: PaymentSchemas<ReturnType<typeof cashInRequestSchema>, ReturnType<typeof cashInResponseSchema>>;
} = {
  cashout: { request: lazily((m) => m.cashOutRequestSchema, acceptedCashOutRequest), response: lazily((m) => m.cashOutResponseSchema, acceptedCashOut) },
  cashin: { request: lazily((m) => m.cashInRequestSchema()), response: lazily((m) => m.cashInResponseSchema()) },
};
